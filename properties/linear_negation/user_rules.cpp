// linear-negation's `--rules`: a rule file compiled into edits of the rule book (user_rules.hpp).
#include "properties/linear_negation/user_rules.hpp"

#include <algorithm>
#include <array>
#include <set>

#include <fmt/format.h>

#include "properties/core/rule_compile.hpp"
#include "properties/linear_negation/mutants.hpp"
#include "properties/linear_negation/rule_match.hpp"
#include "semantics/linear_negation/primitives.hpp"
#include "semantics/linear_negation/reduction.hpp"
#include "semantics/linear_negation/transform.hpp"
#include "syntax/linear_negation/parser.hpp"
#include "syntax/linear_negation/printer.hpp"

namespace adsem::linear_negation {

namespace {

using adsem::rules::RuleDecl;

// The paper entry `rule.name` replaces or removes; a located parse error naming the nearest
// paper names when there is none, or when it names a definition a gradient is read with or a
// clause of bp.
const Rules::Entry& paper_entry(const RuleDecl& rule) {
  const RulesPtr& book = paper_rules();
  const Rules::Entry& entry =
      book->entries()[props::paper_rule_position(*book, "linear-negation", rule)];
  if (std::holds_alternative<Rule<ReadBack>>(entry) || std::holds_alternative<Rule<Seed>>(entry))
    throw AdsemError(ErrorKind::parse,
                     fmt::format("{} is a definition a gradient is read with (Cor. 16's read-back, "
                                 "Prop. 1's seeding), not a rewriting rule: a rule file can "
                                 "neither replace nor remove it",
                                 rule.name),
                     rule.name_pos);
  if (std::holds_alternative<Rule<Equivalence>>(entry))
    throw AdsemError(ErrorKind::parse,
                     fmt::format("{} is a rule of the structural equivalence ≡ (Table 2d), which "
                                 "no strategy fires: a rule file can neither replace nor remove it",
                                 rule.name),
                     rule.name_pos);
  if (std::holds_alternative<Rule<SymbolicBackprop>>(entry) ||
      std::holds_alternative<Rule<ForwardMode>>(entry))
    throw AdsemError(ErrorKind::parse,
                     fmt::format("{} is a clause of Def. 10's symbolic backpropagation bp or of "
                                 "Sect. 2.3's forward mode D→ on computational graphs, not a "
                                 "rewriting rule: a rule file can neither replace nor remove it",
                                 rule.name),
                     rule.name_pos);
  return entry;
}

std::optional<int> priority_class(const RuleDecl& rule) {
  if (rule.priority && (*rule.priority < 1 || *rule.priority >= last_priority_class))
    throw AdsemError(ErrorKind::parse,
                     fmt::format("priority {}: S_bp's priority classes are 1 to {} "
                                 "(docs/rules/linear-negation.md)",
                                 *rule.priority, last_priority_class - 1),
                     rule.priority_pos);
  return rule.priority;
}

RuleInfo user_info(const RuleDecl& rule) {
  return rule_info(rule.name, props::user_rule_citation(rule), RuleKind::user,
                   adsem::rules::print_rule(rule));
}

// `name: LHS --> RHS` (or the replacement of a rule of Table 2): tried at a node of the left's
// root former, one instance per node; the right-hand side is built with the reducer's fresh names.
Rule<Reduction> reduction_entry(const RuleDecl& rule, std::shared_ptr<const Pattern> p) {
  Rule<Reduction> out;
  out.info = user_info(rule);
  out.kinds = {p->lhs->kind};
  // a metavariable's subterm type-checks at its type, the redex's free variables at the types
  // the reducer knows (rule_match.hpp)
  out.match = [p](const Reducer& m, const Reduction::Redex& r) {
    return match_rule(*p, r.term, [&m](std::string_view x) { return m.variable_type(x); })
        .has_value();
  };
  out.result = [p](Reducer& m, const Reduction::Redex& r, const RuleInfo&) {
    const Instantiation how{[&m](const Binder& b) { return m.fresh_binder(b.name, b.type).name; },
                            [&m](const Term& t) { return m.renamed_apart(t); }};
    const auto match =
        match_rule(*p, r.term, [&m](std::string_view x) { return m.variable_type(x); });
    return instantiate_rhs(*p, *match, how);
  };
  out.extra.priority_class = priority_class(rule);
  return out;
}

// ---- clauses of D (Table 3b) ----

// `D(M)` on the right, M a metavariable of the left, becomes the variable d_call_name(M).
Term mark_d_calls(const RuleDecl& rule, const Term& t, const Context& metas) {
  const auto refuse = [&](const Node& n) {
    throw AdsemError(ErrorKind::parse,
                     "D is applied to a metavariable of the left-hand side only, as D(M)",
                     n.pos ? adsem::rules::locate(rule.rhs, *n.pos) : rule.rhs.pos);
  };
  if (t->kind == Kind::var && t->name == "D") refuse(*t);
  if (t->kind == Kind::app && t->left()->kind == Kind::var && t->left()->name == "D") {
    if (t->right()->kind != Kind::var || !metas.count(t->right()->name)) refuse(*t);
    return var(d_call_name(t->right()->name));
  }
  if (t->kids.empty()) return t;
  std::vector<Term> kids;
  for (const Term& k : t->kids)
    kids.push_back(mark_d_calls(rule, k, metas));
  return rebuild(*t, std::move(kids));
}

std::string former_name(Kind kind) {
  constexpr std::array names = {"variables",          "numerals", "abstractions",
                                "applications",       "pairs",    "substitutions",
                                "pair substitutions", "sums",     "primitives"};
  const auto i = static_cast<std::size_t>(kind);
  return i < names.size() ? names[i] : "terms";
}

// `replace D-...: LHS --> RHS`: LHS a source term of the clause's former (or a lone metavariable:
// every node of that former), RHS a target term of type D(type of LHS) at d = 1 in which D(M)
// stands for D of M's subterm.
std::shared_ptr<const Pattern> compile_clause(const RuleDecl& rule, Kind kind) {
  if (!rule.conditions.empty())
    throw AdsemError(ErrorKind::parse, "a clause of D takes no side condition",
                     rule.conditions.front().pos);
  const Term lhs = adsem::rules::within(
      rule.lhs, [&] { return parse_term(rule.lhs.text, signature(), Mode::target); });
  const Term rhs_text = adsem::rules::within(
      rule.rhs, [&] { return parse_term(rule.rhs.text, signature(), Mode::target); });
  auto p = std::make_shared<Pattern>();
  p->name = rule.name;
  const std::set<std::string> on_left = free_variables(lhs);
  for (const adsem::rules::MetaDecl& d : rule.metas) {
    if (!on_left.count(d.name) || p->gamma.count(d.name)) continue;
    Metavariable m{
        d.name, adsem::rules::within(d.type, [&] { return parse_type(d.type.text); }), {}};
    p->gamma[m.name] = m.type;
    p->metas.push_back(std::move(m));
  }
  const bool lone = lhs->kind == Kind::var && p->gamma.count(lhs->name);
  if (!lone && lhs->kind != kind)
    throw AdsemError(ErrorKind::parse,
                     fmt::format("the clause {} of D transforms {}: its left-hand side is one of "
                                 "them (or a metavariable, for every one of them)",
                                 rule.name, former_name(kind)),
                     rule.lhs.pos);
  Context gamma_right = p->gamma;
  for (const Metavariable& m : p->metas)
    gamma_right[d_call_name(m.name)] =
        adsem::rules::within(rule.rhs, [&] { return back_type(m.type, 1); });
  const Term rhs = mark_d_calls(rule, rhs_text, p->gamma);
  TypeOptions source;
  source.source = true;
  const Typed left = adsem::rules::within(
      rule.lhs, [&] { return typecheck(lhs, p->gamma, signature(), std::nullopt, source); });
  const Typed right = adsem::rules::within(
      rule.rhs, [&] { return typecheck(rhs, gamma_right, signature(), std::nullopt); });
  const Type expected = adsem::rules::within(rule.lhs, [&] { return back_type(left.type, 1); });
  if (!same_type(right.type, expected))
    adsem::rules::fail_clause_type(rule, fmt::format("D(A) = {} at d = 1", type_text(expected)),
                                   "A = " + type_text(left.type), type_text(right.type));
  p->lhs = left.term;
  p->rhs = right.term;
  p->type = left.type;
  for (Metavariable& m : p->metas) {
    bool first = true;
    for (const Occurrence& o : occurrences(p->lhs, m.name, {})) {
      if (first) {
        m.binders = o.visible;
      } else {
        std::erase_if(m.binders, [&](const auto& b) {
          return std::ranges::none_of(o.visible, [&](const auto& v) { return v.first == b.first; });
        });
      }
      first = false;
    }
  }
  return p;
}

Rule<Transform> clause_entry(const RuleDecl& rule, std::shared_ptr<const Pattern> p, Kind kind) {
  Rule<Transform> out;
  out.info = user_info(rule);
  out.kinds = {kind};
  out.result = [p, line = rule.pos.line](Differentiator& d, const Transform::Redex& r,
                                         const RuleInfo& self) {
    const auto m = match_rule(*p, r.term);
    if (!m)
      throw AdsemError(ErrorKind::eval,
                       fmt::format("D: the clause {} of the rule file (line {}) replaces the "
                                   "paper's for every such node, and does not match {}",
                                   self.name, line, print(r.term)));
    const Instantiation how{[&d](const Binder& b) { return d.names().fresh(b.name); },
                            [&d](const Term& t) { return rename_bound(t, d.names()); },
                            [&d](const Term& t) { return d.go(t); }};
    return instantiate_rhs(*p, *m, how);
  };
  return out;
}

} // namespace

std::shared_ptr<const CompiledRules> compile_rule_file(const adsem::rules::RuleFile& file) {
  RulesPatch patch;
  patch.name = "user rules";
  std::vector<std::string> names;
  std::vector<std::shared_ptr<const Pattern>> reductions;
  for (const RuleDecl& rule : file.rules) {
    if (rule.action == RuleDecl::Action::add) {
      if (paper_rules()->position(rule.name))
        throw AdsemError(ErrorKind::parse,
                         fmt::format("'{}' is the name of a paper rule: write 'replace {}: ...' to "
                                     "change it, or give the new rule another name",
                                     rule.name, rule.name),
                         rule.pos);
      auto p = std::make_shared<const Pattern>(compile_pattern(rule));
      patch.add(reduction_entry(rule, p));
      reductions.push_back(std::move(p));
      names.push_back(rule.name);
      continue;
    }
    const Rules::Entry& old = paper_entry(rule);
    const auto* clause = std::get_if<Rule<Transform>>(&old);
    if (rule.action == RuleDecl::Action::remove) {
      if (clause)
        throw AdsemError(ErrorKind::parse,
                         fmt::format("{} is a clause of the transformation D (Table 3b): D needs "
                                     "a clause for every former, so it can be replaced, not "
                                     "removed",
                                     rule.name),
                         rule.name_pos);
      patch.remove(rule.name);
      continue;
    }
    names.push_back(rule.name);
    if (clause) {
      if (rule.priority)
        throw AdsemError(ErrorKind::parse,
                         "a clause of D has no S_bp priority class (priority orders reduction "
                         "rules only)",
                         rule.priority_pos);
      const Kind kind = clause->kinds.front();
      const Rule<Transform> entry = clause_entry(rule, compile_clause(rule, kind), kind);
      patch.replace<Transform>(rule.name, [entry](const Rule<Transform>&) { return entry; });
      continue;
    }
    auto p = std::make_shared<const Pattern>(compile_pattern(rule));
    const Rule<Reduction> entry = reduction_entry(rule, p);
    patch.replace<Reduction>(rule.name, [entry](const Rule<Reduction>& paper) {
      Rule<Reduction> out = entry;
      if (!out.extra.has_class()) { // keeps the paper rule's S_bp class
        out.extra.priority_class = paper.extra.priority_class;
        out.extra.class_of = paper.extra.class_of;
      }
      return out;
    });
    reductions.push_back(std::move(p));
  }
  return std::make_shared<const CompiledRules>(std::move(patch), std::move(names),
                                               std::move(reductions));
}

RulesPtr book_for(const std::string& mutant, const props::UserRules* user_rules) {
  const RulesPtr& base = rules_for(mutant);
  if (!user_rules) return base;
  return user_rules->compiled_as<CompiledRules>().patched(base);
}

} // namespace adsem::linear_negation
