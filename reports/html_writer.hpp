#pragma once
// report.html: one self-contained page (inline CSS and SVG, no scripts, no external resources),
// viewable offline: verdict, campaign metadata, a property table with a term-size histogram per
// property, discard reasons, the tolerance policy, and every counterexample in full.
#include <map>
#include <string>
#include <string_view>

#include "reports/campaign_result.hpp"

namespace adsem::reports {

inline constexpr const char* report_html_name = "report.html";

std::string render_html(const CampaignResult& result);

// The report pages' inline CSS, for other self-contained pages (the kill matrix).
std::string_view report_css();

// The inline <svg> bar chart of a term-size histogram ("" for an empty histogram). Bars are
// grouped into at most 40 bins of equal width over [min size, max size].
std::string size_histogram_svg(const std::map<int, int>& histogram);

} // namespace adsem::reports
