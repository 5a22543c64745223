#include "semantics/delta_reverse/machine.hpp"

#include <limits>
#include <optional>

#include "semantics/core/primitives.hpp"
#include "semantics/delta_reverse/derivative_rules.hpp"
#include "semantics/delta_reverse/source_eval.hpp"
#include "syntax/core/large_stack.hpp"
#include "syntax/delta_reverse/nesting.hpp"

namespace adsem::delta_reverse {

namespace {

using VK = ValueNode::Kind;

// Nested evaluations (E-App into a closure body into E-App ...): as many as the source walks'
// levels (syntax/delta_reverse/nesting.hpp); nested closures, a complexity family of seed 001
// §7.4's claim, nest four a stage: 40,000 at 10,000 stages.
constexpr int max_depth = max_source_nesting;
// Past this depth eval continues on the large stack (syntax/core/large_stack.hpp): the nested
// evaluations above need far more than the default 8 MiB stack, and a shallower term pays no
// stack switch.
constexpr int shallow_depth = 2'000;

class DepthScope {
public:
  DepthScope(int& depth, const Term& t) : depth_(depth) {
    if (++depth_ > max_depth) {
      --depth_;
      throw AdsemError(ErrorKind::eval,
                       "evaluation nested deeper than " + std::to_string(max_depth), t->pos);
    }
  }
  ~DepthScope() { --depth_; }
  DepthScope(const DepthScope&) = delete;
  DepthScope& operator=(const DepthScope&) = delete;

private:
  int& depth_;
};

// Why no rule of source evaluation applies to a term of this form.
std::string_view no_source_rule(Kind kind) {
  switch (kind) {
  case Kind::case_:
    return "case on a non-injection";
  case Kind::proj:
    return "unelaborated projection (type-check the term first)";
  default:
    return "no rule of source evaluation applies";
  }
}

} // namespace

void stuck(const std::string& what, const Term& t) {
  throw AdsemError(ErrorKind::eval, "stuck: " + what, t->pos);
}

template <class R>
typename R::Output Machine::fire(typename R::Context& context, const typename R::Redex& redex,
                                 std::string_view what, std::optional<SourcePos> pos) {
  const adsem::Rule<R>* rule = rules_.select<R>(context, redex);
  if (rule == nullptr) throw AdsemError(ErrorKind::eval, "stuck: " + std::string(what), pos);
  const auto& step = rule->extra;
  if (ledger_.trace && step.detail != nullptr)
    ledger_.fire(step.step, [&] { return step.detail(context, redex); });
  else
    ledger_.fire(step.step);
  return rule->result(context, redex, rule->info);
}
template Next Machine::fire<SourceEval>(Machine&, const SourceEval::Redex&, std::string_view,
                                        std::optional<SourcePos>);
template Value Machine::fire<DenseOp>(Machine&, const DenseOp::Redex&, std::string_view,
                                      std::optional<SourcePos>);
template Value Machine::fire<Apply>(Machine&, const Apply::Redex&, std::string_view,
                                    std::optional<SourcePos>);
template RunNext Machine::fire<Monad>(MonadRun&, const Monad::Redex&, std::string_view,
                                      std::optional<SourcePos>);

Value Machine::eval(const Env& start_env, const Term& start) {
  if (depth_ == shallow_depth)
    return on_large_stack([&] { return eval_in_place(start_env, start); });
  return eval_in_place(start_env, start);
}

Value Machine::eval_in_place(const Env& start_env, const Term& start) {
  Env env = start_env;
  Term t = start;
  const DepthScope scope(depth_, t);
  for (;;) {
    // a user rule "LHS ⇓ V if RHS ⇓ V" before the paper's (an empty index without user rules)
    if (!rules_.candidates<SourceRewrite>(t->kind).empty()) {
      const SourceRewrite::Redex redex{env, t};
      if (const adsem::Rule<SourceRewrite>* user = rules_.select<SourceRewrite>(*this, redex)) {
        if (ledger_.trace)
          ledger_.fire_named(user->info.name, [&] {
            return source_rules::term_excerpt(*this, {env, t});
          });
        else
          ledger_.fire_named(user->info.name);
        Term rewritten = user->result(*this, redex, user->info);
        t = std::move(rewritten);
        continue;
      }
    }
    // case's premise e0 ⇓ v chooses between E-Case-Inl and E-Case-Inr
    const Value scrutinee = t->kind == Kind::case_ ? eval(env, t->kids[0]) : nullptr;
    Next next = fire<SourceEval>(*this, {env, t, scrutinee ? &scrutinee : nullptr},
                                 no_source_rule(t->kind), t->pos);
    if (!next.tail) return std::move(next.value);
    env = std::move(next.env);
    t = std::move(next.tail);
  }
}

Value Machine::apply(const Value& f, const Value& a) {
  if (f->kind == VK::closure) return eval(extend(f->env, f->name, a), f->body);
  return fire<Apply>(*this, {f, a}, "applying a non-function", std::nullopt);
}

Value Machine::apply_prim(const std::string& op, const Value& a) {
  const auto bad = [&]() -> Value {
    throw AdsemError(ErrorKind::eval,
                     "stuck: " + op + " applied to an argument of the wrong shape");
  };
  const auto boolean = [](bool b) { return b ? v_inl(v_int(0)) : v_inr(v_int(0)); };
  std::vector<double> reals;
  if (a->kind == VK::real) {
    reals = {a->real};
  } else if (a->kind == VK::pair && a->a->kind == VK::real && a->b->kind == VK::real) {
    reals = {a->a->real, a->b->real};
  }
  if (find_derivative_rule(op) != nullptr) {
    // the shared table's definition (design.md "Primitives: one table")
    const Primitive& p = primitives().at(op);
    if (reals.size() != p.arity()) return bad();
    ++counters.real_prim_calls;
    return v_real(p.apply1<double>(reals));
  }
  if (op == "ltR") { // partial: undefined at equality (the shared predicate `less`)
    if (reals.size() != 2) return bad();
    return boolean(primitives().at("less").holds<double>(reals));
  }
  if (op == "fromInt") {
    if (a->kind != VK::integer) return bad();
    return v_real(static_cast<double>(a->integer));
  }
  if (a->kind != VK::pair || a->a->kind != VK::integer || a->b->kind != VK::integer) return bad();
  const std::int64_t x = a->a->integer, y = a->b->integer;
  std::int64_t r = 0;
  bool overflow = false;
  if (op == "addZ")
    overflow = __builtin_add_overflow(x, y, &r);
  else if (op == "subZ")
    overflow = __builtin_sub_overflow(x, y, &r);
  else if (op == "mulZ")
    overflow = __builtin_mul_overflow(x, y, &r);
  else if (op == "eqZ")
    return boolean(x == y);
  else if (op == "ltZ")
    return boolean(x < y);
  else
    throw AdsemError(ErrorKind::eval, "unknown primitive " + op);
  if (overflow) throw AdsemError(ErrorKind::domain, op + ": integer overflow");
  return v_int(r);
}

Value Machine::run(const Value& computation) {
  MonadRun context{*this};
  Value c = computation;
  for (;;) {
    if (c->kind != VK::comp) throw AdsemError(ErrorKind::eval, "stuck: running a non-computation");
    const Node& n = *c->body;
    // deltaLet's step is counted once its argument is a Delta value, sequence's once its
    // argument is a vector (§10.2)
    const bool delta_let = n.kind == Kind::delta_let;
    const bool sequence = n.kind == Kind::sequence;
    const Value operand = delta_let || sequence ? eval(c->env, n.kids[0]) : nullptr;
    RunNext next =
        delta_let  ? fire<Monad>(context, {c, &operand}, "deltaLet of a non-Delta", std::nullopt)
        : sequence ? fire<Monad>(context, {c, &operand}, "sequence of a non-vector", n.pos)
                   : fire<Monad>(context, {c}, "not a computation form", n.pos);
    if (next.then) {
      c = std::move(next.then);
      continue;
    }
    if (context.pending.empty()) return next.result;
    const auto [env, k] = context.pending.back();
    context.pending.pop_back();
    c = eval(k->name.empty() ? env : extend(env, k->name, next.result), k->kids[1]);
  }
}

Value eval_closed(const Term& t, Ledger& ledger, const Rules& rules) {
  Machine m(ledger, rules);
  return m.eval(nullptr, t);
}

} // namespace adsem::delta_reverse
