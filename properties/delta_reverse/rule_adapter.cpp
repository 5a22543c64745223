// User rules for delta-reverse: the instances and the four checks of each sort (rule_adapter.hpp).
#include "properties/delta_reverse/rule_adapter.hpp"

#include <algorithm>
#include <set>

#include <fmt/format.h>
#include <rapidcheck.h>

#include "generators/core/uniform.hpp"
#include "properties/core/rule_instance_kit.hpp"
#include "properties/delta_reverse/rule_pattern.hpp"
#include "properties/delta_reverse/support.hpp"
#include "semantics/core/model_errors.hpp"
#include "semantics/delta_reverse/denotation.hpp"
#include "semantics/delta_reverse/model_bridge.hpp"
#include "syntax/delta_reverse/printer.hpp"

namespace adsem::delta_reverse {

namespace {

using props::PropertyContext;
using props::TrialResult;
using TK = TypeNode::Kind;
using namespace support;

const std::string hole_name = "hole'"; // never a user name (compile_pattern reserves it)

// One instance: C[σ(LHS)] and C[σ(RHS)], as reports show them.
struct Instance {
  Term before, after; // source: closed main expressions; delta: closed Delta terms
  gen::MainExpression m;
  Program program; // source: C[σ(LHS)] as a program; delta: the program whose tape holds C
  Value s;
  std::string report;
  // delta rules: the tape of R{e} and the binding that receives the instance (binds.size(): the
  // result's Delta)
  ReverseRun run;
  std::size_t binding = 0;

  TrialResult done(TrialResult r, const std::string& type) const {
    r.on(report, type, static_cast<int>(size_of(before)), m.tags);
    return r;
  }
};

// A term of a metavariable's type over `scope` (a Delta over the ids `ids`).
Term meta_term(const Context& scope, const Metavariable& meta,
               const std::vector<std::int64_t>& ids) {
  return meta.type->kind == TK::delta ? *gen::delta_term(ids, scope, 2)
                                      : *gen::term(scope, meta.type, 2);
}

// ---- source rules ----

// A real-valued use of h : U, so that a context that happened not to mention the hole does.
Term use_of(const Term& h, const Type& u) {
  switch (u->kind) {
  case TK::real:
    return h;
  case TK::integer:
    return call("fromInt", h);
  case TK::product:
    return use_of(fst(h), u->left);
  case TK::sum:
    return case_of(h, hole_name + "l", use_of(var(hole_name + "l"), u->left), hole_name + "r",
                   use_of(var(hole_name + "r"), u->right));
  case TK::arrow:
    return use_of(app(h, *gen::term({}, u->left, 0)), u->right);
  default:
    return real(0.0);
  }
}

// e with the main λ's body replaced by f(body) (helpers are let-bound in front, L117-121).
Term map_main_body(const Term& e, const std::function<Term(const Term&)>& f) {
  Node copy = *e;
  if (e->kind == Kind::let)
    copy.kids[1] = map_main_body(e->kids[1], f);
  else
    copy.kids[0] = f(e->kids[0]);
  return make_shared_node<const Node>(std::move(copy));
}

// How a source rule's instance is drawn (rule_instance_kit.hpp): a closed main expression with
// real output (L117-121) whose generator sees the hole as a global; the point is drawn after.
struct SourceDraw {
  using Pattern = delta_reverse::Pattern;
  using Term = delta_reverse::Term;
  using Hole = Occurrence;
  struct Frame {
    gen::Options o;
    gen::MainExpression m; // its term still has the hole
  };
  static constexpr int context_attempts = 1;

  static Context outer(const Pattern& p, const Frame&) { return {{hole_name, p.type}}; }
  static Term context(const Pattern& p, Frame& f) {
    f.o.real_output = true;
    f.o.scope = outer(p, f);
    f.m = *gen::main_expression(f.o);
    return f.m.term;
  }
  static Term use_hole(const Term& c, const Pattern& p, const Frame&) {
    return map_main_body(
        c, [&](const Term& body) { return call("addR", body, use_of(var(hole_name), p.type)); });
  }
  static Term meta_term(const Context& scope, const Metavariable& m, std::size_t) {
    return delta_reverse::meta_term(scope, m, {});
  }
  // the other occurrences of the hole become closed terms of its type
  static Term fill_others(Term c, const std::vector<Occurrence>& holes, std::size_t which,
                          const Pattern& p) {
    for (std::size_t i = 0; i < holes.size(); ++i)
      if (i != which) c = replace_at(c, holes[i].path, *gen::term({}, p.type, 0));
    return c;
  }
  static Term marker(const Pattern&) { return var("[ ]"); }
};

} // namespace

SourceInstance draw_source_instance(const Pattern& p, gen::Options o) {
  const auto in = adsem::rules::draw_instance<SourceDraw>(p, {std::move(o), {}});
  return {in.frame.m, in.before, in.after, adsem::rules::instance_text(in)};
}

namespace {

Instance draw_source(const Pattern& p) {
  const SourceInstance source = draw_source_instance(p, {});
  const Program program{source.before, source.m.s, source.m.t};
  const Value s = *gen::value_of(source.m.s);
  const std::string report = source.shown + "   at " + print_value(s, source.m.s);
  return {source.before, source.after, source.m, program, s, report, {}, 0};
}

Value model_value(const Term& program, const Value& s) {
  return from_model(denote_closed<double>(program)(to_model(s)));
}

// ⟦C[σ(LHS)]⟧(s); undefined, out of fuel or not finite, the guarded body discards.
adsem::rules::Meaning<Value> left_value(const Instance& in) {
  const Value l = model_value(in.before, in.s);
  require_finite(flatten_reals(l));
  return l;
}

// Values compared by their tags, then their reals (support::compare_values).
auto compared(std::string el, std::string al, const PropertyContext& context) {
  return [el = std::move(el), al = std::move(al), &context](const Value& l, const Value& r) {
    return compare_values(l, el, r, al, CheckKind::derivative, context);
  };
}

TrialResult source_denotation(const Instance& in, const PropertyContext& context) {
  return adsem::rules::semantic_check([&] { return left_value(in); },
                                      [&] {
                                        return adsem::rules::right_meaning(
                                            "⟦C[σ(LHS)]⟧(s) is defined but ⟦C[σ(RHS)]⟧(s) is not",
                                            [&] { return model_value(in.after, in.s); });
                                      },
                                      compared("⟦C[σ(LHS)]⟧(s)", "⟦C[σ(RHS)]⟧(s)", context));
}

TrialResult source_adequacy(const Instance& in, const PropertyContext& context) {
  const auto right = [&] {
    const Program after{in.after, in.m.s, in.m.t};
    auto r = adsem::rules::right_meaning(
        "⟦C[σ(LHS)]⟧(s) is defined but the machine gets no value for C[σ(RHS)] s",
        [&] { return run_primal(after, in.s, fuel(context), context.rule_counter).result; });
    if (r && !has_type(*r, in.m.t))
      return decltype(r)(
          TrialResult::fail(fmt::format("the machine's value {} of C[σ(RHS)] s is not of type {}",
                                        print_value(*r, nullptr), print_type(in.m.t))));
    return r;
  };
  return adsem::rules::semantic_check([&] { return left_value(in); }, right,
                                      compared("⟦C[σ(LHS)]⟧(s)", "machine C[σ(RHS)] s", context));
}

TrialResult source_ad(const Instance& in, const PropertyContext& context) {
  if (flatten_reals(in.s).empty()) return TrialResult::discard("no-real-input");
  if (const auto reason = uncertified(in.program, in.s)) return TrialResult::discard(*reason);
  const Value l = *left_value(in);
  const Eigen::MatrixXd j = model_jacobian(in.program, in.s);
  require_finite(j);
  const Value dt = *gen::tangent_like(l);
  const Eigen::VectorXd g = j.transpose() * as_vector(flatten_reals(dt));
  std::size_t next = 0;
  const Value expected =
      unflatten_reals(in.s, std::vector<double>(g.data(), g.data() + g.size()), next);
  const Program after{in.after, in.m.s, in.m.t};
  for (const EvalImpl impl : {EvalImpl::map, EvalImpl::array}) {
    const auto run = adsem::rules::right_meaning(
        "the model differentiates C[σ(LHS)] but R{C[σ(RHS)]} fails", [&] {
          return reverse(after, in.s, dt, Wrapper::fig15, impl, setup_of(context), fuel(context))
              .gradient;
        });
    if (!run) return run.instead;
    TrialResult r = compare_values(expected, "dtᵀJ⟦C[σ(LHS)]⟧ (model)", *run,
                                   impl == EvalImpl::map ? "R{C[σ(RHS)]} (map eval)"
                                                         : "R{C[σ(RHS)]} (array sweep)",
                                   CheckKind::derivative, context);
    if (r.kind != TrialResult::Kind::pass) return r;
  }
  return TrialResult::pass();
}

// The checks that read the three semantics, by name.
using Semantic = adsem::rules::SemanticBodies<const Instance&, const PropertyContext&>;

// One check on a drawn instance whose sides should have type `want`; the semantic checks run
// guarded (discards with reasons).
TrialResult run_check(const Instance& in, const std::string& check, const Type& want,
                      const Semantic& semantic, const PropertyContext& context) {
  adsem::rules::SideTyping typing;
  typing.rewritten = "the rewritten C[σ(RHS)]";
  typing.at = " at " + print_type(want);
  typing.left_error = type_error(in.before, {}, want); // a generator bug if so
  if (!typing.left_error) typing.right_error = type_error(in.after, {}, want);
  return in.done(adsem::rules::checked_trial(check, typing,
                                             [&] {
                                               return guarded([&] {
                                                 return semantic.run("delta-reverse", check, in,
                                                                     context);
                                               });
                                             }),
                 print_type(want));
}

TrialResult source_trial(const Pattern& p, const std::string& check,
                         const PropertyContext& context) {
  const Instance in = draw_source(p);
  context.report_input(in.report);
  static const Semantic semantic{source_denotation, source_adequacy, source_ad};
  return run_check(in, check, arrow_type(in.m.s, in.m.t), semantic, context);
}

// ---- Delta rules ----

using Coefficients = std::map<std::int64_t, double>;

// ⟦u⟧_D with γ(i) the i-th unit vector (Fig. 13, L739-741), the coefficients of Scale from the
// model (App. A.2): a sparse vector over ids. Delta rules are Zero/Scale/Add/Var (rule_pattern).
Coefficients dense_term(const Term& u) {
  switch (u->kind) {
  case Kind::d_zero:
    return {};
  case Kind::d_var:
    return {{u->kids[0]->integer, 1.0}};
  case Kind::d_scale: {
    const double r = from_model(denote_closed<double>(u->kids[0]))->real;
    Coefficients out = dense_term(u->kids[1]);
    for (auto& [id, c] : out)
      c *= r;
    return out;
  }
  case Kind::d_add: {
    Coefficients out = dense_term(u->kids[0]);
    for (const auto& [id, c] : dense_term(u->kids[1]))
      out[id] += c;
    return out;
  }
  default:
    throw AdsemError(ErrorKind::eval, "dense meaning: not a Delta of the linear layer", u->pos);
  }
}

TrialResult compare_coefficients(const Coefficients& expected, const std::string& expected_label,
                                 const Coefficients& actual, const std::string& actual_label,
                                 const PropertyContext& context) {
  std::set<std::int64_t> ids;
  for (const auto* m : {&expected, &actual})
    for (const auto& [id, c] : *m)
      ids.insert(id);
  const auto at = [](const Coefficients& m, std::int64_t id) {
    const auto it = m.find(id);
    return it == m.end() ? 0.0 : it->second;
  };
  for (const std::int64_t id : ids) {
    TrialResult r =
        props::compare_reals(at(expected, id), fmt::format("{}[id {}]", expected_label, id),
                             at(actual, id), fmt::format("{}[id {}]", actual_label, id),
                             CheckKind::derivative, context.tolerance(CheckKind::derivative));
    if (r.kind != TrialResult::Kind::pass) return r;
  }
  return TrialResult::pass();
}

// How a Delta rule's instance is drawn (rule_instance_kit.hpp): the frame is the tape of R{e}
// (Fig. 11) and a binding of it that receives the instance (binds.size(): the result's Delta); σ
// over the ids that binding may mention, then a context without binders around the hole, its
// coefficients evaluated to doubles (the literal `r` of a Scale at depth 0).
struct DeltaDraw : SourceDraw { // the same terms, marker and filling
  struct Frame {
    Drawn d;
    ReverseRun run;
    std::size_t binding = 0;
    std::vector<std::int64_t> ids;
  };
  static constexpr const char* calculus = "delta-reverse";
  static constexpr bool sigma_first = true;
  static Context outer(const Pattern&, const Frame&) { return {}; }
  static Term meta_term(const Context& scope, const Metavariable& m, std::size_t, const Frame& f) {
    return delta_reverse::meta_term(scope, m, f.ids);
  }
  static Term context(const Pattern&, const Frame& f) {
    const Term h = var(adsem::rules::context_hole);
    switch (adsem::gen::uniform_in(0, 4)) {
    case 1:
      return node(Kind::d_scale, {*gen::term({}, real_type(), 0), h});
    case 2:
      return node(Kind::d_add, {h, *gen::delta_term(f.ids, {}, 1)});
    case 3:
      return node(Kind::d_add, {*gen::delta_term(f.ids, {}, 1), h});
    default:
      return h;
    }
  }
  static int pick(int) { return 0; } // the one hole
};

Instance draw_delta(const Pattern& p, const PropertyContext& context) {
  gen::Options o;
  o.real_output = true;
  o.partial_primitives = false; // the tape is the context: a defined program, fewer discards
  DeltaDraw::Frame f{draw(o), {}, 0, {}};
  f.run = reverse(f.d.program, f.d.s, v_real(1.0), Wrapper::fig11, EvalImpl::map, setup_of(context),
                  fuel(context));
  const std::size_t n = f.run.binds.size();
  f.binding = adsem::gen::uniform_below(n + 1);
  // the ids a binding may mention: the inputs and earlier bindings (tape invariant, L571)
  for (std::int64_t i = 1; i <= f.run.inputs; ++i)
    f.ids.push_back(i);
  for (std::size_t k = 0; k < f.binding; ++k)
    f.ids.push_back(f.run.binds[k].first);
  const auto d = adsem::rules::draw_instance<DeltaDraw>(p, std::move(f));
  const DeltaDraw::Frame& g = d.frame;
  const std::string where = g.binding < n
                                ? fmt::format("the rhs of binding {}", g.run.binds[g.binding].first)
                                : std::string("the result's Delta");
  const std::string report =
      adsem::rules::instance_text(d) +
      fmt::format("   added to {} of the tape of R{{e}} (inputs are ids 1..{}) for e = {} at {}",
                  where, g.run.inputs, print(g.d.m.term), print_value(g.d.s, g.d.m.s));
  return {d.before, d.after, g.d.m, g.d.program, g.d.s, report, g.run, g.binding};
}

Delta machine_delta(const Term& u, const PropertyContext& context, Ledger& ledger) {
  ledger.fuel = fuel(context);
  ledger.coverage = context.rule_counter;
  const Value v = eval_closed(u, ledger);
  if (v->kind != ValueNode::Kind::delta)
    throw AdsemError(ErrorKind::eval, "the machine's value is not a Delta");
  return v->delta;
}

TrialResult delta_denotation(const Instance& in, const PropertyContext& context) {
  const Coefficients l = dense_term(in.before);
  const auto r = adsem::rules::right_meaning("⟦C[σ(LHS)]⟧_D is defined but ⟦C[σ(RHS)]⟧_D is not",
                                             [&] { return dense_term(in.after); });
  if (!r) return r.instead;
  return compare_coefficients(l, "⟦C[σ(LHS)]⟧_D", *r, "⟦C[σ(RHS)]⟧_D", context);
}

TrialResult delta_adequacy(const Instance& in, const PropertyContext& context) {
  Coefficients l = dense_term(in.before);
  const double x = adsem::gen::uniform_in(-1000, 1001) / 500.0;
  for (auto& [id, c] : l)
    c *= x;
  const auto r = adsem::rules::right_meaning(
      "⟦C[σ(LHS)]⟧_D is defined but the machine and eval fail on C[σ(RHS)]", [&] {
        Ledger ledger;
        DeltaMap m;
        eval_map(x, machine_delta(in.after, context, ledger), m, ledger, *setup_of(context).rules);
        return Coefficients(m.begin(), m.end());
      });
  if (!r) return r.instead;
  return compare_coefficients(l, "x·⟦C[σ(LHS)]⟧_D", *r, "eval x (machine C[σ(RHS)])", context);
}

TrialResult delta_ad(const Instance& in, const PropertyContext& context) {
  if (in.run.inputs == 0) return TrialResult::discard("no-real-input");
  if (const auto reason = uncertified(in.program, in.s)) return TrialResult::discard(*reason);
  const Eigen::MatrixXd j = model_jacobian(in.program, in.s);
  require_finite(j);
  Ledger ledger;
  const Delta left = machine_delta(in.before, context, ledger);
  const auto right =
      adsem::rules::right_meaning("the machine evaluates C[σ(LHS)] but not C[σ(RHS)]",
                                  [&] { return machine_delta(in.after, context, ledger); });
  if (!right) return right.instead;
  // the binding gets u + (C[σ(RHS)] − C[σ(LHS)]): with a sound rule its meaning, and the
  // gradient of e, are unchanged
  const Delta patch = d_add(*right, d_scale(-1.0, left));
  Binds binds = in.run.binds;
  Delta result = in.run.final_delta;
  if (in.binding < binds.size())
    binds[in.binding].second = d_add(binds[in.binding].second, patch);
  else
    result = d_add(result, patch);
  const RunSetup v = setup_of(context);
  DeltaMap m;
  eval_map(in.run.seed, run_delta(binds, result, ledger, *v.rules), m, ledger, *v.rules);
  const std::vector<double> swept =
      sweep(in.run.seed, result, binds, in.run.next, ledger, *v.rules);
  for (std::int64_t i = 1; i <= in.run.inputs; ++i) {
    const auto col = static_cast<Eigen::Index>(i - 1);
    const double expected = j(0, col) * in.run.seed;
    const auto it = m.find(i);
    for (const auto& [got, label] :
         {std::pair{it == m.end() ? 0.0 : it->second, "eval (map)"},
          std::pair{swept[static_cast<std::size_t>(i)], "sweep (array)"}}) {
      TrialResult r =
          props::compare_reals(expected, fmt::format("∇⟦e⟧[{}] (model)", i - 1), got,
                               fmt::format("{} of the rewritten tape [{}]", label, i - 1),
                               CheckKind::derivative, context.tolerance(CheckKind::derivative));
      if (r.kind != TrialResult::Kind::pass) return r;
    }
  }
  return TrialResult::pass();
}

TrialResult delta_trial(const Pattern& p, const std::string& check,
                        const PropertyContext& context) {
  // drawing runs R{e}: an undefined point or fuel there is a discard
  std::optional<Instance> drawn;
  const TrialResult setup = guarded([&] {
    drawn = draw_delta(p, context);
    return TrialResult::pass();
  });
  if (!drawn) return setup;
  const Instance& in = *drawn;
  context.report_input(in.report);
  static const Semantic semantic{delta_denotation, delta_adequacy, delta_ad};
  return run_check(in, check, delta_type(), semantic, context);
}

} // namespace

std::vector<adsem::rules::RuleCheckDef> RuleTraits::checks() {
  return adsem::rules::rule_checks(
      {"C[σ(RHS)] type-checks at the type of C[σ(LHS)] for random contexts C and instances σ",
       "seed 001 App. A.1 (L1019-1027), target typing L429-432; spec §6 P1, extended to the rule"},
      {"⟦C[σ(RHS)]⟧ = ⟦C[σ(LHS)]⟧ wherever the left is defined (Delta rules: the dense meaning)",
       "seed 001 App. A.2 (L1029-1049); Fig. 13 ⟦·⟧_D (L739-741) for Delta rules"},
      {"the machine (and, for Delta rules, Fig. 10's eval) after one rewrite gives the meaning of "
       "C[σ(LHS)]",
       "spec §6 P2 (App. A.2, L1029-1049); Lemma 6 (L802-813) for Delta rules"},
      {"R{·} after one rewrite (map eval and array sweep) gives the model's dtᵀJ of the original",
       "seed 001 Thm. 3 (L727-735); Thm. 5 (L790-792) for Delta rules"});
}

props::TrialResult RuleTraits::trial(const Pattern& p, const std::string& check,
                                     const props::PropertyContext& context) {
  return p.sort == RuleSort::delta ? delta_trial(p, check, context)
                                   : source_trial(p, check, context);
}

std::string RuleTraits::type_text(const Type& t) {
  return print_type(t);
}

} // namespace adsem::delta_reverse
