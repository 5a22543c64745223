#include "syntax/simple_diff/ast.hpp"

#include <unordered_map>

#include "syntax/core/depth_guard.hpp"
#include "syntax/core/large_stack.hpp"
#include "syntax/simple_diff/nesting.hpp"

namespace adsem::simple_diff {

namespace mk {
// Each node is built in its shared block (no stack copy moved in and destroyed).
Term var(std::string x, Pos pos) {
  auto n = make_shared_node<Node>();
  n->kind = Kind::var;
  n->name = std::move(x);
  n->pos = pos;
  return n;
}
Term constant(double r, Pos pos) {
  auto n = make_shared_node<Node>();
  n->kind = Kind::constant;
  n->value = r;
  n->pos = pos;
  return n;
}
Term add(Term m, Term nn, Pos pos) {
  auto n = make_shared_node<Node>();
  n->kind = Kind::add;
  n->a = std::move(m);
  n->b = std::move(nn);
  n->pos = pos;
  return n;
}
Term op(std::string name, Term m, Pos pos) {
  auto n = make_shared_node<Node>();
  n->kind = Kind::op;
  n->name = std::move(name);
  n->a = std::move(m);
  n->pos = pos;
  return n;
}
Term let(std::string x, Type t, Term m, Term body, Pos pos) {
  auto n = make_shared_node<Node>();
  n->kind = Kind::let;
  n->name = std::move(x);
  n->type = std::move(t);
  n->a = std::move(m);
  n->b = std::move(body);
  n->pos = pos;
  return n;
}
Term unit(Pos pos) {
  auto n = make_shared_node<Node>();
  n->kind = Kind::unit;
  n->pos = pos;
  return n;
}
namespace {
// The annotations T, U as the product T × U; none when both are absent. A single one is kept
// as a product with a null side (ann_left/ann_right read it back as given).
Type annotation_of(Type t, Type u) {
  if (!t && !u) return nullptr;
  return product_type(std::move(t), std::move(u));
}
Term annotated(Kind kind, Term m, Term nn, Type product, Pos pos) {
  auto n = make_shared_node<Node>();
  n->kind = kind;
  n->a = std::move(m);
  n->b = std::move(nn);
  n->type = std::move(product);
  n->pos = pos;
  return n;
}
} // namespace
Term pair_ann(Term m, Term nn, Type product, Pos pos) {
  return annotated(Kind::pair, std::move(m), std::move(nn), std::move(product), pos);
}
Term fst_ann(Term m, Type product, Pos pos) {
  return annotated(Kind::fst, std::move(m), nullptr, std::move(product), pos);
}
Term snd_ann(Term m, Type product, Pos pos) {
  return annotated(Kind::snd, std::move(m), nullptr, std::move(product), pos);
}
Term pair(Term m, Term nn, Type t, Type u, Pos pos) {
  return pair_ann(std::move(m), std::move(nn), annotation_of(std::move(t), std::move(u)), pos);
}
Term fst(Term m, Type t, Type u, Pos pos) {
  return fst_ann(std::move(m), annotation_of(std::move(t), std::move(u)), pos);
}
Term snd(Term m, Type t, Type u, Pos pos) {
  return snd_ann(std::move(m), annotation_of(std::move(t), std::move(u)), pos);
}
Term if_(Term guard, Term m, Term nn, Pos pos) {
  auto n = make_shared_node<Node>();
  n->kind = Kind::if_;
  n->a = std::move(guard);
  n->b = std::move(m);
  n->c = std::move(nn);
  n->pos = pos;
  return n;
}
Term letrec(std::string f, std::string x, Type t, Type u, Term m, Term body,
            std::optional<int> limit, Pos pos) {
  auto n = make_shared_node<Node>();
  n->kind = Kind::letrec;
  n->name = std::move(f);
  n->type = std::move(t);
  n->a = std::move(m);
  n->b = std::move(body);
  n->extra = std::make_shared<const NodeExtra>(NodeExtra{limit, std::move(x), std::move(u), {}});
  n->pos = pos;
  return n;
}
Term call(std::string f, Term m, Pos pos) {
  auto n = make_shared_node<Node>();
  n->kind = Kind::call;
  n->name = std::move(f);
  n->a = std::move(m);
  n->pos = pos;
  return n;
}
Term rd(Term cotangent, Term point, std::string x, Type t, Term body, Pos pos) {
  auto n = make_shared_node<Node>();
  n->kind = Kind::rd;
  n->a = std::move(cotangent);
  n->b = std::move(point);
  n->extra = std::make_shared<const NodeExtra>(NodeExtra{{}, std::move(x), nullptr, {}});
  n->type = std::move(t);
  n->c = std::move(body);
  n->pos = pos;
  return n;
}
Term b_true(Pos pos) {
  auto n = make_shared_node<Node>();
  n->kind = Kind::b_true;
  n->pos = pos;
  return n;
}
Term b_false(Pos pos) {
  auto n = make_shared_node<Node>();
  n->kind = Kind::b_false;
  n->pos = pos;
  return n;
}
Term pred(std::string name, Term m, Pos pos) {
  auto n = make_shared_node<Node>();
  n->kind = Kind::pred;
  n->name = std::move(name);
  n->a = std::move(m);
  n->pos = pos;
  return n;
}
} // namespace mk

const std::string& Node::param() const {
  static const std::string none;
  return extra ? extra->param : none;
}

const Type& Node::result_type() const {
  static const Type none;
  return extra ? extra->result_type : none;
}

const Type& Node::annotation() const {
  static const Type none;
  return kind == Kind::pair || kind == Kind::fst || kind == Kind::snd ? type : none;
}

const Type& Node::ann_left() const {
  static const Type none;
  const Type& product = annotation();
  return product ? product->left : none;
}

const Type& Node::ann_right() const {
  static const Type none;
  const Type& product = annotation();
  return product ? product->right : none;
}

NodeExtra& Node::edit_extra() {
  auto own = extra ? std::make_shared<NodeExtra>(*extra) : std::make_shared<NodeExtra>();
  NodeExtra& fields = *own;
  extra = std::move(own);
  return fields;
}

Term with_sugar(const Term& node, Sugar sugar) {
  auto copy = make_shared_node<Node>(*node);
  copy->edit_extra().sugar = std::move(sugar);
  return copy;
}

Term with_children(const Node& node, Term a, Term b, Term c) {
  auto copy = make_shared_node<Node>(node);
  copy->a = std::move(a);
  copy->b = std::move(b);
  copy->c = std::move(c);
  return copy;
}

bool is_value(const Node& m) {
  switch (m.kind) {
  case Kind::var:
  case Kind::constant:
  case Kind::unit:
    return true;
  case Kind::pair:
    return is_value(*m.a) && is_value(*m.b);
  default:
    return false;
  }
}

namespace {
// Visit every node iteratively (no recursion: terms may be deep).
template <typename F> void for_each_node(const Node& root, F&& f) {
  std::vector<const Node*> stack{&root};
  while (!stack.empty()) {
    const Node* n = stack.back();
    stack.pop_back();
    f(*n);
    for (const Term* child : {&n->a, &n->b, &n->c})
      if (*child) stack.push_back(child->get());
  }
}
} // namespace

bool is_trace_term(const Node& m) {
  bool ok = true;
  for_each_node(m, [&](const Node& n) {
    switch (n.kind) {
    case Kind::if_:
    case Kind::letrec:
    case Kind::call:
    case Kind::rd:
    case Kind::b_true:
    case Kind::b_false:
    case Kind::pred:
      ok = false;
      break;
    default:
      break;
    }
  });
  return ok;
}

long term_size(const Node& m) {
  long count = 0;
  for_each_node(m, [&](const Node&) { ++count; });
  return count;
}

void for_each_name(const Node& m, const std::function<void(const std::string&)>& visit) {
  for_each_node(m, [&](const Node& n) {
    if (!n.name.empty() && n.kind != Kind::op && n.kind != Kind::pred) visit(n.name);
    if (!n.param().empty()) visit(n.param());
    if (const Sugar* sugar = n.sugar())
      for (const auto& b : sugar->binders)
        visit(b.name);
  });
}

void collect_names(const Node& m, std::vector<std::string>& out) {
  for_each_name(m, [&](const std::string& name) { out.push_back(name); });
}

namespace {

// Scoped map from a binder name to the de Bruijn level of its binding on each side.
class AlphaScope {
public:
  int lookup(const std::string& x) const {
    auto it = map_.find(x);
    return it == map_.end() || it->second.empty() ? -1 : it->second.back();
  }
  void push(const std::string& x, int level) { map_[x].push_back(level); }
  void pop(const std::string& x) { map_[x].pop_back(); }

private:
  std::unordered_map<std::string, std::vector<int>> map_;
};

class AlphaEq {
public:
  bool eq(const Term& a, const Term& b) {
    if (!a || !b) return !a && !b;
    DepthGuard guard(budget_);
    const Node& x = *a;
    const Node& y = *b;
    if (x.kind != y.kind) return false;
    if (!ann_eq(x.ann_left(), y.ann_left()) || !ann_eq(x.ann_right(), y.ann_right())) return false;
    switch (x.kind) {
    case Kind::var: {
      const int lx = vl_.lookup(x.name), ly = vr_.lookup(y.name);
      return lx == ly && (lx >= 0 || x.name == y.name);
    }
    case Kind::constant:
      return x.value == y.value || (x.value != x.value && y.value != y.value);
    case Kind::unit:
    case Kind::b_true:
    case Kind::b_false:
      return true;
    case Kind::add:
    case Kind::pair:
      return eq(x.a, y.a) && eq(x.b, y.b);
    case Kind::op:
    case Kind::pred:
      return x.name == y.name && eq(x.a, y.a);
    case Kind::fst:
    case Kind::snd:
      return eq(x.a, y.a);
    case Kind::if_:
      return eq(x.a, y.a) && eq(x.b, y.b) && eq(x.c, y.c);
    case Kind::let: {
      if (!same_type(x.type, y.type) || !eq(x.a, y.a)) return false;
      return under_var(x.name, y.name, [&] { return eq(x.b, y.b); });
    }
    case Kind::call: {
      const int lx = fl_.lookup(x.name), ly = fr_.lookup(y.name);
      if (lx != ly || (lx < 0 && x.name != y.name)) return false;
      return eq(x.a, y.a);
    }
    case Kind::letrec: {
      if (x.limit() != y.limit() || !same_type(x.type, y.type) ||
          !same_type(x.result_type(), y.result_type()))
        return false;
      const int level = next_++;
      fl_.push(x.name, level);
      fr_.push(y.name, level);
      const bool ok = under_var(x.param(), y.param(), [&] { return eq(x.a, y.a); }) && eq(x.b, y.b);
      fl_.pop(x.name);
      fr_.pop(y.name);
      return ok;
    }
    case Kind::rd:
      if (!same_type(x.type, y.type) || !eq(x.a, y.a) || !eq(x.b, y.b)) return false;
      return under_var(x.param(), y.param(), [&] { return eq(x.c, y.c); });
    }
    return false;
  }

private:
  static bool ann_eq(const Type& a, const Type& b) { return !a || !b || same_type(a, b); }
  template <typename F> bool under_var(const std::string& x, const std::string& y, F&& body) {
    const int level = next_++;
    vl_.push(x, level);
    vr_.push(y, level);
    const bool ok = body();
    vl_.pop(x);
    vr_.pop(y);
    return ok;
  }

  AlphaScope vl_, vr_, fl_, fr_;
  int next_ = 0;
  DepthBudget budget_{max_source_nesting, 0, ErrorKind::eval};
};

} // namespace

bool alpha_equal(const Term& a, const Term& b) {
  return on_large_stack([&] { return AlphaEq().eq(a, b); });
}

} // namespace adsem::simple_diff
