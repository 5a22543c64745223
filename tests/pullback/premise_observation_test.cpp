// Observing only the first premise steps (Machine::observe's premises_wanted): the rest of a
// premise's run goes on unobserved (run_refocusing), and the run must be the one observed step by
// step: the same result (fresh names included), steps, premise steps and rule firings, and the
// observer sees the top-level steps and exactly the first premise steps, as before. Fresh names
// come from one process-wide counter: each run's are compared relative to its first.
#include <gtest/gtest.h>
#include <rapidcheck.h>

#include <map>
#include <regex>
#include <string>
#include <vector>

#include "generators/pullback/terms.hpp"
#include "properties/pullback/frontend.hpp"
#include "semantics/pullback/rules.hpp"
#include "semantics/pullback/strategy.hpp"
#include "syntax/pullback/printer.hpp"
#include "syntax/pullback/substitution.hpp"

namespace adsem::pullback::premise_observation_test {
namespace {

Term generated(int i) {
  const rc::Random rnd(4'111 + static_cast<std::uint64_t>(i));
  const int size = 5 + i % 30;
  return i % 2 == 0 ? gen::first_order_query(false)(rnd, size).value().term()
                    : gen::functional_query()(rnd, size).value().term();
}

// The counter's next number (drawing it).
long next_fresh_number() {
  return name_number(next_fresh_candidate("probe"));
}

// s with each fresh name stem_n drawn after `first` written stem_#(n - first).
std::string relative_names(const std::string& s, long first) {
  static const std::regex fresh("([A-Za-z]+)_([0-9]+)");
  std::string out;
  auto at = s.cbegin();
  for (std::sregex_iterator it(s.begin(), s.end(), fresh), end; it != end; ++it) {
    const std::smatch& m = *it;
    out.append(at, m[0].first);
    const long n = std::stol(m[2].str());
    out += n > first ? m[1].str() + "_#" + std::to_string(n - first) : m[0].str();
    at = m[0].second;
  }
  out.append(at, s.cend());
  return out;
}

struct Observed {
  std::vector<std::string> steps; // rule, premise mark and the whole term after each step
  std::string result;
  long top_level = 0, premise_steps = 0;
  std::map<std::string, long> rule_counts;
  std::string error;
  long fresh_names = 0; // numbers the run drew from the counter
};

void expect_same(const Observed& got, const Observed& expected, const std::string& where) {
  EXPECT_EQ(got.steps, expected.steps) << where;
  EXPECT_EQ(got.result, expected.result) << where;
  EXPECT_EQ(got.top_level, expected.top_level) << where;
  EXPECT_EQ(got.premise_steps, expected.premise_steps) << where;
  EXPECT_EQ(got.rule_counts, expected.rule_counts) << where;
  EXPECT_EQ(got.error, expected.error) << where;
  EXPECT_EQ(got.fresh_names, expected.fresh_names) << where;
}

// A run of t observing every top-level step and the first `premise_limit` premise steps (all of
// them when negative).
Observed observe(const Term& t, int premise_limit, const Rules& rules = {}, long fuel = 4'000) {
  Observed out;
  const long first = next_fresh_number();
  RunOptions o;
  o.fuel = fuel;
  Machine m(rules, o);
  int premises = 0;
  const auto record = [&](const Term&, const Step& s, bool premise) {
    if (premise && premise_limit >= 0 && ++premises > premise_limit) return;
    out.steps.push_back(s.rule + (premise ? " (premise) " : " ") +
                        relative_names(print(s.result), first));
  };
  if (premise_limit < 0)
    m.observe(record);
  else
    m.observe(record, {}, [&] { return premises < premise_limit; });
  try {
    const Run run = m.normalise(t);
    out.result = relative_names(print(run.result), first);
    out.top_level = run.steps;
    out.premise_steps = run.premise_steps;
    out.rule_counts = run.rule_counts;
  } catch (const AdsemError& e) {
    out.error = relative_names(e.what(), first);
    out.rule_counts = m.rule_counts(); // the firings up to the error
  }
  out.fresh_names = next_fresh_number() - first;
  return out;
}

// A run with no observer at all: a JAC premise on a λ body unfolded before (Machine's
// unfoldings_) adds that unfolding's firings, steps and fresh names instead of running it.
Observed unobserved(const Term& t, long fuel = 4'000) {
  Observed out;
  const long first = next_fresh_number();
  RunOptions o;
  o.fuel = fuel;
  Machine m({}, o);
  try {
    const Run run = m.normalise(t);
    out.result = relative_names(print(run.result), first);
    out.top_level = run.steps;
    out.premise_steps = run.premise_steps;
    out.rule_counts = run.rule_counts;
  } catch (const AdsemError& e) {
    out.error = relative_names(e.what(), first);
    out.rule_counts = m.rule_counts();
  }
  out.fresh_names = next_fresh_number() - first;
  return out;
}

TEST(PullbackPremiseObservation, UnobservedPremiseRunsAreTheSteppedOnes) {
  long with_premises = 0;
  for (int i = 0; i < 30; ++i) {
    const Term t = generated(i);
    const Observed all = observe(t, -1);
    // the stepped run, its premise steps after the first `limit` dropped by the observer itself
    for (const int limit : {0, 1, 3, 8}) {
      const Observed some = observe(t, limit);
      Observed expected = all;
      expected.steps.clear();
      int premises = 0;
      for (const std::string& s : all.steps)
        if (s.find(" (premise) ") == std::string::npos || ++premises <= limit)
          expected.steps.push_back(s);
      const std::string where = print(t) + " observing " + std::to_string(limit) + " premise steps";
      expect_same(some, expected, where);
    }
    with_premises += all.premise_steps > 0 ? 1 : 0;
  }
  EXPECT_GT(with_premises, 10) << with_premises; // the queries' premises (JAC, JAC1) were exercised
}

// The paper's rows 9-20, each made to build its whole result (λv.S)*·(ω W) even where the
// premise JAC1 reads only v and S (Pullback::Redex::direction_only).
Rules rows_with_w() {
  BookPatch patch;
  patch.name = "rows-with-w";
  for (const Book::Entry& entry : paper_rules()->entries())
    if (const auto* row = std::get_if<Rule<Pullback>>(&entry))
      patch.replace<Pullback>(row->info.name, [](Rule<Pullback> r) {
        r.result = [paper = r.result](Machine& m, const Pullback::Redex& redex,
                                      const RuleInfo& self) {
          Pullback::Redex whole = redex;
          whole.direction_only = false;
          return paper(m, whole, self);
        };
        return r;
      });
  return Rules{patch_paper_rules(patch)};
}

TEST(PullbackPremiseObservation, Jac1WithoutWIsTheWholeRowsPremise) {
  const Rules whole = rows_with_w();
  long with_jac1 = 0;
  for (int i = 0; i < 60; ++i) {
    const Term t = generated(i);
    const Observed expected = observe(t, -1, whole);
    const Observed got = observe(t, -1);
    const std::string where = print(t);
    expect_same(got, expected, where);
    with_jac1 += expected.rule_counts.count("20a") > 0 ? 1 : 0;
  }
  EXPECT_GT(with_jac1, 10) << with_jac1; // row 20a's premise JAC1 was exercised
}

// One λ body differentiated at several points (rule 19b's JAC(z, M, V_q) for each call of h),
// so that later premises on it take its unfolding from the first.
const char* const repeated_calls[] = {
    "((Omega \\y:R. let h = \\z:R. mult(<z, sin(z)>) in h (h y)) @ Omega[1]) 3",
    "((Omega \\y:R. let h = \\z:R. mult(<z, sin(z)>) in h (h (h y))) @ Omega[1]) 3",
    "((Omega \\y:R. let h = \\z:R. let u = sin(z) in mult(<u, z>) in h y + h (h (sin(y)))) "
    "@ Omega[1]) 0.5",
};

TEST(PullbackPremiseObservation, SharedUnfoldingsAreTheSteppedRuns) {
  for (int i = 0; i < 60; ++i) {
    const Term t = generated(i);
    Observed expected = observe(t, -1);
    expected.steps.clear();
    expect_same(unobserved(t), expected, print(t));
  }
  for (const char* source : repeated_calls) {
    const Term t = parse_closed(source);
    Observed expected = observe(t, -1);
    expected.steps.clear();
    EXPECT_GT(expected.premise_steps, 0) << source;
    expect_same(unobserved(t), expected, source);
    // every fuel up to the run's steps: the same error, after the same firings
    const long steps = expected.top_level + expected.premise_steps;
    for (long fuel = 1; fuel <= steps; ++fuel) {
      Observed short_of = observe(t, -1, {}, fuel);
      short_of.steps.clear();
      expect_same(unobserved(t, fuel), short_of,
                  std::string(source) + " fuel " + std::to_string(fuel));
    }
  }
}

} // namespace
} // namespace adsem::pullback::premise_observation_test
