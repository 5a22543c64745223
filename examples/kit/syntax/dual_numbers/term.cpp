#include "syntax/dual_numbers/term.hpp"

#include <algorithm>
#include <set>

#include "syntax/core/diagnostic.hpp"
#include "syntax/core/real_text.hpp"

namespace adsem::dual_numbers {

Type real_type() {
  static const Type real = make_shared_node<const TypeNode>(); // immutable, shared
  return real;
}
Type product(Type left, Type right) {
  return make_shared_node<const TypeNode>(TypeNode{TypeKind::product, left, right});
}
Type arrow(Type domain, Type codomain) {
  return make_shared_node<const TypeNode>(TypeNode{TypeKind::arrow, domain, codomain});
}
bool same_type(const Type& a, const Type& b) {
  if (a->kind != b->kind) return false;
  return a->kind == TypeKind::real ||
         (same_type(a->left, b->left) && same_type(a->right, b->right));
}
std::string print_type(const Type& t) {
  switch (t->kind) {
  case TypeKind::real:
    return "real";
  case TypeKind::product:
    return "(" + print_type(t->left) + " * " + print_type(t->right) + ")";
  case TypeKind::arrow:
    return "(" + print_type(t->left) + " -> " + print_type(t->right) + ")";
  }
  return "?";
}

std::string op_name(Op o) {
  switch (o) {
  case Op::add:
    return "add";
  case Op::mul:
    return "mul";
  case Op::sin:
    return "sin";
  case Op::cos:
    return "cos";
  }
  return "?";
}

namespace {
Term node(Node n) {
  return make_shared_node<const Node>(std::move(n));
}
} // namespace

Term var(std::string name, std::optional<SourcePos> pos) {
  return node({.kind = Kind::var, .name = std::move(name), .pos = pos});
}
Term constant(double value) {
  return node({.kind = Kind::constant, .value = value});
}
Term op(Op o, Term x, Term y) {
  return node({.kind = Kind::op, .op = o, .a = x, .b = y});
}
Term lam(std::string x, Type t, Term body) {
  return node({.kind = Kind::lam, .name = std::move(x), .binder_type = t, .a = body});
}
Term app(Term f, Term argument) {
  return node({.kind = Kind::app, .a = f, .b = argument});
}
Term pair(Term first, Term second) {
  return node({.kind = Kind::pair, .a = first, .b = second});
}
Term proj(int index, Term operand) {
  return node({.kind = Kind::proj, .index = index, .a = operand});
}
Term with_children(const Node& n, Term a, Term b) {
  Node copy = n;
  copy.a = std::move(a);
  copy.b = std::move(b);
  return node(std::move(copy));
}

bool is_value(const Node& t) {
  return t.kind == Kind::constant || t.kind == Kind::lam ||
         (t.kind == Kind::pair && is_value(*t.a) && is_value(*t.b));
}

int size(const Term& t) {
  return t ? 1 + size(t->a) + size(t->b) : 0;
}

bool same_term(const Term& s, const Term& t) {
  if (!s || !t) return !s && !t;
  if (s->kind != t->kind || s->name != t->name || s->op != t->op || s->index != t->index)
    return false;
  if (s->kind == Kind::constant && s->value != t->value) return false;
  if (s->kind == Kind::lam && !same_type(s->binder_type, t->binder_type)) return false;
  return same_term(s->a, t->a) && same_term(s->b, t->b);
}

std::string print(const Term& t) {
  switch (t->kind) {
  case Kind::var:
    return t->name;
  case Kind::constant:
    return shortest_real_text(t->value);
  case Kind::op:
    return op_name(t->op) + "(" + print(t->a) + (t->b ? ", " + print(t->b) : "") + ")";
  case Kind::lam:
    return "(\\" + t->name + ":" + print_type(t->binder_type) + ". " + print(t->a) + ")";
  case Kind::app:
    return "(" + print(t->a) + " " + print(t->b) + ")";
  case Kind::pair:
    return "<" + print(t->a) + ", " + print(t->b) + ">";
  case Kind::proj:
    return "pi" + std::to_string(t->index) + " " + print(t->a);
  }
  return "?";
}

namespace {
void collect_tags(const Term& t, std::set<std::string>& out) {
  if (!t) return;
  static const char* const names[] = {"var", "constant", "op", "lam", "app", "pair", "proj"};
  out.insert(t->kind == Kind::op ? op_name(t->op) : names[static_cast<int>(t->kind)]);
  collect_tags(t->a, out);
  collect_tags(t->b, out);
}
[[noreturn]] void type_error(const Term& t, const std::string& why) {
  throw AdsemError(ErrorKind::type, why + " in " + print(t));
}
} // namespace

std::vector<std::string> tags(const Term& t) {
  std::set<std::string> out;
  collect_tags(t, out);
  return {out.begin(), out.end()};
}

Type typecheck(const Term& t, const TypeContext& gamma) {
  const auto expect_real = [&](const Term& sub) {
    if (typecheck(sub, gamma)->kind != TypeKind::real) type_error(t, "a real operand expected");
  };
  switch (t->kind) {
  case Kind::var: {
    const auto it = std::find_if(gamma.rbegin(), gamma.rend(),
                                 [&](const auto& entry) { return entry.first == t->name; });
    if (it == gamma.rend()) type_error(t, "unbound variable " + t->name);
    return it->second;
  }
  case Kind::constant:
    return real_type();
  case Kind::op:
    expect_real(t->a);
    if (op_arity(t->op) == 2) expect_real(t->b);
    return real_type();
  case Kind::lam: {
    TypeContext inner = gamma;
    inner.emplace_back(t->name, t->binder_type);
    return arrow(t->binder_type, typecheck(t->a, inner));
  }
  case Kind::app: {
    const Type f = typecheck(t->a, gamma);
    if (f->kind != TypeKind::arrow || !same_type(f->left, typecheck(t->b, gamma)))
      type_error(t, "the argument does not match the function's domain");
    return f->right;
  }
  case Kind::pair:
    return product(typecheck(t->a, gamma), typecheck(t->b, gamma));
  case Kind::proj: {
    const Type p = typecheck(t->a, gamma);
    if (p->kind != TypeKind::product) type_error(t, "a projection of a non-pair");
    return t->index == 1 ? p->left : p->right;
  }
  }
  type_error(t, "an unknown construct");
}

Term substitute(const Term& t, const std::string& x, const Term& v) {
  if (!t) return t;
  if (t->kind == Kind::var) return t->name == x ? v : t;
  if (t->kind == Kind::lam && t->name == x) return t; // x is rebound here
  if (!t->a) return t;
  return with_children(*t, substitute(t->a, x, v), substitute(t->b, x, v));
}

} // namespace adsem::dual_numbers
