// The spec §6 properties added beside the first ones can fail: jacobian-bodies (P23) kills a
// mutant of row 15, simulation (P14) one of rules 5/5⁺; separation (P17) is a self-test of the
// model's probe family, which no mutant of the rule book can make fail, so it is given a probe
// family that loses a coordinate.
#include <gtest/gtest.h>

#include "cli/builtin_registry.hpp"
#include "properties/core/property.hpp"
#include "properties/pullback/separation.hpp"
#include "tests/support/calculus_checks.hpp"

namespace adsem::pullback::spec_properties_test {
namespace {

using support::V;

V euclidean(const std::vector<double>& xs) {
  const std::vector<model::Dual<double>> d(xs.begin(), xs.end());
  std::size_t next = 0;
  return ground<double>(real_power(xs.size()), std::span<const model::Dual<double>>(d), next);
}

const Tolerance tol = default_tolerance(CheckKind::probe);

support::ProbeReading probes(const V& a, const V& b, const Type& t) {
  return support::probe(a, b, t, 7, tol);
}

// The probe family of §5.5 with its last Euclidean coordinate probe left out.
support::ProbeReading loses_last_coordinate(const V& a, const V& b, const Type&) {
  std::vector<double> xa = model::flatten_primal(a), xb = model::flatten_primal(b);
  xa.pop_back();
  xb.pop_back();
  return support::probe(euclidean(xa), euclidean(xb), real_power(xa.size()), 7, tol);
}

TEST(PullbackSeparation, BasisProbesSeparateEveryCoordinate) {
  const V x = euclidean({0.5, -1.0, 2.0});
  for (std::size_t i = 0; i < 3; ++i) {
    std::vector<double> other = {0.5, -1.0, 2.0};
    other[i] += 0.75;
    EXPECT_EQ(separation::check(x, euclidean(other), real_power(3), true, probes).kind,
              props::TrialResult::Kind::pass)
        << i;
  }
}

TEST(PullbackSeparation, FailsWithAProbeFamilyThatLosesACoordinate) {
  const V x = euclidean({0.5, -1.0, 2.0}), y = euclidean({0.5, -1.0, 1.25});
  const props::TrialResult r = separation::check(x, y, real_power(3), true, loses_last_coordinate);
  EXPECT_EQ(r.kind, props::TrialResult::Kind::fail);
  EXPECT_NE(r.reason.find("does not separate"), std::string::npos) << r.reason;
}

TEST(PullbackSeparation, FunctionsNotSeparatedAreCountedDiscards) {
  // Functions that agree on every sampled argument are no verdict on the family: a discard.
  const Type t = arrow(real_type(), real_type());
  const V f = V::function([](const V& a) { return a; });
  const V g = V::function([](const V& a) { return model::sum(a, V(model::Dual<double>(1.0))); });
  const props::TrialResult r = separation::check(
      f, g, t, false, [](const V&, const V&, const Type&) { return support::ProbeReading{}; });
  EXPECT_EQ(r.kind, props::TrialResult::Kind::discard);
}

TEST(PullbackSeparation, PassesOnTheRealProbeFamily) {
  const auto result = testing::run_calculus(cli::builtin_registry(), "pullback", 300, 20261201, "",
                                            {"pullback/separation"});
  ASSERT_EQ(result.properties.size(), 1u);
  EXPECT_EQ(result.properties[0].status, "passed");
  EXPECT_GE(result.properties[0].passed, 300);
}

// simulation (P14, weak form) can fail: with rules 5/5⁺ multiplying by 𝒥 instead of 𝒥ᵀ, a step
// of the reverse sweep changes the translation's denotation.
TEST(PullbackSimulation, CatchesAnUntransposedReverseSweep) {
  testing::expect_killed_by(cli::builtin_registry(), "pullback", "smooth-pullback-uses-J-not-JT",
                            "simulation", 300, 20261201);
}

// jacobian-bodies (P23) can fail: row 15 with the Jacobian's point and direction swapped.
TEST(PullbackJacobianBodies, CatchesAPrimitiveJacobianWithPointAndDirectionSwapped) {
  testing::expect_killed_by(cli::builtin_registry(), "pullback",
                            "primitive-jacobian-point-and-direction-swapped", "jacobian-bodies",
                            300, 20261201);
}

} // namespace
} // namespace adsem::pullback::spec_properties_test
