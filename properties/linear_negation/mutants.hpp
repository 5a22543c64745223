#pragma once
// linear-negation's mutants, each declared with its bug class, description and killers
// (mutants.cpp). A mutant of a rule, a clause of D, the read-back of Cor. 16 or Prop. 1's seeding
// is a named patch of the rule book (semantics/linear_negation/rules.cpp): a campaign under it
// runs the patched book, and the semantics never sees its name. Prop. 17's recurrence is the
// oracle of a property (like the model): its paper-literal mutant is tested by name there.
#include <string>
#include <vector>

#include "properties/core/mutant_catalogue.hpp"
#include "properties/core/property.hpp"
#include "semantics/linear_negation/relations.hpp"

namespace adsem::linear_negation {

struct Mutant {
  props::MutantDef def;             // "linear-negation/<name>", bug class, summary, killers
  RulesPatch patch;                 // the edits of the paper's book (none for the Prop. 17 oracle)
  props::BuiltOnce<RulesPtr> rules; // the patched book, built when first asked for
};

namespace mutant {
inline constexpr const char* paper_literal_prop17_recurrence =
    "linear-negation/paper-literal-prop17-recurrence";
} // namespace mutant

// Every mutant, in listing order.
const std::vector<Mutant>& mutant_catalogue();
// Their registry entries.
std::vector<props::MutantDef> mutants();
// The book a run under `mutant` uses ("" or a mutant that patches no rule: the paper's).
RulesPtr rules_for(const std::string& mutant);

} // namespace adsem::linear_negation
