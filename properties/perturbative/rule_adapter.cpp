// User rules for perturbative: the instances and the four checks (rule_adapter.hpp).
#include "properties/perturbative/rule_adapter.hpp"

#include <cmath>

#include <fmt/format.h>
#include <rapidcheck.h>

#include "generators/perturbative/terms.hpp"
#include "properties/core/discards.hpp"
#include "properties/core/rule_pattern_kit.hpp"
#include "properties/perturbative/frontend.hpp"
#include "properties/perturbative/mutants.hpp"
#include "properties/perturbative/rule_pattern.hpp"
#include "properties/perturbative/support.hpp"
#include "properties/perturbative/user_rules.hpp"
#include "semantics/core/model_errors.hpp"
#include "semantics/perturbative/constants.hpp"
#include "syntax/perturbative/printer.hpp"
#include "syntax/perturbative/typecheck.hpp"

namespace adsem::perturbative {

namespace {

using props::TrialResult;
using support::V;

const std::string hole_name = "hole'"; // never a user name (the lexer has no primes)

// Generation depths (generators/perturbative: depth bounds the term). T_x output grows ×3 per
// level of application nesting (docs/calculi/perturbative.md "Cost"), and extended-ad pushes
// the whole program forward, so contexts and instances stay shallow.
constexpr int context_depth = 3;
constexpr int meta_depth = 2;

// One instance C[σ(LHS)] / C[σ(RHS)] of a rule at a point.
struct Instance {
  std::string x; // the context's free variable x : t
  Type t;
  std::vector<double> at;
  Term before, after; // C[σ(LHS)], C[σ(RHS)]
  std::string report;
  // where the instance sits and what it mentions (campaign statistics: the hole under a context
  // binder, an instance that uses a context binder or a binder of the left-hand side)
  std::vector<std::string> placement;

  TrialResult done(TrialResult r) const {
    std::vector<std::string> tags = gen::tags_of(before);
    tags.insert(tags.end(), placement.begin(), placement.end());
    r.on(report, print_type(real_type()), static_cast<int>(size_of(before)), std::move(tags));
    return r;
  }
  Context gamma() const { return {{x, t}}; }
  Term point() const { return ground_value(t, at); }
};

// A real-valued use of h : U, for a context that happened not to mention the hole. Either
// projection of a product (at a tangent type Tσ = σ × σ, π1 alone would see only tangents).
Term use_of(const Term& h, const Type& u, const Context& gamma) {
  if (u->kind == TypeNode::Kind::real) return h;
  if (is_product(u)) {
    const int k = 1 + support::uniform(2);
    return use_of(proj(k, h), component(u, k), gamma);
  }
  return use_of(app(h, *gen::term(gamma, u->left, 1)), u->right, gamma);
}

// The context C (x : t ⊢ C[hole : U] : R) and the place of the hole in it: wherever the
// generator put a variable of type U.
struct Place {
  Term context;
  Context scope;     // in scope at the hole (the hole itself left out)
  std::size_t which; // the chosen occurrence of the hole (the others become 0)
  bool under_binder; // a context binder is around it
};

Place draw_place(const Pattern& p, const Instance& in) {
  const Context outer = {{in.x, in.t}, {hole_name, p.type}};
  Place place;
  std::vector<Context> holes;
  for (int attempt = 0; attempt < 3 && holes.empty(); ++attempt) {
    place.context = *gen::term(outer, real_type(), context_depth);
    holes = occurrences(place.context, hole_name, outer);
  }
  if (holes.empty()) { // the generator rarely puts a variable of the hole's type: use it on top
    place.context = sum(place.context, use_of(var(hole_name, p.type), p.type, in.gamma()));
    holes = occurrences(place.context, hole_name, outer);
  }
  // one of the places the generator chose, half of the time one under a context binder (when
  // there is one), so that instances meet the context's binders
  std::vector<std::size_t> under;
  for (std::size_t i = 0; i < holes.size(); ++i)
    if (holes[i].size() > outer.size()) under.push_back(i);
  const auto pick = [](std::size_t n) {
    return static_cast<std::size_t>(support::uniform(static_cast<int>(n)));
  };
  place.which =
      !under.empty() && support::uniform(2) == 0 ? under[pick(under.size())] : pick(holes.size());
  place.under_binder = holes[place.which].size() > outer.size();
  for (const auto& v : holes[place.which])
    if (v.first != hole_name) place.scope.push_back(v);
  return place;
}

Instance draw_instance(const Pattern& p, const std::optional<Type>& domain = std::nullopt) {
  Instance in;
  in.x = rules::fresh_context_name(p.names);
  in.t = domain ? *domain
                : (support::uniform(3) == 0 ? product_type(real_type(), real_type()) : real_type());
  const Place place = draw_place(p, in);
  const Context& visible = place.scope;
  const Term& context = place.context;
  const std::size_t which = place.which;

  // σ: each metavariable a term of its type over what it may see (capture on purpose)
  std::map<std::string, Term> sigma;
  std::string assignment;
  const auto mentions = [](const Term& term, const Context& names, const std::string& except) {
    const auto fv = free_variables(term);
    return std::ranges::any_of(
        names, [&](const auto& v) { return v.first != except && fv.contains(v.first); });
  };
  const auto tag = [&](const std::string& t) {
    if (std::ranges::find(in.placement, t) == in.placement.end()) in.placement.push_back(t);
  };
  if (place.under_binder) tag("hole-under-binder");
  for (const Metavariable& m : p.metas) {
    Context scope = visible;
    scope.insert(scope.end(), m.binders.begin(), m.binders.end());
    const Term term = *gen::term(scope, m.type, meta_depth);
    sigma[m.name] = term;
    rules::add_assignment(assignment, m.name, print(term));
    if (mentions(term, m.binders, "")) tag("instance-uses-pattern-binder");
    if (mentions(term, visible, in.x)) tag("instance-uses-context-binder");
  }
  const Term lhs = instantiate(p.lhs, sigma);
  const Term rhs = instantiate(p.rhs, sigma);
  in.before = plug(context, hole_name, which, lhs);
  in.after = plug(context, hole_name, which, rhs);
  for (int i = 0; i < (is_product(in.t) ? 2 : 1); ++i)
    in.at.push_back(*rc::gen::inRange(-250, 251) / 100.0); // the grid of the AD properties

  in.report = rules::instance_text({print(lhs), print(rhs), assignment,
                                    print(plug(context, hole_name, which, var("[ ]", p.type))),
                                    in.x, print_type(in.t), rules::point_text(in.at)});
  return in;
}

std::optional<std::string> ill_typed(const Term& m, const Instance& in) {
  if (auto e = type_error(m, in.gamma(), constant_types())) return e;
  if (!same_type(m.type, real_type())) return "the program has type " + type_text(m.type);
  return std::nullopt;
}

// Runs `compute` on the LEFT side: what is not a verdict (a point outside a primitive's domain,
// fuel, overflow) is the calculus's counted discard (support::guarded).
template <class T, class F> std::optional<T> on_left(F&& compute, TrialResult& discard) {
  std::optional<T> out;
  discard = support::guarded([&] {
    out = compute();
    return TrialResult::pass();
  });
  return out;
}

double real_of(const V& v) {
  return model::flatten_primal(v).front();
}

// ⟦C[σ(LHS)]⟧ at the point, or nullopt with the discard.
std::optional<double> left_meaning(const Instance& in, const DenoteContext& dc,
                                   TrialResult& discard) {
  auto l = on_left<double>(
      [&] {
        const V point = support::denote_in(in.point(), "", V(0.0), dc);
        return real_of(support::denote_in(in.before, in.x, point, dc));
      },
      discard);
  if (l && !std::isfinite(*l)) {
    discard = TrialResult::discard(props::discards::overflow);
    return std::nullopt;
  }
  return l;
}

TrialResult compare(double expected, const std::string& expected_label, double actual,
                    const std::string& actual_label, CheckKind kind,
                    const props::PropertyContext& context) {
  if (!std::isfinite(actual) && std::isfinite(expected))
    return TrialResult::fail(
        fmt::format("{} = {} but {} = {}", expected_label, expected, actual_label, actual));
  return props::compare_reals(expected, expected_label, actual, actual_label, kind,
                              context.tolerance(kind));
}

// The normal form of m (reference normaliser, spec §4.7) as a real; nullopt when it is not a
// numeral (stuck); fuel and overflow are discards in `discard`.
std::optional<std::optional<double>> normal_real(const Term& m,
                                                 const props::PropertyContext& context,
                                                 TrialResult& discard, std::string& shown) {
  return on_left<std::optional<double>>(
      [&]() -> std::optional<double> {
        const Term nf =
            normalise(m, *semantics_for(context).rules, support::run_options(context)).result;
        if (!is_numeric_value(nf) || nf.type->kind != TypeNode::Kind::real) {
          shown = print(nf);
          return std::nullopt;
        }
        return numeric_reals(nf).front();
      },
      discard);
}

TrialResult denotation_preservation(const Instance& in, const props::PropertyContext& context) {
  const auto dc = support::denote_context(context);
  TrialResult discard;
  const auto l = left_meaning(in, dc, discard);
  if (!l) return discard;
  std::optional<double> r;
  try {
    const V point = support::denote_in(in.point(), "", V(0.0), dc);
    r = real_of(support::denote_in(in.after, in.x, point, dc));
  } catch (const model::Undefined& e) {
    return TrialResult::fail(std::string("⟦C[σ(LHS)]⟧ is defined but ⟦C[σ(RHS)]⟧ is ⊥: ") +
                             e.what());
  }
  // a rewrite may reassociate sums: the tolerance of the calculus's step-soundness (probe kind)
  return compare(*l, "⟦C[σ(LHS)]⟧", *r, "⟦C[σ(RHS)]⟧", CheckKind::probe, context);
}

// The right side is stuck: a failure unless the left side is stuck too (then the calculus's own
// adequacy, not the rule, is at stake: a counted discard).
TrialResult stuck(const Term& left_program, const std::string& what, const std::string& shown,
                  const props::PropertyContext& context) {
  TrialResult discard;
  std::string left_shown;
  const auto l = normal_real(left_program, context, discard, left_shown);
  if (!l) return discard;
  if (!*l) return TrialResult::discard("lhs-stuck");
  return TrialResult::fail(
      fmt::format("{} does not normalise to a numeral (the left does): {}", what, shown));
}

TrialResult extended_adequacy(const Instance& in, const props::PropertyContext& context) {
  const auto dc = support::denote_context(context);
  TrialResult discard;
  const auto l = left_meaning(in, dc, discard);
  if (!l) return discard;
  // the closed program (λa. C[σ(RHS)]) a0, normalised by the calculus's rules
  const Term program = app(lam(in.x, in.t, in.after), in.point());
  std::string shown;
  const auto r = normal_real(program, context, discard, shown);
  if (!r) return discard;
  if (!*r)
    return stuck(app(lam(in.x, in.t, in.before), in.point()), "C[σ(RHS)] at the point", shown,
                 context);
  return compare(*l, "⟦C[σ(LHS)]⟧", **r, "NF C[σ(RHS)]", CheckKind::probe, context);
}

TrialResult extended_ad(const Instance& in, const props::PropertyContext& context) {
  const auto dc = support::denote_context(context);
  // the tangent: 1, or a unit vector e_i at a : R * R (as `grad` does)
  std::vector<double> e(in.at.size(), 0.0);
  e[static_cast<std::size_t>(support::uniform(static_cast<int>(e.size())))] = 1.0;
  const Term tangent = ground_value(in.t, e);
  TrialResult discard;
  if (!left_meaning(in, dc, discard)) return discard;
  const auto expected = on_left<double>(
      [&] {
        const V f = support::denote_in(lam(in.x, in.t, in.before), "", V(0.0), dc);
        const V point = support::denote_in(in.point(), "", V(0.0), dc);
        const V dir = support::denote_in(tangent, "", V(0.0), dc);
        return real_of(model::directional_derivative(f, point, dir, dc.diff));
      },
      discard);
  if (!expected) return discard;
  if (!std::isfinite(*expected)) return TrialResult::discard(props::discards::overflow);
  const Semantics& semantics = semantics_for(context);
  // D(f, e, a0) = π1 (T f (e, a0)) (rules.hpp, spec §2.7): the calculus's forward AD
  std::string shown;
  const auto actual =
      normal_real(semantics.derivative(lam(in.x, in.t, in.after), tangent, in.point()), context,
                  discard, shown);
  if (!actual) return discard;
  if (!*actual)
    return stuck(semantics.derivative(lam(in.x, in.t, in.before), tangent, in.point()),
                 "D(λa. C[σ(RHS)])", shown, context);
  return compare(*expected, "model derivative of λa. C[σ(LHS)]", **actual, "D(λa. C[σ(RHS)]) by T",
                 CheckKind::derivative, context);
}

} // namespace

Targeted draw_targeted_instance(const Pattern& p, const Type& domain) {
  const Instance in = draw_instance(p, domain);
  return Targeted{lam(in.x, in.t, in.before), in.point()};
}

std::vector<rules::RuleCheckDef> RuleTraits::checks() {
  return {
      {"type-preservation", "typing",
       "C[σ(RHS)] type-checks at the type of C[σ(LHS)] for random contexts C and instances σ",
       "seed 004 Lemma 4.1(d) (L275, subject reduction), Fig. 1 (L145-164), extended to the "
       "user's rule"},
      {"denotation-preservation", "soundness",
       "⟦C[σ(RHS)]⟧ = ⟦C[σ(LHS)]⟧ wherever the left is defined",
       "seed 004 Thm 5.6 (L339-346): soundness of each rewrite step in the model of §5 "
       "(L281-293)"},
      {"extended-adequacy", "adequacy",
       "the reference normaliser after one rewrite gives a numeral equal to ⟦C[σ(LHS)]⟧",
       "spec SEM-8 (adequacy at ground type) with seed 004 Thm 5.6 (L339-346)"},
      {"extended-ad", "ad-correctness",
       "D(λa. C[σ(RHS)], e, a0) by the T rule and T_x equals the model's derivative of "
       "λa. C[σ(LHS)]",
       "seed 004 Lemma 5.5 (L316-338), L38-46; spec AD-8"},
  };
}

props::TrialResult RuleTraits::trial(const Pattern& p, const std::string& check,
                                     const props::PropertyContext& context) {
  static const rules::SemanticChecks<const Instance&, const props::PropertyContext&> semantic(
      "perturbative", {{"denotation-preservation", denotation_preservation},
                       {"extended-adequacy", extended_adequacy},
                       {"extended-ad", extended_ad}});
  const Instance in = draw_instance(p);
  context.report_input(in.report);
  rules::SideTyping typing;
  typing.left_error = ill_typed(in.before, in); // a well-typed schema's instance is well typed
  if (!typing.left_error) typing.right_error = ill_typed(in.after, in);
  return in.done(
      rules::checked_trial(check, typing, [&] { return semantic.run(check, in, context); }));
}

std::string RuleTraits::type_text(const Type& t) {
  return perturbative::type_text(t);
}

} // namespace adsem::perturbative
