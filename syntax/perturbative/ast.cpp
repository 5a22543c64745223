#include "syntax/perturbative/ast.hpp"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <map>
#include <stdexcept>
#include <unordered_map>

#include <fmt/format.h>

#include "syntax/core/depth_guard.hpp"

namespace adsem::perturbative {

// ---- types ----

Type real_type() {
  static const Type r =
      make_shared_node<const TypeNode>(TypeNode{TypeNode::Kind::real, "", {}, {}});
  return r;
}
Type atom_type(std::string name) {
  return make_shared_node<const TypeNode>(TypeNode{TypeNode::Kind::atom, std::move(name), {}, {}});
}
Type product_type(Type a, Type b) {
  return make_shared_node<const TypeNode>(
      TypeNode{TypeNode::Kind::product, "", std::move(a), std::move(b)});
}
Type arrow_type(Type a, Type b) {
  return make_shared_node<const TypeNode>(
      TypeNode{TypeNode::Kind::arrow, "", std::move(a), std::move(b)});
}
bool is_product(const Type& t) {
  return t->kind == TypeNode::Kind::product;
}
bool is_arrow(const Type& t) {
  return t->kind == TypeNode::Kind::arrow;
}
const Type& component(const Type& product, int k) {
  if (!is_product(product)) throw std::logic_error("component of a non-product type");
  return k == 1 ? product->left : product->right;
}

bool same_type(const Type& a, const Type& b) {
  if (a == b) return true;
  if (a->kind != b->kind) return false;
  switch (a->kind) {
  case TypeNode::Kind::real:
    return true;
  case TypeNode::Kind::atom:
    return a->name == b->name;
  case TypeNode::Kind::product:
  case TypeNode::Kind::arrow:
    return same_type(a->left, b->left) && same_type(a->right, b->right);
  }
  return false;
}

std::string type_text(const Type& t, bool top) {
  switch (t->kind) {
  case TypeNode::Kind::real:
    return "R";
  case TypeNode::Kind::atom:
    return t->name;
  case TypeNode::Kind::product: {
    const std::string inner = type_text(t->left, false) + " * " + type_text(t->right, false);
    return top ? inner : "(" + inner + ")";
  }
  case TypeNode::Kind::arrow: {
    const std::string inner = type_text(t->left, false) + " -> " + type_text(t->right, false);
    return top ? inner : "(" + inner + ")";
  }
  }
  return "?";
}

// ---- smart constructors (L165-185) ----

namespace {
SimpleP make(Simple s) {
  return make_shared_node<const Simple>(std::move(s));
}
} // namespace

Term zero(Type type) {
  return Term{std::move(type), {}};
}
Term single(SimpleP s) {
  Type t = s->type;
  return Term{std::move(t), {std::move(s)}};
}
Term var(std::string name, Type type) {
  Simple s;
  s.kind = Kind::var;
  s.type = std::move(type);
  s.name = std::move(name);
  return single(make(std::move(s)));
}
Term numeral(double r) {
  if (r == 0.0) return zero(real_type());
  Simple s;
  s.kind = Kind::numeral;
  s.type = real_type();
  s.value = r;
  return single(make(std::move(s)));
}
Term primitive(std::string name, Type type) {
  Simple s;
  s.kind = Kind::primitive;
  s.type = std::move(type);
  s.name = std::move(name);
  return single(make(std::move(s)));
}
namespace {
// Σ s_i with one new node per summand v_i of `operand` (its operand v_i, its type `type`, the rest
// set by `fill`): the sugar of L165-185 for a linear former. Each node is built in place (T_x's
// output is mostly these nodes, spec §9.6).
template <class Fill> Term distribute(Type type, const Term& operand, const Fill& fill) {
  Term out = zero(std::move(type));
  out.items.reserve(operand.items.size());
  for (const SimpleP& v : operand.items) {
    auto s = make_shared_node<Simple>();
    s->type = out.type;
    s->operand = v;
    fill(*s);
    out.items.push_back(std::move(s));
  }
  return out;
}
} // namespace

Term lam(std::string x, Type sigma, const Term& body) {
  return distribute(arrow_type(sigma, body.type), body, [&](Simple& s) {
    s.kind = Kind::lam;
    s.name = x;
    s.binder_type = sigma;
  });
}
Term app(const Term& op, Term argument) {
  return app(op, Argument(std::move(argument)));
}
Term app(const Term& op, const Argument& argument) {
  if (!is_arrow(op.type)) throw std::logic_error("app: operator of non-function type");
  return distribute(op.type->right, op, [&](Simple& s) {
    s.kind = Kind::app;
    s.argument = argument;
  });
}
Term push(const Term& op) {
  if (!is_arrow(op.type)) throw std::logic_error("T: operand of non-function type");
  return distribute(arrow_type(tangent_type(op.type->left), tangent_type(op.type->right)), op,
                    [](Simple& s) { s.kind = Kind::push; });
}
Term inj(int k, Type product, const Term& operand) {
  return distribute(std::move(product), operand, [k](Simple& s) {
    s.kind = Kind::inj;
    s.index = k;
  });
}
Term proj(int k, const Term& operand) {
  return distribute(component(operand.type, k), operand, [k](Simple& s) {
    s.kind = Kind::proj;
    s.index = k;
  });
}
Term sum(const Term& a, const Term& b) {
  Term out = zero(a.type);
  out.items.reserve(a.items.size() + b.items.size());
  out.items.insert(out.items.end(), a.items.begin(), a.items.end());
  out.items.insert(out.items.end(), b.items.begin(), b.items.end());
  return out;
}
Term pair(const Term& a, const Term& b) {
  const Type t = product_type(a.type, b.type);
  Term out = inj(1, t, a);
  Term second = inj(2, t, b);
  out.items.insert(out.items.end(), std::make_move_iterator(second.items.begin()),
                   std::make_move_iterator(second.items.end()));
  return out;
}

Term with_operand(const Simple& s, const Term& operand) {
  switch (s.kind) {
  case Kind::lam:
    return lam(s.name, s.binder_type, operand);
  case Kind::app:
    return app(operand, s.argument);
  case Kind::push:
    return push(operand);
  case Kind::inj:
    return inj(s.index, s.type, operand);
  case Kind::proj:
    return proj(s.index, operand);
  default:
    throw std::logic_error("with_operand: node has no operand");
  }
}
Term with_argument(const Simple& s, Term argument) {
  return app(single(s.operand), std::move(argument));
}

// ---- observations ----

void free_variables(const Simple& s, std::set<std::string>& out) {
  switch (s.kind) {
  case Kind::var:
    out.insert(s.name);
    return;
  case Kind::lam: {
    std::set<std::string> inner;
    free_variables(*s.operand, inner);
    inner.erase(s.name);
    out.insert(inner.begin(), inner.end());
    return;
  }
  case Kind::app:
    free_variables(*s.operand, out);
    for (const SimpleP& a : s.argument->items)
      free_variables(*a, out);
    return;
  case Kind::push:
  case Kind::inj:
  case Kind::proj:
    free_variables(*s.operand, out);
    return;
  case Kind::numeral:
  case Kind::primitive:
    return;
  }
}
std::set<std::string> free_variables(const Term& m) {
  std::set<std::string> out;
  for (const SimpleP& s : m.items)
    free_variables(*s, out);
  return out;
}

namespace {
long size_s(const Simple& s) {
  switch (s.kind) {
  case Kind::lam:
  case Kind::push:
  case Kind::inj:
  case Kind::proj:
    return 1 + size_s(*s.operand);
  case Kind::app:
    return 1 + size_s(*s.operand) + size_of(s.argument);
  default:
    return 1;
  }
}
int depth_s(const Simple& s) {
  switch (s.kind) {
  case Kind::lam:
  case Kind::push:
  case Kind::inj:
  case Kind::proj:
    return 1 + depth_s(*s.operand);
  case Kind::app:
    return 1 + std::max(depth_s(*s.operand), depth_of(s.argument));
  default:
    return 1;
  }
}
} // namespace

namespace {
struct TreeSize {
  long cap;
  // Only a node held more than once can be met twice on the walk: any other is met once, through
  // its one holder, which is itself met once or memoised. So only shared nodes are memoised
  // (memoising every node was half of a T_x property's trial).
  std::unordered_map<const Simple*, long> memo;
  std::unordered_map<const Term*, long> arguments; // the bags more than one application holds
  // A walk stops where the count reaches the cap: the rest cannot change a saturated count, and
  // a node memoised at the cap is at least that large (half of a judged T_x was walked past it).
  long bag(const Term& m) {
    long n = 1;
    for (const SimpleP& s : m.items) {
      if (n >= cap) break;
      n = std::min(cap, n + simple(s));
    }
    return n;
  }
  long simple(const SimpleP& p) {
    const bool shared = p.use_count() > 1;
    if (shared)
      if (const auto it = memo.find(p.get()); it != memo.end()) return it->second;
    const Simple& s = *p;
    long n = 1;
    if (s.operand) n = std::min(cap, n + simple(s.operand));
    if (s.kind == Kind::app && n < cap) n = std::min(cap, n + argument(s.argument));
    if (shared) memo.emplace(p.get(), n);
    return n;
  }
  long argument(const Argument& a) {
    if (!a.shared()) return bag(*a);
    if (const auto it = arguments.find(&*a); it != arguments.end()) return it->second;
    const long n = bag(*a);
    arguments.emplace(&*a, n);
    return n;
  }
};
} // namespace

long tree_size(const Term& m, long cap) {
  return TreeSize{cap, {}, {}}.bag(m);
}

long size_of(const Term& m) {
  long n = 1;
  for (const SimpleP& s : m.items)
    n += size_s(*s);
  return n;
}
int depth_of(const Term& m) {
  int d = 0;
  for (const SimpleP& s : m.items)
    d = std::max(d, depth_s(*s));
  return d;
}

namespace {
struct Keyer {
  std::map<std::string, std::vector<int>> levels; // binder name -> stack of levels
  int depth = 0;
  DepthBudget budget{DepthBudget::default_limit, 0, ErrorKind::eval};

  std::string bag(const Term& m) {
    std::vector<std::string> keys;
    for (const SimpleP& s : m.items)
      keys.push_back(simple(*s));
    std::sort(keys.begin(), keys.end());
    std::string out = "[";
    for (const std::string& k : keys)
      out += k + ";";
    return out + "]";
  }
  std::string simple(const Simple& s) {
    const DepthGuard guard(budget);
    switch (s.kind) {
    case Kind::var: {
      const auto it = levels.find(s.name);
      if (it != levels.end() && !it->second.empty()) return "#" + std::to_string(it->second.back());
      return "$" + s.name;
    }
    case Kind::lam: {
      levels[s.name].push_back(depth++);
      std::string out = "L" + type_text(s.binder_type, false) + "." + simple(*s.operand);
      --depth;
      levels[s.name].pop_back();
      return "(" + out + ")";
    }
    case Kind::app:
      return "(" + simple(*s.operand) + " " + bag(s.argument) + ")";
    case Kind::push:
      return "(T " + simple(*s.operand) + ")";
    case Kind::inj:
      return "(i" + std::to_string(s.index) + type_text(s.type, false) + " " + simple(*s.operand) +
             ")";
    case Kind::proj:
      return "(p" + std::to_string(s.index) + " " + simple(*s.operand) + ")";
    case Kind::numeral: {
      const double r = std::round(s.value * 1e9) / 1e9;
      return fmt::format("{}", r == 0.0 ? 0.0 : r);
    }
    case Kind::primitive:
      return s.name;
    }
    return "?";
  }
};

void reals_into(const Term& m, const Type& type, std::vector<double>& out) {
  if (is_product(type)) {
    for (int k = 1; k <= 2; ++k) {
      Term part = zero(component(type, k));
      for (const SimpleP& s : m.items)
        if (s->kind == Kind::inj && s->index == k) part.items.push_back(s->operand);
      reals_into(part, component(type, k), out);
    }
    return;
  }
  double total = 0;
  for (const SimpleP& s : m.items)
    total += s->value;
  out.push_back(total);
}

bool numeric_simple(const Simple& s) {
  if (s.kind == Kind::numeral) return true;
  return s.kind == Kind::inj && numeric_simple(*s.operand);
}
bool ground(const Type& t) {
  return t->kind == TypeNode::Kind::real || (is_product(t) && ground(t->left) && ground(t->right));
}
} // namespace

std::string canonical_key(const Term& m) {
  return Keyer{}.bag(m);
}

bool is_numeric_value(const Term& m) {
  if (!ground(m.type)) return false;
  return std::all_of(m.items.begin(), m.items.end(),
                     [](const SimpleP& s) { return numeric_simple(*s); });
}

std::vector<double> numeric_reals(const Term& m) {
  std::vector<double> out;
  reals_into(m, m.type, out);
  return out;
}

} // namespace adsem::perturbative
