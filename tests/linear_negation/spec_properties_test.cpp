// Spec §6 P16 (Lemma 13(2)): d-simulation can fail. A D whose let clause treats a let-bound real
// as a constant still commutes with numerals, but D of a redex no longer reduces to D of its
// contractum: d-simulation alone kills the mutant.
#include <gtest/gtest.h>

#include "cli/builtin_registry.hpp"
#include "tests/support/calculus_checks.hpp"

namespace adsem::linear_negation::spec_properties_test {
namespace {

constexpr std::uint64_t seed = 20261201;

TEST(LinearNegationDSimulation, CatchesALetClauseThatDropsTheBackpropagator) {
  testing::expect_killed_by(cli::builtin_registry(), "linear-negation",
                            "d-let-drops-backpropagator", "d-simulation", 300, seed);
}

} // namespace
} // namespace adsem::linear_negation::spec_properties_test
