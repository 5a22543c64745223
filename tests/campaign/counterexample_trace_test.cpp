// Every shrunk counterexample of a calculus with rules carries a rule-trace excerpt, also for
// properties that compare values and record no steps: the campaign runs the shrunk input once
// more with the trace on (properties/core/counterexample_trace.hpp). Its report.html leads with
// the failures, and every failing row links to its card.
#include <regex>

#include <gtest/gtest.h>

#include "../reports/html_outline.hpp"
#include "cli/builtin_registry.hpp"
#include "properties/core/campaign.hpp"
#include "reports/html_writer.hpp"

namespace adsem::counterexample_trace_test {
namespace {

reports::CampaignResult mutant_campaign() {
  const props::Registry registry = cli::builtin_registry();
  props::CampaignOptions o;
  o.calculi = {"simple-diff"};
  o.properties = {"simple-diff/operational-correctness", "simple-diff/operational-completeness",
                  "simple-diff/unique-typing"};
  o.trials = 1000; // each property stops at its counterexample: at seed 7 the second is near 600
  o.seed = 7;
  o.mutant = "simple-diff/letrec-dynamic-scope";
  o.isolate = false;
  return props::run_campaign(registry, o);
}

TEST(CounterexampleTrace, EveryShrunkCounterexampleHasARuleTrace) {
  const reports::CampaignResult result = mutant_campaign();
  ASSERT_GE(result.counterexamples.size(), 2u);
  // Printed reals of a run from finite literals are finite: no inf or nan in the excerpt.
  const std::regex non_finite(R"((^|[^A-Za-z_])(-?inf|nan)([^A-Za-z_0-9]|$))");
  for (const reports::CounterexampleRecord& record : result.counterexamples) {
    EXPECT_FALSE(record.trace.empty()) << record.property << ": " << record.term;
    for (const std::string& line : record.trace)
      EXPECT_FALSE(std::regex_search(line, non_finite)) << record.property << ": " << line;
  }
}

TEST(CounterexampleTrace, TheReportOfAFailingCampaignLinksEveryFailingRowToItsCard) {
  const auto page = reports::testing::outline_of(reports::render_html(mutant_campaign()));
  ASSERT_FALSE(page.sections.empty());
  EXPECT_EQ(page.sections.front(), "verdict");
  const auto at = [&](const char* id) { return reports::testing::position_of(page, id); };
  EXPECT_LT(at("failures"), at("properties"));
  EXPECT_LT(at("properties"), page.sections.size());
  int failing = 0;
  for (const auto& row : page.rows) {
    if (row.row_class != "failed" && row.row_class != "error") continue;
    ++failing;
    ASSERT_TRUE(row.link.starts_with("#")) << row.property;
    ASSERT_TRUE(page.element_class.contains(row.link.substr(1))) << row.link;
    EXPECT_NE(page.element_text.at(row.link.substr(1)).find("Trace (excerpt)"), std::string::npos);
  }
  EXPECT_GE(failing, 2);
}

} // namespace
} // namespace adsem::counterexample_trace_test
