#include "reports/junit_writer.hpp"

#include <algorithm>
#include <vector>

#include <fmt/format.h>

#include "reports/paper_citation.hpp"
#include "reports/report_text.hpp"
#include "reports/text_escape.hpp"

namespace adsem::reports {
namespace {

enum class Verdict { passed, failure, error, skipped };

struct TestCase {
  std::string classname;
  std::string name;
  double seconds = 0.0;
  Verdict verdict = Verdict::passed;
  std::string message; // failure/error/skipped message attribute
  std::string details; // failure/error body
  std::string output;  // <system-out>
};

struct TestSuite {
  std::string name;
  std::vector<TestCase> cases;

  int count(Verdict verdict) const {
    return static_cast<int>(std::count_if(cases.begin(), cases.end(),
                                          [&](const TestCase& c) { return c.verdict == verdict; }));
  }
  double seconds() const {
    double total = 0.0;
    for (const TestCase& c : cases)
      total += c.seconds;
    return total;
  }
};

std::string counts_text(const PropertySummary& p) {
  std::string text = fmt::format("trials {}: passed {}, failed {}, discarded {}, errors {}\n",
                                 p.trials, p.passed, p.failed, p.discarded, p.errors);
  if (!p.discard_reasons.empty())
    text += fmt::format("discard reasons: {}\n", discard_reasons_text(p));
  if (!p.kind.empty()) text += fmt::format("kind: {}\n", p.kind);
  if (const std::string citation = paper_citation(p.citation); !citation.empty())
    text += fmt::format("citation: {}\n", citation);
  for (const std::string& warning : p.warnings)
    text += fmt::format("warning: {}\n", warning);
  return text;
}

std::string records_text(const std::vector<CounterexampleRecord>& records) {
  std::string text;
  for (const CounterexampleRecord& record : records) {
    if (!text.empty()) text += '\n';
    text += counterexample_text(record);
  }
  return text;
}

TestCase test_case_for(const PropertySummary& p, const std::vector<CounterexampleRecord>& records) {
  TestCase test{calculus_of(p), p.name, p.seconds, Verdict::passed, "", "", counts_text(p)};
  const bool any_failing_record = std::any_of(records.begin(), records.end(),
                                              [](const auto& r) { return r.outcome != "error"; });
  const std::string status = shown_status(p);
  if (p.failed > 0 || any_failing_record || (status == "failed" && p.errors == 0)) {
    test.verdict = Verdict::failure;
  } else if (p.errors > 0 || !records.empty()) {
    test.verdict = Verdict::error;
  } else if (status == "untested" || status == "no-trials") {
    // Too few trials to say anything: a failure of the run, never a pass (docs/campaigns.md).
    test.verdict = Verdict::failure;
    test.message = fmt::format("untested: {} non-discarded trial(s)", p.trials - p.discarded);
    const auto why = std::find_if(p.warnings.begin(), p.warnings.end(),
                                  [](const std::string& w) { return w.starts_with("untested: "); });
    test.details = why == p.warnings.end() ? test.message : *why;
    return test;
  } else if (status == "interrupted" || status == "not-run") {
    test.verdict = Verdict::skipped;
    test.message = status == "interrupted"
                       ? fmt::format("interrupted after {} trial(s): no verdict", p.trials)
                       : "not run: the campaign was interrupted before it began";
    return test;
  } else if (p.passed == 0) {
    test.verdict = Verdict::skipped;
    test.message = p.trials == 0 ? "no trials ran"
                                 : fmt::format("all {} trials discarded ({})", p.discarded,
                                               status == "gave-up" ? "gave up" : status);
    return test;
  } else {
    return test;
  }
  test.message = records.empty()
                     ? fmt::format("{} of {} trials failed, {} erred", p.failed, p.trials, p.errors)
                     : counterexample_headline(records.front());
  test.details = records.empty() ? "no counterexample record was kept" : records_text(records);
  return test;
}

// Counterexamples whose property has no summary (should not happen, but CI must still see them).
std::vector<TestCase> orphan_cases(const CampaignResult& result) {
  std::vector<TestCase> cases;
  for (const CounterexampleRecord& record : result.counterexamples) {
    const auto has = [&](const auto& list, const std::string& name) {
      return std::any_of(list.begin(), list.end(), [&](const auto& x) { return x.name == name; });
    };
    if (has(result.properties, record.property) || has(cases, record.property)) continue;
    PropertySummary stand_in;
    stand_in.calculus = record.calculus;
    stand_in.name = record.property;
    cases.push_back(test_case_for(stand_in, counterexamples_of(result, record.property)));
  }
  return cases;
}

std::vector<TestSuite> suites_of(const CampaignResult& result) {
  std::vector<TestCase> cases;
  for (const PropertySummary& p : result.properties)
    cases.push_back(test_case_for(p, counterexamples_of(result, p.name)));
  for (TestCase& orphan : orphan_cases(result))
    cases.push_back(std::move(orphan));
  // An interrupted campaign is no pass even when every property it reached passed.
  if (!result.complete)
    cases.push_back(TestCase{"campaign", "complete", 0.0, Verdict::error,
                             "the campaign was interrupted before it completed",
                             "properties marked interrupted or not run have no verdict", ""});
  // A user rule that never fired was not tested: a failure of the run (docs/rules.md).
  if (result.rules)
    for (const std::string& failure : user_rule_failures(result))
      cases.push_back(TestCase{result.rules->calculus + "/rules", failure, 0.0, Verdict::failure,
                               failure, rules_text(*result.rules), ""});
  // A stale failure-corpus entry is an error of the campaign's own inputs: CI must see it.
  for (const CorpusOutcome& c : result.corpus)
    if (c.status == "stale")
      cases.push_back(
          TestCase{"corpus", c.file, 0.0, Verdict::error, "stale corpus entry: " + c.message,
                   c.message + (c.property.empty() ? "" : "\nproperty: " + c.property), ""});

  std::vector<TestSuite> suites; // in order of first appearance
  for (TestCase& test : cases) {
    auto suite = std::find_if(suites.begin(), suites.end(),
                              [&](const TestSuite& s) { return s.name == test.classname; });
    if (suite == suites.end()) suite = suites.insert(suites.end(), TestSuite{test.classname, {}});
    suite->cases.push_back(std::move(test));
  }
  return suites;
}

std::string attr(std::string_view text) {
  return xml_escape_attribute(text);
}

std::string campaign_properties(const CampaignResult& result) {
  std::vector<std::pair<std::string, std::string>> entries = {
      {"seed", std::to_string(result.seed)}, {"complete", result.complete ? "true" : "false"}};
  if (!result.mutant.empty()) entries.emplace_back("mutant", result.mutant);
  if (!result.shard.empty()) entries.emplace_back("shard", result.shard);
  if (result.trials_per_property)
    entries.emplace_back("trials_per_property", std::to_string(*result.trials_per_property));
  if (result.rules) entries.emplace_back("rules", rules_text(*result.rules));
  if (!result.adsem_version.empty()) entries.emplace_back("adsem_version", result.adsem_version);
  std::string xml = "    <properties>\n";
  for (const auto& [name, value] : entries)
    xml += fmt::format("      <property name=\"{}\" value=\"{}\"/>\n", attr(name), attr(value));
  return xml + "    </properties>\n";
}

std::string render_case(const TestCase& test) {
  std::string xml =
      fmt::format("    <testcase classname=\"{}\" name=\"{}\" time=\"{}\"", attr(test.classname),
                  attr(test.name), format_seconds(test.seconds));
  xml += ">\n";
  switch (test.verdict) {
  case Verdict::passed:
    break;
  case Verdict::skipped:
    xml += fmt::format("      <skipped message=\"{}\"/>\n", attr(test.message));
    break;
  case Verdict::failure:
  case Verdict::error: {
    const bool failure = test.verdict == Verdict::failure;
    xml +=
        fmt::format("      <{} message=\"{}\" type=\"{}\">{}</{}>\n", failure ? "failure" : "error",
                    attr(test.message), failure ? "counterexample" : "error",
                    xml_escape_text(test.details), failure ? "failure" : "error");
    break;
  }
  }
  xml += fmt::format("      <system-out>{}</system-out>\n", xml_escape_text(test.output));
  return xml + "    </testcase>\n";
}

} // namespace

std::string render_junit(const CampaignResult& result) {
  const std::vector<TestSuite> suites = suites_of(result);
  int tests = 0, failures = 0, errors = 0;
  double seconds = 0.0;
  std::string body;
  for (const TestSuite& suite : suites) {
    const int suite_tests = static_cast<int>(suite.cases.size());
    tests += suite_tests;
    failures += suite.count(Verdict::failure);
    errors += suite.count(Verdict::error);
    seconds += suite.seconds();
    body += fmt::format("  <testsuite name=\"{}\" tests=\"{}\" failures=\"{}\" errors=\"{}\" "
                        "skipped=\"{}\" time=\"{}\"",
                        attr(suite.name), suite_tests, suite.count(Verdict::failure),
                        suite.count(Verdict::error), suite.count(Verdict::skipped),
                        format_seconds(suite.seconds()));
    if (!result.started_at.empty())
      body += fmt::format(" timestamp=\"{}\"", attr(result.started_at));
    body += ">\n" + campaign_properties(result);
    for (const TestCase& test : suite.cases)
      body += render_case(test);
    body += "  </testsuite>\n";
  }
  // No `skipped` on <testsuites>: the common schema (Jenkins junit-10.xsd) has it on <testsuite>
  // only, and a validator rejects it on the root (tests/reports/schema/junit.xsd).
  return fmt::format("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                     "<testsuites name=\"adsem\" tests=\"{}\" failures=\"{}\" errors=\"{}\" "
                     "time=\"{}\">\n{}</testsuites>\n",
                     tests, failures, errors, format_seconds(seconds), body);
}

} // namespace adsem::reports
