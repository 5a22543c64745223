// Spec §6 properties of perturbative that can fail:
//  - second-derivative-symmetry (spec AD-6): with T_x perturbing every free variable, the inner
//    derivative of a nested T sees the outer perturbation (perturbation confusion, seed 004
//    L48-55), and the two orders of a second derivative disagree;
//  - model-pairing-and-chain-rule (spec MOD-2, D4 and D5), a self-check of the model: its checks
//    pass the model's D and reject a D that drops a pair's second tangent (D4) or reads the point
//    as the tangent (D5);
//  - model-pushforward-linear (spec MOD-11, Thm 3.10): kills the model's untagged negative
//    control, and its additivity and zero checks reject an affine 𝒯.
#include <gtest/gtest.h>

#include "cli/builtin_registry.hpp"
#include "properties/perturbative/frontend.hpp"
#include "properties/perturbative/model_axioms.hpp"
#include "tests/support/calculus_checks.hpp"

namespace adsem::perturbative::spec_properties_test {
namespace {

constexpr std::uint64_t seed = 20261201;

using model_axioms::Derivative;
using model_axioms::Morphism;
using model_axioms::Pushforward;
using V = model::Value<double>;

bool passes(const props::TrialResult& r) {
  return r.kind == props::TrialResult::Kind::pass;
}

Morphism morphism(const std::string& source) {
  const Term m = parse_closed(source);
  return {denote<double>(m, nullptr, DenoteContext{}), m.type->left, m.type->right};
}

TEST(PerturbativeSecondDerivativeSymmetry, CatchesPerturbationConfusion) {
  testing::expect_killed_by(cli::builtin_registry(), "perturbative", "tx-perturbs-free-variables",
                            "second-derivative-symmetry", 300, seed);
}

// SEM-9's other strategies see a T_x clause that is right on normal bodies only, which the two
// innermost reducers never feed it (seed 2 of `adsem campaign` kills it in 415 trials).
TEST(PerturbativeOtherStrategiesAgreement, CatchesAClauseThatAssumesNormalInput) {
  testing::expect_killed_by(cli::builtin_registry(), "perturbative",
                            "tx-app-assumes-normal-operand", "other-strategies-agreement", 2000, 2);
}

// D4, D⟨f, g⟩ = ⟨Df, Dg⟩ (seed 004 L80): a D that keeps only the first tangent of a pair (as the
// mutant inj2-drops-tangent does in T_x) gives ⟨Df, 0⟩ on the left.
TEST(PerturbativeModelPairingAndChainRule, D4RejectsADThatDropsASecondTangent) {
  const props::PropertyContext context;
  const Derivative d = model_axioms::model_derivative(model::DiffContext());
  const Derivative drops_second = [d](const V& f, const V& v, const V& a) {
    const V r = d(f, v, a);
    if (r.kind() != model::ValueKind::tuple) return r;
    return V::pair(r.first(), model::scale(model::Dual<double>(0.0), r.second()));
  };
  const Morphism f = morphism("\\x:R. sin x * x"), g = morphism("\\x:R. exp x");
  EXPECT_TRUE(passes(model_axioms::pairing_axiom(d, f, g, seed, context)));
  EXPECT_FALSE(passes(model_axioms::pairing_axiom(drops_second, f, g, seed, context)));
}

// D5, D(f ∘ g) = Df ∘ ⟨Dg, g ∘ π2⟩ (seed 004 L81): a D with point and tangent in each other's slot
// (the orientation bug of d-macro-slots-swapped, spec §9.1) breaks the chain rule.
TEST(PerturbativeModelPairingAndChainRule, D5RejectsADWithItsSlotsSwapped) {
  const props::PropertyContext context;
  const Derivative d = model_axioms::model_derivative(model::DiffContext());
  const Derivative swapped = [d](const V& f, const V& v, const V& a) { return d(f, a, v); };
  const Morphism f = morphism("\\x:R. sin x * x"), g = morphism("\\p:R*R. pi1 p * exp (pi2 p)");
  EXPECT_TRUE(passes(model_axioms::chain_rule_axiom(d, f, g, seed, context)));
  EXPECT_FALSE(passes(model_axioms::chain_rule_axiom(swapped, f, g, seed, context)));
}

// D(𝒯)(g, f) = 𝒯g (seed 004 Thm 3.10, L125): with one untagged ε for every 𝒯 (spec §5.3,
// negative control (a)), 𝒯 along f + εg and the 𝒯 inside it share ε, ε² = 0 drops Dg, and the
// outer tangent comes out 0.
TEST(PerturbativeModelPushforwardLinear, CatchesTheUntaggedModel) {
  testing::expect_killed_by(cli::builtin_registry(), "perturbative", "model-untagged",
                            "model-pushforward-linear", 300, seed);
}

// 𝒯f + (0, 1), an affine map of f, is neither additive nor 0 at 0.
TEST(PerturbativeModelPushforwardLinear, AdditivityAndZeroRejectAnAffinePushforward) {
  const props::PropertyContext context;
  const Pushforward t = model_axioms::model_pushforward(model::DiffContext());
  const Pushforward shifted = [t](const V& f) {
    return V::function([tf = t(f)](const V& p) {
      const V r = tf(p);
      return V::pair(r.first(), model::sum(r.second(), V(1.0)));
    });
  };
  const Morphism f = morphism("\\x:R. sin x * x"), g = morphism("\\x:R. neg (sin x * x) + exp x");
  const Type R = real_type();
  EXPECT_TRUE(passes(model_axioms::pushforward_additive(t, f, g, seed, context)));
  EXPECT_TRUE(passes(model_axioms::pushforward_of_zero(t, R, R, seed, context)));
  EXPECT_FALSE(passes(model_axioms::pushforward_additive(shifted, f, g, seed, context)));
  EXPECT_FALSE(passes(model_axioms::pushforward_of_zero(shifted, R, R, seed, context)));
}

} // namespace
} // namespace adsem::perturbative::spec_properties_test
