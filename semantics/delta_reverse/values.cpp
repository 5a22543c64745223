#include "semantics/delta_reverse/values.hpp"

#include <cstring>

#include "syntax/delta_reverse/printer.hpp"

namespace adsem::delta_reverse {

namespace {
Delta make_delta(DeltaNode n) {
  return std::make_shared<const DeltaNode>(std::move(n));
}
Value make(ValueNode n) {
  return std::make_shared<const ValueNode>(std::move(n));
}
using VK = ValueNode::Kind;
} // namespace

Delta d_zero() {
  static const Delta z = make_delta({DeltaNode::Kind::zero, 0, 0, nullptr, nullptr});
  return z;
}
Delta d_scale(double r, Delta u) {
  return make_delta({DeltaNode::Kind::scale, r, 0, std::move(u), nullptr});
}
Delta d_add(Delta u1, Delta u2) {
  return make_delta({DeltaNode::Kind::add, 0, 0, std::move(u1), std::move(u2)});
}
Delta d_var(std::int64_t id) {
  return make_delta({DeltaNode::Kind::var, 0, id, nullptr, nullptr});
}
Delta d_let(std::int64_t id, Delta rhs, Delta body) {
  return make_delta({DeltaNode::Kind::let, 0, id, std::move(rhs), std::move(body)});
}
Delta d_onehot(std::int64_t i) {
  return make_delta({DeltaNode::Kind::onehot, 0, i, nullptr, nullptr});
}

std::size_t delta_nodes(const Delta& u) {
  std::size_t n = 0;
  std::vector<const DeltaNode*> stack = {u.get()};
  while (!stack.empty()) {
    const DeltaNode* at = stack.back();
    stack.pop_back();
    ++n;
    if (at->a) stack.push_back(at->a.get());
    if (at->b) stack.push_back(at->b.get());
  }
  return n;
}

std::string print_delta(const Delta& u) {
  switch (u->kind) {
  case DeltaNode::Kind::zero:
    return "Zero";
  case DeltaNode::Kind::scale:
    return "Scale(" + print_real(u->r) + ", " + print_delta(u->a) + ")";
  case DeltaNode::Kind::add:
    return "Add(" + print_delta(u->a) + ", " + print_delta(u->b) + ")";
  case DeltaNode::Kind::var:
    return "Var " + std::to_string(u->id);
  case DeltaNode::Kind::let:
    return "Let " + std::to_string(u->id) + " (" + print_delta(u->a) + ") (" + print_delta(u->b) +
           ")";
  case DeltaNode::Kind::onehot:
    return "OneHot " + std::to_string(u->id);
  }
  return "?";
}

Env extend(Env env, std::string name, Value v) {
  return std::make_shared<const EnvNode>(EnvNode{std::move(name), std::move(v), std::move(env)});
}

Value v_real(double r) {
  ValueNode n;
  n.kind = VK::real;
  n.real = r;
  return make(std::move(n));
}
Value v_int(std::int64_t k) {
  ValueNode n;
  n.kind = VK::integer;
  n.integer = k;
  return make(std::move(n));
}
Value v_pair(Value a, Value b) {
  ValueNode n;
  n.kind = VK::pair;
  n.a = std::move(a);
  n.b = std::move(b);
  return make(std::move(n));
}
Value v_inl(Value a) {
  ValueNode n;
  n.kind = VK::inl;
  n.a = std::move(a);
  return make(std::move(n));
}
Value v_inr(Value a) {
  ValueNode n;
  n.kind = VK::inr;
  n.a = std::move(a);
  return make(std::move(n));
}
Value v_closure(Env env, std::string x, Term body) {
  ValueNode n;
  n.kind = VK::closure;
  n.env = std::move(env);
  n.name = std::move(x);
  n.body = std::move(body);
  return make(std::move(n));
}
Value v_prim(std::string op) {
  ValueNode n;
  n.kind = VK::prim;
  n.name = std::move(op);
  return make(std::move(n));
}
Value v_comp(Env env, Term c) {
  ValueNode n;
  n.kind = VK::comp;
  n.env = std::move(env);
  n.body = std::move(c);
  return make(std::move(n));
}
Value v_delta(Delta d) {
  ValueNode n;
  n.kind = VK::delta;
  n.delta = std::move(d);
  return make(std::move(n));
}
Value v_dense(std::vector<double> xs) {
  ValueNode n;
  n.kind = VK::dense;
  n.dense = std::make_shared<const std::vector<double>>(std::move(xs));
  return make(std::move(n));
}

Value v_vector(std::vector<Value> items) {
  ValueNode n;
  n.kind = VK::vector;
  n.items = std::make_shared<const std::vector<Value>>(std::move(items));
  return make(std::move(n));
}

Value v_array_op(std::string op, Term constant) {
  ValueNode n;
  n.kind = VK::array_op;
  n.name = std::move(op);
  n.body = std::move(constant);
  return make(std::move(n));
}

std::string print_value(const Value& v, const Type& t) {
  using TK = TypeNode::Kind;
  switch (v->kind) {
  case VK::real:
    return print_real(v->real);
  case VK::integer:
    return v->integer < 0 ? "(" + std::to_string(v->integer) + ")" : std::to_string(v->integer);
  case VK::pair: {
    const bool typed = t && t->kind == TK::product;
    return "(" + print_value(v->a, typed ? t->left : nullptr) + ", " +
           print_value(v->b, typed ? t->right : nullptr) + ")";
  }
  case VK::inl:
  case VK::inr: {
    const bool left = v->kind == VK::inl;
    const bool typed = t && t->kind == TK::sum;
    const std::string other = typed ? "[" + print_type(left ? t->right : t->left) + "]" : "";
    const std::string payload = print_value(v->a, typed ? (left ? t->left : t->right) : nullptr);
    return std::string(left ? "inl" : "inr") + other + " " +
           (payload.find(' ') != std::string::npos && payload[0] != '(' ? "(" + payload + ")"
                                                                        : payload);
  }
  case VK::closure:
  case VK::prim:
  case VK::array_op:
    return "<function>";
  case VK::comp:
    return "<computation>";
  case VK::delta:
    return print_delta(v->delta);
  case VK::dense: {
    std::string out = "<";
    for (std::size_t i = 0; i < v->dense->size(); ++i)
      out += (i ? ", " : "") + print_real((*v->dense)[i]);
    return out + ">";
  }
  case VK::vector: {
    const Type element = t && t->kind == TK::vector ? t->left : nullptr;
    std::string out = "[";
    for (std::size_t i = 0; i < v->items->size(); ++i)
      out += (i ? ", " : "") + print_value((*v->items)[i], element);
    return out + "]";
  }
  }
  return "?";
}

void flatten_reals(const Value& v, std::vector<double>& out) {
  switch (v->kind) {
  case VK::real:
    out.push_back(v->real);
    return;
  case VK::pair:
    flatten_reals(v->a, out);
    flatten_reals(v->b, out);
    return;
  case VK::inl:
  case VK::inr:
    flatten_reals(v->a, out);
    return;
  case VK::vector:
    for (const Value& item : *v->items)
      flatten_reals(item, out);
    return;
  default:
    return;
  }
}
std::vector<double> flatten_reals(const Value& v) {
  std::vector<double> out;
  flatten_reals(v, out);
  return out;
}

bool has_type(const Value& v, const Type& t) {
  using TK = TypeNode::Kind;
  switch (t->kind) {
  case TK::real:
    return v->kind == VK::real;
  case TK::integer:
  case TK::delta_id:
    return v->kind == VK::integer;
  case TK::product:
    return v->kind == VK::pair && has_type(v->a, t->left) && has_type(v->b, t->right);
  case TK::sum:
    return (v->kind == VK::inl && has_type(v->a, t->left)) ||
           (v->kind == VK::inr && has_type(v->a, t->right));
  case TK::arrow:
    return v->kind == VK::closure || v->kind == VK::prim || v->kind == VK::array_op;
  case TK::monad:
    return v->kind == VK::comp;
  case TK::delta:
  case TK::delta2:
    return v->kind == VK::delta;
  case TK::dense:
    return v->kind == VK::dense;
  case TK::vector:
    if (v->kind != VK::vector) return false;
    for (const Value& item : *v->items)
      if (!has_type(item, t->left)) return false;
    return true;
  }
  return false;
}

Value unflatten_reals(const Value& shape, const std::vector<double>& xs, std::size_t& next) {
  switch (shape->kind) {
  case VK::real:
    return v_real(xs.at(next++));
  case VK::pair: {
    Value a = unflatten_reals(shape->a, xs, next);
    return v_pair(a, unflatten_reals(shape->b, xs, next));
  }
  case VK::inl:
    return v_inl(unflatten_reals(shape->a, xs, next));
  case VK::inr:
    return v_inr(unflatten_reals(shape->a, xs, next));
  case VK::vector: {
    std::vector<Value> items;
    items.reserve(shape->items->size());
    for (const Value& item : *shape->items)
      items.push_back(unflatten_reals(item, xs, next));
    return v_vector(std::move(items));
  }
  default:
    return shape;
  }
}

bool same_bits(const Value& a, const Value& b) {
  if (a->kind != b->kind) return false;
  switch (a->kind) {
  case VK::real:
    return std::memcmp(&a->real, &b->real, sizeof(double)) == 0;
  case VK::integer:
    return a->integer == b->integer;
  case VK::pair:
    return same_bits(a->a, b->a) && same_bits(a->b, b->b);
  case VK::inl:
  case VK::inr:
    return same_bits(a->a, b->a);
  case VK::vector:
    if (a->items->size() != b->items->size()) return false;
    for (std::size_t i = 0; i < a->items->size(); ++i)
      if (!same_bits((*a->items)[i], (*b->items)[i])) return false;
    return true;
  default:
    return false;
  }
}

bool same_delta(const Delta& a, const Delta& b) {
  if (a->kind != b->kind || a->id != b->id || std::memcmp(&a->r, &b->r, sizeof(double)) != 0 ||
      !a->a != !b->a || !a->b != !b->b)
    return false;
  return (!a->a || same_delta(a->a, b->a)) && (!a->b || same_delta(a->b, b->b));
}

} // namespace adsem::delta_reverse
