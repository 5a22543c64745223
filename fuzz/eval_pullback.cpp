// libFuzzer: pullback parse/elaborate -> type check (strict linearity) -> normalise with the
// paper's rules and fuel -> print (semantics/pullback/strategy.hpp).
#include "fuzz/fuzz_support.hpp"
#include "semantics/pullback/primitive_table.hpp"
#include "semantics/pullback/strategy.hpp"
#include "syntax/pullback/printer.hpp"
#include "syntax/pullback/typecheck.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace adsem::pullback;
  return adsem::fuzz::run_text(data, size, [](const std::string& text) {
    const Term t = annotate_zeros(parse(text));
    (void)typecheck(t, {}, LinMode::strict);
    RunOptions options;
    options.fuel = adsem::fuzz::fuel;
    (void)print(normalise(t, Rules{}, options).result);
  });
}
