// libFuzzer: simple-diff parse -> type check -> evaluate (the machine's rules, with fuel) ->
// print the value (semantics/simple_diff/run.hpp).
#include "fuzz/fuzz_support.hpp"
#include "semantics/simple_diff/run.hpp"
#include "syntax/core/large_stack.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace adsem::simple_diff;
  const auto body = [](const std::string& text) {
    const Typed checked = check_source(text);
    Options options;
    options.fuel = adsem::fuzz::fuel;
    (void)print_value(evaluate(checked.term, options).value);
  };
  return adsem::fuzz::run_text(data, size, body, adsem::run_on_large_stack);
}
