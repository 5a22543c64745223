// libFuzzer: the pullback parser/elaborator (syntax/pullback/parser.hpp with the primitive table)
// and its printer round trip.
#include "fuzz/fuzz_support.hpp"
#include "semantics/pullback/primitive_table.hpp"
#include "syntax/pullback/printer.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace adsem::pullback;
  return adsem::fuzz::run_text(data, size, [](const std::string& text) {
    adsem::fuzz::check_round_trip(
        text, [](const std::string& s) { return parse(s); },
        [](const Term& t) { return print(t); });
  });
}
