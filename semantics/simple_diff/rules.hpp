#pragma once
// simple-diff's rule book: every rule of seed 003 Section 3 (Figs. 2-6, 8) and R-fast, one entry
// each under its paper name, with its citation (rules.cpp). The entries' results are the
// functions of eval.hpp, symbolic_eval.hpp and symbolic_diff.hpp.
#include "semantics/simple_diff/relations.hpp"

namespace adsem::simple_diff {

// The paper's rules, built once.
const RulesPtr& paper_rules();
// A new book: the paper's with the patch applied.
RulesPtr patch_paper_rules(const RulesPatch& patch);

} // namespace adsem::simple_diff
