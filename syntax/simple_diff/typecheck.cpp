#include "syntax/simple_diff/typecheck.hpp"

#include "syntax/core/depth_guard.hpp"
#include "syntax/core/large_stack.hpp"
#include "syntax/simple_diff/nesting.hpp"
#include "syntax/simple_diff/printer.hpp"
#include "syntax/simple_diff/scoped_env.hpp"

namespace adsem::simple_diff {

namespace {

std::string quote(const Type& t) {
  std::string s(1, '\'');
  s += print_type(t);
  s += '\'';
  return s;
}

class Checker {
public:
  explicit Checker(const Signature& sig) : sig_(sig) {}

  ScopedEnv<Type> gamma;
  ScopedEnv<FunType> phi;

  Typed check(const Term& term) {
    DepthGuard guard(depth_, term->pos);
    Located here(*this, term->pos);
    const Node& n = *term;
    switch (n.kind) {
    case Kind::var:
      return {term, rule_var(n)};
    case Kind::constant:
      return {term, real_type()}; // (T-const)
    case Kind::unit:
      return {term, unit_type()}; // (T-unit)
    case Kind::add: {             // (T-add)
      Typed m = check(n.a), k = check(n.b);
      expect(m, real_type(), "the left operand of '+' (addition is on real only)");
      expect(k, real_type(), "the right operand of '+' (addition is on real only)");
      return {rebuild(n, m.term, k.term), real_type()};
    }
    case Kind::op: { // (T-op)
      const auto arity = sig_.op(n.name);
      if (!arity) fail(n, "unknown operation '" + n.name + "'");
      Typed m = check(n.a);
      expect(m, arity->domain,
             "the argument of " + n.name + " : " + print_type(arity->domain) + " -> " +
                 print_type(arity->codomain));
      return {rebuild(n, m.term), arity->codomain};
    }
    case Kind::let: { // (T-let)
      Typed m = check(n.a);
      expect(m, n.type, "the bound term of 'let " + n.name + ":" + print_type(n.type) + "'");
      ScopedEnv<Type>::Scope scope(gamma);
      gamma.push(n.name, n.type);
      Typed body = check(n.b);
      return {rebuild(n, m.term, body.term), body.type};
    }
    case Kind::pair: { // (T-pair)
      Typed m = check(n.a), k = check(n.b);
      check_annotation(n, n.ann_left(), m.type, "first component");
      check_annotation(n, n.ann_right(), k.type, "second component");
      Type product = product_type(m.type, k.type);
      return {annotated(n, product, m.term, k.term), product};
    }
    case Kind::fst:
    case Kind::snd: { // (T-fst), (T-snd)
      const bool first = n.kind == Kind::fst;
      Typed m = check(n.a);
      if (!m.type->is_product())
        fail(*n.a,
             std::string(first ? "fst" : "snd") + " expects a product, found " + quote(m.type));
      check_annotation(n, n.ann_left(), m.type->left, "first component");
      check_annotation(n, n.ann_right(), m.type->right, "second component");
      return {annotated(n, m.type, m.term), first ? m.type->left : m.type->right};
    }
    case Kind::if_: { // (T-if)
      Term guard_term = check_bool(n.a);
      Typed m = check(n.b), k = check(n.c);
      if (!same_type(m.type, k.type))
        fail(*n.c, "the branches of 'if' differ: then-branch has type " + quote(m.type) +
                       ", else-branch has type " + quote(k.type));
      return {rebuild(n, guard_term, m.term, k.term), m.type};
    }
    case Kind::letrec:
      return rule_letrec(n);
    case Kind::call: { // (T-call)
      const FunType* f = phi.find(n.name);
      if (!f) fail(n, "unknown function '" + n.name + "'");
      const FunType ft = *f;
      Typed m = check(n.a);
      expect(m, ft.param,
             "the argument of " + n.name + " : " + print_type(ft.param) + " -> " +
                 print_type(ft.result));
      return {rebuild(n, m.term), ft.result};
    }
    case Kind::rd:
      return rule_rd(n);
    case Kind::b_true:
    case Kind::b_false:
    case Kind::pred:
      fail(n, "a boolean term is used where a term is expected");
    }
    fail(n, "unknown term");
  }

  // Φ | Γ ⊢ B
  Term check_bool(const Term& term) {
    DepthGuard guard(depth_, term->pos);
    Located here(*this, term->pos);
    const Node& n = *term;
    switch (n.kind) {
    case Kind::b_true:
    case Kind::b_false:
      return term;     // (T-true), (T-false)
    case Kind::pred: { // (T-pred)
      const auto arity = sig_.pred(n.name);
      if (!arity) fail(n, "unknown predicate '" + n.name + "'");
      Typed m = check(n.a);
      expect(m, arity->domain,
             "the argument of predicate " + n.name + " : " + print_type(arity->domain));
      return rebuild(n, m.term);
    }
    default:
      fail(n, "the guard of 'if' must be a boolean term");
    }
  }

private:
  // (T-var)
  Type rule_var(const Node& n) {
    if (const Type* t = gamma.find(n.name)) return *t;
    if (gamma.bound_outside(n.name))
      fail(n, "variable '" + n.name +
                  "' is not in scope in this function body: a function body may mention only "
                  "its parameter (seed 003 Fig. 1, letrec, FV(M) ⊆ {x}); pass it as an "
                  "argument instead");
    fail(n, "unbound variable '" + n.name + "'");
  }

  // (T-letrec)  Φ[f:T→U] | x:T ⊢ M : U    Φ[f:T→U] | Γ ⊢ N : S   (FV(M) ⊆ {x})
  Typed rule_letrec(const Node& n) {
    ScopedEnv<FunType>::Scope fscope(phi);
    phi.push(n.name, FunType{n.type, n.result_type()});
    Term body;
    {
      ScopedEnv<Type>::Frame frame(gamma); // the body sees only x:T
      gamma.push(n.param(), n.type);
      Typed m = check(n.a);
      expect(m, n.result_type(), "the body of function " + n.name + " (declared result type)");
      body = m.term;
    }
    Typed k = check(n.b);
    return {rebuild(n, body, k.term), k.type};
  }

  // (T-rd)  Φ|Γ[x:T] ⊢ N : U    Φ|Γ ⊢ L : T    Φ|Γ ⊢ M : U   ⟹   Φ|Γ ⊢ M.rd_L(x:T.N) : T
  Typed rule_rd(const Node& n) {
    Typed body;
    {
      ScopedEnv<Type>::Scope scope(gamma);
      gamma.push(n.param(), n.type);
      body = check(n.c);
    }
    // L and M are not under the binder (spec P-17)
    Typed point = check(n.b);
    expect(point, n.type, "the point of rd (the binder " + n.param() + " has that type)");
    Typed cot = check(n.a);
    expect(cot, body.type, "the cotangent of rd (the body of rd has that type)");
    return {rebuild(n, cot.term, point.term, body.term), n.type};
  }

  void expect(const Typed& got, const Type& want, const std::string& what) {
    if (!same_type(got.type, want))
      fail(*got.term, "type mismatch: " + what + " should have type " + quote(want) +
                          ", but has type " + quote(got.type));
  }

  void check_annotation(const Node& n, const Type& ann, const Type& actual, const char* what) {
    if (ann && !same_type(ann, actual))
      fail(n, std::string("annotation mismatch: the ") + what + " is annotated " + quote(ann) +
                  " but has type " + quote(actual));
  }

  static Term rebuild(const Node& n, Term a, Term b = nullptr, Term c = nullptr) {
    return with_children(n, std::move(a), std::move(b), std::move(c));
  }

  // A copy of the pair or projection n annotated with the product T × U.
  static Term annotated(const Node& n, Type product, Term a, Term b = nullptr) {
    auto copy = make_shared_node<Node>(n);
    copy->a = std::move(a);
    copy->b = std::move(b);
    copy->type = std::move(product);
    return copy;
  }

  // Generated nodes (inside an expanded derived form) report the nearest user position.
  [[noreturn]] void fail(const Node& n, const std::string& message) const {
    throw AdsemError(ErrorKind::type, message, n.pos ? n.pos : enclosing_);
  }

  struct Located {
    Located(Checker& c, const std::optional<SourcePos>& pos) : c_(c), saved_(c.enclosing_) {
      if (pos) c.enclosing_ = pos;
    }
    ~Located() { c_.enclosing_ = saved_; }
    Checker& c_;
    std::optional<SourcePos> saved_;
  };
  std::optional<SourcePos> enclosing_;

  const Signature& sig_;
  DepthBudget depth_{max_source_nesting, 0, ErrorKind::type};
};

} // namespace

Typed typecheck(const Term& m, const Signature& signature, const TypeContext& gamma,
                const FunContext& phi) {
  return on_large_stack([&] {
    Checker checker(signature);
    for (const auto& [x, t] : gamma)
      checker.gamma.push(x, t);
    for (const auto& [f, ft] : phi)
      checker.phi.push(f, ft);
    return checker.check(m);
  });
}

} // namespace adsem::simple_diff
