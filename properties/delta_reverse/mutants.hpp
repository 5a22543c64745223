#pragma once
// delta-reverse's mutants: each a named patch of the rule book (semantics/delta_reverse/rules.cpp),
// declared with its bug class, description and killers (mutants.cpp). The semantics never sees a
// mutant's name: a campaign under a mutant runs the mutant's patched book.
#include <string>
#include <vector>

#include "properties/core/mutant_catalogue.hpp"
#include "properties/core/property.hpp"
#include "semantics/delta_reverse/setup.hpp"

namespace adsem::delta_reverse {

struct Mutant {
  props::MutantDef def;             // "delta-reverse/<name>", bug class, summary, killers
  RulesPatch patch;                 // the edits of the paper's book
  props::BuiltOnce<RulesPtr> rules; // the patched book, built when first asked for
};

// Every mutant, in listing order.
const std::vector<Mutant>& mutant_catalogue();
// Their registry entries.
std::vector<props::MutantDef> mutants();
// The setup running the mutant's book ("" or another calculus's mutant: the paper's); throws
// AdsemError(usage) for an unknown delta-reverse mutant.
RunSetup setup_for(const std::string& mutant);

} // namespace adsem::delta_reverse
