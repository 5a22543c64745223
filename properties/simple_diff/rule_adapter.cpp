// User rules for simple-diff: the instances and the four checks (rule_adapter.hpp).
#include "properties/simple_diff/rule_adapter.hpp"

#include <algorithm>

#include <fmt/format.h>
#include <rapidcheck.h>

#include "properties/core/rule_instance_kit.hpp"
#include "properties/simple_diff/rule_instance.hpp"
#include "properties/simple_diff/rule_pattern.hpp"
#include "properties/simple_diff/trial.hpp"
#include "semantics/core/model_errors.hpp"
#include "syntax/simple_diff/derived.hpp"

namespace adsem::simple_diff {

namespace {

using props::TrialResult;

// A real-typed use of h : U, so that a context that happened not to mention the hole does.
Term use_of(const Term& h, const Type& u) {
  if (u->is_real()) return h;
  if (u->is_product()) {
    if (type_size(*u->left) > 0) return use_of(mk::fst(h), u->left);
    return use_of(mk::snd(h), u->right);
  }
  return mk::let(hole_name + "u", u, h, mk::constant(0.0));
}

// How simple-diff draws an instance (rule_instance_kit.hpp): a real-valued context over one
// free variable x : T, as the campaigns generate programs.
struct Draw {
  using Pattern = simple_diff::Pattern;
  using Term = simple_diff::Term;
  using Hole = Occurrence;
  using Typed = simple_diff::Typed;
  struct Frame {
    std::string x;
    Type t;
  };
  static constexpr const char* calculus = "simple-diff";
  static constexpr int context_attempts = 1;

  static Frame frame(const Pattern& p) {
    return {adsem::rules::fresh_context_name(p.names), nullptr};
  }
  static Term context(const Pattern& p, Frame& f) { // x : T ⊢ C[hole' : U] : real
    gen::TermOptions o;
    o.real_result = true;
    o.x = f.x;
    o.scope = {{hole_name, p.type}};
    o.max_size = 24;
    const gen::OpenTerm c = *gen::open_term(o);
    f = {c.x, c.t};
    return c.term;
  }
  static VarScope outer(const Pattern&, const Frame& f) { return {{f.x, f.t}}; }
  static Term use_hole(const Term& c, const Pattern& p, const Frame&) {
    return mk::add(c, use_of(mk::var(hole_name), p.type));
  }
  static std::map<std::string, Term> sigma(const Pattern& p, const Occurrence& hole,
                                           std::string& shown) {
    return draw_sigma(p, hole, shown);
  }
  static Term marker(const Pattern&) { return mk::var("[ ]"); }
  static std::vector<double> point(const Frame& f) { return *gen::point(type_size(*f.t)); }
  static std::string at_text(const Frame& f, const std::vector<double>& at) {
    return adsem::rules::variable_at(f.x, print_type(f.t), at,
                                     [](double v) { return print_real(v); });
  }
  static std::string result_text() { return print_type(real_type()); }
  static int size(const Term& t) { return static_cast<int>(term_size(*t)); }
  static std::vector<std::string> tags(const Term& t) { return gen::construct_tags(t); }
  static std::optional<Typed> typed(const Term& m, const adsem::rules::Instance<Draw>& in,
                                    std::string& error) {
    try {
      return typecheck(m, primitives(), {{in.frame.x, in.frame.t}});
    } catch (const AdsemError& e) {
      error = e.diagnostic().message;
      return std::nullopt;
    }
  }
  static bool same_type(const Type& a, const Type& b) { return simple_diff::same_type(a, b); }
  static std::string type_text(const Type& t) { return print_type(t); }
};
using Instance = adsem::rules::Instance<Draw>;

// [[C[σ(LHS)]]] at the point, certified; otherwise the discard that says why not.
adsem::rules::Reals left_denotation(const Term& before, const Instance& in) {
  const oracle::Denotation d = oracle::denote(before, in.frame.x, in.frame.t, in.at);
  if (d.status == oracle::Denotation::Status::fuel) return TrialResult::discard("fuel");
  if (d.status == oracle::Denotation::Status::undefined)
    return TrialResult::discard("lhs-undefined");
  if (!d.uncertified.empty()) return TrialResult::discard(d.uncertified);
  return d.value;
}

TrialResult denotation_preservation(const Instance& in, const Typed& left, const Typed& right,
                                    const props::PropertyContext& context) {
  return adsem::rules::semantic_check(
      [&] { return left_denotation(left.term, in); },
      [&]() -> adsem::rules::Reals {
        const auto r = oracle::denote(right.term, in.frame.x, in.frame.t, in.at, false);
        if (r.status == oracle::Denotation::Status::fuel) return TrialResult::discard("fuel");
        if (r.status == oracle::Denotation::Status::undefined)
          return TrialResult::fail("[[C[σ(LHS)]]] is defined but [[C[σ(RHS)]]] is ⊥: " + r.message);
        return r.value;
      },
      {"[[C[σ(LHS)]]]", "[[C[σ(RHS)]]]"}, context);
}

TrialResult extended_adequacy(const Instance& in, const Typed& left, const Typed& right,
                              const props::PropertyContext& context) {
  return adsem::rules::semantic_check(
      [&] { return left_denotation(left.term, in); },
      [&]() -> adsem::rules::Reals {
        const oracle::Operational op = oracle::run(right.term, in.frame.x, in.frame.t, in.at,
                                                   oracle::machine_options(context));
        if (op.unknown) return TrialResult::discard("fuel");
        if (!op.value)
          return TrialResult::fail(
              "[[C[σ(LHS)]]] is defined but evaluating C[σ(RHS)] gives no value: " + op.message);
        if (!same_type(op.type, left.type))
          return TrialResult::fail(
              fmt::format("evaluating C[σ(RHS)] gives a value of type {}, not {}",
                          print_type(op.type), print_type(left.type)));
        return *op.value;
      },
      {"[[C[σ(LHS)]]]", "eval C[σ(RHS)]"}, context);
}

TrialResult extended_ad(const Instance& in, const Typed& left, const Typed& right,
                        const props::PropertyContext& context) {
  const auto expected = [&]() -> adsem::rules::Reals {
    if (const auto d = left_denotation(left.term, in); !d) return d.instead;
    try {
      return oracle::model_vjp(left.term, in.frame.x, in.frame.t, in.at, {1.0});
    } catch (const model::Undefined&) {
      return TrialResult::discard("non-differentiable");
    } catch (const AdsemError& e) {
      if (e.diagnostic().kind == ErrorKind::fuel) return TrialResult::discard("fuel");
      throw;
    }
  };
  const auto actual = [&] {
    return adsem::rules::right_meaning(
        "the model differentiates x. C[σ(LHS)] but rd of x. C[σ(RHS)] fails",
        [&] {
          return flatten(
              gradient(in.frame.x, in.frame.t, right.term, in.at, oracle::machine_options(context))
                  .gradient);
        },
        [](const AdsemError& e) {
          return is_unknown(e) ? std::optional<std::string>("fuel") : std::nullopt;
        });
  };
  return adsem::rules::semantic_check(
      expected, actual, {"model gradient of x. C[σ(LHS)]", "rd gradient of x. C[σ(RHS)]"}, context);
}

} // namespace

std::vector<adsem::rules::RuleCheckDef> RuleTraits::checks() {
  return adsem::rules::rule_checks(
      {"C[σ(RHS)] type-checks with the type of C[σ(LHS)] for random contexts C and instances σ",
       "seed 003 Lemma 3.2 (lines 310-314), extended to the user's rule"},
      {"[[C[σ(RHS)]]] = [[C[σ(LHS)]]] wherever the left is defined",
       "seed 003 Lemma 5.2 (lines 815-821): compositionality needs [[σ(LHS)]] = [[σ(RHS)]]"},
      {"the operational semantics after one rewrite gives [[C[σ(LHS)]]], at the same type",
       "seed 003 Prop. 3.6 (lines 463-469), Thm 6.2(1) (lines 877-883)"},
      {"rd of x. C[σ(RHS)] is the model's gradient of x. C[σ(LHS)]",
       "seed 003 Thm 6.1, Cor. 6.3 (lines 847-908)"});
}

props::TrialResult RuleTraits::trial(const Pattern& p, const std::string& check,
                                     const props::PropertyContext& context) {
  return adsem::rules::instance_trial<Draw>(
      p, check, context, {denotation_preservation, extended_adequacy, extended_ad});
}

std::string RuleTraits::type_text(const Type& t) {
  return print_type(t);
}

} // namespace adsem::simple_diff
