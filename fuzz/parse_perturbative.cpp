// libFuzzer: the perturbative parser/elaborator (syntax/perturbative/parser.hpp) and its
// printer round trip.
#include "fuzz/fuzz_support.hpp"
#include "semantics/perturbative/constants.hpp"
#include "syntax/perturbative/parser.hpp"
#include "syntax/perturbative/printer.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace adsem::perturbative;
  return adsem::fuzz::run_text(data, size, [](const std::string& text) {
    adsem::fuzz::check_round_trip(
        text, [](const std::string& s) { return parse_term(s, constant_types()); },
        [](const Term& m) { return print(m); });
  });
}
