#pragma once
// Named mutants of the rule table (design.md "Mutants"): each replaces one entry of `Rules`
// (machine.hpp) by a deliberately wrong variant drawn from a real AD bug class. The full names
// are "simple-diff/<name>"; properties/simple_diff/register.cpp lists them with their killers.
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "semantics/simple_diff/machine.hpp"

namespace adsem::simple_diff {

struct RuleMutant {
  std::string name; // full name, "simple-diff/..."
  std::function<void(Rules&)> apply;
};

const std::vector<RuleMutant>& rule_mutants();
// Options with the mutant applied ("" = the paper's rules); throws AdsemError(usage) if unknown.
Options with_mutant(Options options, const std::string& mutant);

} // namespace adsem::simple_diff
