#pragma once
// delta-reverse's rule book: every clause of the translations (Figs. 3, 5, 7, 9), the
// interpretation of Deltas (Fig. 10, §7.3) and the wrapper's run and read-back (Figs. 11, 15,
// §11), one entry each under its paper name, with its citation (rules.cpp).
#include <vector>

#include "semantics/delta_reverse/relations.hpp"

namespace adsem::delta_reverse {

// The paper's rules, built once.
const RulesPtr& paper_rules();
// A new book: the paper's with the patch applied.
RulesPtr patch_paper_rules(const RulesPatch& patch);
// What rule coverage and `adsem calculi --json` list: the book's entries, then the steps of the
// machine's cost model (ledger.hpp) that are not entries — source and target evaluation, the
// monad, eval_2, the dense operations and the sub-steps of runDelta, eval-Let and sweep — with
// their citations.
std::vector<RuleInfo> listed_rules();

} // namespace adsem::delta_reverse
