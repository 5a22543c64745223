// User rules for pullback: the four checks (rule_adapter.hpp).
#include "properties/pullback/rule_adapter.hpp"

#include <chrono>

#include <fmt/format.h>

#include "properties/core/discards.hpp"
#include "properties/core/rule_instance_kit.hpp"
#include "properties/pullback/rule_instance.hpp"
#include "properties/pullback/support.hpp"
#include "semantics/core/model_errors.hpp"
#include "syntax/pullback/printer.hpp"
#include "syntax/pullback/substitution.hpp"
#include "syntax/pullback/typecheck.hpp"

namespace adsem::pullback {

namespace {

using props::TrialResult;
using support::V;

TrialResult done(const RuleInstance& in, TrialResult r) {
  // no construct tags: contexts are random by design, so the generator-health check that
  // every construct is reached in 5% of trials does not apply to rule checks
  r.on(in.report, type_text(in.type), static_cast<int>(size_of(in.before)));
  return r;
}

Context gamma_of(const RuleInstance& in) {
  return {{in.a, in.sigma_a}};
}

// A value of a Euclidean type, or of the dual of one (its n basis probes: complete for the linear
// functionals Lemma 4.4(2) says dual-typed terms denote), as a vector.
std::vector<double> as_vector(const V& v, const Type& t) {
  if (is_euclidean(t)) return model::flatten_primal(v);
  return support::coefficients(v, t->left);
}

// A normal form that is a literal (numeral tuple, covector, 0) read directly; any other normal
// form (a stuck term, Remark 3.6, or a symbolic dual value) through the model.
adsem::rules::Reals normal_form_vector(const Term& nf, const Type& t, const Env<double>& env) {
  if (nf->kind == Kind::zero)
    return std::vector<double>(is_euclidean(t) ? dim(t) : dim(t->left), 0.0);
  if (is_euclidean(t) && is_numeral_tuple(nf)) {
    std::vector<double> out;
    flatten_numerals(nf, out);
    return out;
  }
  if (is_dual(t) && nf->kind == Kind::covec) return nf->vec.dense();
  // A large symbolic or stuck normal form: its closures are probed through long chains of
  // dual maps whose model evaluation grows exponentially; counted as the calculus's
  // "stuck-normal-form" discard instead of probed.
  if (size_of(nf) > 250) return TrialResult::discard("stuck-normal-form");
  return as_vector(support::denote_in(nf, env), t);
}

// The left side's value, or the discard that says why there is none (undefined-point, fuel, ...).
adsem::rules::Reals left_value(const Term& program, const Type& t, const Env<double>& env) {
  return adsem::rules::guarded_meaning<std::vector<double>>(
      [](const auto& body) { return support::guarded(body); },
      [&] { return as_vector(support::denote_in(program, env), t); });
}

// What the right side computes where the left side is defined: out of fuel or overflowed is a
// discard; undefined or any other error a failure.
template <class F> adsem::rules::Reals right_value(F&& f) {
  return adsem::rules::right_meaning("the left side is defined but the right side is not", f,
                                     [](const AdsemError& e) -> std::optional<std::string> {
                                       if (auto fuel = adsem::rules::fuel_discard(e)) return fuel;
                                       if (e.diagnostic().message.find("non-finite") !=
                                           std::string::npos)
                                         return props::discards::overflow;
                                       return std::nullopt;
                                     });
}

// The two sides may associate sums differently: the derivative tolerance (spec §5.5).
adsem::rules::Comparison compared(std::string expected, std::string actual) {
  return {std::move(expected), std::move(actual), CheckKind::derivative,
          adsem::rules::Overflow::both_discard};
}

// The paper's reduction (strategy.hpp) with the rule checks' budget: 2000 steps (premise steps
// included; --set fuel=N overrides) and, against the rare instance whose terms grow with every
// step, 2 s of wall-clock time. Running out of either is the calculus's "fuel" discard.
Term reduce(const Term& t, const props::PropertyContext& context) {
  Machine machine(Rules{}, support::run_options(context, 2000));
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(2);
  machine.observe([deadline](const Term&, const Step&, bool) {
    if (std::chrono::steady_clock::now() > deadline)
      throw AdsemError(ErrorKind::fuel, "check-rule: the reduction ran longer than 2 s");
  });
  return machine.normalise(t).result;
}

Env<double> point_env(const RuleInstance& in) {
  return extend<double>(nullptr, in.a, support::denote_in(in.point, nullptr));
}

// The left side checked strictly (Fig. 3), the right with lin⁺ (reducts, Cor. 4.7).
adsem::rules::SideTyping side_typing(const RuleInstance& in) {
  adsem::rules::SideTyping typing;
  typing.left_error = type_error(in.before, gamma_of(in), LinMode::strict);
  if (typing.left_error) return typing;
  typing.right_error = type_error(in.after, gamma_of(in), LinMode::plus);
  if (typing.right_error) return typing;
  const Type right = typecheck(in.after, gamma_of(in), LinMode::plus);
  typing.same_type = same_type(right, in.type);
  typing.left_type = type_text(in.type);
  typing.right_type = type_text(right);
  return typing;
}

TrialResult denotation_preservation(const RuleInstance& in, const props::PropertyContext& context) {
  const Env<double> env = point_env(in);
  return adsem::rules::semantic_check(
      [&] { return left_value(in.before, in.type, env); },
      [&] {
        return right_value([&] { return as_vector(support::denote_in(in.after, env), in.type); });
      },
      compared("⟦C[σ(LHS)]⟧", "⟦C[σ(RHS)]⟧"), context);
}

TrialResult extended_adequacy(const RuleInstance& in, const props::PropertyContext& context) {
  const auto right = [&]() -> adsem::rules::Reals {
    Term nf;
    auto v = right_value([&] {
      nf = reduce(substitute(in.after, in.a, in.point), context);
      return normal_form_vector(nf, in.type, nullptr);
    });
    if (!v) return v;
    // subject reduction through the extended reduction (Cor. 4.7; reducts are checked with lin⁺)
    if (const auto err = type_error(nf, {}, LinMode::plus))
      return TrialResult::fail("the normal form of C[σ(RHS)] does not type-check: " + *err);
    if (!same_type(typecheck(nf, {}, LinMode::plus), in.type))
      return TrialResult::fail(fmt::format("the normal form of C[σ(RHS)] has type {}, not {}",
                                           type_text(type_of(nf)), type_text(in.type)));
    return v;
  };
  return adsem::rules::semantic_check([&] { return left_value(in.before, in.type, point_env(in)); },
                                      right, compared("⟦C[σ(LHS)]⟧", "normal form of C[σ(RHS)]"),
                                      context);
}

TrialResult extended_ad(const RuleInstance& in, const props::PropertyContext& context) {
  // ω: the constant 1-form Ω c on a Euclidean result; a free ω with a random (linear) model value
  // otherwise (Cor. 4.8(2): a free 1-form exposes the derivative of any abstraction)
  Term omega;
  Env<double> env = nullptr;
  if (is_euclidean(in.type)) {
    omega = lam("u", in.type, covec(in.cotangent, in.type));
  } else {
    const Type form = one_form(in.type);
    omega = var("om", form);
    std::mt19937_64 rng(support::draw_seed());
    env = extend<double>(nullptr, "om", support::random_model_value(form, rng));
  }
  const auto query = [&](const Term& body) {
    return app(pullback(in.a, in.sigma_a, body, omega), in.point);
  };
  const Type result = dual(in.sigma_a);
  return adsem::rules::semantic_check(
      [&] { return left_value(query(in.before), result, env); },
      [&] {
        return right_value(
            [&] { return normal_form_vector(reduce(query(in.after), context), result, env); });
      },
      compared("model pullback of a0. C[σ(LHS)]", "reduced gradient query of a0. C[σ(RHS)]"),
      context);
}

} // namespace

Pattern RuleTraits::compile(const adsem::rules::RuleDecl& rule) {
  Pattern p = compile_pattern(rule);
  if (!can_place(p.type))
    throw AdsemError(ErrorKind::type,
                     fmt::format("rule '{}' has type {}: check-rule pullback builds contexts for "
                                 "Euclidean types, duals of Euclidean types, functions and "
                                 "1-forms whose arguments it can generate, and products of those",
                                 rule.name, type_text(p.type)),
                     rule.lhs.pos);
  for (const Metavariable& m : p.metas)
    if (!m.linear_in && !can_generate(m.type))
      throw AdsemError(ErrorKind::type,
                       fmt::format("metavariable '{}' has type {}: check-rule pullback generates "
                                   "terms of Euclidean types, duals of Euclidean types, functions "
                                   "and products of those",
                                   m.name, type_text(m.type)),
                       adsem::rules::find_meta(rule, m.name)->type.pos);
  return p;
}

std::vector<adsem::rules::RuleCheckDef> RuleTraits::checks() {
  return adsem::rules::rule_checks(
      {"C[σ(RHS)] type-checks (lin⁺) with the type of C[σ(LHS)] for random contexts C and σ",
       "seed 000 Cor. 4.7 (lines 494-496), spec §6 P3 and ID-3, extended to the user's rule"},
      {"⟦C[σ(RHS)]⟧ = ⟦C[σ(LHS)]⟧ wherever the left is defined (complete probes)",
       "seed 000 Thm 4.6 (lines 473-476), interpretation §4.2 (lines 448-458), spec §6 P1"},
      {"the reduction after one rewrite reaches a normal form of the same type denoting "
       "⟦C[σ(LHS)]⟧",
       "seed 000 Thm 4.6 and Cor. 4.7 (lines 473-496), spec §6 P1, P3, P18"},
      {"the reduced gradient query ((Ω λa0.C[σ(RHS)])·ω) V is the model's pullback of "
       "a0. C[σ(LHS)]",
       "seed 000 Cor. 4.8 (lines 504-509), spec §6 P10, P11"});
}

props::TrialResult RuleTraits::trial(const Pattern& p, const std::string& check,
                                     const props::PropertyContext& context) {
  static const adsem::rules::SemanticBodies<const RuleInstance&, const props::PropertyContext&>
      semantic{denotation_preservation, extended_adequacy, extended_ad};
  const RuleInstance in = draw_instance(p);
  context.report_input(in.report);
  return done(in, adsem::rules::checked_trial(check, side_typing(in), [&] {
                return semantic.run("pullback", check, in, context);
              }));
}

std::string RuleTraits::type_text(const Type& t) {
  return pullback::type_text(t);
}

} // namespace adsem::pullback
