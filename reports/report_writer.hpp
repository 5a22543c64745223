#pragma once
// The report folder of `adsem campaign --report DIR`: summary.json, report.md, report.html and
// junit.xml, each written atomically (temporary name, then rename). results.jsonl is not written
// here: the campaign engine streams it live through ResultsStream (json_lines.hpp).
#include <filesystem>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "reports/campaign_result.hpp"

namespace adsem::reports {

inline constexpr const char* summary_json_name = "summary.json";

// {"json", "md", "html", "junit"}: the values of `--format`, and the default (all of them).
const std::set<std::string>& all_report_formats();

// Parses a `--format` list ("md,junit"); throws AdsemError(ErrorKind::usage) naming an unknown
// format. An empty list means all formats.
std::set<std::string> parse_report_formats(std::string_view comma_separated);

// The file name a format is written to ("json" -> "summary.json", ...).
std::string report_file_name(const std::string& format);

// Every file of a campaign report folder: results.jsonl and the final files of every format.
// A campaign or merge clears them when it claims a folder (report_folder_lock.hpp).
std::vector<std::string> campaign_report_file_names();

// summary.json text: the campaign object (the `campaign --json` shape plus metadata), indented.
std::string render_summary_json(const CampaignResult& result);

// Writes the chosen formats into dir (created if needed) and returns the paths written, in the
// order json, md, html, junit. Throws AdsemError(ErrorKind::usage) for an unknown format and
// AdsemError(ErrorKind::io) naming the path when a file cannot be written.
std::vector<std::filesystem::path> write_report(const CampaignResult& result,
                                                const std::filesystem::path& dir,
                                                const std::set<std::string>& formats);

} // namespace adsem::reports
