// adsem merge: combine shard reports into one.
#include <filesystem>
#include <system_error>

#include <fmt/format.h>

#include "cli/command.hpp"
#include "reports/merge.hpp"
#include "reports/report_folder_lock.hpp"
#include "reports/report_writer.hpp"

namespace adsem::cli {
namespace {

// The folder a report input lives in (an input may name summary.json or results.jsonl itself).
std::filesystem::path folder_of(const std::filesystem::path& input) {
  std::error_code ignored;
  const std::filesystem::path folder =
      std::filesystem::is_regular_file(input, ignored) ? input.parent_path() : input;
  return std::filesystem::weakly_canonical(folder.empty() ? "." : folder, ignored);
}

// Writing the merged report into an input folder would replace that shard's report with the
// merge, and the next merge of the same folders would count the other shards twice.
void refuse_output_among_inputs(const std::vector<std::string>& inputs, const std::string& out) {
  std::error_code ignored;
  const std::filesystem::path target = std::filesystem::weakly_canonical(out, ignored);
  for (const std::string& input : inputs)
    if (folder_of(input) == target)
      throw AdsemError(ErrorKind::usage,
                       fmt::format("merge: the output folder {} is also an input ({}); write the "
                                   "merged report to another folder",
                                   out, input));
}

} // namespace

void add_merge_command(CLI::App& app, CommandContext& ctx) {
  struct MergeArgs {
    std::vector<std::string> dirs;
    std::string out = "adsem-report-merged";
  };
  auto args = std::make_shared<MergeArgs>();
  auto* cmd = app.add_subcommand(
      "merge", "Merge the reports of shards (folders written by campaign --report) into one");
  cmd->add_option("dirs", args->dirs, "Report folders")->required();
  cmd->add_option("--report,-r", args->out, "Folder for the merged report");
  cmd->add_flag("--json", ctx.json, "Print the merged result as JSON");
  cmd->callback([&ctx, args] {
    refuse_output_among_inputs(args->dirs, args->out);
    std::vector<reports::CampaignResult> parts;
    for (const auto& dir : args->dirs)
      parts.push_back(reports::read_report_dir(dir));
    const auto merged = reports::merge(parts, args->dirs);
    const reports::ReportFolderLock folder =
        reports::claim_report_folder(args->out, reports::campaign_report_file_names());
    reports::write_report(merged, args->out, {"json", "md", "html", "junit"});
    if (ctx.json)
      ctx.io.out << reports::dump_json(reports::to_json(merged), 2) << "\n";
    else
      ctx.io.out << fmt::format("merged {} reports ({} properties, {} counterexamples) into {}/\n",
                                parts.size(), merged.properties.size(),
                                merged.counterexamples.size(), args->out);
    ctx.exit_code = !merged.complete ? 130 : merged.all_passed() ? 0 : 1;
  });
}

} // namespace adsem::cli
