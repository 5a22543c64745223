#pragma once
// Plain-text pieces every human-readable report shares, so Markdown, HTML and JUnit say the
// same thing in the same words.
#include <string>
#include <string_view>
#include <vector>

#include "reports/campaign_result.hpp"

namespace adsem::reports {

// The one tolerance policy (design.md), as reports print it.
inline constexpr std::string_view tolerance_policy_text = "|a-b| <= max(rtol*(|a|+|b|)/2, atol)";

// Trace lines shown in human-readable reports; summary.json keeps the whole excerpt.
inline constexpr std::size_t trace_lines_shown = 40;

std::string format_tolerance(const Tolerance& tolerance); // "rtol=1e-07, atol=1e-10"
std::string format_seconds(double seconds);               // "1.234"
std::string format_real(double value);                    // shortest round-trip form

// A measured quantity for people: "28,010" (thousands grouped, no fraction from 1000 up),
// "80", "12.35", "0.5", "0.00123" (4 significant digits below 1000, no exponent from 1e-4 up).
std::string format_number(double value);
// A count with its thousands grouped: "1,234,567".
std::string format_count(long long count);

// "fail: <message>" style headline of a counterexample.
std::string counterexample_headline(const CounterexampleRecord& record);

// "1.5e-3 (derivative tolerance rtol=..., atol=...)": the discrepancy and the tolerance it broke.
std::string discrepancy_text(const CounterexampleRecord& record);

// Multi-line plain-text description: headline, term, type, values, discrepancy, trace excerpt,
// replay command. Raw text (no escaping); callers escape for their format.
std::string counterexample_text(const CounterexampleRecord& record);

// The trace excerpt as shown (at most trace_lines_shown lines plus a "... N more" line).
std::vector<std::string> shown_trace(const std::vector<std::string>& trace);

// The counterexamples recorded for one property (by full name), in report order.
std::vector<CounterexampleRecord> counterexamples_of(const CampaignResult& result,
                                                     std::string_view property);

// "undefined-point 3, fuel 2" (most frequent first), "" when nothing was discarded.
std::string discard_reasons_text(const PropertySummary& summary);

// The status to show: the summary's own, else the one its counters imply.
std::string shown_status(const PropertySummary& summary);

// The prefix that marks a health-check warning (properties/core/health.hpp writes them).
inline constexpr std::string_view health_warning_prefix = "health: ";

// Health-check warnings of the campaign and its properties.
int health_warning_count(const CampaignResult& result);

// Properties whose trials raised an error (the body threw, crashed or timed out).
int erroring_property_count(const CampaignResult& result);

// The status as the property tables show it, with a text marker that survives printing in grey:
// "✗ failed", "✗ failed (error)" when a trial raised an error, "! untested" (any status that is
// not a pass), "passed".
std::string marked_status(const PropertySummary& summary);

// A user's rule file as reports show it: "FILE (HASH)".
std::string rules_text(const CampaignRules& rules);
std::string rules_text(const CounterexampleRecord& record); // "" without one

// The note rule coverage shows beside a rule: "your rule" (a user rule: added, or replacing a
// paper rule of that name), "removed by your rules", or "".
std::string rule_coverage_note(const CampaignResult& result, const std::string& calculus,
                               const std::string& rule);

// The counts behind a verdict line: "2 of 119 properties failed (1 with errors), 20 untested,
// 1 interrupted, 3 not run, 2 counterexample(s), 4 health warning(s), 1 health failure(s)"
// (user rules that never fired; each part after the
// first only when not 0, counterexamples always).
std::string verdict_counts_text(const CampaignResult& result);

// The counterexamples of one property that share a shrunk term: the first found stands for
// the rest. `index` and `repeats` are 0-based positions in CampaignResult::counterexamples.
struct CounterexampleGroup {
  std::size_t index = 0;
  std::vector<std::size_t> repeats;
};

// The counterexamples grouped by property (in report order) and, within a property, by
// identical shrunk term (in the order first found).
struct PropertyFailures {
  std::string property;
  std::size_t found = 0; // counterexamples of the property
  std::vector<CounterexampleGroup> distinct;
};
std::vector<PropertyFailures> failures_by_property(const CampaignResult& result);

// "2 more time(s) with this shrunk term (seeds 11, 12)": the group's repeats.
std::string repeats_text(const CampaignResult& result, const CounterexampleGroup& group);

// "1 counterexample", "10 counterexamples, 2 distinct".
std::string failures_count_text(const PropertyFailures& failures);

} // namespace adsem::reports
