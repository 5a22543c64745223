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

// Every rule of a sound example file passes every check, each check with `trials` passes and
// most of its instances checked rather than discarded.
inline void expect_every_rule_passes(const std::vector<rules::RuleReport>& reports, int trials) {
  for (const rules::RuleReport& r : reports) {
    EXPECT_TRUE(r.passed()) << rules::report_text({r});
    for (const auto& s : r.result.properties) {
      EXPECT_EQ(s.passed, trials) << s.name;
      EXPECT_GE(s.passed * 2, s.trials) << s.name << ": " << rules::report_text({r});
    }
  }
}

// Every rule of an unsound example file fails, each with a shrunk counterexample that shows the
// instance in its context and a check-rule command to reproduce it.
inline void expect_every_rule_caught(const std::vector<rules::RuleReport>& reports,
                                     int max_term_size = 40) {
  for (const rules::RuleReport& r : reports) {
    EXPECT_FALSE(r.passed()) << r.name;
    ASSERT_FALSE(r.result.counterexamples.empty()) << r.name;
    for (const auto& c : r.result.counterexamples) {
      EXPECT_NE(c.term.find("-->"), std::string::npos) << c.term;
      EXPECT_NE(c.term.find("in context"), std::string::npos) << c.term;
      EXPECT_NE(c.replay_command.find("check-rule"), std::string::npos);
      EXPECT_LE(c.term_size, max_term_size) << r.name << ": " << c.term; // shrunk
    }
  }
}

} // namespace adsem::test
