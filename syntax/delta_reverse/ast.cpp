#include "syntax/delta_reverse/ast.hpp"

#include <algorithm>
#include <set>

namespace adsem::delta_reverse {

namespace {
Type make_type(TypeNode::Kind k, Type a = nullptr, Type b = nullptr) {
  return make_shared_node<const TypeNode>(TypeNode{k, std::move(a), std::move(b)});
}
Term make(Node n) {
  return make_shared_node<const Node>(std::move(n));
}
} // namespace

Type real_type() {
  static const Type t = make_type(TypeNode::Kind::real);
  return t;
}
Type int_type() {
  static const Type t = make_type(TypeNode::Kind::integer);
  return t;
}
Type product_type(Type a, Type b) {
  return make_type(TypeNode::Kind::product, std::move(a), std::move(b));
}
Type sum_type(Type a, Type b) {
  return make_type(TypeNode::Kind::sum, std::move(a), std::move(b));
}
Type arrow_type(Type a, Type b) {
  return make_type(TypeNode::Kind::arrow, std::move(a), std::move(b));
}
Type monad_type(Type a) {
  return make_type(TypeNode::Kind::monad, std::move(a));
}
Type delta_type() {
  static const Type t = make_type(TypeNode::Kind::delta);
  return t;
}
Type delta_id_type() {
  static const Type t = make_type(TypeNode::Kind::delta_id);
  return t;
}
Type delta2_type() {
  static const Type t = make_type(TypeNode::Kind::delta2);
  return t;
}
Type dense_type() {
  static const Type t = make_type(TypeNode::Kind::dense);
  return t;
}

Type vector_type(Type a) {
  return make_type(TypeNode::Kind::vector, std::move(a));
}

bool same_type(const Type& a, const Type& b) {
  if (a == b) return true;
  if (!a || !b || a->kind != b->kind) return false;
  return same_type(a->left, b->left) && same_type(a->right, b->right);
}

bool first_order(const Type& t) {
  switch (t->kind) {
  case TypeNode::Kind::real:
  case TypeNode::Kind::integer:
    return true;
  case TypeNode::Kind::product:
  case TypeNode::Kind::sum:
    return first_order(t->left) && first_order(t->right);
  default:
    return false;
  }
}

bool additive(const Type& t) {
  switch (t->kind) {
  case TypeNode::Kind::real:
  case TypeNode::Kind::delta:
  case TypeNode::Kind::delta2:
  case TypeNode::Kind::dense:
    return true;
  case TypeNode::Kind::product:
    return additive(t->left) && additive(t->right);
  default:
    return false;
  }
}

namespace {
// Precedence: 0 arrow, 1 sum, 2 product, 3 atom.
std::string print_type_at(const Type& t, int level) {
  std::string out;
  int own = 3;
  switch (t->kind) {
  case TypeNode::Kind::real:
    return "Real";
  case TypeNode::Kind::integer:
    return "Int";
  case TypeNode::Kind::delta:
    return "Delta";
  case TypeNode::Kind::delta_id:
    return "DeltaId";
  case TypeNode::Kind::delta2:
    return "Delta2";
  case TypeNode::Kind::dense:
    return "DeltaS";
  case TypeNode::Kind::monad:
    return "M " + print_type_at(t->left, 3);
  case TypeNode::Kind::vector:
    return "Vector " + print_type_at(t->left, 3);
  case TypeNode::Kind::product:
    own = 2;
    out = print_type_at(t->left, 3) + " * " + print_type_at(t->right, 2);
    break;
  case TypeNode::Kind::sum:
    own = 1;
    out = print_type_at(t->left, 2) + " + " + print_type_at(t->right, 1);
    break;
  case TypeNode::Kind::arrow:
    own = 0;
    out = print_type_at(t->left, 1) + " -> " + print_type_at(t->right, 0);
    break;
  }
  return own < level ? "(" + out + ")" : out;
}
} // namespace

std::string print_type(const Type& t) {
  return print_type_at(t, 0);
}

Term var(std::string x, SourcePos pos) {
  return make({Kind::var, std::move(x), {}, nullptr, 0, 0, {}, pos});
}
Term lam(std::string x, Type a, Term body, SourcePos pos) {
  return make({Kind::lam, std::move(x), {}, std::move(a), 0, 0, {std::move(body)}, pos});
}
Term app(Term f, Term a, SourcePos pos) {
  return make({Kind::app, {}, {}, nullptr, 0, 0, {std::move(f), std::move(a)}, pos});
}
Term let(std::string x, Term e1, Term e2, SourcePos pos) {
  return make({Kind::let, std::move(x), {}, nullptr, 0, 0, {std::move(e1), std::move(e2)}, pos});
}
Term pair(Term a, Term b, SourcePos pos) {
  return make({Kind::pair, {}, {}, nullptr, 0, 0, {std::move(a), std::move(b)}, pos});
}
Term fst(Term e, SourcePos pos) {
  return make({Kind::fst, {}, {}, nullptr, 0, 0, {std::move(e)}, pos});
}
Term snd(Term e, SourcePos pos) {
  return make({Kind::snd, {}, {}, nullptr, 0, 0, {std::move(e)}, pos});
}
Term inl(Type other, Term e, SourcePos pos) {
  return make({Kind::inl, {}, {}, std::move(other), 0, 0, {std::move(e)}, pos});
}
Term inr(Type other, Term e, SourcePos pos) {
  return make({Kind::inr, {}, {}, std::move(other), 0, 0, {std::move(e)}, pos});
}
Term case_of(Term e0, std::string x1, Term e1, std::string x2, Term e2, SourcePos pos) {
  return make({Kind::case_,
               std::move(x1),
               std::move(x2),
               nullptr,
               0,
               0,
               {std::move(e0), std::move(e1), std::move(e2)},
               pos});
}
Term real(double r, SourcePos pos) {
  return make({Kind::real, {}, {}, nullptr, r, 0, {}, pos});
}
Term integer(std::int64_t k, SourcePos pos) {
  return make({Kind::integer, {}, {}, nullptr, 0, k, {}, pos});
}
Term prim(std::string op, SourcePos pos) {
  return make({Kind::prim, std::move(op), {}, nullptr, 0, 0, {}, pos});
}
Term proj(Term e, int index, SourcePos pos) {
  return make({Kind::proj, {}, {}, nullptr, 0, index, {std::move(e)}, pos});
}
Term call(const std::string& op, Term a, Term b) {
  return app(prim(op), pair(std::move(a), std::move(b)));
}
Term call(const std::string& op, Term a) {
  return app(prim(op), std::move(a));
}
Term pure(Term e, SourcePos pos) {
  return make({Kind::pure, {}, {}, nullptr, 0, 0, {std::move(e)}, pos});
}
Term do_bind(std::string x, Term e1, Term e2, SourcePos pos) {
  return make({Kind::bind, std::move(x), {}, nullptr, 0, 0, {std::move(e1), std::move(e2)}, pos});
}
Term delta_let(Term e, SourcePos pos) {
  return make({Kind::delta_let, {}, {}, nullptr, 0, 0, {std::move(e)}, pos});
}
Term index_op(Type a, SourcePos pos) {
  return make({Kind::index, {}, {}, std::move(a), 0, 0, {}, pos});
}
Term build_op(Type a, SourcePos pos) {
  return make({Kind::build, {}, {}, std::move(a), 0, 0, {}, pos});
}
Term sum_v_op(Type a, SourcePos pos) {
  return make({Kind::sum_v, {}, {}, std::move(a), 0, 0, {}, pos});
}
Term sequence(Type a, Term e, SourcePos pos) {
  return make({Kind::sequence, {}, {}, std::move(a), 0, 0, {std::move(e)}, pos});
}
Term node(Kind kind, std::vector<Term> kids, SourcePos pos) {
  return make({kind, {}, {}, nullptr, 0, 0, std::move(kids), pos});
}

std::size_t size_of(const Term& t) {
  std::size_t n = 0;
  std::vector<const Node*> stack = {t.get()};
  while (!stack.empty()) {
    const Node* at = stack.back();
    stack.pop_back();
    ++n;
    for (const Term& k : at->kids)
      stack.push_back(k.get());
  }
  return n;
}

bool same_term(const Term& a, const Term& b) {
  std::vector<std::pair<const Node*, const Node*>> stack = {{a.get(), b.get()}};
  while (!stack.empty()) {
    const auto [x, y] = stack.back();
    stack.pop_back();
    if (x == y) continue;
    if (x->kind != y->kind || x->name != y->name || x->name2 != y->name2 ||
        x->kids.size() != y->kids.size() || (x->type == nullptr) != (y->type == nullptr))
      return false;
    if (x->type && !same_type(x->type, y->type)) return false;
    if (x->kind == Kind::real &&
        !(x->real == y->real || (x->real != x->real && y->real != y->real)))
      return false;
    if (x->kind == Kind::integer && x->integer != y->integer) return false;
    for (std::size_t i = 0; i < x->kids.size(); ++i)
      stack.emplace_back(x->kids[i].get(), y->kids[i].get());
  }
  return true;
}

void collect_names(const Term& t, std::vector<std::string>& out) {
  std::vector<const Node*> stack = {t.get()};
  while (!stack.empty()) {
    const Node* at = stack.back();
    stack.pop_back();
    if (!at->name.empty() && at->kind != Kind::prim) out.push_back(at->name);
    if (!at->name2.empty()) out.push_back(at->name2);
    for (const Term& k : at->kids)
      stack.push_back(k.get());
  }
}

bool is_target_form(Kind f) {
  return static_cast<int>(f) >= static_cast<int>(Kind::pure);
}

bool mentions_target_forms(const Term& t) {
  std::vector<const Node*> stack = {t.get()};
  while (!stack.empty()) {
    const Node* at = stack.back();
    stack.pop_back();
    if (is_target_form(at->kind)) return true;
    for (const Term& k : at->kids)
      stack.push_back(k.get());
  }
  return false;
}

FreshNames::FreshNames(std::vector<std::string> taken) : taken_(std::move(taken)) {
  std::sort(taken_.begin(), taken_.end());
}

std::string FreshNames::operator()(const std::string& stem) {
  for (;;) {
    std::string candidate = stem + std::to_string(++counter_);
    if (!std::binary_search(taken_.begin(), taken_.end(), candidate)) return candidate;
  }
}

} // namespace adsem::delta_reverse
