// The paper's theorems about the language and its macro D, as properties: subject reduction of
// call-by-value reduction, adequacy of the model, D's typing, and the correctness of D (the
// tangent D computes is the derivative of the term's meaning), the paper's main theorem.
#include "properties/dual_numbers/properties.hpp"

#include <cmath>

#include "generators/core/uniform.hpp"
#include "generators/dual_numbers/terms.hpp"
#include "properties/core/user_rules.hpp"
#include "properties/dual_numbers/rule_adapter.hpp"
#include "properties/dual_numbers/user_rules.hpp"
#include "semantics/core/jacobian.hpp"
#include "semantics/dual_numbers/denote.hpp"
#include "semantics/dual_numbers/machine.hpp"
#include "semantics/dual_numbers/rules.hpp"
#include "syntax/core/diagnostic.hpp"
#include "syntax/dual_numbers/parser.hpp"

namespace adsem::dual_numbers {

namespace {

using props::PropertyContext;
using props::TrialResult;

constexpr const char* paper = "Huot-Staton-Vakar, FoSSaCS 2020";

// Runs a trial on the context's book (a mutant's, and a user's rule file joined to it); fuel and
// overflow are counted discards, a stuck term or a type error a failure. The machine's firings go
// to the campaign's rule coverage.
template <class Body>
TrialResult on_machine(const PropertyContext& context, const Term& input, const Type& type,
                       Body body) {
  Machine machine(book_for(context.mutant, context.user_rules.get()));
  TrialResult r;
  try {
    r = body(machine);
  } catch (const AdsemError& e) {
    const ErrorKind kind = e.diagnostic().kind;
    if (kind == ErrorKind::fuel)
      r = TrialResult::discard("fuel");
    else if (kind == ErrorKind::domain)
      r = TrialResult::discard("non-finite");
    else
      r = TrialResult::fail(e.what());
  }
  if (context.rule_counter) machine.add_firings(*context.rule_counter);
  if (r.shows_input() || r.kind == TrialResult::Kind::pass)
    r.on(print(input), print_type(type), size(input), tags(input));
  return r;
}

double constant_of(const Term& v, const char* what) {
  if (v->kind != Kind::constant)
    throw AdsemError(ErrorKind::eval, std::string(what) + " is not a numeral: " + print(v));
  return v->value;
}

// With a user's rule file (`--rules`), the targeted share of the trials draws an instance
// C[σ(LHS)] of one of its rules (rule_adapter.hpp) instead of the property's usual input: the
// program over x : real and its point a. Nothing is drawn for it without a rule file.
std::optional<RuleInstance> targeted(const PropertyContext& context) {
  if (!props::draw_targeted(context)) return std::nullopt;
  const auto& patterns = context.user_rules->compiled_as<CompiledRules>().patterns();
  if (patterns.empty()) return std::nullopt;
  const auto which = adsem::gen::uniform_below(patterns.size());
  return draw_rule_instance(*patterns[which]);
}

// x : real ⊢ t : real and a point a: a generated body, or an instance of a user's rule.
struct Body {
  Term t;
  std::string x;
  double a = 0;
};
Body real_function(const PropertyContext& context) {
  if (auto in = targeted(context)) return {in->program, in->variable, in->point};
  const Term t = gen::real_function_body("x");
  return {t, "x", gen::numeral()};
}

// A closed term of type τ: a generated one, or an instance of a user's rule closed at its point.
std::pair<Term, Type> closed_term(const PropertyContext& context) {
  if (auto in = targeted(context))
    return {substitute(in->program, in->variable, constant(in->point)), real_type()};
  const Type tau = gen::small_type();
  return {gen::term({}, tau, adsem::gen::uniform_in(1, 5)), tau};
}

// Every step of a closed t : τ keeps the type τ, and the run ends in a value.
TrialResult subject_reduction(const PropertyContext& context) {
  const auto [t, tau] = closed_term(context);
  return on_machine(context, t, tau, [&](Machine& machine) {
    Term at = t;
    while (Term next = step(machine, at)) {
      if (!same_type(typecheck(next), tau))
        return TrialResult::fail("the step to " + print(next) + " changed the type");
      at = std::move(next);
    }
    return TrialResult::pass();
  });
}

// x : real ⊢ t : real and a point a: t[a/x] reduces to the numeral ⟦t⟧(a).
TrialResult adequacy(const PropertyContext& context) {
  const auto [t, x, a] = real_function(context);
  const Term program = app(lam(x, real_type(), t), constant(a));
  return on_machine(context, program, real_type(), [&](Machine& machine) {
    const double expected = denote(t, {{x, V(a)}}).real().primal();
    if (!std::isfinite(expected)) return TrialResult::discard("non-finite");
    const double actual = constant_of(evaluate(machine, program), "the value");
    return props::compare_reals(expected, "the model's value", actual, "the reduct",
                                CheckKind::exact_value, context.tolerance(CheckKind::exact_value));
  });
}

// x : σ ⊢ t : τ gives x : Dσ ⊢ D t : Dτ.
TrialResult macro_typing(const PropertyContext& context) {
  const auto [t, x, sigma, tau] = [&]() -> std::tuple<Term, std::string, Type, Type> {
    if (auto in = targeted(context)) return {in->program, in->variable, real_type(), real_type()};
    const Type s = gen::small_type();
    const Type r = gen::small_type();
    return {gen::term({{"x", s}}, r, adsem::gen::uniform_in(1, 5)), "x", s, r};
  }();
  return on_machine(context, t, tau, [&](Machine& machine) {
    const Term dt = macro(machine, t);
    if (!same_type(typecheck(dt, {{x, d_type(sigma)}}), d_type(tau)))
      return TrialResult::fail("D t : " + print_type(typecheck(dt, {{x, d_type(sigma)}})) +
                               ", not D tau = " + print_type(d_type(tau)));
    return TrialResult::pass();
  });
}

// x : real ⊢ t : real: (λx. D t) ⟨a, 1⟩ reduces to ⟨⟦t⟧(a), ⟦t⟧'(a)⟩, the model's exact
// derivative by tagged duals.
TrialResult ad_correctness(const PropertyContext& context) {
  const auto [t, x, a] = real_function(context);
  const Term at_a = app(lam(x, real_type(), t), constant(a)); // the input as reports show it
  return on_machine(context, at_a, real_type(), [&](Machine& machine) {
    const model::ScalarFunction<model::Dual<double>> meaning = [&](const model::Dual<double>& y) {
      return denote(t, {{x, V(y)}}).real();
    };
    const std::vector<double> expected = model::derivatives(meaning, a, 1);
    if (!std::isfinite(expected[0]) || !std::isfinite(expected[1]))
      return TrialResult::discard("non-finite");
    const Term dt = macro(machine, t);
    const Term out = evaluate(machine, app(lam(x, dual(), dt), pair(constant(a), constant(1))));
    if (out->kind != Kind::pair) return TrialResult::fail("D t is not a pair: " + print(out));
    TrialResult r = props::compare_reals(
        expected[0], "the model's value", constant_of(out->a, "pi1"), "pi1 of D t",
        CheckKind::exact_value, context.tolerance(CheckKind::exact_value));
    if (r.kind != TrialResult::Kind::pass) return r;
    return props::compare_reals(expected[1], "the model's derivative", constant_of(out->b, "pi2"),
                                "pi2 of D t", CheckKind::derivative,
                                context.tolerance(CheckKind::derivative));
  });
}

// A closed term printed and read back by the parser: the same term, node by node.
TrialResult round_trip(const PropertyContext& context) {
  const auto [t, tau] = closed_term(context);
  return round_trip_of(t, [](std::string_view text) { return parse(text); });
}

props::PropertyDef def(const char* name, const char* kind, const char* summary, const char* what,
                       TrialResult (*body)(const PropertyContext&)) {
  return {.calculus = "dual-numbers",
          .name = std::string("dual-numbers/") + name,
          .kind = kind,
          .summary = summary,
          .citation = std::string(paper) + ", " + what + " (paper text not on this machine)",
          .body = body};
}

} // namespace

TrialResult round_trip_of(const Term& t, const std::function<Term(std::string_view)>& parse_back) {
  const std::string text = print(t);
  TrialResult r = TrialResult::pass();
  try {
    const Term back = parse_back(text);
    if (!same_term(back, t)) r = TrialResult::fail("re-parsed as " + print(back));
  } catch (const AdsemError& e) {
    r = TrialResult::fail(std::string("the printed term does not parse: ") + e.what());
  }
  r.on(text, print_type(typecheck(t)), size(t), tags(t));
  return r;
}

std::vector<props::PropertyDef> properties() {
  return {
      def("subject-reduction", "subject-reduction",
          "every call-by-value step of a closed well-typed term keeps its type",
          "the language's type soundness", subject_reduction),
      def("adequacy", "adequacy",
          "a closed term of type real reduces to the numeral of its meaning in the model",
          "the language's denotational semantics", adequacy),
      def("macro-typing", "typing", "x : S |- t : T gives x : D S |- D t : D T",
          "the macro D on types and terms", macro_typing),
      def("ad-correctness", "ad-correctness",
          "(\\x. D t) <a, 1> reduces to the model's value and exact derivative of t at a",
          "the correctness theorem of D", ad_correctness),
      def("round-trip", "round-trip", "printing a closed term then parsing it gives the same term",
          "its syntax, as print writes it and parse reads it (ours: docs/kit.md)", round_trip),
  };
}

} // namespace adsem::dual_numbers
