#pragma once
// simple-diff's mutants: each a named patch of the rule book (semantics/simple_diff/rules.cpp),
// declared with its bug class, description and killers (mutants.cpp). The semantics never sees
// a mutant's name: a campaign under a mutant runs the mutant's patched book.
#include <string>
#include <vector>

#include "properties/core/mutant_catalogue.hpp"
#include "properties/core/property.hpp"
#include "semantics/simple_diff/machine.hpp"

namespace adsem::simple_diff {

struct Mutant {
  props::MutantDef def;             // "simple-diff/<name>", bug class, summary, killers
  RulesPatch patch;                 // the edits of the paper's book
  props::BuiltOnce<RulesPtr> rules; // the patched book, built when first asked for
};

// Every mutant, in listing order.
const std::vector<Mutant>& mutant_catalogue();
// Their registry entries.
std::vector<props::MutantDef> mutants();
// Options running the mutant's book ("" = the paper's); throws AdsemError(usage) if unknown.
Options with_mutant(Options options, const std::string& mutant);

} // namespace adsem::simple_diff
