// The paper fixes left-to-right order through its translation (L456-470), and its Fig. 12 tape
// comes from an implementation that runs right to left and allocates a binding per literal
// (L646-725; spec §9.3: any order that respects the data dependencies makes a valid tape). Both
// orders, run on the same program and point by the same wrapper, must give valid tapes and the
// same gradient; the tapes themselves differ.
#include "properties/delta_reverse/evaluation_order.hpp"

#include <memory>

#include "properties/delta_reverse/support.hpp"

namespace adsem::delta_reverse {

using props::PropertyContext;
using props::TrialResult;
using namespace support;

TrialResult evaluation_order_at(const Drawn& d, const DrawLike& like,
                                const PropertyContext& context) {
  return guarded([&] {
    const Trial trial = prepare(d, context, like);
    RunSetup fig12 = trial.setup; // the active book (a mutant's, a rule file's) read right to left
    fig12.rules = std::make_shared<const Rules>(trial.setup.rules->patched(fig12_implementation()));
    const ReverseRun paper =
        reverse(d.program, d.s, trial.dt, Wrapper::seeded, EvalImpl::map, trial.setup, trial.fuel);
    const ReverseRun right_to_left =
        reverse(d.program, d.s, trial.dt, Wrapper::seeded, EvalImpl::map, fig12, trial.fuel);
    if (const auto e = tape_order_error(right_to_left))
      return on(TrialResult::fail("Fig. 12's order: " + *e), d.m);
    return on(compare_values(paper.gradient, "R{e} in Fig. 9's order", right_to_left.gradient,
                             "R{e} in Fig. 12's order", CheckKind::derivative, context),
              d.m);
  });
}

namespace {

TrialResult evaluation_order(const PropertyContext& context) {
  return evaluation_order_at(draw(context), random_like, context);
}

} // namespace

props::PropertyDef evaluation_order_agreement() {
  return props::PropertyDef{
      "delta-reverse",
      "delta-reverse/evaluation-order-agreement",
      "ad-correctness",
      "Fig. 12's implementation (operands right to left, literals bound) makes a valid tape and "
      "the gradient of Fig. 9's left-to-right order",
      "spec §9.3, §11 item 12; L456-470, Fig. 12 L646-725",
      evaluation_order};
}

} // namespace adsem::delta_reverse
