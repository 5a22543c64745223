#pragma once
// Sample campaign data and helpers shared by the reports tests.
#include <cstdlib>
#include <filesystem>
#include <limits>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <sys/wait.h>
#include <unistd.h>

#include "reports/campaign_result.hpp"
#include "reports/text_file.hpp"
#include "support/scratch.hpp"
#include "syntax/core/diagnostic.hpp"

namespace adsem::reports::testing {

// Everything a hostile term or message might hold: markup, quotes, a CDATA end, control
// characters invalid in XML 1.0, and bytes that are not UTF-8.
inline const std::string hostile = std::string("a<b && c>d \"q\" 'p' ]]> \x01\x1b\x7f tab\there ") +
                                   "\xff\xfe\xc3(" + " <script>alert(1)</script> `x` | *y* ";

inline CounterexampleRecord sample_record() {
  CounterexampleRecord r;
  r.calculus = "simple-diff";
  r.property = "simple-diff/adequacy";
  r.mutant = "simple-diff/drop-accumulate";
  r.seed = 18'446'744'073'709'551'557ULL; // above 2^63: must survive as an unsigned integer
  r.trials_before = 41;
  r.outcome = "fail";
  r.message = "operational and model values differ";
  r.term = "(x:real. sin(x) * x) 1.5";
  r.type = "real";
  r.expected = ComputedValue{"model", "1.4962424799060816"};
  r.actual = ComputedValue{"operational", "2.25"};
  r.discrepancy = 0.7537575200939184;
  r.tolerance = Tolerance{1e-9, 1e-12};
  r.tolerance_kind = "exact-value";
  r.trace = {"beta: (x:real. sin(x) * x) 1.5", "prim-sin: sin(1.5)", "prim-mul: 0.997 * 1.5"};
  r.replay_token = "adsem1:simple-diff/adequacy:seed=7:rc=AbCd";
  r.replay_command = "adsem replay adsem1:simple-diff/adequacy:seed=7:rc=AbCd";
  return r;
}

inline PropertySummary sample_summary(std::string name = "simple-diff/adequacy") {
  PropertySummary s;
  s.calculus = name.substr(0, name.find('/'));
  s.name = std::move(name);
  s.kind = "adequacy";
  s.citation = "seed 003, Thm 6.1, lines 812-830";
  s.trials = 100;
  s.passed = 90;
  s.failed = 1;
  s.discarded = 8;
  s.errors = 1;
  s.discard_reasons = {{"undefined-point", 5}, {"branch-boundary", 3}};
  s.size_histogram = {{1, 4}, {3, 10}, {10, 70}, {42, 16}};
  s.tags = {{"if", 12}, {"grad", 30}};
  s.seconds = 1.25;
  s.seconds_to_first_failure = 0.5;
  s.status = "failed";
  s.warnings = {"size ceiling reached"};
  return s;
}

inline PropertySummary passing_summary(std::string name, int trials) {
  PropertySummary s;
  s.calculus = name.substr(0, name.find('/'));
  s.name = std::move(name);
  s.kind = "typing";
  s.trials = trials;
  s.passed = trials;
  s.seconds = 0.125;
  s.status = trials == 0 ? "untested" : "passed";
  s.size_histogram = {{2, trials}};
  return s;
}

inline CampaignResult sample_campaign() {
  CampaignResult c;
  c.adsem_version = "0.1.0";
  c.seed = 7;
  c.trials_per_property = 100;
  c.time_budget_seconds = 30.0;
  c.shard = "0/2";
  c.mutant = "simple-diff/drop-accumulate";
  c.complete = true;
  c.started_at = "2024-05-01T12:00:00Z";
  c.elapsed_seconds = 2.5;
  c.tolerances = {{"exact-value", {1e-9, 1e-12}}, {"finite-difference", {1e-5, 1e-7}}};
  c.properties = {sample_summary(), passing_summary("simple-diff/type-uniqueness", 100),
                  passing_summary("pullback/round-trip", 0)};
  c.counterexamples = {sample_record()};
  c.warnings = {"campaign warning"};
  return c;
}

// A fresh empty folder named after the running test, removed afterwards.
class ScratchDir : public adsem::testing::Scratch {
public:
  ScratchDir() : Scratch(adsem::testing::fresh_dir(std::string("reports-") + test_name())) {}

private:
  static std::string test_name() {
    const auto* test = ::testing::UnitTest::GetInstance()->current_test_info();
    return std::string(test->test_suite_name()) + "-" + test->name();
  }
};

inline bool python3_available() {
  return std::system("python3 -c pass >/dev/null 2>&1") == 0;
}

// Parses an XML file with Python's ElementTree and returns its structure as JSON:
// {"tag", "attrib", "suites": [{"attrib", "properties": {..}, "cases": [{"attrib", "failure",
// "error", "skipped", "system_out"}]}]}; a parse error yields {"error": "..."}.
inline nlohmann::json parse_xml_with_python(const std::filesystem::path& xml,
                                            const std::filesystem::path& scratch) {
  const std::filesystem::path script = scratch / "parse_junit.py";
  const std::filesystem::path out = scratch / "parsed.json";
  write_file_atomically(script, R"(import sys, json, xml.etree.ElementTree as E
def element(e):
    return None if e is None else {"attrib": dict(e.attrib), "text": e.text or ""}
try:
    root = E.parse(sys.argv[1]).getroot()
except E.ParseError as err:
    json.dump({"error": str(err)}, open(sys.argv[2], "w")); sys.exit(0)
suites = []
for s in root.findall("testsuite"):
    cases = [{"attrib": dict(c.attrib), "failure": element(c.find("failure")),
              "error": element(c.find("error")), "skipped": element(c.find("skipped")),
              "system_out": (c.findtext("system-out") or "")} for c in s.findall("testcase")]
    props = {p.get("name"): p.get("value") for p in s.iter("property")}
    suites.append({"attrib": dict(s.attrib), "properties": props, "cases": cases})
json.dump({"tag": root.tag, "attrib": dict(root.attrib), "suites": suites,
           "all_testcases": len(list(root.iter("testcase"))),
           "all_failures": len(list(root.iter("failure")))}, open(sys.argv[2], "w"))
)");
  const std::string command =
      "python3 '" + script.string() + "' '" + xml.string() + "' '" + out.string() + "'";
  if (std::system(command.c_str()) != 0) return {{"error", "python3 failed"}};
  return nlohmann::json::parse(read_text_file(out));
}

// The plain well-formedness check: exit status of ElementTree parsing the file.
inline int xml_parse_status(const std::filesystem::path& xml) {
  const std::string command = "python3 -c \"import sys,xml.etree.ElementTree as E; "
                              "E.parse(sys.argv[1])\" '" +
                              xml.string() + "' 2>/dev/null";
  return std::system(command.c_str());
}

// xmllint's exit status validating `xml` against the common JUnit schema (0 = valid). xmllint
// (Debian libxml2-utils) is one of the packages `make deps` installs; without it this fails with
// status 127, it does not skip.
inline int junit_schema_status(const std::filesystem::path& xml) {
  const std::string command = "xmllint --noout --schema '" ADSEM_SOURCE_DIR
                              "/tests/reports/schema/junit.xsd' '" +
                              xml.string() + "'";
  return WEXITSTATUS(std::system(command.c_str()));
}

} // namespace adsem::reports::testing
