// libFuzzer: delta-reverse parse -> type check -> the big-step machine with fuel (and, for a
// computation M A, its run from the state (1, [])) -> print (semantics/delta_reverse/machine.hpp).
#include "fuzz/fuzz_support.hpp"
#include "semantics/delta_reverse/machine.hpp"
#include "semantics/delta_reverse/values.hpp"
#include "syntax/delta_reverse/parser.hpp"
#include "syntax/delta_reverse/typecheck.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace adsem::delta_reverse;
  return adsem::fuzz::run_text(data, size, [](const std::string& text) {
    const Typed typed = typecheck(parse_term(text));
    Ledger ledger;
    ledger.fuel = adsem::fuzz::fuel;
    Machine machine(ledger);
    Value v = machine.eval(nullptr, typed.term);
    Type type = typed.type;
    if (type->kind == TypeNode::Kind::monad) {
      v = machine.run(v);
      type = type->left;
      for (const auto& [id, rhs] : machine.state.binds)
        (void)print_delta(rhs);
    }
    (void)print_value(v, type);
  });
}
