// junit.xml: valid against the common JUnit schema (tests/reports/schema/junit.xsd, checked with
// xmllint), counts consistent, one suite per calculus, hostile text escaped.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "report_fixtures.hpp"
#include "reports/junit_writer.hpp"
#include "reports/text_file.hpp"

namespace adsem::reports::junit_writer_test {
namespace {

using nlohmann::json;
using testing::hostile;
using testing::ScratchDir;

json parse_junit(const CampaignResult& campaign, const ScratchDir& dir) {
  const auto file = dir.path() / "junit.xml";
  write_file_atomically(file, render_junit(campaign));
  EXPECT_EQ(testing::xml_parse_status(file), 0) << read_text_file(file);
  EXPECT_EQ(testing::junit_schema_status(file), 0)
      << "junit.xml does not validate against tests/reports/schema/junit.xsd:\n"
      << read_text_file(file);
  return testing::parse_xml_with_python(file, dir.path());
}

const json& find_case(const json& parsed, const std::string& name) {
  for (const json& suite : parsed.at("suites"))
    for (const json& c : suite.at("cases"))
      if (c.at("attrib").at("name") == name) return c;
  throw std::runtime_error("no testcase " + name);
}

class JunitWriter : public ::testing::Test {
protected:
  void SetUp() override {
    if (!testing::python3_available()) GTEST_SKIP() << "python3 is needed to parse the XML";
  }
};

TEST_F(JunitWriter, OneSuitePerCalculusOneCasePerProperty) {
  const ScratchDir dir;
  CampaignResult campaign = testing::sample_campaign();
  PropertySummary gave_up = testing::passing_summary("pullback/soundness", 0);
  gave_up.trials = gave_up.discarded = 12;
  gave_up.discard_reasons = {{"branch-boundary", 12}};
  gave_up.status = "gave-up";
  campaign.properties.push_back(gave_up);

  const json parsed = parse_junit(campaign, dir);
  ASSERT_FALSE(parsed.contains("error")) << parsed.dump();
  EXPECT_EQ(parsed.at("tag"), "testsuites");
  EXPECT_EQ(parsed.at("all_testcases"), 4);
  EXPECT_EQ(parsed.at("all_failures"), 2); // the counterexample and the untested property
  EXPECT_EQ(parsed.at("attrib").at("tests"), "4");
  EXPECT_EQ(parsed.at("attrib").at("failures"), "2");
  EXPECT_EQ(parsed.at("attrib").at("errors"), "0");
  EXPECT_FALSE(parsed.at("attrib").contains("skipped")); // junit-10.xsd has it per suite only

  const json& suites = parsed.at("suites");
  ASSERT_EQ(suites.size(), 2u);
  EXPECT_EQ(suites[0].at("attrib").at("name"), "simple-diff");
  EXPECT_EQ(suites[0].at("attrib").at("tests"), "2");
  EXPECT_EQ(suites[0].at("attrib").at("failures"), "1");
  EXPECT_EQ(suites[0].at("attrib").at("skipped"), "0");
  EXPECT_EQ(suites[0].at("attrib").at("time"), "1.375");
  EXPECT_EQ(suites[0].at("properties").at("seed"), "7");
  EXPECT_EQ(suites[1].at("attrib").at("name"), "pullback");
  EXPECT_EQ(suites[1].at("attrib").at("skipped"), "1");
  EXPECT_EQ(suites[1].at("attrib").at("failures"), "1");

  const json& failing = find_case(parsed, "simple-diff/adequacy");
  EXPECT_EQ(failing.at("attrib").at("classname"), "simple-diff");
  EXPECT_EQ(failing.at("attrib").at("time"), "1.250");
  ASSERT_FALSE(failing.at("failure").is_null());
  EXPECT_EQ(failing.at("failure").at("attrib").at("type"), "counterexample");
  EXPECT_EQ(failing.at("failure").at("attrib").at("message"),
            "fail: operational and model values differ");
  const std::string body = failing.at("failure").at("text");
  EXPECT_NE(body.find("term: (x:real. sin(x) * x) 1.5"), std::string::npos) << body;
  EXPECT_NE(body.find("replay: adsem replay adsem1:simple-diff/adequacy"), std::string::npos);
  EXPECT_NE(failing.at("system_out").get<std::string>().find("undefined-point 5"),
            std::string::npos);

  EXPECT_TRUE(find_case(parsed, "simple-diff/type-uniqueness").at("failure").is_null());
  EXPECT_TRUE(find_case(parsed, "simple-diff/type-uniqueness").at("skipped").is_null());
  // No trials: untested, which fails the run (it used to be skipped).
  EXPECT_FALSE(find_case(parsed, "pullback/round-trip").at("failure").is_null());
  const json& skipped = find_case(parsed, "pullback/soundness").at("skipped");
  EXPECT_EQ(skipped.at("attrib").at("message"), "all 12 trials discarded (gave up)");
}

TEST_F(JunitWriter, ErrorsWithoutFailuresBecomeErrorElements) {
  const ScratchDir dir;
  CampaignResult campaign;
  PropertySummary p = testing::passing_summary("bmp/adequacy", 10);
  p.passed = 9;
  p.errors = 1;
  p.status = "failed";
  campaign.properties = {p};
  CounterexampleRecord r = testing::sample_record();
  r.property = "bmp/adequacy";
  r.outcome = "error";
  r.message = "evaluator threw";
  campaign.counterexamples = {r};
  const json parsed = parse_junit(campaign, dir);
  EXPECT_EQ(parsed.at("attrib").at("errors"), "1");
  EXPECT_EQ(parsed.at("attrib").at("failures"), "0");
  const json& c = find_case(parsed, "bmp/adequacy");
  ASSERT_FALSE(c.at("error").is_null());
  EXPECT_EQ(c.at("error").at("attrib").at("message"), "error: evaluator threw");
}

TEST_F(JunitWriter, HostileTextStaysWellFormedAndReadable) {
  const ScratchDir dir;
  CampaignResult campaign = testing::sample_campaign();
  campaign.properties[0].name = "simple-diff/" + hostile;
  campaign.properties[0].discard_reasons = {{hostile, 2}};
  campaign.counterexamples[0].property = campaign.properties[0].name;
  campaign.counterexamples[0].message = hostile;
  campaign.counterexamples[0].term = hostile + "\nsecond line";
  campaign.counterexamples[0].trace = {hostile};
  campaign.mutant = hostile;

  const json parsed = parse_junit(campaign, dir);
  ASSERT_FALSE(parsed.contains("error")) << parsed.dump();
  EXPECT_EQ(parsed.at("all_failures"), 2); // the hostile counterexample and the untested fixture
  const json& suite = parsed.at("suites").at(0);
  const json& c = suite.at("cases").at(0);
  const std::string name = c.at("attrib").at("name");
  // Markup and quotes come back as they were; a control character as its control picture;
  // invalid bytes as U+FFFD; the tab in an attribute survives (it is a character reference).
  EXPECT_NE(name.find("a<b && c>d \"q\" 'p' ]]>"), std::string::npos) << name;
  EXPECT_NE(name.find("\u2401\u241b\u2421"), std::string::npos) << name;
  EXPECT_NE(name.find("tab\there"), std::string::npos) << name;
  EXPECT_NE(name.find("\uFFFD\uFFFD\uFFFD("), std::string::npos) << name;
  EXPECT_NE(name.find("<script>"), std::string::npos);
  const std::string message = c.at("failure").at("attrib").at("message");
  EXPECT_EQ(message.rfind("fail: a<b && c>d", 0), 0u) << message;
  const std::string body = c.at("failure").at("text");
  EXPECT_NE(body.find("second line"), std::string::npos);
  EXPECT_NE(c.at("system_out").get<std::string>().find("a<b && c>d"), std::string::npos);
  EXPECT_NE(suite.at("properties").at("mutant").get<std::string>().find("]]>"), std::string::npos);

  // And the raw file holds no raw control or invalid bytes at all.
  const std::string raw = read_text_file(dir.path() / "junit.xml");
  EXPECT_EQ(raw.find('\x01'), std::string::npos);
  EXPECT_EQ(raw.find('\x1b'), std::string::npos);
  EXPECT_EQ(raw.find('\x7f'), std::string::npos);
  EXPECT_EQ(raw.find('\xff'), std::string::npos);
}

TEST_F(JunitWriter, CounterexampleWithoutSummaryStillFails) {
  const ScratchDir dir;
  CampaignResult campaign;
  campaign.counterexamples = {testing::sample_record()};
  const json parsed = parse_junit(campaign, dir);
  EXPECT_EQ(parsed.at("all_testcases"), 1);
  EXPECT_EQ(parsed.at("all_failures"), 1);
  EXPECT_EQ(parsed.at("suites").at(0).at("attrib").at("name"), "simple-diff");
}

TEST_F(JunitWriter, EmptyCampaignIsAnEmptyTestsuites) {
  const ScratchDir dir;
  const json parsed = parse_junit(CampaignResult{}, dir);
  EXPECT_EQ(parsed.at("tag"), "testsuites");
  EXPECT_EQ(parsed.at("attrib").at("tests"), "0");
  EXPECT_TRUE(parsed.at("suites").empty());
}

} // namespace
} // namespace adsem::reports::junit_writer_test

namespace adsem::reports::junit_writer_test {
namespace {

TEST(JunitCorpus, StaleCorpusEntriesAreErrorCasesFixedOnesAreNot) {
  if (!testing::python3_available()) GTEST_SKIP() << "python3 is needed to parse the XML";
  const testing::ScratchDir dir;
  CampaignResult campaign;
  campaign.properties = {testing::passing_summary("toy/p", 10)};
  campaign.corpus = {{"corpus/toy/p-1.json", "toy/p", "", "stale", "its input no longer parses"},
                     {"corpus/toy/p-2.json", "toy/p", "", "fixed", "passes now"}};
  const auto file = dir.path() / "junit.xml";
  write_file_atomically(file, render_junit(campaign));
  const auto parsed = testing::parse_xml_with_python(file, dir.path());
  ASSERT_FALSE(parsed.contains("error")) << parsed.dump();
  EXPECT_EQ(parsed.at("attrib").at("tests"), "2");
  EXPECT_EQ(parsed.at("attrib").at("errors"), "1");
  EXPECT_FALSE(campaign.all_passed());
}

} // namespace
} // namespace adsem::reports::junit_writer_test
