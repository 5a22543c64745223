#pragma once
// linear-negation's mutants, each declared with its bug class, description and killers
// (mutants.cpp). A mutant of a rule or a clause of D is a named patch of the rule book
// (semantics/linear_negation/rules.cpp): a campaign under it runs the patched book, and the
// semantics never sees its name. The others alter what a property reads (the read-back of
// Cor. 16, an oracle printed in the paper) and are tested by name in the properties.
#include <string>
#include <vector>

#include "properties/core/property.hpp"
#include "semantics/linear_negation/relations.hpp"

namespace adsem::linear_negation {

struct Mutant {
  props::MutantDef def; // "linear-negation/<name>", bug class, summary, killers
  RulesPatch patch;     // the edits of the paper's book (none for a property-side mutant)
  RulesPtr rules;       // the patched book, built once
};

namespace mutant {
inline constexpr const char* gradient_read_from_wrong_component =
    "linear-negation/gradient-read-from-wrong-component";
inline constexpr const char* paper_literal_prop1_seed = "linear-negation/paper-literal-prop1-seed";
inline constexpr const char* paper_literal_prop17_recurrence =
    "linear-negation/paper-literal-prop17-recurrence";
} // namespace mutant

// Every mutant, in listing order.
const std::vector<Mutant>& mutant_catalogue();
// Their registry entries.
std::vector<props::MutantDef> mutants();
// The book a run under `mutant` uses ("" or a mutant that patches no rule: the paper's).
RulesPtr rules_for(const std::string& mutant);
// Read-back A's gradient as `mutant` reads it: gradient-read-from-wrong-component credits xj' gj
// to coordinate j+1 (mod n).
std::vector<double> read_back_under(const std::string& mutant, std::vector<double> gradient);

} // namespace adsem::linear_negation
