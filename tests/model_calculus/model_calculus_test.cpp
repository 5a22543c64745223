// The `model` pseudo-calculus: its oracles agree on random expressions, and each of its mutants
// (the model's own bug classes) is caught by the property made for it.
#include <gtest/gtest.h>

#include "cli/builtin_registry.hpp"
#include "support/calculus_checks.hpp"

namespace adsem::model_calculus_test {
namespace {

TEST(ModelCalculus, UnmutatedModelPassesEveryProperty) {
  testing::expect_unmutated_calculus_passes(cli::builtin_registry(), "model", 300, 20261122);
}

TEST(ModelCalculus, EveryMutantIsKilledByItsProperty) {
  testing::expect_every_mutant_killed(cli::builtin_registry(), "model", 300, 20261122);
}

TEST(ModelCalculus, MutantsAreNotKilledByUnrelatedProperties) {
  // The transposed Jacobian only matters where Jacobians are compared: the perturbation
  // properties, which never transpose, must not fail on it (they would be testing nothing).
  const auto result = testing::run_calculus(
      cli::builtin_registry(), "model", 200, 7, "model/jacobian-transposed",
      {"model/nested-derivative-no-confusion", "model/function-valued-derivative-no-confusion"});
  EXPECT_TRUE(result.counterexamples.empty());
}

} // namespace
} // namespace adsem::model_calculus_test
