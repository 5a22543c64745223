#pragma once
// report.md: a GitHub-flavoured Markdown report, fit for a CI step summary. Campaign metadata,
// a property table, discard reasons, the tolerance policy in force, and every counterexample with
// its term, type, values, discrepancy, trace excerpt and replay command.
#include <string>

#include "reports/campaign_result.hpp"

namespace adsem::reports {

inline constexpr const char* report_md_name = "report.md";

std::string render_markdown(const CampaignResult& result);

} // namespace adsem::reports
