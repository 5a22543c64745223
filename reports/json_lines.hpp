#pragma once
// results.jsonl: the live record of a campaign, one JSON object per line, flushed line by line
// so an interrupted campaign keeps what it found (design.md "Engineering rules").
//
// Each line carries a "record" discriminator:
//   {"record":"campaign", ...CampaignResult metadata...}   when a campaign starts
//   {"record":"property", ...PropertySummary...}            when a property finishes
//   {"record":"counterexample", ...CounterexampleRecord...} when a counterexample is found
// A line without "record" is read as a counterexample (the plain to_json(record) form).
#include <filesystem>
#include <fstream>
#include <string>
#include <variant>
#include <vector>

#include "reports/campaign_result.hpp"

namespace adsem::reports {

inline constexpr const char* results_jsonl_name = "results.jsonl";

class ResultsStream {
public:
  // Opens DIR/results.jsonl for append, creating DIR if needed. If an earlier run was cut off
  // mid-line, a newline is written first so that the cut line does not swallow the next one.
  explicit ResultsStream(const std::filesystem::path& dir);

  // The metadata of the campaign (its properties and counterexamples are not written).
  void write_campaign_start(const CampaignResult& campaign);
  void write(const PropertySummary& summary);
  void write(const CounterexampleRecord& record);

  const std::filesystem::path& path() const { return path_; }

private:
  void write_line(const nlohmann::json& line);

  std::filesystem::path path_;
  std::ofstream out_;
};

// One readable line of a results.jsonl. A campaign line holds metadata only.
using ResultsEntry = std::variant<CampaignResult, PropertySummary, CounterexampleRecord>;

struct ResultsFile {
  std::vector<ResultsEntry> entries; // in file order
  int unreadable_lines = 0;          // malformed JSON (e.g. a truncated last line), unknown kinds
};

// Reads a results.jsonl, skipping blank lines and counting unreadable ones instead of failing:
// a campaign killed mid-write leaves a truncated last line. Throws AdsemError(io) only when the
// file cannot be read at all.
ResultsFile read_results_jsonl(const std::filesystem::path& file);

// What a results.jsonl says about the last campaign in it (the entries after its last
// "campaign" line): its metadata, the last summary line per property, every counterexample;
// properties that have counterexamples but no summary line get one built from them.
// Always complete = false, with a warning saying it was reconstructed.
CampaignResult campaign_from_results(const ResultsFile& results);

} // namespace adsem::reports
