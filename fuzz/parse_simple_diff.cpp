// libFuzzer: the simple-diff parser (syntax/simple_diff/parser.hpp) and its printer round trip.
#include "fuzz/fuzz_support.hpp"
#include "semantics/simple_diff/run.hpp"
#include "syntax/core/large_stack.hpp"
#include "syntax/simple_diff/printer.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace adsem::simple_diff;
  const auto body = [](const std::string& text) {
    adsem::fuzz::check_round_trip(
        text, [](const std::string& s) { return parse_term(s, primitives()); },
        [](const Term& m) { return print(m); });
  };
  return adsem::fuzz::run_text(data, size, body, adsem::run_on_large_stack);
}
