// The mutants of simple-diff: each one patch of the paper's rule book, drawn from a real AD bug
// class, beside the properties expected to kill it.
#include "properties/simple_diff/mutants.hpp"

#include "properties/core/mutant_catalogue.hpp"
#include "semantics/simple_diff/rd.hpp"
#include "semantics/simple_diff/symbolic_diff.hpp"

namespace adsem::simple_diff {

namespace {

// W.mul_r(D) = <W * snd(D), 0>: the derivative of x*y with respect to y is lost (seed 003 line
// 237, op_r of mul).
Term mul_r_dropping_dy(const std::string& op, const Term& primal, const Term& cotangent,
                       const Type& s, const Type& u) {
  if (op != "mul") return rules::op_r_term(op, primal, cotangent, s, u);
  const Type real = real_type();
  const Term dx = mk::op("mul", mk::pair(cotangent, mk::snd(primal, real, real), real, real));
  return mk::pair(dx, mk::constant(0.0), real, real);
}

// R-op and R-fast build the pullback of mul without its second term.
RulesPatch product_rule_drops_term() {
  RulesPatch p;
  p.replace<Derivative>("R-op", [](Rule<Derivative> r) {
    r.result = rules::r_op(mul_r_dropping_dy);
    return r;
  });
  p.replace<TraceDerivative>("R-fast", [](Rule<TraceDerivative> r) {
    r.result = rules::r_fast(mul_r_dropping_dy);
    return r;
  });
  return p;
}

// O-rd traces the body at 0.5 - V instead of V (then differentiates the trace at V): a
// conditional inside rd chooses its branch at the wrong point (seed 003 lines 351-354, Fig. 4
// S-rd: V' steers the tracing).
RulesPatch rd_branch_at_wrong_point() {
  RulesPatch p;
  p.replace<Ordinary>("O-rd", [](Rule<Ordinary> r) {
    r.result = [](Machine& m, const Ordinary::Redex& redex, const RuleInfo&) {
      std::vector<double> wrong = flatten(redex.args[0]);
      for (double& v : wrong)
        v = 0.5 - v;
      const Value wrong_point = unflatten(type_of_value(redex.args[0]), wrong);
      const Term derivative = rd_trace(m, redex.phi, *redex.term, value_term(redex.args[0]),
                                       value_term(redex.args[1]), wrong_point);
      return m.eval(redex.phi, derivative);
    };
    return r;
  });
  return p;
}

// A call rule whose callee's φ' is the caller's φ: dynamic scoping of function names.
template <class R> Rule<R> in_callers_env(Rule<R> paper) {
  paper.result = [result = paper.result](Machine& m, const typename R::Redex& redex,
                                         const RuleInfo& self) {
    Closure dynamic = *redex.callee;
    dynamic.env = redex.phi;
    typename R::Redex scoped = redex;
    scoped.callee = std::make_shared<const Closure>(std::move(dynamic));
    return result(m, scoped, self);
  };
  return paper;
}

// O-call (and L-call) run the body in the caller's φ instead of the closure's φ' (seed 003
// Fig. 2 O-call, spec P-9).
RulesPatch letrec_dynamic_scope() {
  RulesPatch p;
  p.replace<Ordinary>("O-call", in_callers_env<Ordinary>);
  p.replace<Ordinary>("L-call", in_callers_env<Ordinary>);
  return p;
}

// Fig. 4's S-call as printed (line 389) traces the body in clo_φ, the caller's φ (spec §11.3 says
// the closure's own φ' is meant); L-scall alike.
RulesPatch paper_literal_s_call() {
  RulesPatch p;
  p.replace<Symbolic>("S-call", in_callers_env<Symbolic>);
  p.replace<Symbolic>("L-scall", in_callers_env<Symbolic>);
  return p;
}

// Fig. 8's symbolic limited call as printed (line 930) gives the body's trace C without the
// wrapper let x:T = V in C (spec §11.4): the parameter is left free.
RulesPatch paper_literal_l_scall() {
  RulesPatch p;
  p.replace<Symbolic>("L-scall", [](Rule<Symbolic> r) {
    r.result = [result = r.result](Machine& m, const Symbolic::Redex& redex, const RuleInfo& self) {
      SymResult out = result(m, redex, self);
      if (out.trace->kind == Kind::let && out.trace->name == redex.callee->x)
        out.trace = out.trace->b;
      return out;
    };
    return r;
  });
  return p;
}

// O-op computes ev(op_r, <a, w>) as ev(op_r, <w, a>) for a unary op: the derivative taken at the
// cotangent and scaled by the point (argument order of a pullback; seed 003 line 237).
RulesPatch op_r_arguments_swapped() {
  RulesPatch p;
  p.replace<Ordinary>("O-op", [](Rule<Ordinary> r) {
    r.result = [result = r.result](Machine& m, const Ordinary::Redex& redex, const RuleInfo& self) {
      const std::string& op = redex.term->name;
      const Value& arg = redex.args[0];
      const bool unary_r = op.size() > 2 && op.compare(op.size() - 2, 2, "_r") == 0 &&
                           arg.kind() == Value::Kind::pair &&
                           arg.first().kind() == Value::Kind::real &&
                           arg.second().kind() == Value::Kind::real;
      if (!unary_r) return result(m, redex, self);
      const Value swapped[] = {Value::pair(arg.second(), arg.first())};
      return result(m, Ordinary::Redex{redex.phi, redex.term, swapped}, self);
    };
    return r;
  });
  return p;
}

} // namespace

const std::vector<Mutant>& mutant_catalogue() {
  static const std::vector<Mutant> catalogue = [] {
    const props::MutantDeclarer<Mutant, RulesPatch, RulesPtr> mutant{"simple-diff",
                                                                     patch_paper_rules};
    std::vector<Mutant> all;
    all.push_back(mutant("product-rule-drops-term", "dropped-term",
                         "W.mul_r(D) built as <W * snd(D), 0>: the product rule loses d/dy",
                         {"rd-matches-model", "symbolic-differentiation-correct"},
                         product_rule_drops_term()));
    all.push_back(
        mutant("rd-branch-at-wrong-point", "wrong-branch-derivative",
               "O-rd traces the body at 0.5 - V, so a conditional inside rd takes the wrong branch",
               {"rd-matches-model", "conditional-branch"}, rd_branch_at_wrong_point()));
    all.push_back(
        mutant("letrec-dynamic-scope", "wrong-closure-environment",
               "O-call runs the body in the caller's φ, not the closure's φ'",
               {"operational-correctness", "operational-completeness", "operational-interpolation"},
               letrec_dynamic_scope()));
    all.push_back(mutant("op-r-arguments-swapped", "transpose",
                         "ev(op_r, <a, w>) computed as ev(op_r, <w, a>) for unary op",
                         {"rd-matches-model", "symbolic-differentiation-correct"},
                         op_r_arguments_swapped()));
    all.push_back(mutant("paper-literal-s-call", "wrong-closure-environment",
                         "S-call as printed (seed 003 line 389): the body traced in the caller's φ",
                         {"symbolic-evaluation-correct", "rd-matches-model",
                          "operational-interpolation", "fd-equals-forward-derivative"},
                         paper_literal_s_call()));
    all.push_back(
        mutant("paper-literal-l-scall", "lost-binding",
               "L-scall as printed (seed 003 line 930): the let x:T = V wrapper is dropped",
               {"operational-interpolation"}, paper_literal_l_scall()));
    return all;
  }();
  return catalogue;
}

std::vector<props::MutantDef> mutants() {
  return props::mutant_defs(mutant_catalogue());
}

Options with_mutant(Options options, const std::string& mutant) {
  if (mutant.empty()) return options;
  if (const Mutant* m = props::find_mutant(mutant_catalogue(), mutant)) {
    options.rules = m->rules.get();
    return options;
  }
  throw AdsemError(ErrorKind::usage, "unknown mutant '" + mutant + "' for simple-diff");
}

} // namespace adsem::simple_diff
