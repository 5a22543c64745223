#include "properties/delta_reverse/user_rules.hpp"

#include <algorithm>
#include <set>

#include "properties/delta_reverse/rule_adapter.hpp"
#include "properties/delta_reverse/source_rewrites.hpp"
#include "properties/delta_reverse/user_clauses.hpp"
#include "semantics/delta_reverse/machine.hpp"

namespace adsem::delta_reverse {

namespace {

using Scope = std::vector<std::pair<std::string, std::string>>; // innermost last

const std::string* bound_in(const Scope& scope, const std::string& x) {
  for (auto it = scope.rbegin(); it != scope.rend(); ++it)
    if (it->first == x) return &it->second;
  return nullptr;
}

// Everything but the kids and binder names agrees.
bool same_node(const Node& a, const Node& b) {
  if (a.kind != b.kind || a.kids.size() != b.kids.size()) return false;
  switch (a.kind) {
  case Kind::real:
    return a.real == b.real;
  case Kind::integer:
    return a.integer == b.integer;
  case Kind::prim:
    return a.name == b.name;
  case Kind::lam:
  case Kind::inl:
  case Kind::inr:
    return same_type(a.type, b.type);
  case Kind::bind:
    return a.name.empty() == b.name.empty();
  default:
    return true;
  }
}

bool alpha_equal(const Term& a, const Term& b, Scope& scope) {
  if (a->kind == Kind::var && b->kind == Kind::var) {
    const std::string* x = bound_in(scope, a->name);
    return x ? *x == b->name
             : a->name == b->name &&
                   !std::ranges::any_of(scope, [&](const auto& s) { return s.second == b->name; });
  }
  if (!same_node(*a, *b)) return false;
  for (std::size_t i = 0; i < a->kids.size(); ++i) {
    const std::string* x = binder_of(*a, i);
    if (x) scope.emplace_back(*x, *binder_of(*b, i));
    const bool same = alpha_equal(a->kids[i], b->kids[i], scope);
    if (x) scope.pop_back();
    if (!same) return false;
  }
  return true;
}

struct Matcher {
  const std::set<std::string>& metas;
  PatternMatch& out;
  Scope scope = {};

  bool go(const Term& p, const Term& t) {
    if (p->kind == Kind::var) {
      const std::string* bound = bound_in(scope, p->name);
      if (bound == nullptr && metas.contains(p->name)) {
        const auto [at, fresh] = out.sigma.try_emplace(p->name, t);
        Scope none;
        return fresh || alpha_equal(at->second, t, none);
      }
      return t->kind == Kind::var && t->name == (bound ? *bound : p->name);
    }
    if (!same_node(*p, *t)) return false;
    for (std::size_t i = 0; i < p->kids.size(); ++i) {
      const std::string* x = binder_of(*p, i);
      if (x) {
        const std::string& y = *binder_of(*t, i);
        scope.emplace_back(*x, y);
        out.binders[*x] = y;
      }
      const bool matched = go(p->kids[i], t->kids[i]);
      if (x) scope.pop_back();
      if (!matched) return false;
    }
    return true;
  }
};

Term renamed(const Term& t, const std::map<std::string, std::string>& binders, Scope& scope) {
  auto out = make_shared_node<Node>(*t);
  if (t->kind == Kind::var) {
    if (const std::string* y = bound_in(scope, t->name)) out->name = *y;
    return out;
  }
  const auto rename = [&](const std::string& x) {
    const auto it = binders.find(x);
    return it == binders.end() ? x : it->second;
  };
  for (std::size_t i = 0; i < t->kids.size(); ++i) {
    const std::string* x = binder_of(*t, i);
    if (x) scope.emplace_back(*x, rename(*x));
    out->kids[i] = renamed(t->kids[i], binders, scope);
    if (x) scope.pop_back();
  }
  if (binder_of(*t, 0) || binder_of(*t, 1)) out->name = rename(t->name);
  if (t->kind == Kind::case_) out->name2 = rename(t->name2);
  return out;
}

const Rules::Entry& paper_entry(const adsem::rules::RuleDecl& decl) {
  return paper_rules()
      ->entries()[props::paper_rule_position(*paper_rules(), "delta-reverse", decl)];
}

std::vector<std::pair<std::string, std::string>> apart_of(const adsem::rules::RuleDecl& decl) {
  std::vector<std::pair<std::string, std::string>> out;
  for (const adsem::rules::Condition& c : decl.conditions)
    if (c.kind == adsem::rules::Condition::Kind::not_free)
      out.emplace_back(c.left.text, c.right.text);
  return out;
}

std::shared_ptr<const Pattern> pattern_of(const adsem::rules::RuleDecl& decl) {
  auto p = std::make_shared<const Pattern>(compile_pattern(decl));
  if (p->lhs->kind == Kind::var)
    throw AdsemError(ErrorKind::parse,
                     "the left-hand side is a bare metavariable: it would match every term; a "
                     "rule of source evaluation is selected by the construct at its root",
                     decl.lhs.pos);
  return p;
}

RuleInfo user_info(const adsem::rules::RuleDecl& decl) {
  return rule_info(decl.name, props::user_rule_citation(decl), RuleKind::user,
                   adsem::rules::print_rule(decl));
}

} // namespace

bool match_pattern(const Pattern& p, const std::vector<std::pair<std::string, std::string>>& apart,
                   const Term& term, PatternMatch& out) {
  std::set<std::string> metas;
  for (const Metavariable& m : p.metas)
    metas.insert(m.name);
  Matcher matcher{metas, out};
  if (!matcher.go(p.lhs, term)) return false;
  for (const auto& [x, meta] : apart) {
    const auto y = out.binders.find(x);
    const auto s = out.sigma.find(meta);
    if (y != out.binders.end() && s != out.sigma.end() && free_in(y->second, s->second))
      return false;
  }
  return true;
}

Term instantiate_match(const Pattern& p, const PatternMatch& m) {
  Scope scope;
  return instantiate(renamed(p.rhs, m.binders, scope), m.sigma);
}

void rename_apart(const Pattern& p, PatternMatch& m,
                  const std::function<std::string(const std::string&)>& fresh) {
  const auto walk = [&](const auto& self, const Term& t) -> void {
    for (std::size_t i = 0; i < t->kids.size(); ++i) {
      const std::string* x = binder_of(*t, i);
      if (x && !m.binders.contains(*x)) m.binders.emplace(*x, fresh(*x));
      self(self, t->kids[i]);
    }
  };
  walk(walk, p.rhs);
}

CompiledRules::CompiledRules(RulesPatch patch, std::vector<std::string> names,
                             std::vector<std::shared_ptr<const Pattern>> targets,
                             std::vector<std::string> kept)
    : books_(std::move(patch),
             [kept = std::move(kept)](const Rules& base, RulesPatch& out) {
               for (const std::string& name : kept) // the base's clause (the paper's or a mutant's)
                 if (const auto at = base.position(name))
                   out.edits.push_back(kept_clause(base, *at));
             }),
      names_(std::move(names)), targets_(std::move(targets)) {}

std::shared_ptr<const CompiledRules> compile_rules(const adsem::rules::RuleFile& file) {
  RulesPatch patch;
  patch.name = "--rules";
  std::vector<std::string> names, kept;
  std::vector<std::shared_ptr<const Pattern>> targets;
  using Action = adsem::rules::RuleDecl::Action;
  for (const adsem::rules::RuleDecl& decl : file.rules) {
    if (decl.priority)
      throw AdsemError(ErrorKind::parse,
                       "`priority` places a rule in linear-negation's S_bp order; delta-reverse's "
                       "source evaluation is big-step and tries a user rule before the paper's",
                       decl.priority_pos);
    if (decl.action == Action::remove) {
      (void)paper_entry(decl);
      patch.remove(decl.name);
      continue;
    }
    const auto apart = apart_of(decl);
    if (decl.action == Action::add) {
      const auto p = pattern_of(decl);
      Rule<SourceRewrite> rule;
      rule.info = user_info(decl);
      rule.kinds = {p->lhs->kind};
      rule.match = [p, apart](const Machine&, const SourceRewrite::Redex& r) {
        PatternMatch m;
        return match_pattern(*p, apart, r.term, m);
      };
      rule.result = [p, apart](Machine&, const SourceRewrite::Redex& r, const RuleInfo&) {
        PatternMatch m;
        match_pattern(*p, apart, r.term, m);
        return instantiate_match(*p, m);
      };
      patch.add(std::move(rule));
      names.push_back(decl.name);
      if (p->sort == RuleSort::source) targets.push_back(p);
      continue;
    }
    const Rules::Entry& entry = paper_entry(decl);
    if (is_clause(entry)) {
      patch.edits.push_back(clause_replacement(decl, entry, user_info(decl)));
      names.push_back(decl.name);
      kept.push_back(decl.name);
      continue;
    }
    if (!std::holds_alternative<Rule<SourceEval>>(entry))
      throw AdsemError(ErrorKind::parse,
                       "'" + decl.name +
                           "' is a rule over run-time values (Delta values, the tape, the "
                           "DeltaState), which a rule's terms do not describe; a rule of type "
                           "Delta (`name: LHS --> RHS` over Zero, Scale, Add) joins the machine's "
                           "evaluation of Delta terms instead",
                       decl.name_pos);
    const auto p = pattern_of(decl);
    RuleInfo info = user_info(decl);
    patch.replace<SourceEval>(decl.name, [p, apart, info](Rule<SourceEval> old) {
      old.info.kind = RuleKind::user;
      old.info.citation = info.citation;
      old.info.summary = info.summary;
      old.kinds = {p->lhs->kind};
      old.match = [p, apart](const Machine&, const SourceEval::Redex& r) {
        PatternMatch m;
        return match_pattern(*p, apart, r.term, m);
      };
      old.result = [p, apart](Machine&, const SourceEval::Redex& r, const RuleInfo&) {
        PatternMatch m;
        match_pattern(*p, apart, r.term, m);
        return Next{nullptr, r.env, instantiate_match(*p, m)};
      };
      return old;
    });
    names.push_back(decl.name);
    if (p->sort == RuleSort::source) targets.push_back(p);
  }
  return std::make_shared<const CompiledRules>(std::move(patch), std::move(names),
                                               std::move(targets), std::move(kept));
}

RulesPtr with_user_rules(const RulesPtr& base, const props::UserRules* user_rules) {
  if (user_rules == nullptr) return base;
  return user_rules->compiled_as<CompiledRules>().book_over(base);
}

std::shared_ptr<const props::CompiledRuleFile>
RuleTraits::compile_file(const adsem::rules::RuleFile& file) {
  return compile_rules(file);
}

} // namespace adsem::delta_reverse
