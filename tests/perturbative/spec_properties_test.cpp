// second-derivative-symmetry (spec AD-6) can fail: with T_x perturbing every free variable, the
// inner derivative of a nested T sees the outer perturbation (perturbation confusion, seed 004
// L48-55), and the two orders of a second derivative disagree.
#include <gtest/gtest.h>

#include "cli/builtin_registry.hpp"
#include "tests/support/calculus_checks.hpp"

namespace adsem::perturbative::spec_properties_test {
namespace {

constexpr std::uint64_t seed = 20261201;

TEST(PerturbativeSecondDerivativeSymmetry, CatchesPerturbationConfusion) {
  testing::expect_killed_by(cli::builtin_registry(), "perturbative", "tx-perturbs-free-variables",
                            "second-derivative-symmetry", 300, seed);
}

} // namespace
} // namespace adsem::perturbative::spec_properties_test
