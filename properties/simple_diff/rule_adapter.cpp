// User rules for simple-diff: the instances and the four checks (rule_adapter.hpp).
#include "properties/simple_diff/rule_adapter.hpp"

#include <algorithm>

#include <fmt/format.h>
#include <rapidcheck.h>

#include "properties/core/rule_pattern_kit.hpp"
#include "properties/simple_diff/rule_instance.hpp"
#include "properties/simple_diff/rule_pattern.hpp"
#include "properties/simple_diff/trial.hpp"
#include "semantics/core/model_errors.hpp"
#include "syntax/simple_diff/derived.hpp"

namespace adsem::simple_diff {

namespace {

using props::TrialResult;

// One instance C[σ(LHS)] / C[σ(RHS)] of a rule at a point.
struct Instance {
  std::string x; // the context's variable x : T
  Type t;
  std::vector<double> at;
  Term lhs, rhs;      // σ(LHS), σ(RHS)
  Term before;        // C[σ(LHS)]
  Term after;         // C[σ(RHS)]
  std::string report; // the instance as reports show it

  TrialResult done(TrialResult r) const {
    r.on(report, print_type(real_type()), static_cast<int>(term_size(*before)),
         gen::construct_tags(before));
    return r;
  }
};

// A real-typed use of h : U, so that a context that happened not to mention the hole does.
Term use_of(const Term& h, const Type& u) {
  if (u->is_real()) return h;
  if (u->is_product()) {
    if (type_size(*u->left) > 0) return use_of(mk::fst(h), u->left);
    return use_of(mk::snd(h), u->right);
  }
  return mk::let(hole_name + "u", u, h, mk::constant(0.0));
}

Instance draw_instance(const Pattern& p) {
  Instance in;
  // the context C: x : T ⊢ C[hole' : U] : real
  gen::TermOptions context_options;
  context_options.real_result = true;
  context_options.x = rules::fresh_context_name(p.names);
  context_options.scope = {{hole_name, p.type}};
  context_options.max_size = 24;
  gen::OpenTerm c = *gen::open_term(context_options);
  in.x = c.x;
  in.t = c.t;
  Term context = c.term;
  std::vector<Occurrence> holes = occurrences(context, hole_name, {{c.x, c.t}});
  if (holes.empty()) {
    context = mk::add(context, use_of(mk::var(hole_name), p.type));
    holes = occurrences(context, hole_name, {{c.x, c.t}});
  }
  const auto which =
      static_cast<std::size_t>(*rc::gen::inRange<int>(0, static_cast<int>(holes.size())));
  const Occurrence& hole = holes[which];

  // σ: each metavariable a term of its type over what it may see
  std::string assignment;
  const std::map<std::string, Term> sigma = draw_sigma(p, hole, assignment);
  in.lhs = instantiate(p.lhs, sigma);
  in.rhs = instantiate(p.rhs, sigma);
  const auto plugged = rules::plug_instance(context, holes, which, zero_of(p.type), in.lhs, in.rhs,
                                            mk::var("[ ]"), replace_at);
  in.before = plugged.before;
  in.after = plugged.after;
  in.at = *gen::point(type_size(*in.t));
  in.report = rules::instance_text(
      {print(in.lhs), print(in.rhs), assignment, hole.path.empty() ? "[ ]" : print(plugged.shown),
       in.x, print_type(in.t), rules::point_text(in.at, [](double v) { return print_real(v); })});
  return in;
}

std::optional<Typed> typed(const Term& m, const Instance& in, std::string& error) {
  try {
    return typecheck(m, primitives(), {{in.x, in.t}});
  } catch (const AdsemError& e) {
    error = e.diagnostic().message;
    return std::nullopt;
  }
}

// [[C[σ(LHS)]]] at the point, certified; nullopt with a discard reason otherwise.
std::optional<oracle::Denotation> left_denotation(const Term& before, const Instance& in,
                                                  TrialResult& discard) {
  const oracle::Denotation d = oracle::denote(before, in.x, in.t, in.at);
  if (d.status == oracle::Denotation::Status::fuel) {
    discard = TrialResult::discard("fuel");
    return std::nullopt;
  }
  if (d.status == oracle::Denotation::Status::undefined) {
    discard = TrialResult::discard("lhs-undefined");
    return std::nullopt;
  }
  if (!d.uncertified.empty()) {
    discard = TrialResult::discard(d.uncertified);
    return std::nullopt;
  }
  return d;
}

TrialResult denotation_preservation(const Instance& in, const Typed& left, const Typed& right,
                                    const props::PropertyContext& context) {
  TrialResult discard;
  const auto l = left_denotation(left.term, in, discard);
  if (!l) return discard;
  const oracle::Denotation r = oracle::denote(right.term, in.x, in.t, in.at, false);
  if (r.status == oracle::Denotation::Status::fuel) return TrialResult::discard("fuel");
  if (r.status == oracle::Denotation::Status::undefined)
    return TrialResult::fail("[[C[σ(LHS)]]] is defined but [[C[σ(RHS)]]] is ⊥: " + r.message);
  // the two sides may associate sums differently: the derivative tolerance (spec §6)
  return oracle::compare_vectors(l->value, "[[C[σ(LHS)]]]", r.value, "[[C[σ(RHS)]]]",
                                 CheckKind::derivative, context);
}

TrialResult extended_adequacy(const Instance& in, const Typed& left, const Typed& right,
                              const props::PropertyContext& context) {
  TrialResult discard;
  const auto l = left_denotation(left.term, in, discard);
  if (!l) return discard;
  const oracle::Operational op =
      oracle::run(right.term, in.x, in.t, in.at, oracle::machine_options(context));
  if (op.unknown) return TrialResult::discard("fuel");
  if (!op.value)
    return TrialResult::fail("[[C[σ(LHS)]]] is defined but evaluating C[σ(RHS)] gives no value: " +
                             op.message);
  if (!same_type(op.type, left.type))
    return TrialResult::fail(fmt::format("evaluating C[σ(RHS)] gives a value of type {}, not {}",
                                         print_type(op.type), print_type(left.type)));
  return oracle::compare_vectors(l->value, "[[C[σ(LHS)]]]", *op.value, "eval C[σ(RHS)]",
                                 CheckKind::derivative, context);
}

TrialResult extended_ad(const Instance& in, const Typed& left, const Typed& right,
                        const props::PropertyContext& context) {
  TrialResult discard;
  if (!left_denotation(left.term, in, discard)) return discard;
  std::vector<double> expected;
  try {
    expected = oracle::model_vjp(left.term, in.x, in.t, in.at, {1.0});
  } catch (const model::Undefined&) {
    return TrialResult::discard("non-differentiable");
  } catch (const AdsemError& e) {
    if (e.diagnostic().kind == ErrorKind::fuel) return TrialResult::discard("fuel");
    throw;
  }
  std::vector<double> actual;
  try {
    actual =
        flatten(gradient(in.x, in.t, right.term, in.at, oracle::machine_options(context)).gradient);
  } catch (const AdsemError& e) {
    if (is_unknown(e)) return TrialResult::discard("fuel");
    return TrialResult::fail("the model differentiates x. C[σ(LHS)] but rd of x. C[σ(RHS)] "
                             "fails: " +
                             std::string(e.what()));
  }
  return oracle::compare_vectors(expected, "model gradient of x. C[σ(LHS)]", actual,
                                 "rd gradient of x. C[σ(RHS)]", CheckKind::derivative, context);
}

} // namespace

std::vector<rules::RuleCheckDef> RuleTraits::checks() {
  return {
      {"type-preservation", "typing",
       "C[σ(RHS)] type-checks with the type of C[σ(LHS)] for random contexts C and instances σ",
       "seed 003 Lemma 3.2 (lines 310-314), extended to the user's rule"},
      {"denotation-preservation", "soundness",
       "[[C[σ(RHS)]]] = [[C[σ(LHS)]]] wherever the left is defined",
       "seed 003 Lemma 5.2 (lines 815-821): compositionality needs [[σ(LHS)]] = [[σ(RHS)]]"},
      {"extended-adequacy", "adequacy",
       "the operational semantics after one rewrite gives [[C[σ(LHS)]]], at the same type",
       "seed 003 Prop. 3.6 (lines 463-469), Thm 6.2(1) (lines 877-883)"},
      {"extended-ad", "ad-correctness",
       "rd of x. C[σ(RHS)] is the model's gradient of x. C[σ(LHS)]",
       "seed 003 Thm 6.1, Cor. 6.3 (lines 847-908)"},
  };
}

props::TrialResult RuleTraits::trial(const Pattern& p, const std::string& check,
                                     const props::PropertyContext& context) {
  static const rules::SemanticChecks<const Instance&, const Typed&, const Typed&,
                                     const props::PropertyContext&>
      semantic("simple-diff", {{"denotation-preservation", denotation_preservation},
                               {"extended-adequacy", extended_adequacy},
                               {"extended-ad", extended_ad}});
  const Instance in = draw_instance(p);
  context.report_input(in.report);
  const auto sides = rules::type_sides(
      in.before, in.after, [&](const Term& m, std::string& error) { return typed(m, in, error); },
      [](const Type& a, const Type& b) { return same_type(a, b); }, type_text);
  return in.done(rules::checked_trial(check, sides.typing, [&] {
    return semantic.run(check, in, *sides.left, *sides.right, context);
  }));
}

std::string RuleTraits::type_text(const Type& t) {
  return print_type(t);
}

} // namespace adsem::simple_diff
