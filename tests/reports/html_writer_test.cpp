// report.html: self-contained, escaped, and complete (summary table, histogram, counterexample).
#include <gtest/gtest.h>

#include "report_fixtures.hpp"
#include "reports/html_writer.hpp"
#include "support/text_has.hpp"

namespace adsem::reports::html_writer_test {
namespace {

using adsem::testing::has;

std::size_t occurrences(const std::string& text, const std::string& part) {
  std::size_t n = 0;
  for (auto at = text.find(part); at != std::string::npos; at = text.find(part, at + 1))
    ++n;
  return n;
}

TEST(HtmlWriter, HoldsSummaryCounterexampleAndReplayCommand) {
  const std::string html = render_html(testing::sample_campaign());
  EXPECT_EQ(html.rfind("<!DOCTYPE html>", 0), 0u);
  EXPECT_TRUE(has(html, "<meta charset=\"utf-8\">"));
  // The sample property failed and also erred: the banner counts both.
  EXPECT_TRUE(has(html, "FAILED: 1 of 3 properties failed (1 with errors), 1 untested, 1 "
                        "counterexample(s)."));
  EXPECT_TRUE(has(html, "<td><code>simple-diff/adequacy</code></td><td class=\"n\">100</td>"));
  EXPECT_TRUE(has(html, "<a href=\"#cx-1\">\u2717 failed (error)</a>"));
  EXPECT_TRUE(has(html, "<section class=\"counterexample\" id=\"cx-1\">"));
  EXPECT_TRUE(has(html, "<pre>(x:real. sin(x) * x) 1.5</pre>"));
  EXPECT_TRUE(has(html, "<dt>Expected (model)</dt><dd><code>1.4962424799060816</code></dd>"));
  EXPECT_TRUE(has(html, "<dt>Actual (operational)</dt><dd><code>2.25</code></dd>"));
  EXPECT_TRUE(has(html, "exact-value tolerance rtol=1e-09, atol=1e-12"));
  EXPECT_TRUE(has(html, "prim-mul: 0.997 * 1.5"));
  EXPECT_TRUE(has(
      html, "<pre class=\"replay\">adsem replay adsem1:simple-diff/adequacy:seed=7:rc=AbCd</pre>"));
  EXPECT_TRUE(has(html, "<code>|a-b| &lt;= max(rtol*(|a|+|b|)/2, atol)</code>"));
  EXPECT_TRUE(has(html, "<td>undefined-point</td><td class=\"n\">5</td>"));
  // One histogram per property with trials recorded (all three have a histogram).
  EXPECT_EQ(occurrences(html, "<svg width"), 3u); // one term-size histogram per property
  EXPECT_TRUE(html.ends_with("</html>\n"));
}

TEST(HtmlWriter, SelfContainedWithoutScriptsOrExternalResources) {
  const std::string html = render_html(testing::sample_campaign());
  EXPECT_FALSE(has(html, "<script"));
  EXPECT_FALSE(has(html, "src="));
  EXPECT_FALSE(has(html, "http"));
  EXPECT_FALSE(has(html, "<link"));
  EXPECT_FALSE(has(html, "@import"));
}

TEST(HtmlWriter, HostileTextIsEscaped) {
  CampaignResult c = testing::sample_campaign();
  c.counterexamples[0].term = testing::hostile;
  c.counterexamples[0].replay_command = "adsem replay 'a&b'";
  const std::string html = render_html(c);
  EXPECT_FALSE(has(html, "<script"));
  EXPECT_TRUE(has(html, "a&lt;b &amp;&amp; c&gt;d &quot;q&quot; &#39;p&#39;"));
  EXPECT_TRUE(has(html, "&lt;script&gt;alert(1)&lt;/script&gt;"));
  EXPECT_TRUE(has(html, "\u2401\u241b"));
  EXPECT_TRUE(has(html, "\uFFFD\uFFFD\uFFFD("));
  EXPECT_TRUE(has(html, "adsem replay &#39;a&amp;b&#39;"));
  EXPECT_FALSE(has(html, "\x01"));
  EXPECT_FALSE(has(html, "\xff"));
}

TEST(HtmlWriter, HistogramBarsScaleToTheTallestBin) {
  const std::string svg = size_histogram_svg({{1, 10}, {2, 5}});
  EXPECT_EQ(occurrences(svg, "<rect "), 2u);
  EXPECT_TRUE(has(svg, "height=\"28.00\"><title>size 1: 10 trials</title>")) << svg;
  EXPECT_TRUE(has(svg, "height=\"14.00\"><title>size 2: 5 trials</title>")) << svg;
  EXPECT_EQ(size_histogram_svg({}), "");
  // 200 distinct sizes are grouped into at most 40 bins.
  std::map<int, int> wide;
  for (int size = 1; size <= 200; ++size)
    wide[size] = 1;
  const std::string binned = size_histogram_svg(wide);
  EXPECT_EQ(occurrences(binned, "<rect "), 40u);
  EXPECT_TRUE(has(binned, "<title>sizes 1-5: 5 trials</title>")) << binned;
}

} // namespace
} // namespace adsem::reports::html_writer_test

namespace adsem::reports::html_writer_test {
namespace {

TEST(HtmlWriter, ChartsRuleCoverageAndCorpusSections) {
  CampaignResult c = testing::sample_campaign();
  c.rule_coverage = {{"simple-diff", {{"O-let", 12}, {"S-call", 0}}}};
  c.corpus = {{"corpus/a.json", "simple-diff/adequacy", "", "stale", "no longer type-checks"}};
  const std::string html = render_html(c);
  // Trials per second (100 trials in 1.25 s = 80), discard reasons summed over properties, and
  // the time to the first counterexample.
  EXPECT_NE(html.find("aria-label=\"trials per second, by property\""), std::string::npos);
  EXPECT_NE(html.find("80 trials/s"), std::string::npos);
  EXPECT_NE(html.find("aria-label=\"discarded trials, by reason (all properties)\""),
            std::string::npos);
  EXPECT_NE(html.find("0.5 s"), std::string::npos);
  EXPECT_NE(html.find("<td><code>S-call</code></td><td class=\"n never\">never</td>"),
            std::string::npos);
  EXPECT_NE(html.find("<td><code>O-let</code></td><td class=\"n\">12</td>"), std::string::npos);
  EXPECT_NE(html.find("<td class=\"failed\">stale</td>"), std::string::npos);
  EXPECT_EQ(html.find("<script"), std::string::npos);
}

} // namespace
} // namespace adsem::reports::html_writer_test
