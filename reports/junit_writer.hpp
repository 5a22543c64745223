#pragma once
// junit.xml for CI: <testsuites> holding one <testsuite> per calculus and one <testcase> per
// property (classname = calculus, name = full property name). A property with a counterexample
// gets <failure type="counterexample">, one that only erred gets <error>, one where no trial was
// checked (none ran, or all were discarded) gets <skipped/>; trial and discard counts go to
// <system-out>.
#include <string>

#include "reports/campaign_result.hpp"

namespace adsem::reports {

inline constexpr const char* junit_xml_name = "junit.xml";

std::string render_junit(const CampaignResult& result);

} // namespace adsem::reports
