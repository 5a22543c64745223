#pragma once
// delta-reverse's rule book: every clause of the translations (Figs. 3, 5, 7, 9), the
// interpretation of Deltas (Fig. 10, §7.3, Fig. 8's eval_2), the wrapper's run and read-back
// (Figs. 11, 15, §11) and the machine's rules (source and target evaluation, the monad, the δS
// operations; spec §4.1, §4.2, Fig. 10), one entry each under its paper name, with its citation
// (rules.cpp). Every step of the cost model (ledger.hpp) is an entry.
#include "semantics/delta_reverse/relations.hpp"

namespace adsem::delta_reverse {

// The paper's rules, built once.
const RulesPtr& paper_rules();
// A new book: the paper's with the patch applied.
RulesPtr patch_paper_rules(const RulesPatch& patch);

// The implementation behind the paper's Fig. 12 tape (seed 001, L646-725; spec §11 item 12,
// §9.3): an OCaml program that evaluates operands right to left and whose from_float allocates a
// binding `deltaLet Zero`. Read as a patch of Fig. 9's Drev (its app, pair and real clauses), it
// is a second evaluator of the same programs: its tapes differ from the paper's left-to-right
// translation, their gradients do not (any order that respects the data dependencies makes a
// valid tape), and on Fig. 12's program it prints Fig. 12's tape.
RulesPatch fig12_implementation();

// The direct "overloading" implementation of Drev (seed 001 §8, L629-641; spec §4.2): source
// evaluation with E-Real giving dual numbers (r, Zero) and E-Apply-Op recording each real
// primitive's local derivative on the machine's DeltaState, as Drev{r} and Drev{op} do
// (overloading.hpp). The partials are evaluated by `base`, the book the patch is applied to.
RulesPatch overloading_implementation(const RulesPtr& base);

} // namespace adsem::delta_reverse
