// Matching a user rule's left-hand side against a term, and instantiating its right-hand side
// (rule_match.hpp).
#include "properties/simple_diff/rule_match.hpp"

#include <algorithm>
#include <initializer_list>

#include "properties/core/term_view.hpp"
#include "semantics/simple_diff/symbolic_diff.hpp"

namespace adsem::simple_diff {

namespace {

using Scope = std::vector<std::pair<std::string, std::string>>; // pattern binder -> term binder

const std::string* find_in(const Scope& scope, const std::string& name) {
  for (auto it = scope.rbegin(); it != scope.rend(); ++it)
    if (it->first == name) return &it->second;
  return nullptr;
}

constexpr TermView match_view;

// The type of a subterm of the redex: its annotations, the types of the binders around it, ρ for
// the variables the evaluator has bound, φ for function names. nullptr where none of these says
// (a variable of a trace bound outside the redex, when R differentiates it).
class Types {
public:
  Types(const ScopedEnv<Value>* rho, const FunEnv* phi) : rho_(rho), phi_(phi) {}
  std::vector<std::pair<std::string, Type>> vars, funs; // binders around, innermost last

  Type of(const Node& m) {
    switch (m.kind) {
    case Kind::var:
      for (auto it = vars.rbegin(); it != vars.rend(); ++it)
        if (it->first == m.name) return it->second;
      if (rho_)
        if (const Value* v = rho_->find(m.name)) return type_of_value(*v);
      return nullptr;
    case Kind::constant:
    case Kind::add:
      return real_type();
    case Kind::unit:
      return unit_type();
    case Kind::op:
      return op_arity(m.name).second;
    case Kind::let:
      return within({m.name, m.type}, *m.b);
    case Kind::pair: {
      Type left = m.ann_left() ? m.ann_left() : of(*m.a);
      Type right = m.ann_right() ? m.ann_right() : of(*m.b);
      return left && right ? product_type(left, right) : nullptr;
    }
    case Kind::fst:
    case Kind::snd: {
      if (m.ann_left() && m.ann_right()) return m.kind == Kind::fst ? m.ann_left() : m.ann_right();
      const Type t = of(*m.a);
      if (!t || !t->is_product()) return nullptr;
      return m.kind == Kind::fst ? t->left : t->right;
    }
    case Kind::if_:
      return of(*m.b);
    case Kind::letrec: {
      funs.emplace_back(m.name, m.result_type());
      Type t = of(*m.b);
      funs.pop_back();
      return t;
    }
    case Kind::call:
      for (auto it = funs.rbegin(); it != funs.rend(); ++it)
        if (it->first == m.name) return it->second;
      if (phi_)
        if (const ClosurePtr c = lookup(*phi_, m.name)) return c->result_type;
      return nullptr;
    case Kind::rd:
      return m.type;
    default:
      return nullptr; // a boolean term
    }
  }

private:
  Type within(std::pair<std::string, Type> binder, const Node& body) {
    vars.push_back(std::move(binder));
    Type t = of(body);
    vars.pop_back();
    return t;
  }
  const ScopedEnv<Value>* rho_;
  const FunEnv* phi_;
};

// First-order matching of an elaborated left-hand side against a term (rule_table.hpp's `match`).
// A metavariable binds a subterm of its declared type (when the term's type is known: see Types),
// the same metavariable twice binds alpha-equivalent subterms, binders match up to renaming (the
// binder map), and a subterm bound to M mentions none of the left's binders around it that M may
// not see (the `x # M` conditions, and binders not around every occurrence of M).
class Matcher {
public:
  Matcher(const Pattern& p, Types types, bool unknown_types_match)
      : p_(p), types_(std::move(types)), lenient_(unknown_types_match) {}

  std::map<std::string, Term> sigma;
  std::map<std::string, std::string> binders; // the left's binder -> the term's

  bool operator()(const Term& pat, const Term& term) { return match(*pat, term); }
  // Binds a binder of the left to the term's (rd's x against the goal's x).
  void bind(const std::string& pattern_name, const std::string& term_name, const Type& t) {
    scope_.emplace_back(pattern_name, term_name);
    binders[pattern_name] = term_name;
    types_.vars.emplace_back(term_name, t);
  }

private:
  bool match(const Node& pat, const Term& term) {
    const Node& n = *term;
    if (pat.kind == Kind::var && !find_in(scope_, pat.name)) return meta(pat.name, term);
    if (pat.kind != n.kind) return false;
    switch (pat.kind) {
    case Kind::var:
      return *find_in(scope_, pat.name) == n.name;
    case Kind::constant:
      return pat.value == n.value;
    case Kind::unit:
    case Kind::b_true:
    case Kind::b_false:
      return true;
    case Kind::op:
    case Kind::pred:
      return pat.name == n.name && match(*pat.a, n.a);
    case Kind::add:
      return match(*pat.a, n.a) && match(*pat.b, n.b);
    case Kind::pair:
    case Kind::fst:
    case Kind::snd:
      if (n.ann_left() && n.ann_right() &&
          !(same_type(pat.ann_left(), n.ann_left()) && same_type(pat.ann_right(), n.ann_right())))
        return false;
      return match(*pat.a, n.a) && (pat.kind != Kind::pair || match(*pat.b, n.b));
    case Kind::let:
      return same_type(pat.type, n.type) && match(*pat.a, n.a) &&
             under({{pat.name, n.name, n.type}}, {}, *pat.b, n.b);
    case Kind::if_:
      return match(*pat.a, n.a) && match(*pat.b, n.b) && match(*pat.c, n.c);
    case Kind::letrec:
      return same_type(pat.type, n.type) && same_type(pat.result_type(), n.result_type()) &&
             pat.limit() == n.limit() &&
             under({{pat.param(), n.param(), n.type}}, {{pat.name, n.name, n.result_type()}},
                   *pat.a, n.a) &&
             under({}, {{pat.name, n.name, n.result_type()}}, *pat.b, n.b);
    case Kind::call: {
      const std::string* f = find_in(scope_, pat.name);
      return (f ? *f : pat.name) == n.name && match(*pat.a, n.a);
    }
    case Kind::rd:
      return same_type(pat.type, n.type) && match(*pat.a, n.a) && match(*pat.b, n.b) &&
             under({{pat.param(), n.param(), n.type}}, {}, *pat.c, n.c);
    }
    return false;
  }

  // A binder of the left and the term's (fields of the nodes, which outlive the match).
  struct Binder {
    const std::string& pattern;
    const std::string& term;
    const Type& type;
  };
  bool under(std::initializer_list<Binder> vars, std::initializer_list<Binder> funs,
             const Node& pat, const Term& term) {
    const auto scope = scope_.size(), tv = types_.vars.size(), tf = types_.funs.size();
    for (const auto& [pb, tb, t] : vars) {
      scope_.emplace_back(pb, tb);
      binders[pb] = tb;
      types_.vars.emplace_back(tb, t);
    }
    for (const auto& [pb, tb, t] : funs) {
      scope_.emplace_back(pb, tb);
      binders[pb] = tb;
      types_.funs.emplace_back(tb, t);
    }
    const bool ok = match(pat, term);
    scope_.resize(scope);
    types_.vars.resize(tv);
    types_.funs.resize(tf);
    return ok;
  }

  bool meta(const std::string& name, const Term& term) {
    if (term->is_boolean()) return false;
    if (const auto it = sigma.find(name); it != sigma.end()) return alpha_equal(it->second, term);
    const auto m = std::ranges::find_if(p_.metas, [&](const auto& v) { return v.name == name; });
    if (m == p_.metas.end()) return false;
    // the left's binders around this occurrence that M may not mention
    for (const auto& [pb, tb] : scope_)
      if (std::ranges::none_of(m->binders, [&](const auto& b) { return b.first == pb; }) &&
          adsem::rules::occurs_free(match_view, term, tb))
        return false;
    const Type t = types_.of(*term);
    if (t ? !same_type(t, m->type) : !lenient_) return false;
    sigma.emplace(name, term);
    return true;
  }

  const Pattern& p_;
  Types types_;
  bool lenient_;
  Scope scope_;
};

// σ(RHS) with every binder of the right fresh, so that it captures nothing; a subterm σ(M) that
// mentions a binder b of the left around M (the term's name for b) is renamed to the right's
// name for b. In a replaced Fig. 6 clause, `W.rd[V](y:S. M)` is the differentiation
// W.R_V(y:S. σ(M)).
class Instantiate {
public:
  Instantiate(Machine& m, const Pattern& p, const RuleMatch& match, std::optional<DiffGoal> goal)
      : m_(m), p_(p), match_(match), goal_(std::move(goal)) {}

  Term operator()(const Term& rhs) { return run(*rhs); }

private:
  std::string binder(const std::string& name) {
    std::string out = m_.names().fresh(name);
    scope_.emplace_back(name, out);
    return out;
  }
  // σ(M) under the right's binders
  Term meta(const std::string& name) {
    Term out = match_.sigma.at(name);
    const auto m = std::ranges::find_if(p_.metas, [&](const auto& v) { return v.name == name; });
    for (const auto& [b, type] : m->binders) {
      const auto in_term = match_.binders.find(b);
      const std::string* here = find_in(scope_, b);
      if (in_term != match_.binders.end() && here)
        out = adsem::rules::rename_free(match_view, out, in_term->second, *here);
    }
    return out;
  }
  Term run(const Node& n) {
    const auto mark = scope_.size();
    Term out = build(n);
    scope_.resize(mark);
    return out;
  }
  Term build(const Node& n) {
    switch (n.kind) {
    case Kind::var: {
      if (const std::string* renamed = find_in(scope_, n.name)) return mk::var(*renamed);
      return meta(n.name);
    }
    case Kind::let: {
      Term bound = run(*n.a);
      const std::string y = binder(n.name);
      return mk::let(y, n.type, bound, run(*n.b));
    }
    case Kind::rd: {
      Term cotangent = run(*n.a), point = run(*n.b);
      if (goal_) { // the differentiation itself, on σ(M)
        const std::string x = binder(n.param());
        return m_.R(DiffGoal{cotangent, point, x, n.type}, meta(n.c->name));
      }
      const std::string x = binder(n.param());
      return mk::rd(cotangent, point, x, n.type, run(*n.c));
    }
    case Kind::letrec: {
      const std::string f = binder(n.name);
      const auto outer = scope_.size();
      const std::string x = binder(n.param());
      Term body = run(*n.a);
      scope_.resize(outer);
      return mk::letrec(f, x, n.type, n.result_type(), body, run(*n.b), n.limit());
    }
    case Kind::call: {
      const std::string* f = find_in(scope_, n.name);
      return mk::call(f ? *f : n.name, run(*n.a));
    }
    default: {
      Term a = n.a ? run(*n.a) : nullptr, b = n.b ? run(*n.b) : nullptr,
           c = n.c ? run(*n.c) : nullptr;
      return with_children(n, a, b, c);
    }
    }
  }

  Machine& m_;
  const Pattern& p_;
  const RuleMatch& match_;
  std::optional<DiffGoal> goal_;
  Scope scope_;
};

} // namespace

std::optional<RuleMatch> match_term(const Pattern& p, const Term& lhs, const Term& term,
                                    const Machine& m, const FunEnv& phi) {
  Matcher matcher(p, Types(&m.rho(), &phi), false);
  if (!matcher(lhs, term)) return std::nullopt;
  return RuleMatch{std::move(matcher.sigma), std::move(matcher.binders)};
}

std::optional<RuleMatch> match_goal(const Pattern& p, const Term& lhs, const DiffGoal& goal,
                                    const Term& c) {
  Matcher matcher(p, Types(nullptr, nullptr), true);
  if (!same_type(lhs->type, goal.t) || !matcher(lhs->a, goal.w) || !matcher(lhs->b, goal.v))
    return std::nullopt;
  matcher.bind(lhs->param(), goal.x, goal.t);
  if (!matcher(lhs->c, c)) return std::nullopt;
  return RuleMatch{std::move(matcher.sigma), std::move(matcher.binders)};
}

Term instantiate_rhs(Machine& m, const Pattern& p, const RuleMatch& match, const Term& rhs,
                     const std::optional<DiffGoal>& goal) {
  return Instantiate(m, p, match, goal)(rhs);
}

} // namespace adsem::simple_diff
