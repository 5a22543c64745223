#include "syntax/simple_diff/ast.hpp"

#include <unordered_map>

#include "syntax/core/depth_guard.hpp"
#include "syntax/core/large_stack.hpp"

namespace adsem::simple_diff {

namespace mk {
namespace {
TermPtr make(Node n) {
  return std::make_shared<const Node>(std::move(n));
}
} // namespace

TermPtr var(std::string x, Pos pos) {
  Node n;
  n.kind = NodeKind::var;
  n.name = std::move(x);
  n.pos = pos;
  return make(std::move(n));
}
TermPtr constant(double r, Pos pos) {
  Node n;
  n.kind = NodeKind::constant;
  n.value = r;
  n.pos = pos;
  return make(std::move(n));
}
TermPtr add(TermPtr m, TermPtr nn, Pos pos) {
  Node n;
  n.kind = NodeKind::add;
  n.a = std::move(m);
  n.b = std::move(nn);
  n.pos = pos;
  return make(std::move(n));
}
TermPtr op(std::string name, TermPtr m, Pos pos) {
  Node n;
  n.kind = NodeKind::op;
  n.name = std::move(name);
  n.a = std::move(m);
  n.pos = pos;
  return make(std::move(n));
}
TermPtr let(std::string x, TypePtr t, TermPtr m, TermPtr body, Pos pos) {
  Node n;
  n.kind = NodeKind::let;
  n.name = std::move(x);
  n.type = std::move(t);
  n.a = std::move(m);
  n.b = std::move(body);
  n.pos = pos;
  return make(std::move(n));
}
TermPtr unit(Pos pos) {
  Node n;
  n.kind = NodeKind::unit;
  n.pos = pos;
  return make(std::move(n));
}
TermPtr pair(TermPtr m, TermPtr nn, TypePtr t, TypePtr u, Pos pos) {
  Node n;
  n.kind = NodeKind::pair;
  n.a = std::move(m);
  n.b = std::move(nn);
  n.ann_left = std::move(t);
  n.ann_right = std::move(u);
  n.pos = pos;
  return make(std::move(n));
}
TermPtr fst(TermPtr m, TypePtr t, TypePtr u, Pos pos) {
  Node n;
  n.kind = NodeKind::fst;
  n.a = std::move(m);
  n.ann_left = std::move(t);
  n.ann_right = std::move(u);
  n.pos = pos;
  return make(std::move(n));
}
TermPtr snd(TermPtr m, TypePtr t, TypePtr u, Pos pos) {
  Node n;
  n.kind = NodeKind::snd;
  n.a = std::move(m);
  n.ann_left = std::move(t);
  n.ann_right = std::move(u);
  n.pos = pos;
  return make(std::move(n));
}
TermPtr if_(TermPtr guard, TermPtr m, TermPtr nn, Pos pos) {
  Node n;
  n.kind = NodeKind::if_;
  n.a = std::move(guard);
  n.b = std::move(m);
  n.c = std::move(nn);
  n.pos = pos;
  return make(std::move(n));
}
TermPtr letrec(std::string f, std::string x, TypePtr t, TypePtr u, TermPtr m, TermPtr body,
               std::optional<int> limit, Pos pos) {
  Node n;
  n.kind = NodeKind::letrec;
  n.name = std::move(f);
  n.param = std::move(x);
  n.type = std::move(t);
  n.result_type = std::move(u);
  n.a = std::move(m);
  n.b = std::move(body);
  n.limit = limit;
  n.pos = pos;
  return make(std::move(n));
}
TermPtr call(std::string f, TermPtr m, Pos pos) {
  Node n;
  n.kind = NodeKind::call;
  n.name = std::move(f);
  n.a = std::move(m);
  n.pos = pos;
  return make(std::move(n));
}
TermPtr rd(TermPtr cotangent, TermPtr point, std::string x, TypePtr t, TermPtr body, Pos pos) {
  Node n;
  n.kind = NodeKind::rd;
  n.a = std::move(cotangent);
  n.b = std::move(point);
  n.param = std::move(x);
  n.type = std::move(t);
  n.c = std::move(body);
  n.pos = pos;
  return make(std::move(n));
}
TermPtr b_true(Pos pos) {
  Node n;
  n.kind = NodeKind::b_true;
  n.pos = pos;
  return make(std::move(n));
}
TermPtr b_false(Pos pos) {
  Node n;
  n.kind = NodeKind::b_false;
  n.pos = pos;
  return make(std::move(n));
}
TermPtr pred(std::string name, TermPtr m, Pos pos) {
  Node n;
  n.kind = NodeKind::pred;
  n.name = std::move(name);
  n.a = std::move(m);
  n.pos = pos;
  return make(std::move(n));
}
} // namespace mk

TermPtr with_sugar(const TermPtr& node, Sugar sugar) {
  Node copy = *node;
  copy.sugar = std::make_shared<const Sugar>(std::move(sugar));
  return std::make_shared<const Node>(std::move(copy));
}

TermPtr with_children(const Node& node, TermPtr a, TermPtr b, TermPtr c) {
  Node copy = node;
  copy.a = std::move(a);
  copy.b = std::move(b);
  copy.c = std::move(c);
  return std::make_shared<const Node>(std::move(copy));
}

bool is_value(const Node& m) {
  switch (m.kind) {
  case NodeKind::var:
  case NodeKind::constant:
  case NodeKind::unit:
    return true;
  case NodeKind::pair:
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
    for (const TermPtr* child : {&n->a, &n->b, &n->c})
      if (*child) stack.push_back(child->get());
  }
}
} // namespace

bool is_trace_term(const Node& m) {
  bool ok = true;
  for_each_node(m, [&](const Node& n) {
    switch (n.kind) {
    case NodeKind::if_:
    case NodeKind::letrec:
    case NodeKind::call:
    case NodeKind::rd:
    case NodeKind::b_true:
    case NodeKind::b_false:
    case NodeKind::pred:
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

void collect_names(const Node& m, std::vector<std::string>& out) {
  for_each_node(m, [&](const Node& n) {
    if (!n.name.empty() && n.kind != NodeKind::op && n.kind != NodeKind::pred)
      out.push_back(n.name);
    if (!n.param.empty()) out.push_back(n.param);
    if (n.sugar)
      for (const auto& b : n.sugar->binders)
        out.push_back(b.name);
  });
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
  bool eq(const TermPtr& a, const TermPtr& b) {
    if (!a || !b) return !a && !b;
    DepthGuard guard(budget_);
    const Node& x = *a;
    const Node& y = *b;
    if (x.kind != y.kind) return false;
    if (!ann_eq(x.ann_left, y.ann_left) || !ann_eq(x.ann_right, y.ann_right)) return false;
    switch (x.kind) {
    case NodeKind::var: {
      const int lx = vl_.lookup(x.name), ly = vr_.lookup(y.name);
      return lx == ly && (lx >= 0 || x.name == y.name);
    }
    case NodeKind::constant:
      return x.value == y.value || (x.value != x.value && y.value != y.value);
    case NodeKind::unit:
    case NodeKind::b_true:
    case NodeKind::b_false:
      return true;
    case NodeKind::add:
    case NodeKind::pair:
      return eq(x.a, y.a) && eq(x.b, y.b);
    case NodeKind::op:
    case NodeKind::pred:
      return x.name == y.name && eq(x.a, y.a);
    case NodeKind::fst:
    case NodeKind::snd:
      return eq(x.a, y.a);
    case NodeKind::if_:
      return eq(x.a, y.a) && eq(x.b, y.b) && eq(x.c, y.c);
    case NodeKind::let: {
      if (!type_equal(x.type, y.type) || !eq(x.a, y.a)) return false;
      return under_var(x.name, y.name, [&] { return eq(x.b, y.b); });
    }
    case NodeKind::call: {
      const int lx = fl_.lookup(x.name), ly = fr_.lookup(y.name);
      if (lx != ly || (lx < 0 && x.name != y.name)) return false;
      return eq(x.a, y.a);
    }
    case NodeKind::letrec: {
      if (x.limit != y.limit || !type_equal(x.type, y.type) ||
          !type_equal(x.result_type, y.result_type))
        return false;
      const int level = next_++;
      fl_.push(x.name, level);
      fr_.push(y.name, level);
      const bool ok = under_var(x.param, y.param, [&] { return eq(x.a, y.a); }) && eq(x.b, y.b);
      fl_.pop(x.name);
      fr_.pop(y.name);
      return ok;
    }
    case NodeKind::rd:
      if (!type_equal(x.type, y.type) || !eq(x.a, y.a) || !eq(x.b, y.b)) return false;
      return under_var(x.param, y.param, [&] { return eq(x.c, y.c); });
    }
    return false;
  }

private:
  static bool ann_eq(const TypePtr& a, const TypePtr& b) { return !a || !b || type_equal(a, b); }
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
  DepthBudget budget_{DepthBudget::default_limit, 0, ErrorKind::eval};
};

} // namespace

bool alpha_equal(const TermPtr& a, const TermPtr& b) {
  return on_large_stack([&] { return AlphaEq().eq(a, b); });
}

} // namespace adsem::simple_diff
