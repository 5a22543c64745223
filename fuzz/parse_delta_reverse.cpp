// libFuzzer: the delta-reverse parser (syntax/delta_reverse/parser.hpp) and its printer round
// trip.
#include "fuzz/fuzz_support.hpp"
#include "syntax/delta_reverse/parser.hpp"
#include "syntax/delta_reverse/printer.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace adsem::delta_reverse;
  return adsem::fuzz::run_text(data, size, [](const std::string& text) {
    adsem::fuzz::check_round_trip(
        text, [](const std::string& s) { return parse_term(s); },
        [](const Term& t) { return print(t); });
  });
}
