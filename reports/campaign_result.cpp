#include "reports/campaign_result.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string_view>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "reports/json_integer.hpp"
#include "reports/schema_version.hpp"
#include "syntax/core/diagnostic.hpp"

namespace adsem::reports {
namespace {

using nlohmann::json;

[[noreturn]] void malformed(std::string_view what) {
  throw AdsemError(ErrorKind::parse, fmt::format("malformed report: {}", what));
}

void expect_object(const json& j, std::string_view what) {
  if (!j.is_object())
    malformed(fmt::format("{} must be a JSON object, not {}", what, j.type_name()));
}

// JSON has no NaN or infinities; they are spelled as strings so they survive a round trip.
json real_to_json(double x) {
  if (std::isnan(x)) return "nan";
  if (std::isinf(x)) return x > 0 ? "inf" : "-inf";
  return x;
}

double real_from_json(const json& j, std::string_view key) {
  if (j.is_number()) return j.get<double>();
  if (j.is_string()) {
    const auto& text = j.get_ref<const std::string&>();
    if (text == "nan") return std::numeric_limits<double>::quiet_NaN();
    if (text == "inf") return std::numeric_limits<double>::infinity();
    if (text == "-inf") return -std::numeric_limits<double>::infinity();
  }
  malformed(fmt::format("field \"{}\" must be a number, not {}", key, j.dump()));
}

// Field readers: absent or null fields give the default; a value of the wrong type is an error
// naming the field.
template <class T> T field_or(const json& j, std::string_view key, T fallback) {
  const auto it = j.find(key);
  if (it == j.end() || it->is_null()) return fallback;
  if constexpr (std::integral<T> && !std::same_as<T, bool>) {
    if (const auto v = integer_in_range<T>(*it)) return *v;
    malformed(fmt::format("field \"{}\" is not an integer in range ({})", key,
                          it->is_number() ? it->dump() : std::string(it->type_name())));
  }
  try {
    return it->template get<T>();
  } catch (const json::exception&) {
    malformed(fmt::format("field \"{}\" has the wrong type ({})", key, it->type_name()));
  }
}

template <class T> T required_field(const json& j, std::string_view key) {
  if (!j.contains(key)) malformed(fmt::format("required field \"{}\" is missing", key));
  return field_or<T>(j, key, T{});
}

double real_field_or(const json& j, std::string_view key, double fallback) {
  const auto it = j.find(key);
  if (it == j.end() || it->is_null()) return fallback;
  return real_from_json(*it, key);
}

std::optional<double> optional_real_field(const json& j, std::string_view key) {
  const auto it = j.find(key);
  if (it == j.end() || it->is_null()) return std::nullopt;
  return real_from_json(*it, key);
}

void put_if_nonempty(json& j, std::string_view key, const std::string& value) {
  if (!value.empty()) j[std::string(key)] = value;
}

template <class Count = int>
std::map<std::string, Count> count_map_from_json(const json& j, std::string_view key) {
  const auto it = j.find(key);
  if (it == j.end() || it->is_null()) return {};
  if (!it->is_object()) malformed(fmt::format("field \"{}\" must be an object", key));
  std::map<std::string, Count> counts;
  for (const auto& [name, count] : it->items()) {
    if (!count.is_number_integer())
      malformed(fmt::format("field \"{}\" entry \"{}\" must be an integer", key, name));
    counts[name] = count.template get<Count>();
  }
  return counts;
}

// The size histogram is a list of {"size", "count"} objects: JSON object keys would be strings
// and sort as text ("10" before "9").
json histogram_to_json(const std::map<int, int>& histogram) {
  json out = json::array();
  for (const auto& [size, count] : histogram)
    out.push_back({{"size", size}, {"count", count}});
  return out;
}

std::map<int, int> histogram_from_json(const json& j) {
  const auto it = j.find("size_histogram");
  if (it == j.end() || it->is_null()) return {};
  if (!it->is_array()) malformed("field \"size_histogram\" must be an array");
  std::map<int, int> histogram;
  for (const json& bucket : *it) {
    expect_object(bucket, "a size_histogram entry");
    histogram[required_field<int>(bucket, "size")] += required_field<int>(bucket, "count");
  }
  return histogram;
}

} // namespace

bool CampaignResult::all_passed() const {
  if (!complete || !counterexamples.empty()) return false;
  for (const CorpusOutcome& c : corpus)
    if (c.status != "fixed") return false;
  for (const PropertySummary& p : properties)
    if (p.failed > 0 || p.errors > 0 ||
        !is_passing_status(p.status.empty() ? derive_status(p) : p.status))
      return false;
  return user_rule_failures(*this).empty();
}

std::vector<std::string> user_rule_failures(const CampaignResult& result) {
  std::vector<std::string> failures;
  if (!result.rules) return failures;
  const std::string& calculus = result.rules->calculus;
  long trials = 0;
  for (const PropertySummary& p : result.properties)
    if (calculus_of(p) == calculus) trials += p.trials;
  if (trials == 0) return failures; // nothing ran (another shard's chunks): no verdict here
  const auto coverage = result.rule_coverage.find(calculus);
  for (const std::string& name : result.rules->names) {
    const bool fired = coverage != result.rule_coverage.end() && coverage->second.contains(name) &&
                       coverage->second.at(name) > 0;
    if (!fired)
      failures.push_back(fmt::format("your rule '{}' was not tested: it never fired in {} "
                                     "trials of {}'s properties",
                                     name, trials, calculus));
  }
  return failures;
}

bool is_user_rule(const CampaignResult& result, const std::string& calculus,
                  const std::string& rule) {
  return result.rules && result.rules->calculus == calculus &&
         std::find(result.rules->names.begin(), result.rules->names.end(), rule) !=
             result.rules->names.end();
}

std::string derive_status(const PropertySummary& summary, int min_trials) {
  if (summary.failed > 0 || summary.errors > 0) return "failed";
  if (summary.passed < std::max(min_trials, 1)) return "untested";
  return "passed";
}

bool is_passing_status(const std::string& status) {
  return status == "passed" || status == "gave-up" || status == "not-in-shard";
}

std::map<std::string, int> status_counts(const CampaignResult& result) {
  std::map<std::string, int> counts;
  for (const PropertySummary& p : result.properties)
    ++counts[p.status.empty() ? derive_status(p) : p.status];
  return counts;
}

std::string calculus_of(const PropertySummary& summary) {
  if (!summary.calculus.empty()) return summary.calculus;
  return summary.name.substr(0, summary.name.find('/'));
}

json to_json(const ComputedValue& value) {
  return {{"label", value.label}, {"value", value.value}};
}

json to_json(const Tolerance& tolerance) {
  return {{"rtol", real_to_json(tolerance.rtol)}, {"atol", real_to_json(tolerance.atol)}};
}

json to_json(const CounterexampleRecord& record) {
  json j = {{"calculus", record.calculus},
            {"property", record.property},
            {"seed", record.seed},
            {"trials_before", record.trials_before},
            {"outcome", record.outcome},
            {"message", record.message},
            {"term", record.term},
            {"term_size", record.term_size},
            {"type", record.type},
            {"replay_token", record.replay_token},
            {"replay_command", record.replay_command}};
  put_if_nonempty(j, "mutant", record.mutant);
  put_if_nonempty(j, "source", record.source);
  if (record.expected) j["expected"] = to_json(*record.expected);
  if (record.actual) j["actual"] = to_json(*record.actual);
  if (record.discrepancy) j["discrepancy"] = real_to_json(*record.discrepancy);
  if (record.tolerance) j["tolerance"] = to_json(*record.tolerance);
  put_if_nonempty(j, "tolerance_kind", record.tolerance_kind);
  if (!record.trace.empty()) j["trace"] = record.trace;
  if (!record.rules_hash.empty())
    j["rules"] = {{"file", record.rules_file}, {"hash", record.rules_hash}};
  return j;
}

json to_json(const PropertySummary& summary) {
  json j = {{"name", summary.name},
            {"calculus", summary.calculus},
            {"kind", summary.kind},
            {"trials", summary.trials},
            {"passed", summary.passed},
            {"failed", summary.failed},
            {"discarded", summary.discarded},
            {"errors", summary.errors},
            {"seconds", real_to_json(summary.seconds)},
            {"status", summary.status}};
  put_if_nonempty(j, "citation", summary.citation);
  if (!summary.discard_reasons.empty()) j["discard_reasons"] = summary.discard_reasons;
  if (!summary.size_histogram.empty())
    j["size_histogram"] = histogram_to_json(summary.size_histogram);
  if (!summary.tags.empty()) j["tags"] = summary.tags;
  if (!summary.rules_fired.empty()) j["rules_fired"] = summary.rules_fired;
  if (summary.seconds_to_first_failure)
    j["seconds_to_first_failure"] = real_to_json(*summary.seconds_to_first_failure);
  if (!summary.warnings.empty()) j["warnings"] = summary.warnings;
  return j;
}

json to_json(const CorpusOutcome& outcome) {
  json j = {{"file", outcome.file}, {"status", outcome.status}, {"message", outcome.message}};
  put_if_nonempty(j, "property", outcome.property);
  put_if_nonempty(j, "mutant", outcome.mutant);
  return j;
}

json to_json(const CampaignRules& rules) {
  json j = {{"file", rules.file},
            {"hash", rules.hash},
            {"calculus", rules.calculus},
            {"names", rules.names}};
  if (!rules.removed.empty()) j["removed"] = rules.removed;
  return j;
}

json to_json(const CampaignResult& result) {
  json properties = json::array();
  for (const PropertySummary& p : result.properties)
    properties.push_back(to_json(p));
  json counterexamples = json::array();
  for (const CounterexampleRecord& r : result.counterexamples)
    counterexamples.push_back(to_json(r));
  json tolerances = json::object();
  for (const auto& [kind, tolerance] : result.tolerances)
    tolerances[kind] = to_json(tolerance);

  json j = {{schema_version_key, schema_version},
            {"adsem_version", result.adsem_version},
            {"seed", result.seed},
            {"shard", result.shard},
            {"mutant", result.mutant},
            {"complete", result.complete},
            {"all_passed", result.all_passed()},      // derived; for scripts, ignored when read
            {"status_counts", status_counts(result)}, // derived, likewise
            {"started_at", result.started_at},
            {"elapsed_seconds", real_to_json(result.elapsed_seconds)},
            {"tolerance_policy", "|a-b| <= max(rtol*(|a|+|b|)/2, atol)"}, // documentation only
            {"tolerances", tolerances},
            {"properties", properties},
            {"counterexamples", counterexamples}};
  if (result.trials_per_property) j["trials_per_property"] = *result.trials_per_property;
  if (result.min_trials > 0) j["min_trials"] = result.min_trials;
  if (result.time_budget_seconds)
    j["time_budget_seconds"] = real_to_json(*result.time_budget_seconds);
  if (!result.warnings.empty()) j["warnings"] = result.warnings;
  if (!result.rule_coverage.empty()) j["rule_coverage"] = result.rule_coverage;
  if (result.rules) j["rules"] = to_json(*result.rules);
  if (!result.corpus.empty()) {
    json corpus = json::array();
    for (const CorpusOutcome& c : result.corpus)
      corpus.push_back(to_json(c));
    j["corpus"] = corpus;
  }
  return j;
}

ComputedValue computed_value_from_json(const json& j) {
  expect_object(j, "a computed value");
  return {field_or<std::string>(j, "label", ""), field_or<std::string>(j, "value", "")};
}

Tolerance tolerance_from_json(const json& j) {
  expect_object(j, "a tolerance");
  const Tolerance defaults;
  return {real_field_or(j, "rtol", defaults.rtol), real_field_or(j, "atol", defaults.atol)};
}

CounterexampleRecord record_from_json(const json& j) {
  expect_object(j, "a counterexample record");
  CounterexampleRecord r;
  r.calculus = field_or<std::string>(j, "calculus", "");
  r.property = required_field<std::string>(j, "property");
  r.mutant = field_or<std::string>(j, "mutant", "");
  r.seed = field_or<std::uint64_t>(j, "seed", 0);
  r.trials_before = field_or<int>(j, "trials_before", 0);
  r.outcome = field_or<std::string>(j, "outcome", "");
  r.message = field_or<std::string>(j, "message", "");
  r.term = field_or<std::string>(j, "term", "");
  r.term_size = field_or<int>(j, "term_size", 0);
  r.source = field_or<std::string>(j, "source", "");
  r.type = field_or<std::string>(j, "type", "");
  if (j.contains("expected")) r.expected = computed_value_from_json(j.at("expected"));
  if (j.contains("actual")) r.actual = computed_value_from_json(j.at("actual"));
  r.discrepancy = optional_real_field(j, "discrepancy");
  if (j.contains("tolerance")) r.tolerance = tolerance_from_json(j.at("tolerance"));
  r.tolerance_kind = field_or<std::string>(j, "tolerance_kind", "");
  r.trace = field_or<std::vector<std::string>>(j, "trace", {});
  r.replay_token = field_or<std::string>(j, "replay_token", "");
  r.replay_command = field_or<std::string>(j, "replay_command", "");
  if (const auto it = j.find("rules"); it != j.end() && !it->is_null()) {
    expect_object(*it, "field \"rules\"");
    r.rules_file = required_field<std::string>(*it, "file");
    r.rules_hash = required_field<std::string>(*it, "hash");
  }
  return r;
}

PropertySummary summary_from_json(const json& j) {
  expect_object(j, "a property summary");
  PropertySummary s;
  s.name = required_field<std::string>(j, "name");
  s.calculus = field_or<std::string>(j, "calculus", "");
  s.kind = field_or<std::string>(j, "kind", "");
  s.citation = field_or<std::string>(j, "citation", "");
  s.trials = required_field<int>(j, "trials");
  s.passed = required_field<int>(j, "passed");
  s.failed = required_field<int>(j, "failed");
  s.discarded = required_field<int>(j, "discarded");
  s.errors = field_or<int>(j, "errors", 0);
  s.discard_reasons = count_map_from_json(j, "discard_reasons");
  s.size_histogram = histogram_from_json(j);
  s.tags = count_map_from_json(j, "tags");
  s.rules_fired = count_map_from_json<long>(j, "rules_fired");
  s.seconds = real_field_or(j, "seconds", 0.0);
  s.seconds_to_first_failure = optional_real_field(j, "seconds_to_first_failure");
  s.status = field_or<std::string>(j, "status", "");
  s.warnings = field_or<std::vector<std::string>>(j, "warnings", {});
  return s;
}

CorpusOutcome corpus_outcome_from_json(const json& j) {
  expect_object(j, "a corpus outcome");
  return {required_field<std::string>(j, "file"), field_or<std::string>(j, "property", ""),
          field_or<std::string>(j, "mutant", ""), required_field<std::string>(j, "status"),
          field_or<std::string>(j, "message", "")};
}

CampaignRules campaign_rules_from_json(const json& j) {
  expect_object(j, "field \"rules\"");
  return {required_field<std::string>(j, "file"), required_field<std::string>(j, "hash"),
          field_or<std::string>(j, "calculus", ""),
          field_or<std::vector<std::string>>(j, "names", {}),
          field_or<std::vector<std::string>>(j, "removed", {})};
}

CampaignResult campaign_from_json(const json& j) {
  expect_object(j, "a campaign report");
  CampaignResult c;
  c.adsem_version = field_or<std::string>(j, "adsem_version", "");
  c.seed = field_or<std::uint64_t>(j, "seed", 0);
  if (j.contains("trials_per_property") && !j.at("trials_per_property").is_null())
    c.trials_per_property = field_or<int>(j, "trials_per_property", 0);
  c.time_budget_seconds = optional_real_field(j, "time_budget_seconds");
  c.shard = field_or<std::string>(j, "shard", "");
  c.mutant = field_or<std::string>(j, "mutant", "");
  c.complete = field_or<bool>(j, "complete", true);
  c.min_trials = field_or<int>(j, "min_trials", 0);
  c.started_at = field_or<std::string>(j, "started_at", "");
  c.elapsed_seconds = real_field_or(j, "elapsed_seconds", 0.0);
  if (const auto it = j.find("tolerances"); it != j.end() && !it->is_null()) {
    expect_object(*it, "field \"tolerances\"");
    for (const auto& [kind, tolerance] : it->items())
      c.tolerances[kind] = tolerance_from_json(tolerance);
  }
  if (const auto it = j.find("properties"); it != j.end() && !it->is_null()) {
    if (!it->is_array()) malformed("field \"properties\" must be an array");
    for (const json& p : *it)
      c.properties.push_back(summary_from_json(p));
  }
  if (const auto it = j.find("counterexamples"); it != j.end() && !it->is_null()) {
    if (!it->is_array()) malformed("field \"counterexamples\" must be an array");
    for (const json& r : *it)
      c.counterexamples.push_back(record_from_json(r));
  }
  c.warnings = field_or<std::vector<std::string>>(j, "warnings", {});
  if (const auto it = j.find("rule_coverage"); it != j.end() && !it->is_null()) {
    expect_object(*it, "field \"rule_coverage\"");
    for (const auto& [calculus, rules] : it->items())
      c.rule_coverage[calculus] = count_map_from_json<long>(*it, calculus);
  }
  if (const auto it = j.find("rules"); it != j.end() && !it->is_null())
    c.rules = campaign_rules_from_json(*it);
  if (const auto it = j.find("corpus"); it != j.end() && !it->is_null()) {
    if (!it->is_array()) malformed("field \"corpus\" must be an array");
    for (const json& entry : *it)
      c.corpus.push_back(corpus_outcome_from_json(entry));
  }
  return c;
}

std::string dump_json(const json& j, int indent) {
  return j.dump(indent, ' ', false, json::error_handler_t::replace);
}

} // namespace adsem::reports
