// adsem merge: combine shard reports into one.
#include <fmt/format.h>

#include "cli/command.hpp"
#include "reports/merge.hpp"
#include "reports/report_folder_lock.hpp"
#include "reports/report_writer.hpp"

namespace adsem::cli {

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
    std::vector<reports::CampaignResult> parts;
    for (const auto& dir : args->dirs)
      parts.push_back(reports::read_report_dir(dir));
    const auto merged = reports::merge(parts);
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
