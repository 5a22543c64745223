#include "syntax/pullback/typecheck.hpp"

#include "syntax/core/depth_guard.hpp"
#include "syntax/core/large_stack.hpp"
#include "syntax/pullback/nesting.hpp"
#include "syntax/pullback/printer.hpp"
#include "syntax/pullback/substitution.hpp"

namespace adsem::pullback {

namespace {

LinSet none() {
  return {};
}
LinSet minus(LinSet a, const std::set<std::string>& b) {
  if (a.all) return a; // 𝒱 \ finite set: still contains every variable that matters here
  for (const auto& x : b)
    a.vars.erase(x);
  return a;
}
LinSet meet(const LinSet& a, const LinSet& b) {
  if (a.all) return b;
  if (b.all) return a;
  LinSet out;
  for (const auto& x : a.vars)
    if (b.vars.count(x)) out.vars.insert(x);
  return out;
}
LinSet join(const LinSet& a, const LinSet& b) {
  if (a.all || b.all) return {true, {}};
  LinSet out = a;
  out.vars.insert(b.vars.begin(), b.vars.end());
  return out;
}

LinSet lin_of(const Term& t, LinMode mode, DepthBudget& depth) {
  const DepthGuard guard(depth);
  switch (t->kind) {
  case Kind::var:
    return {false, {t->name}};
  case Kind::lam:
    return minus(lin_of(t->kids[0], mode, depth), {t->name});
  case Kind::app: // function position linear, argument not
    return minus(lin_of(t->kids[0], mode, depth), free_vars(t->kids[1]));
  case Kind::proj:
  case Kind::jac:
    return lin_of(t->kids[0], mode, depth);
  case Kind::pair:
    return meet(lin_of(t->kids[0], mode, depth), lin_of(t->kids[1], mode, depth));
  case Kind::dualmap: { // bilinear
    const LinSet body = minus(lin_of(t->kids[0], mode, depth), free_vars(t->kids[1]));
    const LinSet fun = minus(lin_of(t->kids[1], mode, depth), free_vars(t->kids[0]));
    return minus(join(body, fun), {t->name});
  }
  case Kind::zero:
    return {true, {}};
  case Kind::sum: {
    LinSet acc{true, {}};
    for (const Term& k : t->kids)
      acc = meet(acc, lin_of(k, mode, depth));
    return acc;
  }
  case Kind::let:
    if (mode == LinMode::plus) // lin⁺(let x = M in N) = lin⁺(N[M/x])  [ID-3]
      return lin_of(substitute(t->kids[1], t->name, t->kids[0]), mode, depth);
    // strict: the β-redex (λx.N) M
    return minus(minus(lin_of(t->kids[1], mode, depth), {t->name}), free_vars(t->kids[0]));
  case Kind::num:
  case Kind::prim:
  case Kind::covec:
  case Kind::pullback:
    return none();
  }
  return none();
}

// Leaves cost less to check than to look up.
bool worth_remembering(const Term& t) {
  return !t->kids.empty();
}

class Checker {
public:
  Checker(const Context& gamma, LinMode mode, CheckMemo* memo = nullptr)
      : mode_(mode), memo_(memo) {
    for (const auto& [x, t] : gamma)
      scope_.push_back({x, t});
  }

  Type go(const Term& t) {
    const DepthGuard guard(depth_, t->pos);
    if (!memo_ || !worth_remembering(t) || facts(t).many) return check(t);
    if (const CheckMemo::Entry* e = memo_->find(t.get()); e && depth_.depth <= e->depth) {
      if (bound_as_before(t, memo_->free_types(*e))) return e->type;
    }
    Type ty = check(t);
    free_scratch_.clear();
    for (const std::string_view x : facts(t).free)
      free_scratch_.push_back(*bound_type(x)); // bound: the check succeeded
    memo_->remember(t, ty, free_scratch_, depth_.depth);
    return ty;
  }

private:
  // The innermost binding of x in scope, or null when x is unbound.
  const Type* bound_type(std::string_view x) const {
    for (auto it = scope_.rbegin(); it != scope_.rend(); ++it)
      if (it->first == x) return &it->second;
    return nullptr;
  }
  bool bound_as_before(const Term& t, std::span<const Type> types) const {
    const auto& free = facts(t).free;
    for (std::size_t i = 0; i < free.size(); ++i) {
      const Type* now = bound_type(free[i]);
      if (!now || *now != types[i]) return false;
    }
    return true;
  }

  Type check(const Term& t) {
    switch (t->kind) {
    case Kind::zero:
      return t->type ? t->type : any_type();
    case Kind::num:
      return real_type();
    case Kind::var: {
      for (auto it = scope_.rbegin(); it != scope_.rend(); ++it)
        if (it->first == t->name) {
          if (!same_type(it->second, t->type))
            fail(t, "variable '" + t->name + "' used at type " + type_text(t->type) +
                        " but bound at " + type_text(it->second));
          return it->second;
        }
      fail(t, "unbound variable '" + t->name + "'");
    }
    case Kind::sum: {
      Type acc = any_type();
      for (const Term& k : t->kids) {
        const Type kt = go(k);
        if (!same_type(acc, kt))
          fail(k, "summand of type " + type_text(kt) + " added to one of type " + type_text(acc));
        if (is_any(acc)) acc = kt;
      }
      return acc;
    }
    case Kind::lam:
      return arrow(t->type, under(t->name, t->type, t->kids[0]));
    case Kind::app: {
      const Type f = go(t->kids[0]);
      const Type a = go(t->kids[1]);
      if (is_any(f)) return any_type();
      if (!is_arrow(f))
        fail(t->kids[0], "applying a term of type " + type_text(f) + " (not a function)");
      if (!same_type(f->left, a))
        fail(t->kids[1],
             "argument of type " + type_text(a) + " where " + type_text(f->left) + " is expected");
      return f->right;
    }
    case Kind::proj: {
      const Type s = go(t->kids[0]);
      if (is_any(s)) return any_type();
      if (!is_prod(s))
        fail(t, "projection ." + std::to_string(t->index) + " of type " + type_text(s));
      return t->index == 1 ? s->left : s->right;
    }
    case Kind::pair:
      return prod(go(t->kids[0]), go(t->kids[1]));
    case Kind::prim:
    case Kind::jac: {
      const Type a = go(t->kids[0]);
      if (!same_type(a, t->type->left))
        fail(t->kids[0],
             t->name + " expects " + type_text(t->type->left) + ", got " + type_text(a));
      return t->kind == Kind::prim ? t->type->right : t->type;
    }
    case Kind::covec:
      if (!is_euclidean(t->type) || dim(t->type) != t->vec.size())
        fail(t, "covector literal of " + std::to_string(t->vec.size()) + " entries at type " +
                    type_text(dual(t->type)));
      return dual(t->type);
    case Kind::dualmap: {
      const Type tau = under(t->name, t->type, t->kids[0]);
      const Type f = go(t->kids[1]);
      if (!is_any(tau) && !is_any(f) && !(is_dual(f) && same_type(f->left, tau)))
        fail(t->kids[1], "the functional of a dual map (λx.S)* with S : " + type_text(tau) +
                             " must have type " + type_text(dual(tau)) + ", got " + type_text(f));
      if (mode_ != LinMode::structural && !lin_of(t->kids[0], mode_, depth_).contains(t->name))
        fail(t, "dual map: '" + t->name + "' is not linear in " + print(t->kids[0]) +
                    (mode_ == LinMode::strict ? " (lin)" : " (lin+)"));
      return dual(t->type);
    }
    case Kind::pullback: {
      const Type tau = under(t->name, t->type, t->kids[0]);
      const Type w = go(t->kids[1]);
      if (!is_any(tau) && !is_any(w) && !same_type(w, one_form(tau)))
        fail(t->kids[1], "the 1-form of a pullback along a body of type " + type_text(tau) +
                             " must have type " + type_text(one_form(tau)) + ", got " +
                             type_text(w));
      return one_form(t->type);
    }
    case Kind::let: {
      const Type m = go(t->kids[0]);
      if (!same_type(m, t->type))
        fail(t->kids[0], "let '" + t->name + "' annotated " + type_text(t->type) +
                             " bound to a term of type " + type_text(m));
      return under(t->name, t->type, t->kids[1]);
    }
    }
    fail(t, "unknown term");
  }

  Type under(const std::string& x, const Type& ty, const Term& body) {
    scope_.push_back({x, ty});
    const Type out = go(body);
    scope_.pop_back();
    return out;
  }
  [[noreturn]] void fail(const Term& at, const std::string& message) {
    throw AdsemError(ErrorKind::type, message, at->pos);
  }
  LinMode mode_;
  CheckMemo* memo_;
  std::vector<Type> free_scratch_; // the free variables' types of the node being remembered
  std::vector<std::pair<std::string, Type>> scope_;
  DepthBudget depth_{max_source_nesting, 0, ErrorKind::type};
};

} // namespace

LinSet lin(const Term& t, LinMode mode) {
  return on_large_stack([&] {
    DepthBudget depth{max_source_nesting, 0, ErrorKind::type};
    return lin_of(t, mode, depth);
  });
}

Type typecheck(const Term& t, const Context& gamma, LinMode mode) {
  return on_large_stack([&] { return Checker(gamma, mode).go(t); });
}

Type typecheck(const Term& t, const Context& gamma, CheckMemo& memo) {
  return on_large_stack([&] { return Checker(gamma, memo.mode(), &memo).go(t); });
}

void CheckMemo::remember(const Term& node, Type type, std::span<const Type> free_types, int depth) {
  // (a node checked again in new bindings leaves its old types behind: they count too)
  if (entries_.size() >= max_entries ||
      free_types_.size() >= NodeFacts::max_free_names * max_entries) {
    entries_.clear();
    free_types_.clear();
  }
  const Entry e{std::move(type), static_cast<std::uint32_t>(free_types_.size()),
                static_cast<std::uint32_t>(free_types.size()), depth};
  free_types_.insert(free_types_.end(), free_types.begin(), free_types.end());
  entries_.insert_or_assign(node, e);
}

std::optional<std::string> type_error(const Term& t, const Context& gamma, LinMode mode) {
  try {
    typecheck(t, gamma, mode);
    return std::nullopt;
  } catch (const AdsemError& e) {
    return e.diagnostic().render();
  }
}

} // namespace adsem::pullback

namespace adsem::pullback {

namespace {
Term rebuild_with(const Term& t, std::vector<Term> kids) {
  Node n = *t;
  n.kids = std::move(kids);
  return make_node(std::move(n));
}
// The more informative of two readings of one type (`any` parts filled from the other). Parts
// that need no filling are returned as they are, not rebuilt: annotate_zeros asks this at every
// level of a term, and a rebuilt type per level made nested λs quadratic in memory.
Type known(const Type& a, const Type& b) {
  if (a == b || is_any(b)) return a;
  if (is_any(a)) return b;
  if (a->kind != b->kind) return a;
  switch (a->kind) {
  case TypeNode::Kind::prod:
  case TypeNode::Kind::arrow: {
    const Type left = known(a->left, b->left);
    const Type right = known(a->right, b->right);
    if (left == a->left && right == a->right) return a;
    return a->kind == TypeNode::Kind::prod ? prod(left, right) : arrow(left, right);
  }
  case TypeNode::Kind::dual: {
    const Type left = known(a->left, b->left);
    return left == a->left ? a : dual(left);
  }
  default:
    return a;
  }
}

// The types of subterms are remembered (type_of with a memo), so the walk is linear in the term.
class ZeroAnnotator {
public:
  Term go(const Term& t, const Type& expected0) {
    const DepthGuard guard(depth_, t->pos);
    const Type expected = known(type(t), expected0);
    switch (t->kind) {
    case Kind::zero:
      return is_any(expected) ? t : zero(expected, t->pos);
    case Kind::var:
    case Kind::num:
    case Kind::covec:
      return t;
    case Kind::sum: {
      std::vector<Term> kids;
      for (const Term& k : t->kids)
        kids.push_back(go(k, expected));
      return rebuild_with(t, kids);
    }
    case Kind::lam:
      return rebuild_with(t, {go(t->kids[0], is_arrow(expected) ? expected->right : nullptr)});
    case Kind::app: {
      const Type ft = type(t->kids[0]);
      const Term a = go(t->kids[1], is_arrow(ft) ? ft->left : nullptr);
      const Term f = go(t->kids[0], is_any(expected) || is_any(type(a)) ? Type(nullptr)
                                                                        : arrow(type(a), expected));
      return rebuild_with(t, {f, a});
    }
    case Kind::proj:
      return rebuild_with(t, {go(t->kids[0], nullptr)});
    case Kind::pair:
      return rebuild_with(t, {go(t->kids[0], is_prod(expected) ? expected->left : nullptr),
                              go(t->kids[1], is_prod(expected) ? expected->right : nullptr)});
    case Kind::prim:
    case Kind::jac:
      return rebuild_with(t, {go(t->kids[0], t->type->left)});
    case Kind::dualmap: {
      const Term fun = go(t->kids[1], nullptr);
      const Type ft = type(fun);
      const Term body = go(t->kids[0], is_dual(ft) ? ft->left : nullptr);
      const Type bt = type(body);
      return rebuild_with(t, {body, is_any(ft) && !is_any(bt) ? go(fun, dual(bt)) : fun});
    }
    case Kind::pullback: {
      const Term w = go(t->kids[1], nullptr);
      const Type wt = type(w);
      const Term body = go(t->kids[0], is_arrow(wt) ? wt->left : nullptr);
      const Type bt = type(body);
      return rebuild_with(t, {body, is_any(wt) && !is_any(bt) ? go(w, one_form(bt)) : w});
    }
    case Kind::let:
      return rebuild_with(t, {go(t->kids[0], t->type), go(t->kids[1], expected)});
    }
    return t;
  }

private:
  Type type(const Term& t) { return type_of(t, types_); }

  TypeMemo types_;
  DepthBudget depth_{max_source_nesting, 0, ErrorKind::type};
};
} // namespace

Term annotate_zeros(const Term& t, const Type& expected) {
  return on_large_stack([&] { return ZeroAnnotator().go(t, expected); });
}

} // namespace adsem::pullback
