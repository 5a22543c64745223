// User rules for dual-numbers: the instances and the four checks (rule_adapter.hpp).
#include "properties/dual_numbers/rule_adapter.hpp"

#include "generators/dual_numbers/terms.hpp"
#include "properties/core/rule_instance_kit.hpp"
#include "properties/dual_numbers/user_rules.hpp"
#include "semantics/core/jacobian.hpp"
#include "semantics/dual_numbers/denote.hpp"
#include "semantics/dual_numbers/machine.hpp"
#include "semantics/dual_numbers/rules.hpp"
#include "syntax/core/real_text.hpp"

namespace adsem::dual_numbers {

namespace {

using adsem::rules::uniform;
using props::TrialResult;

struct Typed {
  Term term;
  Type type;
};

// A real-valued use of a term h : τ (the hole, when the context did not mention it).
Term use_of(const Term& h, const Type& tau, const TypeContext& gamma) {
  switch (tau->kind) {
  case TypeKind::real:
    return h;
  case TypeKind::product:
    return use_of(proj(1, h), tau->left, gamma);
  case TypeKind::arrow:
    return use_of(app(h, gen::term(gamma, tau->left, uniform(0, 2))), tau->right, gamma);
  }
  return h;
}

// How dual-numbers draws an instance (rule_instance_kit.hpp): a real-valued context over one
// real variable, the hole wherever the generator put a variable of the rule's type.
struct Draw {
  using Pattern = dual_numbers::Pattern;
  using Term = dual_numbers::Term;
  using Hole = Occurrence;
  using Typed = dual_numbers::Typed;
  using Frame = std::string; // the context's free variable x : real
  static constexpr const char* calculus = "dual-numbers";
  static constexpr int context_attempts = 1;

  static Frame frame(const Pattern& p) { return p.variable; }
  static TypeContext outer(const Pattern&, const Frame& x) { return {{x, real_type()}}; }
  static Term context(const Pattern& p, const Frame& x) {
    return gen::term({{x, real_type()}, {adsem::rules::context_hole, p.type}}, real_type(),
                     uniform(0, 5));
  }
  static Term use_hole(const Term& c, const Pattern& p, const Frame& x) {
    return op(Op::add, c, use_of(var(adsem::rules::context_hole), p.type, outer(p, x)));
  }
  static Term meta_term(const TypeContext& scope, const Metavariable& m, std::size_t) {
    return gen::term(scope, m.type, uniform(0, 4));
  }
  static Term marker(const Pattern&) { return var("[ ]"); }
  static std::vector<double> point(const Frame&) { return {gen::numeral()}; }
  static std::string at_text(const Frame& x, const std::vector<double>& at) {
    return x + " = " + shortest_real_text(at[0]);
  }
  static std::string result_text() { return "real"; }
  static int size(const Term& t) { return dual_numbers::size(t); }
  static std::vector<std::string> tags(const Term& t) { return dual_numbers::tags(t); }
  static std::optional<Typed> typed(const Term& t, const adsem::rules::Instance<Draw>& in,
                                    std::string& error) {
    try {
      return Typed{t, typecheck(t, {{in.frame, real_type()}})};
    } catch (const AdsemError& e) {
      error = e.diagnostic().message;
      return std::nullopt;
    }
  }
  static bool same_type(const Type& a, const Type& b) { return dual_numbers::same_type(a, b); }
  static std::string type_text(const Type& t) { return print_type(t); }
};
using Instance = adsem::rules::Instance<Draw>;

double value_at(const Term& t, const Instance& in) {
  return denote(t, {{in.frame, V(in.at[0])}}).real().primal();
}

// Out of fuel and overflow are the campaigns' discards; any other error is the verdict.
std::optional<std::string> discard_of(const AdsemError& e) {
  if (e.diagnostic().kind == ErrorKind::fuel) return "fuel";
  if (e.diagnostic().kind == ErrorKind::domain) return "non-finite";
  return std::nullopt;
}

double numeral_of(const Term& v) {
  if (v->kind != Kind::constant)
    throw AdsemError(ErrorKind::eval, "the run ends in " + print(v) + ", not a numeral");
  return v->value;
}

// The left side's meaning at the point (the primitives are total: only overflow is a discard).
adsem::rules::Reals left_value(const Term& left, const Instance& in) {
  return adsem::rules::finite_or_overflow(std::vector<double>{value_at(left, in)});
}

TrialResult denotation_preservation(const Instance& in, const Typed& left, const Typed& right,
                                    const props::PropertyContext& context) {
  return adsem::rules::semantic_check(
      [&] { return left_value(left.term, in); },
      [&] {
        return adsem::rules::right_meaning(
            "⟦C[σ(LHS)]⟧ is defined but ⟦C[σ(RHS)]⟧ is not",
            [&] { return std::vector<double>{value_at(right.term, in)}; }, discard_of);
      },
      {"⟦C[σ(LHS)]⟧", "⟦C[σ(RHS)]⟧"}, context);
}

TrialResult extended_adequacy(const Instance& in, const Typed& left, const Typed& right,
                              const props::PropertyContext& context) {
  return adsem::rules::semantic_check(
      [&] { return left_value(left.term, in); },
      [&] {
        return adsem::rules::right_meaning(
            "⟦C[σ(LHS)]⟧ is defined but C[σ(RHS)][a/x] does not reduce to a numeral",
            [&] {
              Machine machine(*paper_rules());
              const Term closed = substitute(right.term, in.frame, constant(in.at[0]));
              return std::vector<double>{numeral_of(evaluate(machine, closed))};
            },
            discard_of);
      },
      {"⟦C[σ(LHS)]⟧", "the value of C[σ(RHS)][a/x]"}, context);
}

// The model's value and exact derivative of C[σ(LHS)] at a against (λx. D C[σ(RHS)]) <a, 1>.
TrialResult extended_ad(const Instance& in, const Typed& left, const Typed& right,
                        const props::PropertyContext& context) {
  const auto expected = [&]() -> adsem::rules::Reals {
    const model::ScalarFunction<model::Dual<double>> meaning = [&](const model::Dual<double>& x) {
      return denote(left.term, {{in.frame, V(x)}}).real();
    };
    return adsem::rules::finite_or_overflow(model::derivatives(meaning, in.at[0], 1));
  };
  const auto actual = [&] {
    return adsem::rules::right_meaning(
        "the model differentiates C[σ(LHS)] but D C[σ(RHS)] gives no dual number",
        [&] {
          Machine machine(*paper_rules());
          const Term dt = macro(machine, right.term);
          const Term out = evaluate(
              machine, app(lam(in.frame, dual(), dt), pair(constant(in.at[0]), constant(1))));
          if (out->kind != Kind::pair)
            throw AdsemError(ErrorKind::eval, "D C[σ(RHS)] is not a pair: " + print(out));
          return std::vector<double>{numeral_of(out->a), numeral_of(out->b)};
        },
        discard_of);
  };
  return adsem::rules::semantic_check(
      expected, actual, {"[⟦C[σ(LHS)]⟧(a), ⟦C[σ(LHS)]⟧'(a)]", "(λx. D C[σ(RHS)]) <a, 1>"}, context);
}

constexpr const char* paper = "Huot-Staton-Vakar, FoSSaCS 2020, ";

} // namespace

RuleInstance draw_rule_instance(const Pattern& rule) {
  const Instance in = adsem::rules::draw_instance<Draw>(rule);
  return {in.before, in.frame, in.at[0]};
}

std::vector<adsem::rules::RuleCheckDef> RuleTraits::checks() {
  const auto cite = [](const char* what) {
    return std::string(paper) + what +
           ", extended to the user's rule (paper text not on this "
           "machine)";
  };
  return adsem::rules::rule_checks(
      {"C[σ(RHS)] type-checks at the type of C[σ(LHS)]", cite("the language's type soundness")},
      {"⟦C[σ(RHS)]⟧ = ⟦C[σ(LHS)]⟧ at the point",
       cite("the language's denotational semantics (rules are sound when they keep the meaning)")},
      {"call by value after one rewrite ends in the numeral ⟦C[σ(LHS)]⟧",
       cite("adequacy of the model")},
      {"(λx. D C[σ(RHS)]) <a, 1> reduces to the value and exact derivative of ⟦C[σ(LHS)]⟧ at a",
       cite("the correctness theorem of D")});
}

props::TrialResult RuleTraits::trial(const Pattern& p, const std::string& check,
                                     const props::PropertyContext& context) {
  return adsem::rules::instance_trial<Draw>(
      p, check, context, {denotation_preservation, extended_adequacy, extended_ad});
}

std::shared_ptr<const props::CompiledRuleFile>
RuleTraits::compile_file(const adsem::rules::RuleFile& file) {
  return compile_rule_file(file);
}

} // namespace adsem::dual_numbers
