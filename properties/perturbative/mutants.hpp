#pragma once
// perturbative's mutants: each a named patch of the rule book (semantics/perturbative/rules.cpp)
// or, for the derivative macro and the model's negative controls, a change of the property's term
// builder or of the model, declared with its bug class, description and killers (mutants.cpp).
// The semantics never sees a mutant's name: a campaign under a mutant runs what it selects here.
#include <functional>
#include <string>
#include <vector>

#include "properties/core/property.hpp"
#include "semantics/core/tags.hpp"
#include "semantics/perturbative/rules.hpp"

namespace adsem::perturbative {

// What a run under a mutant uses: the rule book, the derivative macro D(f, v, a) that `grad` and
// the AD properties build their terms with, and the model's perturbation mode.
struct Semantics {
  RulesPtr rules = paper_rules();
  std::function<Bag(const Bag& f, const Bag& tangent, const Bag& point)> derivative =
      perturbative::derivative;
  model::PerturbationMode model = model::PerturbationMode::correct;
};

struct Mutant {
  props::MutantDef def; // "perturbative/<name>", bug class, summary, killers
  RulesPatch patch;     // the edits of the paper's book (none for D and the model's controls)
  Semantics semantics;  // the patched book (built once), D and the model mode
};

// Every mutant, in listing order.
const std::vector<Mutant>& mutant_catalogue();
// Their registry entries.
std::vector<props::MutantDef> mutants();
// What a run under the mutant uses ("" = the paper's); throws AdsemError(usage) if unknown.
const Semantics& semantics_for(const std::string& mutant);

} // namespace adsem::perturbative
