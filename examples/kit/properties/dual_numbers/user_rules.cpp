#include "properties/dual_numbers/user_rules.hpp"

#include <variant>

#include <fmt/format.h>

#include "properties/dual_numbers/mutants.hpp"
#include "properties/dual_numbers/rule_match.hpp"
#include "semantics/dual_numbers/rules.hpp"

namespace adsem::dual_numbers {

namespace {

using adsem::rules::RuleDecl;

// `name: LHS --> RHS`, or the replacement of a reduction rule: tried at a node of the left's root
// construct where the left matches.
Rule<Reduction> reduction_entry(const RuleDecl& rule, const std::shared_ptr<const Pattern>& p,
                                bool added) {
  Rule<Reduction> out = rule_entry<Reduction>(
      rule_info(rule.name, props::user_rule_citation(rule), RuleKind::user,
                adsem::rules::print_rule(rule)),
      {p->lhs->kind},
      [p](const Machine&, const Reduction::Redex& r) { return match_rule(*p, r.node).has_value(); },
      [p](Machine&, const Reduction::Redex& r, const RuleInfo&) {
        return instantiate_rhs(*p, *match_rule(*p, r.node));
      });
  out.extra.before_operands = added;
  return out;
}

// The paper's reduction rule a `replace` or `remove` names; a located error for an unknown name
// or a clause of D.
void check_paper_rule(const RuleDecl& rule) {
  const Rules& book = *paper_rules();
  const std::size_t at = props::paper_rule_position(book, "dual-numbers", rule);
  if (std::holds_alternative<Rule<Macro>>(book.entries()[at]))
    throw AdsemError(ErrorKind::parse,
                     fmt::format("{} is a clause of the macro D, not a rule of the reduction: a "
                                 "dual-numbers rule file can neither replace nor remove it",
                                 rule.name),
                     rule.name_pos);
}

} // namespace

std::shared_ptr<const CompiledRules> compile_rule_file(const adsem::rules::RuleFile& file) {
  RulesPatch patch;
  patch.name = "user rules";
  std::vector<std::string> names;
  std::vector<std::shared_ptr<const Pattern>> patterns;
  for (const RuleDecl& rule : file.rules) {
    if (rule.priority)
      throw AdsemError(ErrorKind::parse,
                       "dual-numbers' strategy has no priority classes (call by value, left to "
                       "right): `priority` belongs to linear-negation's S_bp",
                       rule.priority_pos);
    if (rule.action == RuleDecl::Action::add && paper_rules()->position(rule.name))
      throw AdsemError(ErrorKind::parse,
                       fmt::format("'{}' is the name of a paper rule: write 'replace {}: ...' to "
                                   "change it, or give the new rule another name",
                                   rule.name, rule.name),
                       rule.pos);
    if (rule.action != RuleDecl::Action::add) check_paper_rule(rule);
    if (rule.action == RuleDecl::Action::remove) {
      patch.remove(rule.name);
      continue;
    }
    auto p = std::make_shared<const Pattern>(compile_pattern(rule));
    Rule<Reduction> entry = reduction_entry(rule, p, rule.action == RuleDecl::Action::add);
    if (rule.action == RuleDecl::Action::add)
      patch.add(std::move(entry));
    else
      patch.replace<Reduction>(rule.name, [entry](const Rule<Reduction>&) { return entry; });
    names.push_back(rule.name);
    patterns.push_back(std::move(p));
  }
  return std::make_shared<const CompiledRules>(std::move(patch), std::move(names),
                                               std::move(patterns));
}

const Rules& book_for(const std::string& mutant, const props::UserRules* user_rules) {
  const Rules& base = rules_for(mutant);
  if (!user_rules) return base;
  return user_rules->compiled_as<CompiledRules>().patched(base);
}

} // namespace adsem::dual_numbers
