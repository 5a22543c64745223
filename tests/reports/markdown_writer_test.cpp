// report.md: the table, the tolerance policy, and every counterexample with its term and replay
// command; hostile text cannot break out of its code block or table cell.
#include <gtest/gtest.h>

#include "report_fixtures.hpp"
#include "reports/markdown_writer.hpp"
#include "support/text_has.hpp"

namespace adsem::reports::markdown_writer_test {
namespace {

using adsem::testing::has;

TEST(MarkdownWriter, HoldsTableMetadataPolicyAndCounterexample) {
  const std::string md = render_markdown(testing::sample_campaign());
  EXPECT_EQ(md.rfind("# adsem campaign report\n", 0), 0u);
  EXPECT_TRUE(has(md, "**FAILED**: 1 of 3 properties failed (1 with errors), 1 untested, 1 "
                      "counterexample(s)."))
      << md;
  EXPECT_TRUE(has(md, "| Seed | `7` |"));
  EXPECT_TRUE(has(md, "| Shard | `0/2` |"));
  EXPECT_TRUE(
      has(md, "| Property | Trials | Passed | Failed | Discarded | Errors | Seconds | Status |"));
  EXPECT_TRUE(has(
      md, "| `simple-diff/adequacy` | 100 | 90 | 1 | 8 | 1 | 1.250 | **\u2717 failed (error)** |"))
      << md;
  EXPECT_TRUE(has(md, "| `pullback/round-trip` | 0 | 0 | 0 | 0 | 0 | 0.125 | **\\! untested** |"));
  EXPECT_TRUE(has(md, "| `simple-diff/adequacy` | undefined-point | 5 |"));
  EXPECT_TRUE(has(md, "`|a-b| <= max(rtol*(|a|+|b|)/2, atol)`"));
  EXPECT_TRUE(has(md, "| finite-difference | 1e-05 | 1e-07 |"));
  // The counterexample
  EXPECT_TRUE(has(md, "```\n(x:real. sin(x) * x) 1.5\n```")) << md;
  EXPECT_TRUE(has(md, "- Type: `real`"));
  EXPECT_TRUE(has(md, "- Expected (model): `1.4962424799060816`"));
  EXPECT_TRUE(has(md, "- Actual (operational): `2.25`"));
  EXPECT_TRUE(has(md, "- Discrepancy: 0.7537575200939184 (exact-value tolerance rtol=1e-09, "
                      "atol=1e-12)"))
      << md;
  EXPECT_TRUE(has(md, "prim-sin: sin(1.5)\n"));
  EXPECT_TRUE(has(md, "```sh\nadsem replay adsem1:simple-diff/adequacy:seed=7:rc=AbCd\n```"));
  EXPECT_TRUE(has(md, "## Warnings"));
}

TEST(MarkdownWriter, PassingCampaignSaysSo) {
  CampaignResult c;
  c.properties = {testing::passing_summary("perturbative/typing", 50)};
  const std::string md = render_markdown(c);
  EXPECT_TRUE(has(md, "**PASSED**: 0 of 1 properties failed, 0 counterexample(s)."));
  EXPECT_FALSE(has(md, "## Failures"));
  EXPECT_TRUE(has(md, "| `perturbative/typing` | 50 | 50 | 0 | 0 | 0 | 0.125 | passed |"));
}

TEST(MarkdownWriter, HostileTextCannotEscapeItsBlock) {
  CampaignResult c = testing::sample_campaign();
  c.counterexamples[0].term = "```\n# not a heading\n````";
  c.counterexamples[0].message = "a|b <img src=x> *bold*\nnext";
  c.properties[0].name = "simple-diff/p|q";
  const std::string md = render_markdown(c);
  // A fence longer than any backtick run in the term.
  EXPECT_TRUE(has(md, "`````\n```\n# not a heading\n````\n`````")) << md;
  // Inline text: one line, markup escaped.
  EXPECT_TRUE(has(md, "fail: a\\|b \\<img src=x\\> \\*bold\\* next")) << md;
  // Pipes in a table cell are escaped so the row keeps its columns.
  EXPECT_TRUE(has(md, "| `simple-diff/p\\|q` | 100 |")) << md;
  // Control characters and invalid bytes become visible, valid UTF-8.
  c.counterexamples[0].term = std::string("x\x01y\xff");
  EXPECT_TRUE(has(render_markdown(c), "x\u2401y\uFFFD"));
}

} // namespace
} // namespace adsem::reports::markdown_writer_test
