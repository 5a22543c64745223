#pragma once
// dual-numbers' mutants: patches of its rule book, each beside the property expected to kill it.
#include <vector>

#include "properties/core/mutant_catalogue.hpp"
#include "semantics/dual_numbers/rules.hpp"

namespace adsem::dual_numbers {

struct Mutant {
  props::MutantDef def;
  RulesPatch patch;
  props::BuiltOnce<RulesPtr> built;
};

const std::vector<Mutant>& mutant_catalogue();
// The book a run under the mutant (its full name) uses: the paper's for "" or another
// calculus's mutant.
const Rules& rules_for(const std::string& mutant);
inline const Rules& rules_for(const props::PropertyContext& context) {
  return rules_for(context.mutant);
}

} // namespace adsem::dual_numbers
