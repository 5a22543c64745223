#include "semantics/simple_diff/symbolic_diff.hpp"

#include <algorithm>
#include <array>
#include <optional>
#include <stdexcept>
#include <vector>

#include "semantics/simple_diff/operations.hpp"
#include "syntax/simple_diff/derived.hpp"

namespace adsem::simple_diff {

std::pair<Type, Type> op_arity(const std::string& op) {
  const auto found = ops::find_operation(op);
  if (!found) throw AdsemError(ErrorKind::eval, "unknown operation '" + op + "'");
  return found->arity();
}

namespace {

[[noreturn]] void not_a_trace(const Node& n) {
  throw AdsemError(ErrorKind::eval,
                   "symbolic differentiation applies to trace terms only (no if, letrec, calls "
                   "or rd; seed 003 lines 261-265)",
                   n.pos);
}

void need_annotations(const Node& n) {
  if (!n.ann_left() || !n.ann_right())
    throw AdsemError(ErrorKind::eval,
                     "symbolic differentiation needs the pair and projection annotations "
                     "(type-check the term first; seed 003 line 110)",
                     n.pos);
}

// Renames x and every binder of a trace apart. With `copy` false it builds nothing (no copy, no
// renaming environment) and does the rest of the renaming's work: the same fuel charged, the same
// fresh names drawn, the same error on a term that is not a trace, so that a rule reading C as
// traced (R-fast) leaves every step count, fuel verdict and later fresh name as they were.
class Renamer {
public:
  Renamer(Machine& m, bool copy) : m_(m), copy_(copy) {}
  ScopedEnv<std::string> names;

  Term run(const Term& term) {
    Machine::Depth depth(m_);
    const Node& n = *term;
    m_.charge(1, &n); // renaming is linear work, bounded by the fuel like the rules
    switch (n.kind) {
    case Kind::var: {
      if (!copy_) return term;
      const std::string* renamed = names.find(n.name);
      return renamed ? mk::var(*renamed, n.pos) : term;
    }
    case Kind::constant:
    case Kind::unit:
      return term;
    case Kind::add:
    case Kind::pair: {
      Term a = run(n.a);
      Term b = run(n.b);
      return copy_ ? with_children(n, std::move(a), std::move(b)) : term;
    }
    case Kind::op:
    case Kind::fst:
    case Kind::snd: {
      Term a = run(n.a);
      return copy_ ? with_children(n, std::move(a)) : term;
    }
    case Kind::let: {
      if (!copy_) {
        skip_lets(n);
        return term;
      }
      Term bound = run(n.a);
      const std::string y = m_.names().fresh(n.name);
      ScopedEnv<std::string>::Scope scope(names);
      names.push(n.name, y);
      Term body = run(n.b);
      return mk::let(y, n.type, std::move(bound), std::move(body), n.pos);
    }
    default:
      not_a_trace(n);
    }
  }

private:
  // Without the copy: a let and the lets in its body in a loop (a trace is a chain of lets, one a
  // redex: a call per let nested as deep as the trace is long), with the same work charged, the
  // same names drawn and one more level of the depth guard per body that is a let, as the call
  // took. No occurrence is renamed: a binder's name is drawn, not made.
  void skip_lets(const Node& first) {
    Machine::Levels levels(m_);
    for (const Node* n = &first;;) {
      run(n->a);
      m_.names().skip(n->name);
      const Term& body = n->b;
      if (body->kind != Kind::let) {
        run(body);
        return;
      }
      levels.enter();
      m_.charge(1, body.get());
      n = body.get();
    }
  }

  Machine& m_;
  const bool copy_;
};

// Fig. 6 applied literally takes a number of steps exponential in the lets of C (spec §4.5's cost
// warning), and runs with a step budget. Each clause's entry says which derivatives of C's
// children it takes (Derivative::Extra), so the steps are counted before the derivative is built:
// one that cannot fit the budget is not built. Its steps are taken as the clauses would take them,
// without their output, until the budget runs out: the same steps are counted, traced and
// refused at the same redex. (Such doomed derivatives were two thirds of the time of a
// literal-equals-linear campaign.)
class LiteralSteps {
public:
  explicit LiteralSteps(Machine& m) : m_(m) {}

  // More steps than the budget has left: counted, not built; false when a clause reached has no
  // list of its derivatives (a patched clause, one with a side condition), or none fires.
  bool exceed_budget(const Term& c) {
    const long left = m_.steps_left();
    const std::optional<long> steps = count(c, left + 1);
    return steps && *steps > left;
  }

  // Takes the steps of W.R_V(x:T. C) without building it; throws when the budget runs out.
  void take(const Term& c) {
    Machine::Depth depth(m_);
    const Rule<Derivative>& rule = *clause(c->kind); // counted: it has one
    m_.step(rule.info, c.get());
    for (const Derivative::Premise premise : rule.extra.premises)
      take(child(*c, premise));
  }

private:
  static const Term& child(const Node& n, Derivative::Premise premise) {
    return premise == Derivative::Premise::a ? n.a : n.b;
  }
  // The entry's list describes its result.
  static bool listed(const Rule<Derivative>& rule) {
    const Derivative::Extra& extra = rule.extra;
    if (!extra.result_type || rule.result.target_type() != *extra.result_type) return false;
    if (!extra.result_function) return true;
    const auto* function = rule.result.target<decltype(extra.result_function)>();
    return function && *function == extra.result_function;
  }
  // The clause that fires on C of `kind`, when it has a list: the book's first entry for the
  // kind, without a side condition (so that it fires whatever the goal), listed. Null otherwise.
  const Rule<Derivative>* clause(Kind kind) {
    const auto k = static_cast<std::size_t>(kind);
    if (!looked_up_[k]) {
      looked_up_[k] = true;
      const auto candidates = m_.rules().candidates<Derivative>(kind);
      if (!candidates.empty() && !candidates.front()->match && listed(*candidates.front()))
        clauses_[k] = candidates.front();
    }
    return clauses_[k];
  }
  // The steps, at most `cap`; each child is counted once however often its clause takes it.
  std::optional<long> count(const Term& c, long cap) {
    const Rule<Derivative>* rule = clause(c->kind);
    if (!rule) return std::nullopt;
    long steps = 1;
    std::optional<long> of_a, of_b;
    for (const Derivative::Premise premise : rule->extra.premises) {
      std::optional<long>& known = premise == Derivative::Premise::a ? of_a : of_b;
      if (!known) {
        const Term& kid = child(*c, premise);
        if (!kid) return std::nullopt;
        known = count(kid, cap);
        if (!known) return std::nullopt;
      }
      steps = std::min(cap, steps + *known);
    }
    return steps;
  }

  Machine& m_;
  std::array<const Rule<Derivative>*, node_kind_count> clauses_{};
  std::array<bool, node_kind_count> looked_up_{};
};

} // namespace

Term rename_apart(Machine& m, const Term& c, const std::string& x, const std::string& x_new) {
  Renamer renamer(m, true);
  renamer.names.push(x, x_new);
  return renamer.run(c);
}

Term Machine::differentiate(const DiffGoal& goal, Term c) {
  // Fig. 6 assumes x ∉ FV(V, W) and distinct binders: rename x and every binder of C apart.
  const std::string x = names_.fresh(goal.x);
  const DiffGoal g{goal.w, goal.v, x, goal.t};
  // the whole trace at once (R-fast) when its rule fires: it binds every let of C afresh itself,
  // so C is read as traced and the renaming only does its work, without the copy; the rule takes
  // over C (the redex's `term`) and may release it
  const TraceDerivative::Redex whole{g, c, goal.x};
  if (const Rule<TraceDerivative>* rule = select<TraceDerivative>(whole)) {
    Renamer(*this, false).run(c);
    return fire(*rule, whole);
  }
  // else Fig. 6 clause by clause, on the renamed copy (the trace itself is released)
  const Term renamed = rename_apart(*this, c, goal.x, x);
  c.reset();
  if (LiteralSteps steps(*this); steps.exceed_budget(renamed)) {
    steps.take(renamed);
    throw std::logic_error("Fig. 6's steps were counted over the budget, but fit it");
  }
  return R(g, renamed);
}

Term Machine::R(const DiffGoal& goal, const Term& c) {
  Depth depth(*this);
  const Derivative::Redex redex{goal, c};
  if (const Rule<Derivative>* rule = select<Derivative>(redex)) return fire(*rule, redex);
  not_a_trace(*c);
}

namespace rules {

// (R-var)  W.R_V(x:T. y) = W if y ≡ x, 0_T otherwise. The transcript prints a tuple-of-variables
// form (line 425); every other rule uses one variable x, so this is the single-variable rule
// (spec §11.1).
Term r_var(Machine& m, const DRedex& r, const RuleInfo&) {
  return r.term->name == r.goal.x ? r.goal.w : m.zero(r.goal.t);
}

// (R-const)  W.R_V(x:T. r) = 0_T
Term r_const(Machine& m, const DRedex& r, const RuleInfo&) {
  return m.zero(r.goal.t);
}

// (R-add)  W.R_V(x:T. D + E) = W.R_V(x:T. D) +_T W.R_V(x:T. E)
Term r_add(Machine& m, const DRedex& r, const RuleInfo&) {
  Term d = m.R(r.goal, r.term->a);
  Term e = m.R(r.goal, r.term->b);
  return plus_of(r.goal.t, d, e, m.names());
}

// (R-op)  W.R_V(x:T. op(D)) = let x:T = V in let y:S = W.op_r(D) in y.R_V(x:T. D)
//         (y ∉ FV(V), op : S → U)
Rule<Derivative>::Result r_op(OpRTerm op_r) {
  return [op_r = std::move(op_r)](Machine& m, const DRedex& r, const RuleInfo&) {
    const DiffGoal& g = r.goal;
    const Node& c = *r.term;
    const auto [s, u] = op_arity(c.name);
    const std::string y = m.names().fresh("y");
    Term pulled = m.R(DiffGoal{mk::var(y), g.v, g.x, g.t}, c.a);
    return mk::let(g.x, g.t, g.v, mk::let(y, s, op_r(c.name, c.a, g.w, s, u), pulled));
  };
}

// (R-let)  W.R_V(x:T. let y:S = D in E) =
//            let x:T = V in let y:S = D in
//              W.R_V(x:T. E) +_T (let ȳ:S = W.R_y(y:S. E) in ȳ.R_V(x:T. D))
//          (y ∉ FV(W); y, ȳ ∉ FV(V, D))
// The inner derivative W.R_y(y:S. E) is taken literally, with the point y and the binder y.
// The spec (§4.5, P-3) renames that binder; we do not need to: its precondition y ∉ FV(V)
// fails only trivially, since V ≡ y, and every `let y:S = y` the rules emit rebinds y to itself.
Term r_let(Machine& m, const DRedex& r, const RuleInfo&) {
  const DiffGoal& g = r.goal;
  const Node& c = *r.term;
  const std::string& y = c.name;
  const Type& s = c.type;
  const std::string ybar = m.names().fresh(y + "bar");
  Term by_x = m.R(g, c.b);                                         // W.R_V(x:T. E)
  Term by_y = m.R(DiffGoal{g.w, mk::var(y), y, s}, c.b);           // W.R_y(y:S. E)
  Term through = m.R(DiffGoal{mk::var(ybar), g.v, g.x, g.t}, c.a); // ȳ.R_V(x:T. D)
  Term sum = plus_of(g.t, by_x, mk::let(ybar, s, by_y, through), m.names());
  return mk::let(g.x, g.t, g.v, mk::let(y, s, c.a, sum));
}

// (R-unit)  W.R_V(x:T. *) = 0_T
Term r_unit(Machine& m, const DRedex& r, const RuleInfo&) {
  return m.zero(r.goal.t);
}

// (R-pair)  W.R_V(x:T. <M, N>_{U,S}) = let <y:U, z:S> = W in y.R_V(x:T. M) +_T z.R_V(x:T. N)
//           (y, z ∉ FV(V, M, N))
Term r_pair(Machine& m, const DRedex& r, const RuleInfo&) {
  const DiffGoal& g = r.goal;
  const Node& c = *r.term;
  need_annotations(c);
  const std::string y = m.names().fresh("y"), z = m.names().fresh("z");
  Term left = m.R(DiffGoal{mk::var(y), g.v, g.x, g.t}, c.a);
  Term right = m.R(DiffGoal{mk::var(z), g.v, g.x, g.t}, c.b);
  return tuple_let({{y, c.ann_left()}, {z, c.ann_right()}}, g.w,
                   plus_of(g.t, left, right, m.names()), m.names(), /*sugar=*/true);
}

// (R-fst)  W.R_V(x:T. fst_{U,S}(D)) = let x:T = V in let y:U×S = D in <W, 0_S>_{U,S}.R_V(x:T. D)
//          (y ∉ FV(V, W, D); the unused y forces D's evaluation: strictness, spec P-7)
Term r_fst(Machine& m, const DRedex& r, const RuleInfo&) {
  const DiffGoal& g = r.goal;
  const Node& c = *r.term;
  need_annotations(c);
  const std::string y = m.names().fresh("y");
  Term w = mk::pair_ann(g.w, m.zero(c.ann_right()), c.annotation());
  Term pulled = m.R(DiffGoal{w, g.v, g.x, g.t}, c.a);
  return mk::let(g.x, g.t, g.v, mk::let(y, c.annotation(), c.a, pulled));
}

// (R-snd)  W.R_V(x:T. snd_{U,S}(D)) = let x:T = V in let y:U×S = D in <0_U, W>_{U,S}.R_V(x:T. D)
Term r_snd(Machine& m, const DRedex& r, const RuleInfo&) {
  const DiffGoal& g = r.goal;
  const Node& c = *r.term;
  need_annotations(c);
  const std::string y = m.names().fresh("y");
  Term w = mk::pair_ann(m.zero(c.ann_left()), g.w, c.annotation());
  Term pulled = m.R(DiffGoal{w, g.v, g.x, g.t}, c.a);
  return mk::let(g.x, g.t, g.v, mk::let(y, c.annotation(), c.a, pulled));
}

Term op_r_term(const std::string& op, const Term& primal, const Term& cotangent, const Type& s,
               const Type& u) {
  return mk::op(op + "_r", mk::pair(primal, cotangent, s, u));
}

} // namespace rules
} // namespace adsem::simple_diff
