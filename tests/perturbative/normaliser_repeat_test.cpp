// The reference normaliser takes a simple term it has already walked on a run from that walk and
// counts the walk again (semantics/perturbative/strategy.cpp, `Normaliser::simple`); a traced run
// walks every term. Both must agree on everything a run reports: the normal form, the steps, the
// firings of every rule and T_x clause, and the error, also where the fuel or the work cap runs out
// part-way through a repeated walk.
#include <gtest/gtest.h>
#include <rapidcheck.h>

#include "generators/perturbative/terms.hpp"
#include "properties/perturbative/frontend.hpp"
#include "semantics/perturbative/rules.hpp"
#include "semantics/perturbative/strategy.hpp"
#include "syntax/perturbative/printer.hpp"

namespace adsem::perturbative::normaliser_repeat_test {
namespace {

struct Observed {
  std::string outcome; // the normal form's key, or the error
  long steps = -1;
  std::map<std::string, long> firings;
  friend bool operator==(const Observed&, const Observed&) = default;
};

Observed observe(const Term& m, RunOptions options) {
  Observed o;
  try {
    const Run run = normalise(m, *paper_rules(), options);
    o.outcome = canonical_key(run.result);
    o.steps = run.steps;
    o.firings = run.rule_counts;
  } catch (const AdsemError& e) {
    o.outcome = std::string("error ") + e.what();
  }
  return o;
}

// The run that may repeat walks against the traced run, which walks every term.
void expect_same_run(const Term& m, RunOptions options) {
  options.trace = false;
  const Observed repeated = observe(m, options);
  options.trace = true;
  const Observed walked = observe(m, options);
  EXPECT_EQ(repeated.outcome, walked.outcome) << print(m);
  EXPECT_EQ(repeated.steps, walked.steps) << print(m);
  EXPECT_EQ(repeated.firings, walked.firings) << print(m);
}

// Derivatives whose T_x output shares subterms that β copies: the repeats happen here.
const std::vector<std::string> derivatives = {
    "let D = \\f:R->R. \\a:R. pi1 (T f (1, a)) in D (D (\\x:R. x*x*x)) 2",
    "pi1 (T (\\x:R. (\\g:R->R. g (g x)) (\\y:R. sin y * y)) (1, 0.5))",
    "pi2 (T (\\x:R. \\y:R. x * y * (x + y)) (1, 3)) 5",
};

TEST(PerturbativeNormaliserRepeats, CountLikeATracedRunOnDerivatives) {
  for (const std::string& source : derivatives) {
    const Term m = parse_closed(source);
    RunOptions options;
    const long steps = observe(m, options).steps;
    ASSERT_GT(steps, 0) << source;
    expect_same_run(m, options);
    // out of fuel, and over the work cap, at every point of the run
    for (long fuel = 1; fuel <= steps; fuel += std::max(1L, steps / 12)) {
      options.fuel = fuel;
      expect_same_run(m, options);
    }
    options.fuel = steps;
    for (const long per_step : {1, 2, 3, 5, 8}) {
      options.work_per_step = per_step;
      expect_same_run(m, options);
    }
  }
}

TEST(PerturbativeNormaliserRepeats, CountLikeATracedRunOnGeneratedTerms) {
  const auto generator = gen::closed_term(gen::type_pool());
  for (int i = 0; i < 300; ++i) {
    const Term m = generator(rc::Random(static_cast<std::uint64_t>(i) + 1), 50).value();
    RunOptions options;
    options.fuel = 20'000;
    expect_same_run(m, options);
    options.fuel = 40;
    options.work_per_step = 4;
    expect_same_run(m, options);
  }
}

} // namespace
} // namespace adsem::perturbative::normaliser_repeat_test
