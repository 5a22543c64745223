// An interrupted campaign names every selected property in every report: the one it was running
// as "interrupted", those it never reached as "not-run"; it is never all_passed, and junit.xml
// shows no interrupted property as a pass.
#include <atomic>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "properties/core/campaign.hpp"
#include "reports/html_writer.hpp"
#include "reports/junit_writer.hpp"
#include "reports/markdown_writer.hpp"
#include "support/text_has.hpp"
#include "toy_calculus.hpp"

namespace adsem::interrupted_verdicts_test {
namespace {

using adsem::testing::has;

// Runs even-discards then mutant-sensitive (100 trials each) and sets the stop flag at the first
// progress event of kind `stop_at` (as SIGINT would).
reports::CampaignResult stopped_at(props::ProgressEvent::Kind stop_at) {
  static const auto registry = testing::toy_registry();
  std::atomic<bool> stop{false};
  auto options = testing::toy_options({"toy/even-discards", "toy/mutant-sensitive"}, 100);
  options.stop_requested = &stop;
  options.on_progress = [&](const props::ProgressEvent& e) {
    if (e.kind == stop_at) stop = true;
  };
  return props::run_campaign(registry, options);
}

TEST(InterruptedVerdicts, TheRunningPropertyIsInterruptedAndTheRestNotRun) {
  const auto result = stopped_at(props::ProgressEvent::Kind::chunk_finished);
  EXPECT_FALSE(result.complete);
  ASSERT_EQ(result.properties.size(), 2u);
  EXPECT_EQ(result.properties[0].name, "toy/even-discards");
  EXPECT_EQ(result.properties[0].status, "interrupted");
  EXPECT_GT(result.properties[0].trials, 0);
  EXPECT_EQ(result.properties[1].name, "toy/mutant-sensitive");
  EXPECT_EQ(result.properties[1].status, "not-run");
  EXPECT_EQ(result.properties[1].trials, 0);
  EXPECT_FALSE(result.all_passed());

  const auto json = reports::to_json(result);
  EXPECT_EQ(json.at("all_passed"), false);
  EXPECT_EQ(json.at("complete"), false);
  EXPECT_EQ(json.at("status_counts").at("interrupted"), 1);
  EXPECT_EQ(json.at("status_counts").at("not-run"), 1);

  const std::string junit = reports::render_junit(result);
  EXPECT_TRUE(has(junit, "name=\"toy/even-discards\"")) << junit;
  EXPECT_TRUE(has(junit, "<skipped message=\"interrupted after ")) << junit;
  EXPECT_TRUE(has(junit, "name=\"toy/mutant-sensitive\"")) << junit;
  EXPECT_TRUE(has(junit, "<skipped message=\"not run: the campaign was interrupted")) << junit;
  EXPECT_TRUE(has(junit, "<error message=\"the campaign was interrupted before it completed\""))
      << junit;

  const std::string md = reports::render_markdown(result);
  EXPECT_TRUE(has(md, "**FAILED**: 0 of 2 properties failed, 1 interrupted, 1 not run")) << md;
  EXPECT_TRUE(has(md, "**\\! not-run**")) << md;
  EXPECT_TRUE(has(reports::render_html(result), "FAILED: 0 of 2 properties failed, 1 "
                                                "interrupted, 1 not run"));
}

TEST(InterruptedVerdicts, PropertiesDoneBeforeTheStopKeepTheirVerdicts) {
  const auto result = stopped_at(props::ProgressEvent::Kind::property_finished);
  EXPECT_FALSE(result.complete);
  ASSERT_EQ(result.properties.size(), 2u);
  EXPECT_EQ(result.properties[0].status, "passed");
  EXPECT_EQ(result.properties[1].status, "not-run");
  // Everything that ran passed, yet the campaign did not complete: no pass.
  EXPECT_FALSE(result.all_passed());
  EXPECT_EQ(reports::to_json(result).at("all_passed"), false);
}

} // namespace
} // namespace adsem::interrupted_verdicts_test
