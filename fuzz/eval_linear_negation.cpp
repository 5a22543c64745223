// libFuzzer: linear-negation parse -> type check + elaborate -> normalise (S_bp, fuel) -> print
// (semantics/linear_negation/program.hpp).
#include "fuzz/fuzz_support.hpp"
#include "semantics/linear_negation/program.hpp"
#include "syntax/linear_negation/printer.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace adsem::linear_negation;
  return adsem::fuzz::run_text(data, size, [](const std::string& text) {
    const Typed typed = parse_elaborated(text, Mode::target);
    RunOptions options;
    options.fuel = adsem::fuzz::fuel;
    (void)print(normalise(typed.term, options).result);
  });
}
