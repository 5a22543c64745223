#pragma once
// report.md: a GitHub-flavoured Markdown report, fit for a CI step summary. What needs attention
// first: the verdict with its counts, the warnings, and the failures (every distinct shrunk
// counterexample of each property with its term, type, values, discrepancy, trace excerpt and
// replay command); then the property table, campaign metadata, discard reasons, failure corpus,
// rule coverage and the tolerance policy in force.
#include <string>
#include <string_view>

#include "reports/campaign_result.hpp"

namespace adsem::reports {

inline constexpr const char* report_md_name = "report.md";

std::string render_markdown(const CampaignResult& result);

// For other Markdown reports (the kill matrix): one line of text with Markdown and HTML syntax
// characters escaped, and a code span (pipes escaped when it goes in a table cell).
std::string markdown_inline_text(std::string_view raw);
std::string markdown_code_span(std::string_view raw, bool in_table = false);

} // namespace adsem::reports
