// The mutants of simple-diff, one wrong rule each (see mutants.hpp).
#include "semantics/simple_diff/mutants.hpp"

#include "semantics/simple_diff/rd.hpp"
#include "semantics/simple_diff/symbolic_diff.hpp"

namespace adsem::simple_diff {

namespace {

// product-rule-drops-term: W.mul_r(D) = <W * snd(D), 0>: the derivative of x*y with respect to y
// is lost (seed 003 line 237, op_r of mul; bug class "dropped term of the product rule").
void product_rule_drops_term(Rules& r) {
  r.op_r_term = [paper = r.op_r_term](const std::string& op, const TermPtr& primal,
                                      const TermPtr& cotangent, const TypePtr& s,
                                      const TypePtr& u) {
    if (op != "mul") return paper(op, primal, cotangent, s, u);
    const TypePtr real = real_type();
    const TermPtr dx = mk::op("mul", mk::pair(cotangent, mk::snd(primal, real, real), real, real));
    return mk::pair(dx, mk::constant(0.0), real, real);
  };
}

// rd-branch-at-wrong-point: O-rd traces the body at 0.5 - V instead of V (then differentiates the
// trace at V): a conditional inside rd chooses its branch at the wrong point (bug class "wrong
// branch derivative"; seed 003 lines 351-354, Fig. 4 S-rd: V' steers the tracing).
void rd_branch_at_wrong_point(Rules& r) {
  r.o_rd = [](Machine& m, const FunEnv& phi, const Node& n, std::span<const Value> args) {
    m.step(Rule::O_rd, &n);
    std::vector<double> wrong = flatten(args[0]);
    for (double& v : wrong)
      v = 0.5 - v;
    const Value wrong_point = unflatten(type_of_value(args[0]), wrong);
    const TermPtr derivative =
        rd_trace(m, phi, n, value_term(args[0]), value_term(args[1]), wrong_point);
    return m.eval(phi, derivative);
  };
}

// A closure whose φ' is replaced by the caller's φ: dynamic scoping of function names.
FunEnv caller_scoped(const FunEnv& phi, const Node& call) {
  const ClosurePtr closure = lookup(phi, call.name);
  if (!closure) return phi;
  Closure dynamic = *closure;
  dynamic.env = phi;
  return extend(phi, call.name, std::make_shared<const Closure>(std::move(dynamic)));
}

// letrec-dynamic-scope: O-call runs the body in the caller's φ instead of the closure's φ'
// (bug class "closure captures the wrong environment"; seed 003 Fig. 2 O-call, spec P-9).
void letrec_dynamic_scope(Rules& r) {
  r.o_call = [paper = r.o_call](Machine& m, const FunEnv& phi, const Node& n,
                                std::span<const Value> args) {
    return paper(m, caller_scoped(phi, n), n, args);
  };
}

// paper-literal-s-call: Fig. 4's S-call as printed (line 389) traces the body in clo_φ, the
// caller's φ (spec §11.3 says the closure's own φ' is meant).
void paper_literal_s_call(Rules& r) {
  r.s_call = [paper = r.s_call](Machine& m, const FunEnv& phi, const Node& n,
                                std::span<const TermPtr> atoms, bool want) {
    return paper(m, caller_scoped(phi, n), n, atoms, want);
  };
}

// paper-literal-l-scall: Fig. 8's symbolic limited call as printed (line 930) gives the body's
// trace C without the wrapper let x:T = V in C (spec §11.4): the parameter is left free.
void paper_literal_l_scall(Rules& r) {
  r.s_call = [paper = r.s_call](Machine& m, const FunEnv& phi, const Node& n,
                                std::span<const TermPtr> atoms, bool want) {
    SymResult out = paper(m, phi, n, atoms, want);
    const ClosurePtr closure = lookup(phi, n.name);
    if (closure && closure->limit && out.trace->kind == NodeKind::let &&
        out.trace->name == closure->x)
      out.trace = out.trace->b;
    return out;
  };
}

// op-r-arguments-swapped: ev(op_r, <a, w>) computed as ev(op_r, <w, a>) for unary op: the
// derivative taken at the cotangent and scaled by the point (bug class J vs J^T / argument order
// of a pullback; seed 003 line 237).
void op_r_arguments_swapped(Rules& r) {
  r.ev = [paper = r.ev](const std::string& op, const Value& arg) {
    const bool unary_r = op.size() > 2 && op.compare(op.size() - 2, 2, "_r") == 0 &&
                         arg.kind() == Value::Kind::pair &&
                         arg.first().kind() == Value::Kind::real &&
                         arg.second().kind() == Value::Kind::real;
    if (!unary_r) return paper(op, arg);
    return paper(op, Value::pair(arg.second(), arg.first()));
  };
}

} // namespace

const std::vector<RuleMutant>& rule_mutants() {
  static const std::vector<RuleMutant> mutants = {
      {"simple-diff/product-rule-drops-term", product_rule_drops_term},
      {"simple-diff/rd-branch-at-wrong-point", rd_branch_at_wrong_point},
      {"simple-diff/letrec-dynamic-scope", letrec_dynamic_scope},
      {"simple-diff/op-r-arguments-swapped", op_r_arguments_swapped},
      {"simple-diff/paper-literal-s-call", paper_literal_s_call},
      {"simple-diff/paper-literal-l-scall", paper_literal_l_scall},
  };
  return mutants;
}

Options with_mutant(Options options, const std::string& mutant) {
  if (mutant.empty()) return options;
  for (const RuleMutant& m : rule_mutants())
    if (m.name == mutant) {
      m.apply(options.rules);
      return options;
    }
  throw AdsemError(ErrorKind::usage, "unknown mutant '" + mutant + "' for simple-diff");
}

} // namespace adsem::simple_diff
