#pragma once
// perturbative's mutants: each a named patch of the rule book (semantics/perturbative/rules.cpp),
// the derivative macro D included, or, for the model's negative controls, a change of the
// model's perturbation mode, declared with its bug class, description and killers (mutants.cpp).
// The semantics never sees a mutant's name: a campaign under a mutant runs what it selects here.
#include <string>
#include <vector>

#include "properties/core/mutant_catalogue.hpp"
#include "properties/core/property.hpp"
#include "semantics/core/tags.hpp"
#include "semantics/perturbative/rules.hpp"

namespace adsem::perturbative {

// What a run under a mutant uses: the rule book (whose entry D builds the derivative terms of
// `grad` and the AD properties) and the model's perturbation mode.
struct Semantics {
  RulesPtr rules = paper_rules();
  model::PerturbationMode model = model::PerturbationMode::correct;

  // D(f, v, a) expanded by this book (rules.hpp); the expansion is added to `counter` (rule
  // coverage) when there is one.
  Term derivative(const Term& f, const Term& tangent, const Term& point,
                  RuleCounter* counter = nullptr) const;
};

struct Mutant {
  props::MutantDef def; // "perturbative/<name>", bug class, summary, killers
  RulesPatch patch;     // the edits of the paper's book (none for the model's controls)
  props::BuiltOnce<Semantics>
      semantics; // the patched book and the model mode, built when first asked for
};

// Every mutant, in listing order.
const std::vector<Mutant>& mutant_catalogue();
// Their registry entries.
std::vector<props::MutantDef> mutants();
// What a run under the mutant uses ("" = the paper's); throws AdsemError(usage) if unknown.
const Semantics& semantics_for(const std::string& mutant);

} // namespace adsem::perturbative
