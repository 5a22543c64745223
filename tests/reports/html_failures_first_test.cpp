// report.html of a failing campaign leads with what needs attention: the banner counts failures,
// errors, untested properties and health warnings; the warnings and the Failures section come
// before the property table, whose failing rows are marked and link to their cards; identical
// shrunk terms of a property share one card. Read back with libxml2 as a browser's DOM.
#include <gtest/gtest.h>

#include "html_outline.hpp"
#include "report_fixtures.hpp"
#include "reports/html_writer.hpp"
#include "reports/markdown_writer.hpp"
#include "reports/report_text.hpp"
#include "support/text_has.hpp"

namespace adsem::reports::html_failures_first_test {
namespace {

using adsem::testing::has;

// The sample campaign, plus a property that failed by an error, found three times over merged
// shards with two distinct shrunk terms, and a health warning.
CampaignResult failing_campaign() {
  CampaignResult c = testing::sample_campaign();
  PropertySummary erring = testing::sample_summary("simple-diff/chain-rule");
  erring.failed = 0;
  erring.errors = 3;
  erring.trials = 28'010;
  erring.seconds = 1.0; // 28,010 trials/s
  erring.warnings = {"health: 60% of trials discarded"};
  c.properties.push_back(erring);
  CounterexampleRecord error = testing::sample_record();
  error.property = "simple-diff/chain-rule";
  error.outcome = "error";
  error.message = "eval error: stuck";
  CounterexampleRecord other = error;
  other.term = "(x:real. x) 2";
  other.seed = 11;
  CounterexampleRecord again = error;
  again.seed = 12;
  c.counterexamples.insert(c.counterexamples.end(), {error, other, again});
  c.rule_coverage = {{"simple-diff", {{"O-let", 1200}}}};
  return c;
}

TEST(HtmlFailuresFirst, SectionsComeInTheOrderOfWhatNeedsAttention) {
  const testing::HtmlOutline page = testing::outline_of(render_html(failing_campaign()));
  ASSERT_TRUE(page.parsed);
  ASSERT_GE(page.sections.size(), 5u);
  const std::vector<std::string> first(page.sections.begin(), page.sections.begin() + 4);
  EXPECT_EQ(first, (std::vector<std::string>{"verdict", "warnings", "failures", "properties"}));
  for (const char* later : {"campaign", "charts", "discards", "rule-coverage", "tolerances"}) {
    EXPECT_LT(testing::position_of(page, later), page.sections.size()) << later << " missing";
    EXPECT_GT(testing::position_of(page, later), testing::position_of(page, "properties")) << later;
  }
}

TEST(HtmlFailuresFirst, BannerCountsFailuresErrorsUntestedAndHealthWarnings) {
  const testing::HtmlOutline page = testing::outline_of(render_html(failing_campaign()));
  const std::string banner = page.element_text.at("verdict");
  EXPECT_TRUE(has(banner, "\u2717 FAILED: 2 of 4 properties failed (2 with errors), 1 untested, "
                          "4 counterexample(s), 1 health warning(s)."))
      << banner;
  EXPECT_TRUE(has(banner, "mutant simple-diff/drop-accumulate")) << banner;
}

TEST(HtmlFailuresFirst, EveryFailingRowIsMarkedAndLinksToItsCard) {
  const testing::HtmlOutline page = testing::outline_of(render_html(failing_campaign()));
  int failing = 0;
  for (const testing::OutlineRow& row : page.rows) {
    if (row.row_class != "failed" && row.row_class != "error") continue;
    ++failing;
    EXPECT_TRUE(row.status.starts_with("\u2717 failed")) << row.status; // survives grey print
    ASSERT_TRUE(row.link.starts_with("#")) << row.property;
    const std::string id = row.link.substr(1);
    ASSERT_TRUE(page.element_class.contains(id)) << row.link << " resolves to nothing";
    EXPECT_TRUE(page.element_class.at(id).starts_with("counterexample")) << id;
    EXPECT_TRUE(has(page.element_text.at(id), row.property)) << id << " is another's card";
  }
  EXPECT_EQ(failing, 2);
  // The untested row is marked too, and links to the warning that says why.
  const auto untested =
      std::ranges::find(page.rows, "pullback/round-trip", &testing::OutlineRow::property);
  ASSERT_NE(untested, page.rows.end());
  EXPECT_EQ(untested->row_class, "warning");
  EXPECT_EQ(untested->status, "! untested");
}

TEST(HtmlFailuresFirst, IdenticalShrunkTermsShareOneCard) {
  const std::string html = render_html(failing_campaign());
  EXPECT_TRUE(has(html, "3 counterexamples, 2 distinct")) << html;
  EXPECT_TRUE(has(html, "<dt>Found again</dt><dd>1 more time(s) with this shrunk term (seeds 12)"))
      << html;
  const testing::HtmlOutline page = testing::outline_of(html);
  EXPECT_TRUE(page.element_class.contains("cx-2"));
  EXPECT_TRUE(page.element_class.contains("cx-3"));
  EXPECT_FALSE(page.element_class.contains("cx-4")) << "a repeat has a card of its own";
  EXPECT_EQ(page.element_class.at("cx-2"), "counterexample error");
}

TEST(HtmlFailuresFirst, NumbersAreReadableAndLongLinesWrap) {
  const std::string html = render_html(failing_campaign());
  EXPECT_TRUE(has(html, "28,010 trials/s")) << "charts print grouped digits";
  EXPECT_FALSE(has(html, "e+04"));
  EXPECT_TRUE(has(html, "<td class=\"n\">28,010</td>"));
  EXPECT_TRUE(has(html, "<td class=\"n\">1,200</td>")); // rule coverage
  EXPECT_TRUE(has(html, "overflow-wrap: anywhere")) << "a replay command is cut at the edge";
  EXPECT_FALSE(has(html, "max-width")) << "the page uses the window's width";
}

TEST(MarkdownFailuresFirst, WarningsAndFailuresComeBeforeTheTable) {
  const std::string md = render_markdown(failing_campaign());
  const auto warnings = md.find("## Warnings"), failures = md.find("## Failures"),
             table = md.find("## Properties");
  ASSERT_NE(table, std::string::npos);
  EXPECT_LT(warnings, failures);
  EXPECT_LT(failures, table);
  EXPECT_TRUE(has(md, "### \u2717 `simple-diff/chain-rule` (3 counterexamples, 2 distinct)")) << md;
  EXPECT_TRUE(has(md, "| **\u2717 failed (error)** |")) << md;
}

TEST(ReportText, NumbersForPeople) {
  EXPECT_EQ(format_number(28'010.4), "28,010");
  EXPECT_EQ(format_number(1'234'567.0), "1,234,567");
  EXPECT_EQ(format_number(80.0), "80");
  EXPECT_EQ(format_number(12.3456), "12.35");
  EXPECT_EQ(format_number(0.5), "0.5");
  EXPECT_EQ(format_number(0.001234), "0.001234");
  EXPECT_EQ(format_number(0.0), "0");
  EXPECT_EQ(format_number(-2500.0), "-2,500");
  EXPECT_EQ(format_count(999), "999");
  EXPECT_EQ(format_count(1000), "1,000");
}

} // namespace
} // namespace adsem::reports::html_failures_first_test
