// libFuzzer: the linear-negation parser (syntax/linear_negation/parser.hpp, target mode) and its
// printer round trip.
#include "fuzz/fuzz_support.hpp"
#include "semantics/linear_negation/primitives.hpp"
#include "syntax/linear_negation/parser.hpp"
#include "syntax/linear_negation/printer.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace adsem::linear_negation;
  return adsem::fuzz::run_text(data, size, [](const std::string& text) {
    adsem::fuzz::check_round_trip(
        text, [](const std::string& s) { return parse_term(s, signature(), Mode::target); },
        [](const Term& t) { return print(t); });
  });
}
