// User rules for linear-negation: the instances and the four checks (rule_adapter.hpp).
#include "properties/linear_negation/rule_adapter.hpp"

#include <cmath>

#include <fmt/format.h>
#include <rapidcheck.h>

#include "generators/linear_negation/terms.hpp"
#include "properties/core/discards.hpp"
#include "properties/core/rule_instance_kit.hpp"
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

using adsem::rules::uniform;

Context context_of(const VarScope& scope) {
  Context g;
  for (const auto& [x, a] : scope)
    g[x] = a;
  return g;
}

VarScope real_inputs(const std::vector<std::string>& inputs) {
  VarScope scope;
  for (const std::string& x : inputs)
    scope.emplace_back(x, real_type());
  return scope;
}

// A term drawn by `make` that shrinks by its generator's choices and by the calculus's typed
// shrinks (replace by 0/1 or a subterm, inline a let, contract a β-redex; gen::shrinks).
template <class F> Term draw_term(const VarScope& scope, F make) {
  return *rc::gen::shrink(rc::gen::exec(make), [gamma = context_of(scope)](const Term& t) {
    return rc::seq::fromContainer(gen::shrinks(t, gamma, false));
  });
}

// How linear-negation draws an instance (rule_instance_kit.hpp): a real-valued context over
// inputs x1..xn : R, the hole wherever a leaf may be.
struct Draw {
  using Pattern = linear_negation::Pattern;
  using Term = linear_negation::Term;
  using Hole = Occurrence;
  using Typed = linear_negation::Typed;
  using Frame = std::vector<std::string>; // the inputs x1..xn : R, the program's free variables
  static constexpr const char* calculus = "linear-negation";
  static constexpr int context_attempts = 1;

  static Frame frame(const Pattern&) {
    Frame inputs;
    for (int i = 1, n = uniform(1, 3); i <= n; ++i)
      inputs.push_back("x" + std::to_string(i));
    return inputs;
  }
  static VarScope outer(const Pattern&, const Frame& inputs) { return real_inputs(inputs); }
  static Context gamma(const Frame& inputs) { return context_of(real_inputs(inputs)); }
  static Term context(const Pattern& p, const Frame& inputs) {
    VarScope with_hole = outer(p, inputs);
    with_hole.emplace_back(adsem::rules::context_hole, p.type);
    // (captures by value: RapidCheck re-runs the generator while shrinking, after this returns)
    return draw_term(
        with_hole, [with_hole] { return gen::term_of(with_hole, real_type(), uniform(0, 4), 0); });
  }
  static Term use_hole(const Term& c, const Pattern& p, const Frame& inputs) {
    return add(c, gen::use_of(var(adsem::rules::context_hole), p.type, outer(p, inputs),
                              uniform(0, 2), 900));
  }
  static int pick(int n) { return uniform(0, n); }
  static Term meta_term(const VarScope& scope, const Metavariable& m, std::size_t index) {
    // an exponential term, its binders numbered apart from the other metavariables'
    const int counter = 100 * static_cast<int>(index + 1);
    return draw_term(scope, [scope, type = m.type, counter] {
      return gen::term_of(scope, type, uniform(0, 3), counter);
    });
  }
  static Term marker(const Pattern&) { return var("[ ]"); }
  static std::vector<double> point(const Frame& inputs) {
    std::vector<double> at; // on the campaigns' grid, shrinking towards 0
    for (std::size_t i = 0; i < inputs.size(); ++i)
      at.push_back(*rc::gen::element(0.0, 1.0, -1.0, 0.5, -0.5, 1.5, -1.5, 2.0, -2.0) +
                   uniform(0, 10) / 100.0);
    return at;
  }
  static std::string at_text(const Frame& inputs, const std::vector<double>& at) {
    std::string shown;
    for (std::size_t i = 0; i < inputs.size(); ++i)
      shown += fmt::format("{}{} = {}", i ? ", " : "", inputs[i], format_real(at[i]));
    return shown;
  }
  static std::string result_text() { return "R"; }
  static int size(const Term& t) { return static_cast<int>(size_of(t)); }
  static std::vector<std::string> tags(const Term& t) { return gen::tags_of(t); }
  static std::optional<Typed> typed(const Term& t, const adsem::rules::Instance<Draw>& in,
                                    std::string& error) {
    try {
      return elaborate(t, gamma(in.frame));
    } catch (const AdsemError& e) {
      error = e.diagnostic().message;
      return std::nullopt;
    }
  }
  static bool same_type(const Type& a, const Type& b) { return linear_negation::same_type(a, b); }
  static std::string type_text(const Type& t) { return linear_negation::type_text(t); }
};
using Instance = adsem::rules::Instance<Draw>;

// The program as a model function of its inputs, on any scalar (Table 4; never D or reduction).
template <class C>
model::VectorFunction<model::Dual<C>> model_function(const Term& body, const Instance& in) {
  return [body, inputs = in.frame](std::span<const model::Dual<C>> x) {
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
adsem::rules::Reals left_value(const Term& left, const Instance& in) {
  try {
    const auto f = model_function<model::Interval>(left, in);
    const model::Certificate c =
        model::certify(in.at, [&](const model::Box& box) { (void)model::enclose(f, box); });
    if (c.status == model::CertificateStatus::outside)
      return TrialResult::discard("undefined-point");
    if (c.status != model::CertificateStatus::certified) return TrialResult::discard("uncertified");
    return adsem::rules::finite_or_overflow(std::vector<double>{value_at(left, in)});
  } catch (const model::Undefined&) {
    return TrialResult::discard("undefined-point");
  } catch (const model::Undecided& e) {
    return TrialResult::discard(e.reason());
  }
}

RunOptions rule_check_options(const props::PropertyContext& context) {
  RunOptions o;
  o.fuel = context.option_int("fuel", 200'000);
  o.strategy = Strategy::bp;
  return o;
}

// The two sides may associate sums and products differently: the derivative tolerance.
TrialResult denotation_preservation(const Instance& in, const Typed& left, const Typed& right,
                                    const props::PropertyContext& context) {
  return adsem::rules::semantic_check([&] { return left_value(left.term, in); },
                                      [&] {
                                        return adsem::rules::right_meaning(
                                            "⟦C[σ(LHS)]⟧ is defined but ⟦C[σ(RHS)]⟧ is ⊥", [&] {
                                              return std::vector<double>{value_at(right.term, in)};
                                            });
                                      },
                                      {"⟦C[σ(LHS)]⟧", "⟦C[σ(RHS)]⟧"}, context);
}

Term closed_at(const Term& body, const Instance& in) {
  Term t = body;
  for (std::size_t i = 0; i < in.frame.size(); ++i)
    t = let(exp_binder(in.frame[i], real_type()), t, num(in.at[i]));
  return t;
}

TrialResult extended_adequacy(const Instance& in, const Typed& left, const Typed& right,
                              const props::PropertyContext& context) {
  return adsem::rules::semantic_check(
      [&] { return left_value(left.term, in); },
      [&] {
        return adsem::rules::right_meaning(
            "⟦C[σ(LHS)]⟧ is defined but S_bp on C[σ(RHS)][x := r] gives no numeral", [&] {
              return ground_result(normalise(elaborate(closed_at(right.term, in)).term,
                                             rule_check_options(context)));
            });
      },
      {"⟦C[σ(LHS)]⟧", "S_bp normal form of C[σ(RHS)]"}, context);
}

TrialResult extended_ad(const Instance& in, const Typed& left, const Typed&,
                        const props::PropertyContext& context) {
  const auto expected = [&]() -> adsem::rules::Reals {
    if (const auto l = left_value(left.term, in); !l) return l;
    const Eigen::VectorXd x =
        Eigen::Map<const Eigen::VectorXd>(in.at.data(), static_cast<long>(in.at.size()));
    try {
      const Eigen::VectorXd exact = model::gradient(model_function<double>(left.term, in), x);
      return adsem::rules::finite_or_overflow(
          std::vector<double>(exact.data(), exact.data() + exact.size()));
    } catch (const model::Undefined&) {
      return TrialResult::discard("undefined-point");
    }
  };
  // D (Table 3) on the rewritten source program, Cor. 16's wrapper, S_bp, read-back A
  const auto actual = [&] {
    return adsem::rules::right_meaning(
        "the model differentiates C[σ(LHS)] but the gradient reduction of C[σ(RHS)] fails", [&] {
          const Typed source = elaborate(in.after, Draw::gamma(in.frame), true);
          return reduce_gradient(source.term, in.frame, in.at, rule_check_options(context), {},
                                 true)
              .gradient;
        });
  };
  return adsem::rules::semantic_check(expected, actual,
                                      {"model ∇C[σ(LHS)]", "read-back A of W(C[σ(RHS)])"}, context);
}

} // namespace

RuleInstance draw_rule_instance(const Pattern& rule) {
  const Instance in = adsem::rules::draw_instance<Draw>(rule);
  return RuleInstance{in.before, in.frame, in.at};
}

Typed draw_closed_instance(const Pattern& rule) {
  const Instance in = adsem::rules::draw_instance<Draw>(rule);
  return elaborate(closed_at(in.before, in));
}

std::vector<adsem::rules::RuleCheckDef> RuleTraits::checks() {
  return adsem::rules::rule_checks(
      {"C[σ(RHS)] type-checks (Table 1, linearity included) at the type of C[σ(LHS)]",
       "seed 002 Prop. 2 (subject reduction), L407, proof L712-719, extended to the user's rule"},
      {"⟦C[σ(RHS)]⟧ = ⟦C[σ(LHS)]⟧ at the point, wherever the left is certified defined",
       "seed 002 Prop. 8, L428 (every step preserves the denotation, Table 4 L782-841)"},
      {"S_bp after one rewrite ends in the numeral ⟦C[σ(LHS)]⟧",
       "seed 002 Prop. 2, 5, 6, Cor. 9 (L407-434)"},
      {"Cor. 16's wrapper around D(C[σ(RHS)]), S_bp-normalised, reads back ∇⟦C[σ(LHS)]⟧ (source "
       "rules)",
       "seed 002 Thm 15, Cor. 16 (L466, L562-566), Table 3 L453-468"});
}

std::vector<adsem::rules::RuleCheckDef> RuleTraits::checks_for(const Pattern& p) {
  std::vector<adsem::rules::RuleCheckDef> out = checks();
  if (!p.source) std::erase_if(out, [](const auto& c) { return c.name == "extended-ad"; });
  return out;
}

props::TrialResult RuleTraits::trial(const Pattern& p, const std::string& check,
                                     const props::PropertyContext& context) {
  return adsem::rules::instance_trial<Draw>(
      p, check, context, {denotation_preservation, extended_adequacy, extended_ad});
}

std::string RuleTraits::type_text(const Type& t) {
  return linear_negation::type_text(t);
}

std::shared_ptr<const props::CompiledRuleFile>
RuleTraits::compile_file(const adsem::rules::RuleFile& file) {
  return compile_rule_file(file);
}

} // namespace adsem::linear_negation
