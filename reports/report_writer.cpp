#include "reports/report_writer.hpp"

#include <system_error>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "reports/html_writer.hpp"
#include "reports/json_lines.hpp"
#include "reports/junit_writer.hpp"
#include "reports/markdown_writer.hpp"
#include "reports/text_file.hpp"
#include "syntax/core/diagnostic.hpp"

namespace adsem::reports {
namespace {

// In the order the files are written and listed.
constexpr std::string_view format_order[] = {"json", "md", "html", "junit"};

[[noreturn]] void unknown_format(std::string_view format) {
  throw AdsemError(ErrorKind::usage, fmt::format("unknown report format '{}' (expected one of: "
                                                 "json, md, html, junit)",
                                                 format));
}

std::string render(const std::string& format, const CampaignResult& result) {
  if (format == "json") return render_summary_json(result);
  if (format == "md") return render_markdown(result);
  if (format == "html") return render_html(result);
  if (format == "junit") return render_junit(result);
  unknown_format(format);
}

} // namespace

const std::set<std::string>& all_report_formats() {
  static const std::set<std::string> formats(std::begin(format_order), std::end(format_order));
  return formats;
}

std::set<std::string> parse_report_formats(std::string_view comma_separated) {
  std::set<std::string> formats;
  while (!comma_separated.empty()) {
    const std::size_t comma = comma_separated.find(',');
    std::string_view item = comma_separated.substr(0, comma);
    while (!item.empty() && item.front() == ' ')
      item.remove_prefix(1);
    while (!item.empty() && item.back() == ' ')
      item.remove_suffix(1);
    if (!item.empty()) {
      if (!all_report_formats().contains(std::string(item))) unknown_format(item);
      formats.emplace(item);
    }
    comma_separated = comma == std::string_view::npos ? "" : comma_separated.substr(comma + 1);
  }
  return formats.empty() ? all_report_formats() : formats;
}

std::string report_file_name(const std::string& format) {
  if (format == "json") return summary_json_name;
  if (format == "md") return report_md_name;
  if (format == "html") return report_html_name;
  if (format == "junit") return junit_xml_name;
  unknown_format(format);
}

std::vector<std::string> campaign_report_file_names() {
  std::vector<std::string> names = {results_jsonl_name};
  for (const std::string_view format : format_order)
    names.push_back(report_file_name(std::string(format)));
  return names;
}

std::string render_summary_json(const CampaignResult& result) {
  return dump_json(to_json(result), 2) + "\n";
}

std::vector<std::filesystem::path> write_report(const CampaignResult& result,
                                                const std::filesystem::path& dir,
                                                const std::set<std::string>& formats) {
  for (const std::string& format : formats)
    if (!all_report_formats().contains(format)) unknown_format(format);
  std::error_code error;
  std::filesystem::create_directories(dir, error);
  if (error)
    throw AdsemError(ErrorKind::io, fmt::format("cannot create report directory {}: {}",
                                                dir.string(), error.message()));
  std::vector<std::filesystem::path> written;
  for (const std::string_view format_name : format_order) {
    const std::string format(format_name);
    if (!formats.contains(format)) continue;
    const std::filesystem::path path = dir / report_file_name(format);
    write_file_atomically(path, render(format, result));
    written.push_back(path);
  }
  return written;
}

} // namespace adsem::reports
