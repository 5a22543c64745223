// Spec §6 properties that can fail, each shown by a mutant.
#include <gtest/gtest.h>

#include "cli/builtin_registry.hpp"
#include "tests/support/calculus_checks.hpp"

namespace adsem::linear_negation::spec_properties_test {
namespace {

constexpr std::uint64_t seed = 20261201;

// P16 (Lemma 13(2)): a D whose let clause treats a let-bound real as a constant still commutes
// with numerals, but D of a redex no longer reduces to D of its contractum: d-simulation alone
// kills the mutant.
TEST(LinearNegationDSimulation, CatchesALetClauseThatDropsTheBackpropagator) {
  testing::expect_killed_by(cli::builtin_registry(), "linear-negation",
                            "d-let-drops-backpropagator", "d-simulation", 300, seed);
}

// P3 (Prop. 4, weak form): a (19) that moves [y := w] into u's scope although t names y leaves
// y unbound in the mixed sequence's term, which postponement type-checks after each ≡ step.
TEST(LinearNegationEquivalencePostponement, CatchesA19ThatIgnoresScope) {
  testing::expect_killed_by(cli::builtin_registry(), "linear-negation",
                            "equivalence-19-ignores-scope", "equivalence-postponement", 300, seed);
}

} // namespace
} // namespace adsem::linear_negation::spec_properties_test
