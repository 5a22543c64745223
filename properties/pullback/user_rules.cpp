// A user's rule file joined to pullback's rule book (user_rules.hpp).
#include "properties/pullback/user_rules.hpp"

#include <algorithm>

#include <fmt/format.h>
#include <rapidcheck.h>

#include "properties/pullback/frontend.hpp"
#include "properties/pullback/mutants.hpp"
#include "properties/pullback/rule_adapter.hpp"
#include "properties/pullback/rule_instance.hpp"
#include "properties/pullback/rule_match.hpp"
#include "properties/pullback/rule_pattern.hpp"
#include "semantics/pullback/anf.hpp"
#include "semantics/pullback/strategy.hpp"
#include "syntax/pullback/substitution.hpp"

namespace adsem::pullback {

namespace {

using Action = adsem::rules::RuleDecl::Action;
using Pat = std::shared_ptr<const Pattern>;

// σ(RHS) with every ANF(P) call expanded: A-normalisation (seed 000 §3.2) of P in the reading
// the machine runs (compact, or literal with bind_atoms).
Term expand_transformation_calls(const Term& m, const Machine& machine) {
  if (m->kids.empty()) return m;
  Node copy = *m;
  for (Term& k : copy.kids)
    k = expand_transformation_calls(k, machine);
  if (copy.kind == Kind::prim && copy.name == anf_call)
    return anf(copy.kids[0], {.bind_atoms = machine.rules().bind_atoms});
  return make_node(std::move(copy));
}

Term contractum(const Pattern& p, const Term& t, const Machine& machine) {
  const auto sigma = match_pattern(p, t);
  if (!sigma) throw std::logic_error("user rule '" + p.name + "' fired without a match");
  return expand_transformation_calls(instantiate(p.rhs, *sigma), machine);
}

// The redex of a row as a term: ((Ω λy:σ.B)·ω) V.
Term row_term(const Pullback::Redex& r) {
  return app(pullback(r.y, r.sigma, r.body, r.omega), r.v_value);
}

// ((Ω λy.B)·ω) V with B final and not a let: where rows 9-20 are tried (strategy.cpp).
bool is_row(const Term& t) {
  if (t->kind != Kind::app || t->kids[0]->kind != Kind::pullback) return false;
  const Term& f = t->kids[0];
  return f->kids[0]->kind != Kind::let && is_final(f->kids[0], f->name);
}

bool row_shaped(const Term& lhs) {
  return lhs->kind == Kind::app && lhs->kids[0]->kind == Kind::pullback;
}

// The node kinds an entry keyed by `t`'s constructor can fire on: t's, or every kind when t is
// a metavariable.
std::vector<Kind> kinds_of(const Pattern& p, const Term& t) {
  if (t->kind == Kind::var && p.gamma.contains(t->name)) return {};
  return {t->kind};
}

RuleInfo user_info(const adsem::rules::RuleDecl& d) {
  return rule_info(d.name, props::user_rule_citation(d), RuleKind::user,
                   adsem::rules::print_rule(d));
}

Rule<Combine> combine_entry(RuleInfo info, const Pat& p, bool added) {
  return rule_entry<Combine>(
      std::move(info), kinds_of(*p, p->lhs),
      [p, added](const Machine&, const Combine::Redex& r) {
        // an added rule comes after the rows at a row (contract_root tries Combine first)
        return match_pattern(*p, r.node).has_value() && !(added && is_row(r.node));
      },
      [p](Machine& m, const Combine::Redex& r, const RuleInfo&) {
        return contractum(*p, r.node, m);
      });
}

Rule<Pullback> row_entry(RuleInfo info, const Pat& p) {
  return rule_entry<Pullback>(
      std::move(info), kinds_of(*p, p->lhs->kids[0]->kids[0]),
      [p](const Machine&, const Pullback::Redex& r) {
        return match_pattern(*p, row_term(r)).has_value();
      },
      [p](Machine& m, const Pullback::Redex& r, const RuleInfo&) {
        return contractum(*p, row_term(r), m);
      });
}

// A* (on a body not final) and 7, 8 (on a final let body) keep the relation's premise.
template <class R> Rule<R> body_entry(RuleInfo info, const Pat& p, bool final) {
  return rule_entry<R>(
      std::move(info), kinds_of(*p, p->lhs->kids[0]),
      [p, final](const Machine&, const PullbackBody::Redex& r) {
        return r.final == final && match_pattern(*p, r.node).has_value();
      },
      [p](Machine& m, const PullbackBody::Redex& r, const RuleInfo&) {
        return contractum(*p, r.node, m);
      });
}

[[noreturn]] void refuse(const adsem::rules::RuleDecl& d, const std::string& why) {
  throw AdsemError(ErrorKind::parse, why, d.lhs.pos);
}

// The paper entry `replace NAME` / `remove NAME` edits, or a located error naming the nearest.
std::size_t paper_position(const adsem::rules::RuleDecl& d) {
  return props::paper_rule_position(*paper_rules(), "pullback", d);
}

// An added rule: the relation of its left-hand side's shape.
void add_rule(const adsem::rules::RuleDecl& d, const Pat& p, BookPatch& patch) {
  if (paper_rules()->position(d.name))
    throw AdsemError(ErrorKind::parse,
                     fmt::format("'{}' is the name of a paper rule: to change it write 'replace "
                                 "{}: LHS --> RHS', or give the added rule another name",
                                 d.name, d.name),
                     d.pos);
  const Kind k = p->lhs->kind;
  if (k == Kind::pullback)
    refuse(d, "an added rule cannot rewrite a pullback (Omega \\y. P) @ S: its steps are "
              "A-normalisation (A*, a transformation: write 'replace A*: ...') and the let-series "
              "rules 7 and 8, and a pullback with a final body is a value");
  if (k == Kind::lam || k == Kind::num || k == Kind::covec || k == Kind::zero)
    refuse(d, "the left-hand side is a value: the strategy takes no step at a value (no "
              "reduction under λ, seed 000 §3.4), so the rule would never fire");
  if (row_shaped(p->lhs))
    patch.add(row_entry(user_info(d), p));
  else
    patch.add(combine_entry(user_info(d), p, true));
}

void replace_rule(const adsem::rules::RuleDecl& d, const Pat& p, BookPatch& patch) {
  const Book::Entry& old = paper_rules()->entries()[paper_position(d)];
  const RuleInfo info = user_info(d);
  const Kind k = p->lhs->kind;
  if (std::holds_alternative<Rule<EvaluationContext>>(old))
    refuse(d,
           fmt::format("{} is a production of the evaluation contexts (§3.4 L359), where the "
                       "strategy searches, not a rule a step fires: a user rule rewrites a redex",
                       d.name));
  if (std::holds_alternative<Rule<Combine>>(old)) {
    if (k == Kind::pullback || row_shaped(p->lhs))
      refuse(d, fmt::format("rule {} rewrites a node of the context grammar (§3.4); a pullback "
                            "or a row ((Omega \\y. B) @ W) V is not one",
                            d.name));
    patch.replace<Combine>(d.name,
                           [e = combine_entry(info, p, false)](const Rule<Combine>&) { return e; });
  } else if (std::holds_alternative<Rule<Pullback>>(old)) {
    if (!row_shaped(p->lhs))
      refuse(d, fmt::format("row {} rewrites ((Omega \\y. B) @ W) V (Fig. 3): write the "
                            "left-hand side in that shape",
                            d.name));
    patch.replace<Pullback>(d.name, [e = row_entry(info, p)](const Rule<Pullback>&) { return e; });
  } else {
    if (k != Kind::pullback)
      refuse(d, fmt::format("{} rewrites a pullback (Omega \\y. P) @ S: write the left-hand side "
                            "in that shape",
                            d.name));
    if (std::holds_alternative<Rule<Anf>>(old))
      patch.replace<Anf>(d.name,
                         [e = body_entry<Anf>(info, p, false)](const Rule<Anf>&) { return e; });
    else
      patch.replace<LetSeries>(
          d.name, [e = body_entry<LetSeries>(info, p, true)](const Rule<LetSeries>&) { return e; });
  }
}

bool can_target(const Pattern& p) {
  return can_place(p.type) && std::ranges::all_of(p.metas, [](const Metavariable& m) {
           return m.linear_in || can_generate(m.type);
         });
}

} // namespace

std::shared_ptr<const CompiledRules> compile_user_rules(const adsem::rules::RuleFile& file) {
  BookPatch patch;
  patch.name = "user rules";
  std::vector<std::string> fired;
  std::vector<Pat> targets;
  for (const adsem::rules::RuleDecl& d : file.rules) {
    if (d.priority)
      throw AdsemError(ErrorKind::parse,
                       "'priority' orders linear-negation's S_bp classes; pullback's strategy "
                       "has no classes (an added rule is tried after the paper's at its position)",
                       d.priority_pos);
    if (d.action == Action::remove) {
      (void)paper_position(d);
      patch.remove(d.name);
      continue;
    }
    if (d.action == Action::replace) (void)paper_position(d);
    const Pat p = std::make_shared<const Pattern>(compile_pattern(d, true));
    if (d.action == Action::add)
      add_rule(d, p, patch);
    else
      replace_rule(d, p, patch);
    fired.push_back(d.name);
    if (can_target(*p)) targets.push_back(p);
  }
  return std::make_shared<const CompiledRules>(std::move(patch), std::move(fired),
                                               std::move(targets));
}

Rules rules_for(const std::string& mutant, const std::shared_ptr<const props::UserRules>& user) {
  Rules r = rules_for(mutant);
  if (user) r.book = user->compiled_as<CompiledRules>().book_for(r.book);
  return r;
}

Rules rules_for(const props::PropertyContext& context) {
  return rules_for(context.mutant, context.user_rules);
}

std::optional<Term> targeted_term(const props::PropertyContext& context) {
  if (!props::draw_targeted(context)) return std::nullopt;
  const auto& targets = context.user_rules->compiled_as<CompiledRules>().targets();
  if (targets.empty()) return std::nullopt;
  const Pat p = *rc::gen::elementOf(targets);
  const RuleInstance in = draw_instance(*p);
  if (is_euclidean(in.type) && *rc::gen::arbitrary<bool>()) {
    const Term omega = lam("u", in.type, covec(in.cotangent, in.type));
    return app(pullback(in.a, in.sigma_a, in.before, omega), in.point);
  }
  return substitute(in.before, in.a, in.point);
}

std::shared_ptr<const props::CompiledRuleFile>
RuleTraits::compile_file(const adsem::rules::RuleFile& file) {
  return compile_user_rules(file);
}

} // namespace adsem::pullback
