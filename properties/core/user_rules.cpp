#include "properties/core/user_rules.hpp"

#include <rapidcheck.h>

#include <fmt/format.h>

#include "generators/core/uniform.hpp"
#include "properties/core/calculus.hpp"
#include "properties/core/fnv1a.hpp"
#include "properties/core/nearest_names.hpp"
#include "properties/core/rule_check.hpp"
#include "reports/text_file.hpp"

namespace adsem::props {

std::shared_ptr<const UserRules> load_user_rules(const CalculusEntry& calculus,
                                                 const std::string& path) {
  if (!calculus.rule_adapter)
    throw AdsemError(ErrorKind::usage,
                     fmt::format("--rules: calculus '{}' has no rule language (see `adsem "
                                 "check-rule --help` for the calculi that have one)",
                                 calculus.id));
  const std::string text = reports::read_text_file(path);
  auto out = std::make_shared<UserRules>();
  out->file = path;
  out->hash = fmt::format("{:016x}", fnv1a(text));
  out->calculus = calculus.id;
  out->parsed = rules::parse_rule_file(text);
  for (rules::RuleDecl& rule : out->parsed.rules)
    rule.file = path;
  out->compiled = calculus.rule_adapter->compile_file(out->parsed);
  return out;
}

bool draw_targeted(const PropertyContext& context) {
  if (!context.user_rules) return false;
  const double share = context.option_real("rules.targeted-share", default_targeted_share);
  if (!(share >= 0.0 && share <= 1.0))
    throw AdsemError(
        ErrorKind::usage,
        fmt::format("rules.targeted-share={}: a share is a number from 0 to 1", share));
  if (share == 0.0) return false;
  return adsem::gen::uniform_in(0, 10'000) < static_cast<int>(share * 10'000.0 + 0.5);
}

std::string user_rule_citation(const rules::RuleDecl& rule) {
  if (rule.file.empty()) return fmt::format("user rule, rule file line {}", rule.pos.line);
  return fmt::format("user rule, {}:{}", rule.file, rule.pos.line);
}

void fail_unknown_paper_rule(std::string_view calculus, const rules::RuleDecl& rule,
                             std::vector<std::string> names) {
  const bool replace = rule.action == rules::RuleDecl::Action::replace;
  throw AdsemError(ErrorKind::parse,
                   fmt::format("{} has no rule '{}' to {} (nearest: {}; `adsem calculi --json` "
                               "lists them all)",
                               calculus, rule.name, replace ? "replace" : "remove",
                               fmt::join(nearest_names(rule.name, std::move(names), 3), ", ")),
                   rule.name_pos);
}

} // namespace adsem::props

namespace adsem::rules {

std::shared_ptr<const props::CompiledRuleFile> RuleAdapter::compile_file(const RuleFile&) const {
  throw AdsemError(ErrorKind::usage,
                   "this calculus checks rule files with `adsem check-rule` only; it cannot yet "
                   "join them to its semantics (--rules)");
}

} // namespace adsem::rules
