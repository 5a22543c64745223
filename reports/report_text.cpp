#include "reports/report_text.hpp"

#include <algorithm>
#include <cmath>
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

std::string format_count(long long count) {
  const std::string digits = std::to_string(count < 0 ? -count : count);
  std::string grouped;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) grouped += ',';
    grouped += digits[i];
  }
  return (count < 0 ? "-" : "") + grouped;
}

std::string format_number(double value) {
  if (!std::isfinite(value)) return format_real(value);
  if (std::abs(value) >= 1000 && std::abs(value) < 1e18) return format_count(std::llround(value));
  if (value == 0 || std::abs(value) >= 1e-4) {
    // 4 significant digits in fixed notation, trailing zeros dropped.
    const int exponent = value == 0 ? 0 : static_cast<int>(std::floor(std::log10(std::abs(value))));
    std::string text = fmt::format("{:.{}f}", value, std::max(0, 3 - exponent));
    if (text.find('.') != std::string::npos) {
      text.erase(text.find_last_not_of('0') + 1);
      if (text.back() == '.') text.pop_back();
    }
    return text == "-0" ? "0" : text;
  }
  return fmt::format("{:.4g}", value);
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
  if (!record.rules_hash.empty()) text += fmt::format("rules: {}\n", rules_text(record));
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

std::string marked_status(const PropertySummary& summary) {
  const std::string status = shown_status(summary);
  if (is_passing_status(status)) return status;
  const std::string marker = status == "failed" ? "\u2717 " : "! ";
  return marker + status + (summary.errors > 0 ? " (error)" : "");
}

int health_warning_count(const CampaignResult& result) {
  const auto is_health = [](const std::string& w) { return w.starts_with(health_warning_prefix); };
  auto count = std::ranges::count_if(result.warnings, is_health);
  for (const PropertySummary& p : result.properties)
    count += std::ranges::count_if(p.warnings, is_health);
  return static_cast<int>(count);
}

int erroring_property_count(const CampaignResult& result) {
  return static_cast<int>(std::ranges::count_if(
      result.properties, [](const PropertySummary& p) { return p.errors > 0; }));
}

std::string verdict_counts_text(const CampaignResult& result) {
  auto counts = status_counts(result);
  std::string text =
      fmt::format("{} of {} properties failed", counts["failed"], result.properties.size());
  if (const int erroring = erroring_property_count(result); erroring > 0)
    text += fmt::format(" ({} with errors)", erroring);
  // "no-trials" is how reports of older versions said untested.
  if (const int untested = counts["untested"] + counts["no-trials"]; untested > 0)
    text += fmt::format(", {} untested", untested);
  if (counts["interrupted"] > 0) text += fmt::format(", {} interrupted", counts["interrupted"]);
  if (counts["not-run"] > 0) text += fmt::format(", {} not run", counts["not-run"]);
  text += fmt::format(", {} counterexample(s)", result.counterexamples.size());
  if (const int health = health_warning_count(result); health > 0)
    text += fmt::format(", {} health warning(s)", health);
  if (const auto failures = user_rule_failures(result); !failures.empty())
    text += fmt::format(", {} health failure(s)", failures.size());
  return text;
}

std::string rules_text(const CampaignRules& rules) {
  return fmt::format("{} ({})", rules.file, rules.hash);
}

std::string rules_text(const CounterexampleRecord& record) {
  return record.rules_hash.empty() ? ""
                                   : fmt::format("{} ({})", record.rules_file, record.rules_hash);
}

std::string rule_coverage_note(const CampaignResult& result, const std::string& calculus,
                               const std::string& rule) {
  if (is_user_rule(result, calculus, rule)) return "your rule";
  if (result.rules && result.rules->calculus == calculus &&
      std::ranges::find(result.rules->removed, rule) != result.rules->removed.end())
    return "removed by your rules";
  return "";
}

std::vector<PropertyFailures> failures_by_property(const CampaignResult& result) {
  std::vector<PropertyFailures> all;
  for (std::size_t i = 0; i < result.counterexamples.size(); ++i) {
    const CounterexampleRecord& record = result.counterexamples[i];
    auto property = std::ranges::find(all, record.property, &PropertyFailures::property);
    if (property == all.end()) property = all.insert(all.end(), {record.property, 0, {}});
    ++property->found;
    auto same = std::ranges::find_if(property->distinct, [&](const CounterexampleGroup& g) {
      return result.counterexamples[g.index].term == record.term;
    });
    if (same == property->distinct.end())
      property->distinct.push_back({i, {}});
    else
      same->repeats.push_back(i);
  }
  return all;
}

std::string repeats_text(const CampaignResult& result, const CounterexampleGroup& group) {
  std::string seeds;
  for (const std::size_t i : group.repeats)
    seeds += (seeds.empty() ? "" : ", ") + std::to_string(result.counterexamples[i].seed);
  return fmt::format("{} more time(s) with this shrunk term (seeds {})", group.repeats.size(),
                     seeds);
}

std::string failures_count_text(const PropertyFailures& failures) {
  if (failures.found == 1) return "1 counterexample";
  return fmt::format("{} counterexamples, {} distinct", failures.found, failures.distinct.size());
}

} // namespace adsem::reports
