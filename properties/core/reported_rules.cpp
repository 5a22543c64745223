#include "properties/core/reported_rules.hpp"

namespace adsem::props {

reports::CampaignRules reported_rules(const UserRules& rules) {
  reports::CampaignRules out;
  out.file = rules.file;
  out.hash = rules.hash;
  out.calculus = rules.calculus;
  out.names = rules.compiled->fired_rule_names();
  for (const rules::RuleDecl& decl : rules.parsed.rules)
    if (decl.action == rules::RuleDecl::Action::remove) out.removed.push_back(decl.name);
  return out;
}

} // namespace adsem::props
