// User rules for linear-negation: the instances and the four checks (rule_adapter.hpp).
#include "properties/linear_negation/rule_adapter.hpp"

#include <cmath>

#include <fmt/format.h>
#include <rapidcheck.h>

#include "generators/linear_negation/terms.hpp"
#include "properties/core/discards.hpp"
#include "properties/core/rule_pattern_kit.hpp"
#include "properties/linear_negation/rule_pattern.hpp"
#include "properties/linear_negation/user_rules.hpp"
#include "semantics/core/interval_model.hpp"
#include "semantics/core/jacobian.hpp"
#include "semantics/core/model_errors.hpp"
#include "semantics/linear_negation/denotation.hpp"
#include "semantics/linear_negation/primitives.hpp"
#include "semantics/linear_negation/program.hpp"
#include "semantics/linear_negation/transform.hpp"
#include "syntax/linear_negation/printer.hpp"

namespace adsem::linear_negation {

namespace {

using props::TrialResult;

const std::string hole_name = "hole'"; // never a name of the surface syntax

int choose(int lo, int hi) { // uniform in [lo, hi) at every size; shrinks towards lo
  return *rc::gen::resize(100, rc::gen::inRange(lo, hi));
}

// One instance C[σ(LHS)] / C[σ(RHS)] of a rule at a point.
struct Instance {
  std::vector<std::string> inputs; // x1..xn : R, the program's free variables
  std::vector<double> at;
  Term lhs, rhs;      // σ(LHS), σ(RHS)
  Term before, after; // C[σ(LHS)], C[σ(RHS)]
  std::string report;

  Context gamma() const {
    Context g;
    for (const std::string& x : inputs)
      g[x] = real_type();
    return g;
  }
  TrialResult done(TrialResult r) const {
    r.on(report, "R", static_cast<int>(size_of(before)), gen::tags_of(before));
    return r;
  }
};

Context context_of(const VarScope& scope) {
  Context g;
  for (const auto& [x, a] : scope)
    g[x] = a;
  return g;
}

// A term drawn by `make` that shrinks by its generator's choices and by the calculus's typed
// shrinks (replace by 0/1 or a subterm, inline a let, contract a β-redex; gen::shrinks).
template <class F> Term draw_term(const VarScope& scope, F make) {
  return *rc::gen::shrink(rc::gen::exec(make), [gamma = context_of(scope)](const Term& t) {
    return rc::seq::fromContainer(gen::shrinks(t, gamma, false));
  });
}

Instance draw_instance(const Pattern& p) {
  Instance in;
  // the context C: x1..xn : R, hole' : T ⊢ C : R, the hole wherever a leaf may be
  const int n = choose(1, 3);
  VarScope outer;
  for (int i = 1; i <= n; ++i) {
    in.inputs.push_back("x" + std::to_string(i));
    outer.emplace_back(in.inputs.back(), real_type());
  }
  VarScope with_hole = outer;
  with_hole.emplace_back(hole_name, p.type);
  // (captures by value: RapidCheck re-runs the generator while shrinking, after this returns)
  Term context = draw_term(
      with_hole, [with_hole] { return gen::term_of(with_hole, real_type(), choose(0, 4), 0); });
  std::vector<Occurrence> holes = occurrences(context, hole_name, outer);
  if (holes.empty()) { // a context that happened not to mention the hole does, at the top
    context = add(context, gen::use_of(var(hole_name), p.type, outer, choose(0, 2), 900));
    holes = occurrences(context, hole_name, outer);
  }
  const auto which = static_cast<std::size_t>(choose(0, static_cast<int>(holes.size())));
  const Occurrence& hole = holes[which];

  // σ: each metavariable an exponential term of its type over what it may see
  std::map<std::string, Term> sigma;
  std::string assignment;
  int counter = 100;
  for (const Metavariable& m : p.metas) {
    VarScope scope = hole.visible;
    scope.insert(scope.end(), m.binders.begin(), m.binders.end());
    const Term t = draw_term(scope, [scope, type = m.type, counter] {
      return gen::term_of(scope, type, choose(0, 3), counter);
    });
    counter += 100;
    sigma[m.name] = t;
    rules::add_assignment(assignment, m.name, print(t));
  }
  for (int i = 0; i < n; ++i) // the point: on the campaigns' grid, shrinking towards 0
    in.at.push_back(*rc::gen::element(0.0, 1.0, -1.0, 0.5, -0.5, 1.5, -1.5, 2.0, -2.0) +
                    choose(0, 10) / 100.0);
  in.lhs = instantiate(p.lhs, sigma);
  in.rhs = instantiate(p.rhs, sigma);
  const auto plugged = rules::plug_instance(context, holes, which, zero_of(p.type), in.lhs, in.rhs,
                                            var("[ ]"), replace_at);
  in.before = plugged.before;
  in.after = plugged.after;

  std::string point;
  for (std::size_t i = 0; i < in.inputs.size(); ++i)
    point += fmt::format("{}{} = {}", i ? ", " : "", in.inputs[i], format_real(in.at[i]));
  in.report = fmt::format("{}  -->  {}   with {}   in context {}   at {}", print(in.lhs),
                          print(in.rhs), assignment.empty() ? "no metavariables" : assignment,
                          print(plugged.shown), point);
  return in;
}

std::optional<Typed> typed(const Term& t, const Instance& in, std::string& error) {
  try {
    return elaborate(t, in.gamma());
  } catch (const AdsemError& e) {
    error = e.diagnostic().message;
    return std::nullopt;
  }
}

// The program as a model function of its inputs, on any scalar (Table 4; never D or reduction).
template <class C>
model::VectorFunction<model::Dual<C>> model_function(const Term& body, const Instance& in) {
  return [body, inputs = in.inputs](std::span<const model::Dual<C>> x) {
    Env<C> env;
    for (std::size_t i = 0; i < x.size(); ++i)
      env = bind<C>(env, inputs[i], model::Value<C>(x[i]));
    return std::vector<model::Dual<C>>{denote<C>(body, env).real()};
  };
}

double value_at(const Term& body, const Instance& in) {
  const std::vector<model::Dual<double>> x(in.at.begin(), in.at.end());
  return model::primal_of(model_function<double>(body, in)(x).front());
}

// ⟦C[σ(LHS)]⟧(r), certified on a box around r (design.md "Partial domains"); a counted discard
// with the calculus's reasons otherwise (undefined-point, uncertified, non-finite).
std::optional<double> left_value(const Term& left, const Instance& in, TrialResult& discard) {
  try {
    const auto f = model_function<model::Interval>(left, in);
    const model::Certificate c =
        model::certify(in.at, [&](const model::Box& box) { (void)model::enclose(f, box); });
    if (c.status == model::CertificateStatus::outside) {
      discard = TrialResult::discard("undefined-point");
      return std::nullopt;
    }
    if (c.status != model::CertificateStatus::certified) {
      discard = TrialResult::discard("uncertified");
      return std::nullopt;
    }
    const double v = value_at(left, in);
    if (!std::isfinite(v)) {
      discard = TrialResult::discard(props::discards::overflow);
      return std::nullopt;
    }
    return v;
  } catch (const model::Undefined&) {
    discard = TrialResult::discard("undefined-point");
  } catch (const model::Undecided& e) {
    discard = TrialResult::discard(e.reason());
  }
  return std::nullopt;
}

RunOptions run_options(const props::PropertyContext& context) {
  RunOptions o;
  o.fuel = context.option_int("fuel", 200'000);
  o.strategy = Strategy::bp;
  return o;
}

TrialResult compare(const std::vector<double>& expected, const std::string& el,
                    const std::vector<double>& actual, const std::string& al,
                    const props::PropertyContext& context) {
  if (expected.size() != actual.size())
    return TrialResult::fail(
        fmt::format("{} has {} components, {} has {}", el, expected.size(), al, actual.size()));
  for (std::size_t i = 0; i < expected.size(); ++i) {
    // the two sides may associate sums and products differently: the derivative tolerance
    TrialResult r = props::compare_reals(expected[i], fmt::format("{}[{}]", el, i), actual[i],
                                         fmt::format("{}[{}]", al, i), CheckKind::derivative,
                                         context.tolerance(CheckKind::derivative));
    if (r.kind != TrialResult::Kind::pass) return r;
  }
  return TrialResult::pass();
}

TrialResult denotation_preservation(const Instance& in, const Typed& left, const Typed& right,
                                    const props::PropertyContext& context) {
  TrialResult discard;
  const auto l = left_value(left.term, in, discard);
  if (!l) return discard;
  double r = 0;
  try {
    r = value_at(right.term, in);
  } catch (const model::Undefined& e) {
    return TrialResult::fail(std::string("⟦C[σ(LHS)]⟧ is defined but ⟦C[σ(RHS)]⟧ is ⊥: ") +
                             e.what());
  }
  return compare({*l}, "⟦C[σ(LHS)]⟧", {r}, "⟦C[σ(RHS)]⟧", context);
}

Term closed_at(const Term& body, const Instance& in) {
  Term t = body;
  for (std::size_t i = 0; i < in.inputs.size(); ++i)
    t = let(exp_binder(in.inputs[i], real_type()), t, num(in.at[i]));
  return t;
}

TrialResult extended_adequacy(const Instance& in, const Typed& left, const Typed& right,
                              const props::PropertyContext& context) {
  TrialResult discard;
  const auto l = left_value(left.term, in, discard);
  if (!l) return discard;
  std::vector<double> result;
  try {
    const Run run = normalise(elaborate(closed_at(right.term, in)).term, run_options(context));
    result = ground_result(run);
  } catch (const AdsemError& e) {
    if (e.diagnostic().kind == ErrorKind::fuel) return TrialResult::discard("fuel");
    return TrialResult::fail("⟦C[σ(LHS)]⟧ is defined but S_bp on C[σ(RHS)][x := r] gives no "
                             "numeral: " +
                             e.diagnostic().message);
  }
  return compare({*l}, "⟦C[σ(LHS)]⟧", result, "S_bp normal form of C[σ(RHS)]", context);
}

TrialResult extended_ad(const Instance& in, const Typed& left,
                        const props::PropertyContext& context) {
  TrialResult discard;
  if (!left_value(left.term, in, discard)) return discard;
  const Eigen::VectorXd x =
      Eigen::Map<const Eigen::VectorXd>(in.at.data(), static_cast<long>(in.at.size()));
  Eigen::VectorXd exact;
  try {
    exact = model::gradient(model_function<double>(left.term, in), x);
  } catch (const model::Undefined&) {
    return TrialResult::discard("undefined-point");
  }
  if (!exact.allFinite()) return TrialResult::discard(props::discards::overflow);
  std::vector<double> actual;
  try {
    // D (Table 3) on the rewritten source program, Cor. 16's wrapper, S_bp, read-back A
    const Typed source = elaborate(in.after, in.gamma(), true);
    actual =
        reduce_gradient(source.term, in.inputs, in.at, run_options(context), {}, true).gradient;
  } catch (const AdsemError& e) {
    if (e.diagnostic().kind == ErrorKind::fuel) return TrialResult::discard("fuel");
    return TrialResult::fail("the model differentiates C[σ(LHS)] but the gradient reduction of "
                             "C[σ(RHS)] fails: " +
                             e.diagnostic().message);
  }
  return compare({exact.data(), exact.data() + exact.size()}, "model ∇C[σ(LHS)]", actual,
                 "read-back A of W(C[σ(RHS)])", context);
}

} // namespace

RuleInstance draw_rule_instance(const Pattern& rule) {
  const Instance in = draw_instance(rule);
  return RuleInstance{in.before, in.inputs, in.at};
}

Typed draw_closed_instance(const Pattern& rule) {
  const Instance in = draw_instance(rule);
  return elaborate(closed_at(in.before, in));
}

std::vector<rules::RuleCheckDef> RuleTraits::checks() {
  return {
      {"type-preservation", "typing",
       "C[σ(RHS)] type-checks (Table 1, linearity included) at the type of C[σ(LHS)]",
       "seed 002 Prop. 2 (subject reduction), L407, proof L712-719, extended to the user's rule"},
      {"denotation-preservation", "soundness",
       "⟦C[σ(RHS)]⟧ = ⟦C[σ(LHS)]⟧ at the point, wherever the left is certified defined",
       "seed 002 Prop. 8, L428 (every step preserves the denotation, Table 4 L782-841)"},
      {"extended-adequacy", "adequacy", "S_bp after one rewrite ends in the numeral ⟦C[σ(LHS)]⟧",
       "seed 002 Prop. 2, 5, 6, Cor. 9 (L407-434)"},
      {"extended-ad", "ad-correctness",
       "Cor. 16's wrapper around D(C[σ(RHS)]), S_bp-normalised, reads back ∇⟦C[σ(LHS)]⟧ (source "
       "rules)",
       "seed 002 Thm 15, Cor. 16 (L466, L562-566), Table 3 L453-468"},
  };
}

std::vector<rules::RuleCheckDef> RuleTraits::checks_for(const Pattern& p) {
  std::vector<rules::RuleCheckDef> out = checks();
  if (!p.source) std::erase_if(out, [](const auto& c) { return c.name == "extended-ad"; });
  return out;
}

props::TrialResult RuleTraits::trial(const Pattern& p, const std::string& check,
                                     const props::PropertyContext& context) {
  static const rules::SemanticChecks<const Instance&, const Typed&, const Typed&,
                                     const props::PropertyContext&>
      semantic("linear-negation",
               {{"denotation-preservation", denotation_preservation},
                {"extended-adequacy", extended_adequacy},
                {"extended-ad",
                 [](const Instance& in, const Typed& left, const Typed&,
                    const props::PropertyContext& c) { return extended_ad(in, left, c); }}});
  const Instance in = draw_instance(p);
  context.report_input(in.report);
  const auto sides = rules::type_sides(
      in.before, in.after, [&](const Term& t, std::string& error) { return typed(t, in, error); },
      same_type, type_text);
  return in.done(rules::checked_trial(check, sides.typing, [&] {
    return semantic.run(check, in, *sides.left, *sides.right, context);
  }));
}

std::string RuleTraits::type_text(const Type& t) {
  return linear_negation::type_text(t);
}

std::shared_ptr<const props::CompiledRuleFile>
RuleTraits::compile_file(const rules::RuleFile& file) {
  return compile_rule_file(file);
}

} // namespace adsem::linear_negation
