// R-fast: a linear-size W.R_V(x:T. C) (spec §9 P-1(b); not in the paper). Fig. 6's R-let
// differentiates the let body twice, so the literal rules are exponential in the number of lets
// of a trace, and symbolic evaluation produces long let chains. R-fast instead
//   1. puts C into A-normal form: let x:T = V in let t1 = P1 in ... let tk = Pk in A, where each
//      Pi is `a + b`, `op(A')`, `fst(A')`, `snd(A')` over atoms (values), or a copy of a pair of
//      atoms bound by a let of C; nested lets are flattened (lets are strict, and a let of a value
//      is always defined, so definedness is unchanged);
//   2. appends one backward pass: adj(ti) = Σ contributions; `a + b` pushes adj to a and b; a
//      copy pushes adj to the copied pair;
//      `op(A')` pushes W.op_r(A') = op_r(<A', adj>); fst pushes <adj, 0>, snd pushes <0, adj>;
//      contributions to free variables other than x are dropped;
//   3. returns Σ contributions to x (0_T if none).
// The forward pass evaluates every redex of C at x = V, and Dom(op_r) = Dom(op) × R^m, so the
// output is defined exactly where C is (Theorem 6.1 / P-AD-1 is its acceptance test). A binding
// with no contribution has adjoint 0_S; its pullback would only add zeros, so it is skipped.
#include "semantics/simple_diff/symbolic_diff.hpp"

#include <cstdint>
#include <functional>
#include <optional>

#include "syntax/simple_diff/derived.hpp"

namespace adsem::simple_diff {

namespace {

// The atoms whose adjoints the backward pass sums (x and each forward binding's variable),
// resolved to their slot when they are made: each such variable node lives in a block owned by
// the pass, so an occurrence's slot is its place in the blocks, found without reading its name
// (a name lookup per occurrence was the pass's largest cost per binding on wide traces). Other
// variables (C's free ones) lie outside the blocks. The blocks double in size, so there are
// O(log n) of them, and a node never moves: its block is shared by every term that holds it.
class AtomSlots {
public:
  static constexpr std::uint32_t none = UINT32_MAX;

  // A new variable node x with the next slot.
  Term make(std::string x) {
    if (blocks_.empty() || blocks_.back().nodes->size() == blocks_.back().nodes->capacity()) {
      auto nodes = make_shared_node<std::vector<Node>>();
      nodes->reserve(blocks_.empty() ? 16 : 2 * blocks_.back().nodes->capacity());
      blocks_.push_back(Block{std::move(nodes), count_});
    }
    const Block& block = blocks_.back();
    Node& n = block.nodes->emplace_back();
    n.kind = Kind::var;
    n.name = std::move(x);
    ++count_;
    return Term(block.nodes, &n);
  }
  // The slot of a variable node made here, or `none`.
  std::uint32_t slot(const Node& n) const {
    const std::less<const Node*> before;
    for (auto it = blocks_.rbegin(); it != blocks_.rend(); ++it) {
      const Node* base = it->nodes->data();
      if (!before(&n, base) && before(&n, base + it->nodes->size()))
        return it->first + static_cast<std::uint32_t>(&n - base);
    }
    return none;
  }
  std::size_t size() const { return count_; }

private:
  struct Block {
    SharedNode<std::vector<Node>> nodes; // reserved once: never reallocated
    std::uint32_t first;                 // the slot of its first node
  };
  std::vector<Block> blocks_;
  std::uint32_t count_ = 0;
};

// let x:T = M, with x as its variable node (an atom or a backward variable the pass reads
// anyway): the name is not held twice.
struct Binding {
  Term var;
  Type type;
  Term term; // forward: the redex Pi over atoms; backward: any trace term
};

class Fast {
public:
  Fast(Machine& m, const DiffGoal& g, const OpRTerm& op_r, const RuleInfo& self)
      : m_(m), g_(g), op_r_(op_r), self_(self) {}

  // C as traced, its binder named `traced_x`: the binder is renamed to g.x here, and every let of
  // C is bound to an atom by the A-normal form, so C needs no renamed copy. C is released once in
  // A-normal form: the backward pass reads only the bindings.
  Term run(Term c, const std::string& traced_x) {
    let_atoms_.emplace();
    let_atoms_->push(traced_x, atoms_.make(g_.x)); // slot 0
    const Term result = anf(c);
    c.reset();
    let_atoms_.reset(); // its bindings and name table, before the backward pass makes its nodes
    contributions_.resize(atoms_.size());
    push(g_.w, result);
    for (std::size_t i = forward_.size(); i-- > 0;)
      pull_back(forward_[i], forward_slot(i));
    Term out = sum(g_.t, 0);
    if (!out) out = m_.zero(g_.t);
    contributions_ = {}; // summed: freed before the lets are made
    for (auto it = backward_.rbegin(); it != backward_.rend(); ++it)
      out = mk::let(it->var->name, it->type, it->term, out);
    for (auto it = forward_.rbegin(); it != forward_.rend(); ++it)
      out = mk::let(it->var->name, it->type, it->term, out);
    return mk::let(g_.x, g_.t, g_.v, out);
  }

private:
  // ---- 1. A-normal form ----------------------------------------------------------------------
  Term anf(const Term& term) {
    Machine::Depth depth(m_);
    const Node& n = *term;
    switch (n.kind) {
    case Kind::var: {
      const Term* bound = let_atoms_->find(n.name);
      return bound ? *bound : term;
    }
    case Kind::constant:
    case Kind::unit:
      return term;
    case Kind::pair: {
      if (!n.ann_left() || !n.ann_right()) unannotated(n);
      Term a = anf(n.a);
      Term b = anf(n.b);
      return mk::pair_ann(a, b, n.annotation());
    }
    case Kind::add: {
      Term a = anf(n.a);
      Term b = anf(n.b);
      return bind(real_type(), mk::add(a, b));
    }
    case Kind::op: {
      Term a = anf(n.a);
      return bind(op_arity(n.name).second, mk::op(n.name, a));
    }
    case Kind::fst:
    case Kind::snd: {
      if (!n.ann_left() || !n.ann_right()) unannotated(n);
      Term a = anf(n.a);
      const bool first = n.kind == Kind::fst;
      return bind(first ? n.ann_left() : n.ann_right(),
                  first ? mk::fst_ann(a, n.annotation()) : mk::snd_ann(a, n.annotation()));
    }
    case Kind::let:
      return anf_lets(term);
    default:
      throw AdsemError(ErrorKind::eval, "R-fast applies to trace terms only", n.pos);
    }
  }

  // A let of C and the lets in its body, one after another: C is a chain of lets (S-ctx binds
  // every redex), so a call per let nested as deep as C is long. Each body that is a let enters one
  // more level of the depth guard, as the call did.
  Term anf_lets(const Term& first) {
    ScopedEnv<Term>::Scope scope(*let_atoms_);
    Machine::Levels levels(m_);
    const Term* let = &first;
    for (;;) {
      const Node& n = **let;
      Term a = anf(n.a);
      // a pair of atoms is bound as an atom copy (spec §9 P-1(b)), so that each use of the let
      // variable is one variable, not a copy of the pair: copying would double the atom at each
      // let of a pair of pairs, and the output would no longer be linear in |C|
      if (a->kind == Kind::pair) a = bind(n.type, a);
      let_atoms_->push(n.name, std::move(a));
      if (n.b->kind != Kind::let) return anf(n.b);
      levels.enter();
      let = &n.b;
    }
  }

  Term bind(Type type, Term redex) {
    m_.step(self_, redex.get());
    Term atom = atoms_.make(m_.names().fresh("t"));
    forward_.push_back(Binding{atom, std::move(type), std::move(redex)});
    return atom;
  }
  // The slot of forward binding i's variable (x has slot 0).
  static std::uint32_t forward_slot(std::size_t i) { return static_cast<std::uint32_t>(i + 1); }

  [[noreturn]] static void unannotated(const Node& n) {
    throw AdsemError(ErrorKind::eval,
                     "symbolic differentiation needs the pair and projection annotations "
                     "(type-check the term first; seed 003 line 110)",
                     n.pos);
  }

  // ---- 2. backward pass ----------------------------------------------------------------------
  bool mentions_relevant(const Node& a) const {
    switch (a.kind) {
    case Kind::var:
      return atoms_.slot(a) != AtomSlots::none;
    case Kind::pair:
      return mentions_relevant(*a.a) || mentions_relevant(*a.b);
    default:
      return false;
    }
  }

  static bool is_zero_value(const Node& v) {
    switch (v.kind) {
    case Kind::constant:
      return v.value == 0.0;
    case Kind::unit:
      return true;
    case Kind::pair:
      return is_zero_value(*v.a) && is_zero_value(*v.b);
    default:
      return false;
    }
  }

  // Add the cotangent G (a term of the atom's type) to the adjoints of the atom's variables.
  void push(const Term& g, const Term& atom) {
    if (!mentions_relevant(*atom) || is_zero_value(*g)) return;
    const Node& a = *atom;
    if (a.kind == Kind::var) {
      contributions_[atoms_.slot(a)].push_back(g);
      return;
    }
    // a pair of atoms <A1, A2>_{U,S}: split G
    if (g->kind == Kind::pair) {
      push(g->a, a.a);
      push(g->b, a.b);
      return;
    }
    const Term p = mk::var(m_.names().fresh("p"));
    Term p1 = mk::var(m_.names().fresh("p"));
    Term p2 = mk::var(m_.names().fresh("p"));
    backward_.push_back(Binding{p, a.annotation(), g});
    backward_.push_back(Binding{p1, a.ann_left(), mk::fst_ann(p, a.annotation())});
    backward_.push_back(Binding{p2, a.ann_right(), mk::snd_ann(p, a.annotation())});
    push(p1, a.a);
    push(p2, a.b);
  }

  // Σ contributions to the atom of slot `slot` at type `type` (nullptr if there are none).
  Term sum(const Type& type, std::uint32_t slot) {
    const std::vector<Term>& terms = contributions_[slot];
    if (terms.empty()) return nullptr;
    Term total = terms.front();
    for (std::size_t i = 1; i < terms.size(); ++i)
      total = plus_of(type, total, terms[i], m_.names());
    return total;
  }

  void pull_back(const Binding& b, std::uint32_t slot) {
    Term total = sum(b.type, slot);
    if (!total) return;
    m_.step(self_, b.term.get());
    Term adj = total;
    if (adj->kind != Kind::var) {
      adj = mk::var(m_.names().fresh(b.var->name + "bar"));
      backward_.push_back(Binding{adj, b.type, total});
    }
    const Node& p = *b.term;
    switch (p.kind) {
    case Kind::add:
      push(adj, p.a);
      push(adj, p.b);
      return;
    case Kind::op: {
      const auto [s, u] = op_arity(p.name);
      Term y = mk::var(m_.names().fresh("y"));
      backward_.push_back(Binding{y, s, op_r_(p.name, p.a, adj, s, u)});
      push(y, p.a);
      return;
    }
    case Kind::fst:
      push(mk::pair_ann(adj, m_.zero(p.ann_right()), p.annotation()), p.a);
      return;
    case Kind::snd:
      push(mk::pair_ann(m_.zero(p.ann_left()), adj, p.annotation()), p.a);
      return;
    case Kind::pair: // an atom copy: its adjoint goes to the copied atom
      push(adj, b.term);
      return;
    default:
      return;
    }
  }

  Machine& m_;
  const DiffGoal& g_;
  const OpRTerm& op_r_;
  const RuleInfo& self_; // R-fast: each binding and each pullback is one step
  // C's let variables (and its binder) to their atoms, while C is put into A-normal form
  std::optional<ScopedEnv<Term>> let_atoms_;
  std::vector<Binding> forward_, backward_;
  // x and the forward bindings' variables, by slot; by slot, the cotangents pushed to each
  AtomSlots atoms_;
  std::vector<std::vector<Term>> contributions_;
};

} // namespace

namespace rules {

// (R-fast)  W.R_V(x:T. C) by A-normal form and one backward pass (C as traced).
Rule<TraceDerivative>::Result r_fast(OpRTerm op_r) {
  return
      [op_r = std::move(op_r)](Machine& m, const TraceDerivative::Redex& r, const RuleInfo& self) {
        return Fast(m, r.goal, op_r, self).run(std::move(r.term), r.traced_x);
      };
}

} // namespace rules

} // namespace adsem::simple_diff
