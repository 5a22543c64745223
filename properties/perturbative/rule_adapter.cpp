// User rules for perturbative: the instances and the four checks (rule_adapter.hpp).
#include "properties/perturbative/rule_adapter.hpp"

#include <cmath>

#include <fmt/format.h>
#include <rapidcheck.h>

#include "generators/core/uniform.hpp"
#include "generators/perturbative/terms.hpp"
#include "properties/core/discards.hpp"
#include "properties/core/rule_instance_kit.hpp"
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

// Generation depths (generators/perturbative: depth bounds the term). T_x output grows ×3 per
// level of application nesting (docs/calculi/perturbative.md "Cost"), and extended-ad pushes
// the whole program forward, so contexts and instances stay shallow.
constexpr int context_depth = 3;
constexpr int meta_depth = 2;

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

std::optional<std::string> ill_typed(const Term& m, const Context& gamma);

// How perturbative draws an instance (rule_instance_kit.hpp): a real-valued context with one free
// variable a : R or a : R * R, the hole wherever the generator put a variable of its type.
struct Draw {
  using Pattern = perturbative::Pattern;
  using Term = perturbative::Term;
  using Hole = Context; // in scope at the occurrence
  struct Frame {
    std::string x; // the context's free variable x : t
    Type t;
  };
  static constexpr const char* calculus = "perturbative";
  static constexpr int context_attempts = 3; // the generator rarely puts a variable of type U

  static Frame frame(const Pattern& p) {
    return {adsem::rules::fresh_context_name(p.names),
            support::uniform(3) == 0 ? product_type(real_type(), real_type()) : real_type()};
  }
  static Context outer(const Pattern& p, const Frame& f) {
    return {{f.x, f.t}, {adsem::rules::context_hole, p.type}};
  }
  static Term context(const Pattern& p, const Frame& f) {
    return *gen::term(outer(p, f), real_type(), context_depth);
  }
  static Term use_hole(const Term& c, const Pattern& p, const Frame& f) {
    return sum(c, use_of(var(adsem::rules::context_hole, p.type), p.type, {{f.x, f.t}}));
  }
  static int pick(int n) { return support::uniform(n); }
  static bool under_binder(const Context& hole, const Frame&) { return hole.size() > 2; }
  static Context visible(const Context& hole) {
    Context out;
    for (const auto& v : hole)
      if (v.first != adsem::rules::context_hole) out.push_back(v);
    return out;
  }
  static bool mentions(const Term& term, const Context& names, const Frame& f) {
    const auto fv = free_variables(term);
    return std::ranges::any_of(
        names, [&](const auto& v) { return v.first != f.x && fv.contains(v.first); });
  }
  static Term meta_term(const Context& scope, const Metavariable& m, std::size_t) {
    return *gen::term(scope, m.type, meta_depth);
  }
  static Term fill_others(const Term& c, const std::vector<Context>&, std::size_t, const Pattern&) {
    return c; // plug makes the other occurrences 0
  }
  static Term place(const Term& c, const std::vector<Context>&, std::size_t which,
                    const Term& with) {
    return plug(c, adsem::rules::context_hole, which, with);
  }
  static Term marker(const Pattern& p) { return var("[ ]", p.type); }
  static std::vector<double> point(const Frame& f) {
    std::vector<double> at;
    for (int i = 0; i < (is_product(f.t) ? 2 : 1); ++i)
      at.push_back(adsem::gen::uniform_in(-250, 251) / 100.0); // the grid of the AD properties
    return at;
  }
  static std::string at_text(const Frame& f, const std::vector<double>& at) {
    return adsem::rules::variable_at(f.x, print_type(f.t), at,
                                     [](double v) { return fmt::format("{}", v); });
  }
  static std::string result_text() { return print_type(real_type()); }
  static int size(const Term& t) { return static_cast<int>(size_of(t)); }
  static std::vector<std::string> tags(const Term& t) { return gen::tags_of(t); }
  static adsem::rules::SideTyping side_typing(const adsem::rules::Instance<Draw>& in) {
    adsem::rules::SideTyping typing;
    const Context gamma = {{in.frame.x, in.frame.t}};
    typing.left_error = ill_typed(in.before, gamma); // a well-typed schema's instance is well typed
    if (!typing.left_error) typing.right_error = ill_typed(in.after, gamma);
    return typing;
  }
};
using Instance = adsem::rules::Instance<Draw>;

Term point_of(const Instance& in) {
  return ground_value(in.frame.t, in.at);
}

std::optional<std::string> ill_typed(const Term& m, const Context& gamma) {
  if (auto e = type_error(m, gamma, constant_types())) return e;
  if (!same_type(m.type, real_type())) return "the program has type " + type_text(m.type);
  return std::nullopt;
}

double real_of(const V& v) {
  return model::flatten_primal(v).front();
}

// ⟦m⟧ in the model, the context's variable at the point.
double meaning_at(const Term& m, const Instance& in, const DenoteContext& dc) {
  const V point = support::denote_in(point_of(in), "", V(0.0), dc);
  return real_of(support::denote_in(m, in.frame.x, point, dc));
}

// ⟦C[σ(LHS)]⟧ at the point, or the calculus's discard (support::guarded: a point outside a
// primitive's domain, fuel, overflow).
adsem::rules::Reals left_meaning(const Instance& in, const DenoteContext& dc) {
  return adsem::rules::finite_or_overflow(adsem::rules::guarded_meaning<std::vector<double>>(
      support::guarded, [&] { return std::vector<double>{meaning_at(in.before, in, dc)}; }));
}

// The normal form of m (reference normaliser, spec §4.7) as a real; nullopt when it is not a
// numeral (stuck, printed in `shown`); fuel and overflow are discards.
adsem::rules::Meaning<std::optional<double>>
normal_real(const Term& m, const props::PropertyContext& context, std::string& shown) {
  return adsem::rules::guarded_meaning<std::optional<double>>(
      support::guarded, [&]() -> std::optional<double> {
        const Term nf =
            normalise(m, *semantics_for(context).rules, support::run_options(context)).result;
        if (!is_numeric_value(nf) || nf.type->kind != TypeNode::Kind::real) {
          shown = print(nf);
          return std::nullopt;
        }
        return numeric_reals(nf).front();
      });
}

// The right side's program normalised to a numeral. A stuck right side is a failure unless the
// left side's program is stuck too (then the calculus's own adequacy, not the rule, is at
// stake: a counted discard).
template <class Left>
adsem::rules::Reals normalised(const Term& right, Left&& left, const std::string& what,
                               const props::PropertyContext& context) {
  std::string shown, left_shown;
  const auto r = normal_real(right, context, shown);
  if (!r) return r.instead;
  if (*r) return std::vector<double>{**r};
  const auto l = normal_real(left(), context, left_shown);
  if (!l) return l.instead;
  if (!*l) return TrialResult::discard("lhs-stuck");
  return TrialResult::fail(
      fmt::format("{} does not normalise to a numeral (the left does): {}", what, shown));
}

// A rewrite may reassociate sums: the tolerance of the calculus's step-soundness (probe kind).
TrialResult denotation_preservation(const Instance& in, const props::PropertyContext& context) {
  const auto dc = support::denote_context(context);
  return adsem::rules::semantic_check(
      [&] { return left_meaning(in, dc); },
      [&] {
        return adsem::rules::right_meaning("⟦C[σ(LHS)]⟧ is defined but ⟦C[σ(RHS)]⟧ is ⊥", [&] {
          return std::vector<double>{meaning_at(in.after, in, dc)};
        });
      },
      {"⟦C[σ(LHS)]⟧", "⟦C[σ(RHS)]⟧", CheckKind::probe}, context);
}

// The closed program (λa. C[σ(RHS)]) a0, normalised by the calculus's rules.
TrialResult extended_adequacy(const Instance& in, const props::PropertyContext& context) {
  const auto dc = support::denote_context(context);
  const auto at_point = [&](const Term& body) {
    return app(lam(in.frame.x, in.frame.t, body), point_of(in));
  };
  return adsem::rules::semantic_check([&] { return left_meaning(in, dc); },
                                      [&] {
                                        return normalised(
                                            at_point(in.after), [&] { return at_point(in.before); },
                                            "C[σ(RHS)] at the point", context);
                                      },
                                      {"⟦C[σ(LHS)]⟧", "NF C[σ(RHS)]", CheckKind::probe}, context);
}

// D(f, e, a0) = π1 (T f (e, a0)) (rules.hpp, spec §2.7): the calculus's forward AD against the
// model's directional derivative.
TrialResult extended_ad(const Instance& in, const props::PropertyContext& context) {
  const auto dc = support::denote_context(context);
  // the tangent: 1, or a unit vector e_i at a : R * R (as `grad` does)
  std::vector<double> e(in.at.size(), 0.0);
  e[static_cast<std::size_t>(support::uniform(static_cast<int>(e.size())))] = 1.0;
  const Term tangent = ground_value(in.frame.t, e);
  const auto expected = [&]() -> adsem::rules::Reals {
    if (const auto l = left_meaning(in, dc); !l) return l;
    return adsem::rules::finite_or_overflow(
        adsem::rules::guarded_meaning<std::vector<double>>(support::guarded, [&] {
          const V f = support::denote_in(lam(in.frame.x, in.frame.t, in.before), "", V(0.0), dc);
          const V point = support::denote_in(point_of(in), "", V(0.0), dc);
          const V dir = support::denote_in(tangent, "", V(0.0), dc);
          return std::vector<double>{
              real_of(model::directional_derivative(f, point, dir, dc.diff))};
        }));
  };
  const auto derivative = [&](const Term& body) {
    return semantics_for(context).derivative(lam(in.frame.x, in.frame.t, body), tangent,
                                             point_of(in));
  };
  return adsem::rules::semantic_check(
      expected,
      [&] {
        return normalised(
            derivative(in.after), [&] { return derivative(in.before); }, "D(λa. C[σ(RHS)])",
            context);
      },
      {"model derivative of λa. C[σ(LHS)]", "D(λa. C[σ(RHS)]) by T"}, context);
}

} // namespace

Targeted draw_targeted_instance(const Pattern& p, const Type& domain) {
  const Instance in =
      adsem::rules::draw_instance<Draw>(p, {adsem::rules::fresh_context_name(p.names), domain});
  return Targeted{lam(in.frame.x, in.frame.t, in.before), point_of(in)};
}

std::vector<adsem::rules::RuleCheckDef> RuleTraits::checks() {
  return adsem::rules::rule_checks(
      {"C[σ(RHS)] type-checks at the type of C[σ(LHS)] for random contexts C and instances σ",
       "seed 004 Lemma 4.1(d) (L275, subject reduction), Fig. 1 (L145-164), extended to the "
       "user's rule"},
      {"⟦C[σ(RHS)]⟧ = ⟦C[σ(LHS)]⟧ wherever the left is defined",
       "seed 004 Thm 5.6 (L339-346): soundness of each rewrite step in the model of §5 "
       "(L281-293)"},
      {"the reference normaliser after one rewrite gives a numeral equal to ⟦C[σ(LHS)]⟧",
       "spec SEM-8 (adequacy at ground type) with seed 004 Thm 5.6 (L339-346)"},
      {"D(λa. C[σ(RHS)], e, a0) by the T rule and T_x equals the model's derivative of "
       "λa. C[σ(LHS)]",
       "seed 004 Lemma 5.5 (L316-338), L38-46; spec AD-8"});
}

props::TrialResult RuleTraits::trial(const Pattern& p, const std::string& check,
                                     const props::PropertyContext& context) {
  return adsem::rules::instance_trial<Draw>(
      p, check, context, {denotation_preservation, extended_adequacy, extended_ad});
}

std::string RuleTraits::type_text(const Type& t) {
  return perturbative::type_text(t);
}

} // namespace adsem::perturbative
