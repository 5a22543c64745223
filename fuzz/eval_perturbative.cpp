// libFuzzer: perturbative parse/elaborate (type checks) -> normalise with the paper's rules and
// fuel -> print the normal form (semantics/perturbative/strategy.hpp).
#include "fuzz/fuzz_support.hpp"
#include "semantics/perturbative/constants.hpp"
#include "semantics/perturbative/strategy.hpp"
#include "syntax/perturbative/parser.hpp"
#include "syntax/perturbative/printer.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace adsem::perturbative;
  static const Rules& rules = *paper_rules();
  return adsem::fuzz::run_text(data, size, [](const std::string& text) {
    const Term m = parse_term(text, constant_types());
    RunOptions options;
    options.fuel = adsem::fuzz::fuel;
    (void)print(normalise(m, rules, options).result);
  });
}
