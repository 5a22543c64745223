// Every model's denotation is bounded in work: f_k = λy. f_{k-1} (f_{k-1} y) for k = 1..30 is a
// term of size O(k) whose ⟦−⟧ applies f_0 2^30 times. It ran for minutes in the models of
// pullback, delta-reverse and perturbative (linear-negation had a cap already); now each ends at
// the models' work cap (semantics/core/model_limits.hpp) with a fuel error, which properties
// count as a discard.
#include <string>

#include <gtest/gtest.h>

#include "cli/builtin_registry.hpp"
#include "support/cli_run.hpp"

namespace adsem::model_work_cap_test {
namespace {

struct Spelling {
  const char* calculus;
  const char* binder; // the λ and its annotation, up to the body
  const char* sin;    // sin(y) in the calculus's syntax
};

std::string exponential_term(const Spelling& s, int n) {
  std::string text = std::string("let f0 = ") + s.binder + s.sin + " in ";
  for (int k = 1; k <= n; ++k)
    text += "let f" + std::to_string(k) + " = " + s.binder + "f" + std::to_string(k - 1) + " (f" +
            std::to_string(k - 1) + " y) in ";
  return text + "f" + std::to_string(n) + " 1.0";
}

class ModelWorkCap : public ::testing::TestWithParam<Spelling> {};

TEST_P(ModelWorkCap, AnExponentialDenotationEndsAtTheWorkCap) {
  static const props::Registry registry = cli::builtin_registry();
  const Spelling& s = GetParam();
  const testing::CliRun run =
      testing::run_cli(registry, {"denote", s.calculus, "-e", exponential_term(s, 30)});
  EXPECT_EQ(run.code, 1) << run.out << run.err;
  EXPECT_NE(run.err.find("fuel error"), std::string::npos) << run.err;
  EXPECT_NE(run.err.find("exceeded the work cap (20000000 units)"), std::string::npos) << run.err;
}

INSTANTIATE_TEST_SUITE_P(EveryModel, ModelWorkCap,
                         ::testing::Values(Spelling{"pullback", "\\y:R. ", "sin(y)"},
                                           Spelling{"perturbative", "\\y:R. ", "sin(y)"},
                                           Spelling{"delta-reverse", "\\(y : Real). ", "sin(y)"},
                                           Spelling{"linear-negation", "\\y:!R. ", "sin(y)"}),
                         [](const ::testing::TestParamInfo<Spelling>& info) {
                           std::string name = info.param.calculus;
                           for (char& c : name)
                             if (c == '-') c = '_';
                           return name;
                         });

} // namespace
} // namespace adsem::model_work_cap_test
