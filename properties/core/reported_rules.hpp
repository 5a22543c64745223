#pragma once
// A user's rule file as the reports name it (`rules: FILE (HASH)`, JSON "rules"; docs/rules.md,
// "Reports, replay tokens and hashes"): the campaign's reports and the kill matrix's.
#include "properties/core/user_rules.hpp"
#include "reports/campaign_result.hpp"

namespace adsem::props {

// Its path, hash and calculus, the names its rules fire under and the paper rules it removes.
reports::CampaignRules reported_rules(const UserRules& rules);

} // namespace adsem::props
