// second-derivative-symmetry (spec AD-6) can fail: with T_x perturbing every free variable, the
// inner derivative of a nested T sees the outer perturbation (perturbation confusion, seed 004
// L48-55), and the two orders of a second derivative disagree.
#include <algorithm>

#include <gtest/gtest.h>

#include "cli/builtin_registry.hpp"
#include "tests/support/calculus_checks.hpp"

namespace adsem::perturbative::spec_properties_test {
namespace {

constexpr std::uint64_t seed = 20261201;

TEST(PerturbativeSecondDerivativeSymmetry, CatchesPerturbationConfusion) {
  const props::Registry registry = cli::builtin_registry(); // held: find points into it
  const auto* entry = registry.find("perturbative");
  ASSERT_NE(entry, nullptr);
  const auto mutant = std::ranges::find_if(entry->mutants, [](const props::MutantDef& m) {
    return m.name.ends_with("tx-perturbs-free-variables");
  });
  ASSERT_NE(mutant, entry->mutants.end());
  props::MutantDef only_this = *mutant;
  only_this.expected_killers = {"second-derivative-symmetry"};
  testing::expect_mutant_killed(registry, only_this, 300, seed);
}

} // namespace
} // namespace adsem::perturbative::spec_properties_test
