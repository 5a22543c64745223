#include "reports/report_text.hpp"

#include <algorithm>
#include <utility>

#include <fmt/format.h>

namespace adsem::reports {

std::string format_tolerance(const Tolerance& tolerance) {
  return fmt::format("rtol={:g}, atol={:g}", tolerance.rtol, tolerance.atol);
}

std::string format_seconds(double seconds) {
  return fmt::format("{:.3f}", seconds);
}

std::string format_real(double value) {
  return fmt::format("{}", value);
}

std::string counterexample_headline(const CounterexampleRecord& record) {
  const std::string outcome = record.outcome.empty() ? "fail" : record.outcome;
  return record.message.empty() ? outcome : fmt::format("{}: {}", outcome, record.message);
}

std::string discrepancy_text(const CounterexampleRecord& record) {
  std::string text = record.discrepancy ? format_real(*record.discrepancy) : "";
  if (record.tolerance) {
    const std::string kind = record.tolerance_kind.empty() ? "" : record.tolerance_kind + " ";
    text += fmt::format("{}({}tolerance {})", text.empty() ? "" : " ", kind,
                        format_tolerance(*record.tolerance));
  }
  return text;
}

std::vector<std::string> shown_trace(const std::vector<std::string>& trace) {
  if (trace.size() <= trace_lines_shown) return trace;
  std::vector<std::string> shown(trace.begin(), trace.begin() + trace_lines_shown);
  shown.push_back(fmt::format("... {} more lines", trace.size() - trace_lines_shown));
  return shown;
}

std::string counterexample_text(const CounterexampleRecord& record) {
  std::string text = fmt::format("{}: {}\n", record.property, counterexample_headline(record));
  text += fmt::format("term: {}\n", record.term);
  if (!record.type.empty()) text += fmt::format("type: {}\n", record.type);
  if (record.expected)
    text += fmt::format("expected ({}): {}\n", record.expected->label, record.expected->value);
  if (record.actual)
    text += fmt::format("actual ({}): {}\n", record.actual->label, record.actual->value);
  if (const std::string discrepancy = discrepancy_text(record); !discrepancy.empty())
    text += fmt::format("discrepancy: {}; policy {}\n", discrepancy, tolerance_policy_text);
  if (!record.mutant.empty()) text += fmt::format("mutant: {}\n", record.mutant);
  text += fmt::format("seed: {}, after {} passing trials\n", record.seed, record.trials_before);
  if (!record.trace.empty()) {
    text += "trace:\n";
    for (const std::string& line : shown_trace(record.trace))
      text += fmt::format("  {}\n", line);
  }
  if (!record.replay_command.empty()) text += fmt::format("replay: {}\n", record.replay_command);
  return text;
}

std::vector<CounterexampleRecord> counterexamples_of(const CampaignResult& result,
                                                     std::string_view property) {
  std::vector<CounterexampleRecord> found;
  for (const CounterexampleRecord& record : result.counterexamples)
    if (record.property == property) found.push_back(record);
  return found;
}

std::string discard_reasons_text(const PropertySummary& summary) {
  std::vector<std::pair<std::string, int>> reasons(summary.discard_reasons.begin(),
                                                   summary.discard_reasons.end());
  std::stable_sort(reasons.begin(), reasons.end(),
                   [](const auto& a, const auto& b) { return a.second > b.second; });
  std::string text;
  for (const auto& [reason, count] : reasons)
    text += fmt::format("{}{} {}", text.empty() ? "" : ", ", reason, count);
  return text;
}

std::string shown_status(const PropertySummary& summary) {
  return summary.status.empty() ? derive_status(summary) : summary.status;
}

std::string verdict_counts_text(const CampaignResult& result) {
  auto counts = status_counts(result);
  std::string text =
      fmt::format("{} of {} properties failed", counts["failed"], result.properties.size());
  // "no-trials" is how reports of older versions said untested.
  if (const int untested = counts["untested"] + counts["no-trials"]; untested > 0)
    text += fmt::format(", {} untested", untested);
  if (counts["interrupted"] > 0) text += fmt::format(", {} interrupted", counts["interrupted"]);
  if (counts["not-run"] > 0) text += fmt::format(", {} not run", counts["not-run"]);
  return text + fmt::format(", {} counterexample(s)", result.counterexamples.size());
}

} // namespace adsem::reports
