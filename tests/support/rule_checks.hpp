#pragma once
// The test kit of user rewrite rules (tests/rules/*_rules_test.cpp, `adsem check-rule`): read an
// example rule file, compile a rule file expecting a located error, check rules with fixed
// options.
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "properties/core/rule_check.hpp"

namespace adsem::test {

// A file of the source tree (examples/rules/...), as text.
inline std::string read_source_file(const std::string& relative) {
  std::ifstream in(std::string(ADSEM_SOURCE_DIR) + "/" + relative);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// The diagnostic of the first rule of `source` that does not compile (a test failure if none).
inline Diagnostic rule_compile_error(const rules::RuleAdapter& adapter, const std::string& source) {
  try {
    const rules::RuleFile f = rules::parse_rule_file(source);
    for (const auto& r : f.rules)
      adapter.compile(r);
  } catch (const AdsemError& e) {
    return e.diagnostic();
  }
  ADD_FAILURE() << "no error for:\n" << source;
  return {};
}

inline std::vector<rules::RuleReport> check_rule_source(const rules::RuleAdapter& adapter,
                                                        const std::string& calculus,
                                                        const std::string& source, int trials,
                                                        bool mutants, int mutant_trials,
                                                        std::uint64_t seed = 7) {
  rules::CheckOptions o;
  o.trials = trials;
  o.mutant_trials = mutant_trials;
  o.mutants = mutants;
  o.seed = seed;
  return rules::check_rules(adapter, calculus, rules::parse_rule_file(source), o);
}

} // namespace adsem::test
