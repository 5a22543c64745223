#pragma once
// report.html: one self-contained page (inline CSS and SVG, no scripts, no external resources),
// viewable offline. What needs attention comes first: a banner with the verdict and its counts
// (failures, errors, untested properties, health warnings), the warnings, then the failures (one
// card per distinct shrunk counterexample of each property); then the property table (failing
// rows marked and linked to their cards) with a term-size histogram per property, the campaign
// metadata, charts, discard reasons, failure corpus, rule coverage and the tolerance policy.
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
