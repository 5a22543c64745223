#include "properties/linear_negation/rule_match.hpp"

#include <algorithm>
#include <set>
#include <utility>
#include <vector>

#include "semantics/linear_negation/primitives.hpp"

namespace adsem::linear_negation {

namespace {

using Scope = std::vector<std::pair<std::string, std::string>>; // pattern name, term name

const std::pair<std::string, std::string>* innermost(const Scope& s, const std::string& name,
                                                     bool by_term) {
  for (auto it = s.rbegin(); it != s.rend(); ++it)
    if ((by_term ? it->second : it->first) == name) return &*it;
  return nullptr;
}

// Whether t can be a term of type a, judged by the former of its core under its substitutions
// (and a sum's by its summands').
bool shape_fits(const Term& t, const Type& a) {
  const Node* core = t.get();
  while (core->kind == Kind::let || core->kind == Kind::let_pair)
    core = core->body().get();
  switch (core->kind) {
  case Kind::num:
    return is_real(a);
  case Kind::pair:
    return is_product(a);
  case Kind::lam:
    return (is_arrow(a) && !core->x.linear) || (is_neg(a) && core->x.linear);
  case Kind::prim: // every primitive of F' is real-valued
    return is_real(a);
  case Kind::add: // both summands have the sum's type
    return shape_fits(core->left(), a) && shape_fits(core->right(), a);
  default:
    return true;
  }
}

class Matcher {
public:
  Matcher(const Pattern& p, const TypeOf& type_of) : p_(p), type_of_(type_of) {}

  std::optional<RuleMatch> run(const Term& t) {
    if (!go(p_.lhs, t)) return std::nullopt;
    // no subterm mentions a binder of the match outside that binder's scope at its place
    std::set<std::string> matched;
    for (const auto& [from, to] : out_.binders)
      matched.insert(to);
    for (const Use& u : uses_)
      for (const std::string& v : free_variables(u.instance))
        if (matched.count(v) && !u.in_scope.count(v)) return std::nullopt;
    return std::move(out_);
  }

private:
  struct Use {
    Term instance;
    std::set<std::string> in_scope; // term binders of the match around the use
  };

  bool binder(const Binder& pb, const Binder& tb) {
    if (pb.linear != tb.linear) return false;
    if (pb.type && tb.type && !same_type(pb.type, tb.type)) return false;
    const auto [it, fresh] = out_.binders.emplace(pb.name, tb.name);
    return fresh || it->second == tb.name;
  }

  bool metavariable(const Metavariable& m, const Term& t) {
    if (!shape_fits(t, m.type)) return false;
    Use use{t, {}};
    for (const auto& [pattern, term] : scope_)
      use.in_scope.insert(term);
    for (const std::string& v : free_variables(t)) {
      const auto* b = innermost(scope_, v, true);
      if (!b) continue;
      if (std::ranges::none_of(m.binders, [&](const auto& a) { return a.first == b->first; }))
        return false; // a binder the metavariable may not mention (linear, or `x # M`)
    }
    const auto [it, fresh] = out_.sigma.emplace(m.name, t);
    if (!fresh) {
      if (alpha_key(it->second) != alpha_key(t)) return false;
    } else if (!typed_as(t, m.type)) {
      return false;
    }
    uses_.push_back(std::move(use));
    return true;
  }

  // Whether t type-checks at a, its free variables at their binders' types: the match's binders
  // in scope, the others the reducer's; true when one of them is unknown (shape only, above).
  bool typed_as(const Term& t, const Type& a) const {
    if (!type_of_) return true;
    Context gamma;
    for (const std::string& v : free_variables(t)) {
      const Type* type = nullptr;
      for (std::size_t i = scope_.size(); i-- > 0 && type == nullptr;)
        if (scope_[i].second == v) type = &scope_types_[i];
      if (type == nullptr) type = type_of_(v);
      if (type == nullptr || !*type) return true;
      gamma.emplace(v, *type);
    }
    return !type_error(t, gamma, a, signature()).has_value();
  }

  bool under(std::initializer_list<std::pair<const Binder*, const Binder*>> binders,
             const Term& pattern, const Term& t) {
    std::size_t pushed = 0;
    bool ok = true;
    for (const auto& [pb, tb] : binders) {
      if (!binder(*pb, *tb)) {
        ok = false;
        break;
      }
      scope_.emplace_back(pb->name, tb->name);
      scope_types_.push_back(tb->type);
      ++pushed;
    }
    ok = ok && go(pattern, t);
    scope_.resize(scope_.size() - pushed);
    scope_types_.resize(scope_types_.size() - pushed);
    return ok;
  }

  bool go(const Term& p, const Term& t) {
    if (p->kind == Kind::var) {
      if (const auto* b = innermost(scope_, p->name, false)) {
        const auto* back = t->kind == Kind::var ? innermost(scope_, t->name, true) : nullptr;
        return back == b;
      }
      const auto m =
          std::ranges::find_if(p_.metas, [&](const auto& x) { return x.name == p->name; });
      return m != p_.metas.end() && metavariable(*m, t);
    }
    if (p->kind != t->kind || p->kids.size() != t->kids.size()) return false;
    switch (p->kind) {
    case Kind::num:
      return p->value == t->value;
    case Kind::prim:
      if (p->name != t->name) return false;
      break;
    case Kind::lam:
      return under({{&p->x, &t->x}}, p->body(), t->body());
    case Kind::let:
      return go(p->bound(), t->bound()) && under({{&p->x, &t->x}}, p->body(), t->body());
    case Kind::let_pair:
      return go(p->bound(), t->bound()) &&
             under({{&p->x, &t->x}, {&p->y, &t->y}}, p->body(), t->body());
    default:
      break;
    }
    for (std::size_t i = 0; i < p->kids.size(); ++i)
      if (!go(p->kids[i], t->kids[i])) return false;
    return true;
  }

  const Pattern& p_;
  const TypeOf& type_of_;
  Scope scope_;
  std::vector<Type> scope_types_; // the term binders' types of scope_, by position
  std::vector<Use> uses_;
  RuleMatch out_;
};

class Builder {
public:
  Builder(const RuleMatch& m, const Instantiation& how) : m_(m), how_(how) {}

  Term go(const Term& r) {
    switch (r->kind) {
    case Kind::var:
      return variable(r);
    case Kind::lam: {
      const Binder x = named(r->x);
      return lam(x, go_under({{r->x.name, x.name}}, r->body()));
    }
    case Kind::let: {
      const Term bound = go(r->bound());
      const Binder x = named(r->x);
      return let(x, go_under({{r->x.name, x.name}}, r->body()), bound);
    }
    case Kind::let_pair: {
      const Term bound = go(r->bound());
      const Binder x = named(r->x), y = named(r->y);
      return let_pair(x, y, go_under({{r->x.name, x.name}, {r->y.name, y.name}}, r->body()), bound);
    }
    default:
      break;
    }
    if (r->kids.empty()) return r;
    std::vector<Term> kids;
    for (const Term& k : r->kids)
      kids.push_back(go(k));
    return rebuild(*r, std::move(kids));
  }

private:
  Binder named(const Binder& b) const {
    Binder out = b;
    const auto it = m_.binders.find(b.name);
    out.name = it != m_.binders.end() ? it->second : how_.fresh(b);
    return out;
  }

  Term go_under(const Scope& binders, const Term& body) {
    scope_.insert(scope_.end(), binders.begin(), binders.end());
    Term out = go(body);
    scope_.resize(scope_.size() - binders.size());
    return out;
  }

  Term variable(const Term& r) {
    if (const auto* b = innermost(scope_, r->name, false)) return var(b->second);
    for (const auto& [meta, instance] : m_.sigma) {
      if (r->name == meta) return ++uses_[meta] == 1 ? instance : how_.rename_apart(instance);
      if (r->name == d_call_name(meta)) return how_.differentiate(instance);
    }
    return r;
  }

  const RuleMatch& m_;
  const Instantiation& how_;
  Scope scope_;
  std::map<std::string, int> uses_;
};

} // namespace

std::optional<RuleMatch> match_rule(const Pattern& p, const Term& t, const TypeOf& type_of) {
  return Matcher(p, type_of).run(t);
}

Term instantiate_rhs(const Pattern& p, const RuleMatch& m, const Instantiation& how) {
  return Builder(m, how).go(p.rhs);
}

std::string d_call_name(const std::string& meta) {
  return "D(" + meta + ")";
}

} // namespace adsem::linear_negation
