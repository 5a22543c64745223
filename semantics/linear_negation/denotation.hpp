#pragma once
// The set-theoretic model of seed 002 §4.3 (Table 4, L782-841; spec §5) in the shared numeric
// model, generic in the scalar C (double: points; Interval: boxes; Dual: Jacobians). Following
// spec §5.3, a linear judgment Γ ⊢_z t is evaluated with z as an ordinary real variable, so
// ⟦λz^R.t⟧ is the function a ↦ ⟦t⟧(z := a) (linear by Table 4's remark L839, which the property
// `linearity` checks instead of assuming). It never calls this calculus's D or reduction.
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <string_view>
#include <utility>

#include "semantics/core/application_memo.hpp"
#include "semantics/core/model_limits.hpp"
#include "semantics/core/primitives.hpp"
#include "semantics/core/value.hpp"
#include "semantics/core/work_budget.hpp"
#include "syntax/core/depth_guard.hpp"
#include "syntax/core/inline_vector.hpp"
#include "syntax/linear_negation/ast.hpp"
#include "syntax/linear_negation/nesting.hpp"

namespace adsem::linear_negation {

model::ModelType model_type(const Type& t); // ⟦R^⊥d⟧ = (R -> R^d)

template <class C> struct EnvNode {
  // Made in its allocation from the binding's parts (an aggregate was built aside and moved in:
  // two moves of the value's variant per binding, one binding per application of a λ).
  template <class Value>
  EnvNode(const std::string& name, Value&& value, std::shared_ptr<const EnvNode<C>> next)
      : name(name), value(std::forward<Value>(value)), next(std::move(next)) {}
  // The value made in its place by `make` (a let's bound term walked into its binding).
  template <class Make>
  EnvNode(std::in_place_t, const std::string& name, Make&& make,
          std::shared_ptr<const EnvNode<C>> next)
      : name(name), value(make()), next(std::move(next)) {}
  std::string name;
  model::Value<C> value;
  std::shared_ptr<const EnvNode<C>> next;
};
template <class C> using Env = std::shared_ptr<const EnvNode<C>>;
// The value is copied once into the new node (a λ's argument, a pair's component) or moved (a
// let's bound value).
template <class C> Env<C> bind(Env<C> env, const std::string& name, const model::Value<C>& value) {
  return std::make_shared<const EnvNode<C>>(name, value, std::move(env));
}
template <class C> Env<C> bind(Env<C> env, const std::string& name, model::Value<C>&& value) {
  return std::make_shared<const EnvNode<C>>(name, std::move(value), std::move(env));
}

// One denotation's limits: the nesting guard (this calculus's own depth) and the models' work cap
// (semantics/core/model_limits.hpp: a term of size 60 of normal-forms-are-values took 80 s of CPU
// in ⟦−⟧ and was killed as a `timeout`). A property that denotes many terms in one trial shares
// one budget among them (step soundness denotes the term after each of up to 400 steps: each
// under the cap, together 12 s of CPU on one term of size 60, a `timeout` on the paper's own
// calculus).
//
// A primitive's ⊥ (Table 2 rule (23)'s side condition; spec §9 P14) is caught where the primitive
// is applied and kept here, and the walk goes on with a placeholder real: thrown from the
// primitive, it unwound every level of the walk, which cost a discarded trial of
// normal-forms-are-values about ten times its denotation. The outermost walk on the budget (a
// denotation, or a closure applied from outside every walk) throws the kept ⊥ when it returns,
// and throws it instead of any error met after it, so that the first ⊥ of the walk's order is
// the error reported, as when it was thrown at once.
struct DenoteBudget {
  DenoteBudget() = default;
  explicit DenoteBudget(long work_cap) : work(work_cap, 1) {}
  DepthBudget depth{max_nesting, 0, ErrorKind::eval};
  WorkBudget work{model::work_cap, 1};
  // The walk's first ⊥, until it is thrown (held aside: the budget stays as small as it was).
  std::unique_ptr<const model::DomainFailure> failure;

  template <class E> void keep(const E& e) {
    if (!failure) failure = std::make_unique<const model::DomainFailure>(e);
  }
  // The kept ⊥, thrown once (the budget may serve another walk after it).
  void throw_kept() {
    if (failure) [[unlikely]]
      throw_failure();
  }

private:
  [[noreturn, gnu::noinline, gnu::cold]] void throw_failure() {
    const std::unique_ptr<const model::DomainFailure> kept = std::move(failure);
    model::throw_failure(*kept);
  }
};

namespace denotation_detail {

// Fresh names differ mostly in their numeric suffix (x_107, x_110): compared from the end, a
// lookup passes the other bindings of an environment after a character or two. A name of 4 to 16
// characters is compared as two words, its last and its first (they overlap below twice the
// word): the binding found was compared a character at a time, half of a variable's visit.
template <class Word> Word word_at(const char* p) {
  Word w;
  std::memcpy(&w, p, sizeof w);
  return w;
}
template <class Word> bool same_ends(const char* a, const char* b, std::size_t n) {
  return word_at<Word>(a + n - sizeof(Word)) == word_at<Word>(b + n - sizeof(Word)) &&
         word_at<Word>(a) == word_at<Word>(b);
}
inline bool same_name(std::string_view a, std::string_view b) {
  const std::size_t n = a.size();
  if (n != b.size()) return false;
  if (n >= 8 && n <= 16) return same_ends<std::uint64_t>(a.data(), b.data(), n);
  if (n >= 4 && n < 8) return same_ends<std::uint32_t>(a.data(), b.data(), n);
  for (std::size_t i = n; i-- > 0;)
    if (a[i] != b[i]) return false;
  return true;
}

// Out of line: with the message built in it, lookup (at every variable the model visits) was a
// call of its own that saved three registers; without it, lookup inlines.
[[noreturn, gnu::noinline, gnu::cold]] inline void throw_unbound(const Node& x) {
  throw AdsemError(ErrorKind::eval, "denotation: unbound variable " + x.name);
}

template <class C> const model::Value<C>& lookup(const Node& x, const Env<C>& env) {
  for (const EnvNode<C>* at = env.get(); at != nullptr; at = at->next.get())
    if (same_name(at->name, x.name)) return at->value;
  throw_unbound(x);
}

inline constexpr const char* work_name = "the denotation (⟦−⟧ of Table 4)";

// One level of the nesting guard: DepthGuard's count, and DepthGuard itself (its error) past the
// limit. Made at every node, where DepthGuard's optional source position (never given here) cost
// a stall each time.
class Level {
public:
  explicit Level(DepthBudget& budget) : budget_(budget) {
    if (budget_.depth >= budget_.limit) const DepthGuard over(budget_);
    ++budget_.depth;
  }
  ~Level() { --budget_.depth; }
  Level(const Level&) = delete;
  Level& operator=(const Level&) = delete;

private:
  DepthBudget& budget_;
};

// A subterm's value, read in place when the subterm is a variable (its binding outlives the
// read): an application, a primitive or a sum reads its operands without copying them. The
// variable is visited as any node is: one level of the nesting guard, left before the value is
// used, and one unit of work. A value made for the operand is held in place, and nothing is made
// for a variable (a unit value there was destroyed through the variant's visitor at each read).
template <class C> class Operand {
public:
  explicit Operand(const model::Value<C>& bound) : read_(&bound) {}
  template <class Make> Operand(std::in_place_t, Make&& make) : made_(make()) { read_ = &made_; }
  ~Operand() {
    if (read_ == &made_) made_.~Value();
  }
  Operand(const Operand&) = delete;
  Operand& operator=(const Operand&) = delete;
  const model::Value<C>& get() const { return *read_; }

private:
  const model::Value<C>* read_;
  union {
    model::Value<C> made_;
  };
};

template <class C>
model::Value<C> walk(const Term& t, const Env<C>& env, const std::shared_ptr<DenoteBudget>& budget);

template <class C>
Operand<C> operand(const Term& t, const Env<C>& env, const std::shared_ptr<DenoteBudget>& budget) {
  if (t->kind == Kind::var) {
    const Level level(budget->depth);
    budget->work.spend(1, work_name);
    return Operand<C>(lookup(*t, env));
  }
  return Operand<C>(std::in_place, [&] { return walk<C>(t, env, budget); });
}

// The entry of the primitive table a prim node names, looked up at the node's first visit only
// (Node::primitive); an unknown name throws as the table's `at` does, at every visit.
inline const Primitive& primitive_of(const Node& t) {
  if (t.primitive.entry == nullptr) t.primitive.entry = &primitives().at(t.name);
  return *t.primitive.entry;
}

// f(args), or its ⊥ kept in the budget and a placeholder real in its place (DenoteBudget).
template <class C>
[[gnu::always_inline]] inline model::Dual<C> applied(const Primitive& f, Args<model::Dual<C>> args,
                                                     DenoteBudget& budget) {
  // Past a kept ⊥ the walk's reals are placeholders: another ⊥ of them would be thrown for nothing.
  if (budget.failure) [[unlikely]]
    return model::Dual<C>();
  try {
    return f.template apply1<model::Dual<C>>(args);
  } catch (const model::Undefined& e) {
    budget.keep(e);
  } catch (const model::Undecided& e) {
    budget.keep(e);
  }
  return model::Dual<C>();
}

// A primitive of n arguments, n = 1 or 2 (all but dot2). One argument is read where its operand
// holds it; two are copied, each from its operand's real, into their places (a buffer
// default-constructed four duals, copied into them and destroyed them all at every primitive node).
template <class C, std::size_t N>
model::Dual<C> apply_primitive_of(const Node& t, const Env<C>& env,
                                  const std::shared_ptr<DenoteBudget>& budget) {
  if constexpr (N == 1) {
    const Operand<C> x = operand<C>(t.kids[0], env, budget);
    return applied<C>(primitive_of(t), Args<model::Dual<C>>(&x.get().real(), 1), *budget);
  } else {
    // Elements of a braced list are made in order: the operands are visited left to right.
    const std::array<model::Dual<C>, N> args = [&]<std::size_t... I>(std::index_sequence<I...>) {
      return std::array<model::Dual<C>, N>{operand<C>(t.kids[I], env, budget).get().real()...};
    }
    (std::make_index_sequence<N>{});
    return applied<C>(primitive_of(t), Args<model::Dual<C>>(args.data(), N), *budget);
  }
}

// Any other number of arguments, gathered in a buffer (its own frame, as the buffer is large).
template <class C>
[[gnu::noinline]] model::Dual<C>
apply_primitive_of_any(const Node& t, const Env<C>& env,
                       const std::shared_ptr<DenoteBudget>& budget) {
  ArgumentBuffer<model::Dual<C>> args;
  for (const Term& k : t.kids)
    args.push_back(operand<C>(k, env, budget).get().real());
  return applied<C>(primitive_of(t), Args<model::Dual<C>>(args.data(), args.size()), *budget);
}

// Its own frame (not inlined into walk): the arguments' room would enlarge every level's.
template <class C>
[[gnu::noinline]] model::Dual<C> apply_primitive(const Node& t, const Env<C>& env,
                                                 const std::shared_ptr<DenoteBudget>& budget) {
  if (t.kids.size() == 1) return apply_primitive_of<C, 1>(t, env, budget);
  if (t.kids.size() == 2) return apply_primitive_of<C, 2>(t, env, budget);
  return apply_primitive_of_any<C>(t, env, budget);
}

// The walk of t as the outermost one on its budget: the ⊥ it kept is thrown when it returns, and
// in place of any error met after it (DenoteBudget). The handler costs nothing where nothing is
// thrown.
template <class C>
model::Value<C> outermost(const Term& t, const Env<C>& env,
                          const std::shared_ptr<DenoteBudget>& budget) {
  model::Value<C> result = [&] {
    try {
      return walk<C>(t, env, budget);
    } catch (...) {
      budget->throw_kept();
      throw;
    }
  }();
  budget->throw_kept();
  return result;
}

// ⟦λx.t⟧ in its environment: d ↦ ⟦t⟧(g, x := d), its last application to a real remembered
// (semantics/core/application_memo.hpp: a shared backpropagator is applied twice to the same
// cotangent, and nested sharing made the work exponential). The model's closure itself, made in
// its allocation from the λ node, the environment and the budget (made aside and moved into a
// model::CallableOf, it was two more moves and two destructions of its parts per λ visited).
template <class C> class Abstraction final : public model::Callable<C> {
public:
  Abstraction(const Term& lam, const Env<C>& env, const std::shared_ptr<DenoteBudget>& budget)
      : lam(lam), env(env), budget(budget) {}

  model::Value<C> operator()(const model::Value<C>& v) const override {
    if (auto again = memo.reuse(v, budget->depth, budget->work)) return std::move(*again);
    const long before = budget->work.used();
    const int depth = budget->depth.depth;
    model::Value<C> result = body(v, depth == 0);
    // A walk past a kept ⊥ made a placeholder: nothing is remembered of it.
    const long units = budget->work.used() - before;
    if (units >= model::ApplicationMemo<C>::min_units && !budget->failure)
      memo.remember(v, result, units, depth);
    return result;
  }

private:
  // Applied from outside every walk (probing, a property's own call), it is the outermost. Each
  // result made in place (a conditional between the two calls moved it).
  model::Value<C> body(const model::Value<C>& v, bool from_outside) const {
    if (from_outside) return outermost<C>(lam->body(), bind<C>(env, lam->x.name, v), budget);
    return walk<C>(lam->body(), bind<C>(env, lam->x.name, v), budget);
  }

  Term lam;
  Env<C> env;
  std::shared_ptr<DenoteBudget> budget;
  mutable model::ApplicationMemo<C> memo;
};

template <class C>
model::Value<C> walk(const Term& t, const Env<C>& env,
                     const std::shared_ptr<DenoteBudget>& budget) {
  using V = model::Value<C>;
  const Level level(budget->depth);
  budget->work.spend(1, work_name);
  switch (t->kind) {
  case Kind::var: // ⟦x⟧g = g_x, (27) ⟦z⟧ = a ↦ a
    return lookup(*t, env);
  case Kind::num: // ⟦r⟧ = r, (39) ⟦0⟧ = a ↦ 0; the real is made in the value's place
    return V(t->value);
  case Kind::lam: // ⟦λx.t⟧g = d ↦ ⟦t⟧(g, d); ⟦λz^R.t⟧g = the linear map a ↦ ⟦t⟧(g, z := a)
    return V(model::Closure<C>{std::make_shared<const Abstraction<C>>(t, env, budget)});
  case Kind::app: { // ⟦t u⟧ = ⟦t⟧(⟦u⟧), (33) for linear application
    const Operand<C> f = operand<C>(t->left(), env, budget);
    return f.get()(operand<C>(t->right(), env, budget).get());
  }
  // Pairs and sums visit their right operand first (the order this model has always had: which
  // of two errors surfaces first decides a trial's discard reason).
  case Kind::pair: { // (34)
    // The left component made in its place in the pair, the right one moved there once (through
    // V::pair's parameters, each was moved twice).
    V right = walk<C>(t->right(), env, budget);
    return V::tuple_of(2, [&](std::size_t i) -> V {
      if (i == 0) return walk<C>(t->left(), env, budget);
      return std::move(right);
    });
  }
  case Kind::add: { // (40) in R^d
    const Operand<C> right = operand<C>(t->right(), env, budget);
    const Operand<C> left = operand<C>(t->left(), env, budget);
    return model::sum(left.get(), right.get());
  }
  case Kind::let: // (35), (36): a linear ES is composition, i.e. the same let
    return walk<C>(
        t->body(),
        std::make_shared<const EnvNode<C>>(
            std::in_place, t->x.name, [&] { return walk<C>(t->bound(), env, budget); }, env),
        budget);
  case Kind::let_pair: { // (37)
    const Operand<C> u = operand<C>(t->bound(), env, budget);
    return walk<C>(t->body(),
                   bind<C>(bind<C>(env, t->x.name, u.get().first()), t->y.name, u.get().second()),
                   budget);
  }
  case Kind::prim: // ⟦f(t)⟧ = ⟦f⟧(⟦t1⟧, …), (38) for ·
    return V(apply_primitive<C>(*t, env, budget));
  }
  throw AdsemError(ErrorKind::eval, "denotation: unknown node");
}

} // namespace denotation_detail

// ⟦t⟧ in env, charging `budget` (a fresh one when null): one level of its nesting guard and one
// unit of its work a node visited, a λ's body again at each application.
template <class C>
model::Value<C> denote(const Term& t, const Env<C>& env,
                       std::shared_ptr<DenoteBudget> budget = nullptr) {
  if (!budget) budget = std::make_shared<DenoteBudget>();
  return denotation_detail::outermost<C>(t, env, budget);
}

// ⟦t⟧ in env on a fresh budget, its ⊥ (the first of the walk, DenoteBudget) put in `failure`
// rather than thrown, the value then a placeholder; any other error thrown as by denote. A
// property that discards a term outside a primitive's domain reads it without an exception.
template <class C>
model::Value<C> denote(const Term& t, const Env<C>& env,
                       std::unique_ptr<const model::DomainFailure>& failure) {
  const auto budget = std::make_shared<DenoteBudget>();
  model::Value<C> result = [&] {
    try {
      return denotation_detail::walk<C>(t, env, budget);
    } catch (...) {
      if (!budget->failure) throw;
    }
    return model::Value<C>();
  }();
  failure = std::move(budget->failure);
  return result;
}

} // namespace adsem::linear_negation
