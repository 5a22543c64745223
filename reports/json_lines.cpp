#include "reports/json_lines.hpp"

#include <algorithm>
#include <sstream>
#include <system_error>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "reports/text_file.hpp"
#include "syntax/core/diagnostic.hpp"

namespace adsem::reports {
namespace {

using nlohmann::json;

bool ends_without_newline(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary | std::ios::ate);
  if (!in || in.tellg() <= 0) return false;
  in.seekg(-1, std::ios::end);
  char last = '\n';
  in.get(last);
  return last != '\n';
}

void create_directory_for(const std::filesystem::path& dir) {
  std::error_code error;
  std::filesystem::create_directories(dir, error);
  if (error)
    throw AdsemError(ErrorKind::io,
                     fmt::format("cannot create directory {}: {}", dir.string(), error.message()));
}

ResultsEntry entry_from_line(const json& line) {
  if (!line.is_object()) throw AdsemError(ErrorKind::parse, "a line is not a JSON object");
  const std::string kind = line.value("record", std::string("counterexample"));
  if (kind == "campaign") return campaign_from_json(line);
  if (kind == "property") return summary_from_json(line);
  if (kind == "counterexample") return record_from_json(line);
  throw AdsemError(ErrorKind::parse, fmt::format("unknown record kind \"{}\"", kind));
}

// A property that only left counterexamples behind (it was running when the campaign stopped).
PropertySummary summary_from_counterexamples(const std::string& name,
                                             const std::vector<CounterexampleRecord>& records) {
  PropertySummary summary;
  summary.name = name;
  for (const CounterexampleRecord& record : records) {
    if (record.property != name) continue;
    summary.calculus = record.calculus;
    (record.outcome == "error" ? summary.errors : summary.failed) += 1;
    summary.passed = std::max(summary.passed, record.trials_before);
  }
  summary.trials = summary.passed + summary.failed + summary.errors;
  summary.status = derive_status(summary);
  summary.warnings.push_back("no summary line in results.jsonl; counts are lower bounds");
  return summary;
}

} // namespace

ResultsStream::ResultsStream(const std::filesystem::path& dir) : path_(dir / results_jsonl_name) {
  create_directory_for(dir);
  const bool cut_off = ends_without_newline(path_);
  out_.open(path_, std::ios::binary | std::ios::app);
  if (!out_) throw AdsemError(ErrorKind::io, fmt::format("cannot open {}", path_.string()));
  if (cut_off) {
    out_ << '\n';
    out_.flush();
  }
}

void ResultsStream::write_line(const json& line) {
  out_ << dump_json(line) << '\n';
  out_.flush(); // each line reaches the file before the campaign goes on
  if (!out_) throw AdsemError(ErrorKind::io, fmt::format("cannot write {}", path_.string()));
}

void ResultsStream::write_campaign_start(const CampaignResult& campaign) {
  json line = {{"record", "campaign"}};
  json metadata = to_json(campaign);
  for (const char* key : {"properties", "counterexamples", "all_passed", "status_counts"})
    metadata.erase(key);
  metadata["complete"] = false; // the run has only started; summary.json says how it ended
  line.update(metadata);
  write_line(line);
}

void ResultsStream::write(const PropertySummary& summary) {
  json line = {{"record", "property"}};
  line.update(to_json(summary));
  write_line(line);
}

void ResultsStream::write(const CounterexampleRecord& record) {
  json line = {{"record", "counterexample"}};
  line.update(to_json(record));
  write_line(line);
}

ResultsFile read_results_jsonl(const std::filesystem::path& file) {
  std::istringstream lines(read_text_file(file));
  ResultsFile results;
  std::string line;
  while (std::getline(lines, line)) {
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    try {
      results.entries.push_back(entry_from_line(json::parse(line)));
    } catch (const json::exception&) {
      ++results.unreadable_lines;
    } catch (const AdsemError&) {
      ++results.unreadable_lines;
    }
  }
  return results;
}

CampaignResult campaign_from_results(const ResultsFile& results) {
  const auto last_start =
      std::find_if(results.entries.rbegin(), results.entries.rend(),
                   [](const ResultsEntry& e) { return std::holds_alternative<CampaignResult>(e); });
  CampaignResult campaign = last_start == results.entries.rend()
                                ? CampaignResult{}
                                : std::get<CampaignResult>(*last_start);
  const auto first =
      last_start == results.entries.rend() ? results.entries.begin() : last_start.base();
  campaign.properties.clear();
  campaign.counterexamples.clear();
  for (auto it = first; it != results.entries.end(); ++it) {
    if (const auto* summary = std::get_if<PropertySummary>(&*it)) {
      const auto same = std::find_if(campaign.properties.begin(), campaign.properties.end(),
                                     [&](const auto& p) { return p.name == summary->name; });
      if (same != campaign.properties.end())
        *same = *summary; // the latest line wins
      else
        campaign.properties.push_back(*summary);
    } else if (const auto* record = std::get_if<CounterexampleRecord>(&*it)) {
      campaign.counterexamples.push_back(*record);
    }
  }
  for (const CounterexampleRecord& record : campaign.counterexamples) {
    const bool summarised = std::any_of(campaign.properties.begin(), campaign.properties.end(),
                                        [&](const auto& p) { return p.name == record.property; });
    if (!summarised)
      campaign.properties.push_back(
          summary_from_counterexamples(record.property, campaign.counterexamples));
  }
  campaign.complete = false;
  campaign.warnings.push_back("reconstructed from results.jsonl (no summary.json)");
  if (results.unreadable_lines > 0)
    campaign.warnings.push_back(
        fmt::format("{} unreadable line(s) in results.jsonl skipped", results.unreadable_lines));
  return campaign;
}

} // namespace adsem::reports
