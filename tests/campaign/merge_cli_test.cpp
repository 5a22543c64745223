// `adsem merge` refuses inputs that are not disjoint shards of one campaign with exit 2 naming
// the conflict (it used to sum a shard given twice and merge other seeds with a warning, exit 0),
// refuses to write into one of its input folders, and clears an older results.jsonl from the
// output folder.
#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>

#include "reports/merge.hpp"
#include "support/cli_run.hpp"
#include "support/scratch.hpp"
#include "support/text_has.hpp"
#include "toy_calculus.hpp"

namespace adsem::merge_cli_test {
namespace {

testing::Scratch fresh_dir(const std::string& name) {
  return testing::fresh_dir("merge-cli-" + name);
}

testing::CliRun run(const std::vector<std::string>& args) {
  return testing::run_cli(testing::toy_registry(), args);
}

void shard(const std::filesystem::path& report, const std::string& which, const std::string& seed) {
  ASSERT_EQ(run({"campaign", "toy", "-p", "even-discards", "-n", "36", "--seed", seed, "--shard",
                 which, "--no-corpus", "--no-config", "--report", report.string()})
                .code,
            0);
}

using adsem::testing::has;

TEST(MergeCli, OverlappingOrInconsistentShardsExitTwo) {
  const auto dir = fresh_dir("conflicts");
  shard(dir / "s0", "0/2", "4");
  shard(dir / "s1", "1/2", "4");
  shard(dir / "t1", "1/3", "4");
  shard(dir / "other-seed", "1/2", "5");
  const std::string out = (dir / "merged").string();

  const auto twice = run({"merge", (dir / "s0").string(), (dir / "s0").string(), "-r", out});
  EXPECT_EQ(twice.code, 2);
  EXPECT_TRUE(has(twice.err, "shard 0/2 is given twice")) << twice.err;
  EXPECT_FALSE(std::filesystem::exists(dir / "merged" / "summary.json"));

  EXPECT_EQ(run({"merge", (dir / "s0").string(), (dir / "t1").string(), "-r", out}).code, 2);
  const auto seeds =
      run({"merge", (dir / "s0").string(), (dir / "other-seed").string(), "-r", out});
  EXPECT_EQ(seeds.code, 2);
  EXPECT_TRUE(has(seeds.err, "different seed (4 vs 5)")) << seeds.err;

  const auto good = run({"merge", (dir / "s0").string(), (dir / "s1").string(), "-r", out});
  EXPECT_EQ(good.code, 0) << good.err;
  EXPECT_EQ(reports::read_report_dir(out).properties.at(0).passed, 36);
}

TEST(MergeCli, TheOutputFolderMayNotBeAnInput) {
  const auto dir = fresh_dir("into-input");
  shard(dir / "s0", "0/2", "4");
  shard(dir / "s1", "1/2", "4");
  const std::string summary_before = [&] {
    std::ifstream in(dir / "s0" / "summary.json");
    return std::string(std::istreambuf_iterator<char>(in), {});
  }();
  for (const std::string& out : {(dir / "s0").string(), (dir / "s0" / ".").string()}) {
    const auto into = run({"merge", (dir / "s0").string(), (dir / "s1").string(), "-r", out});
    EXPECT_EQ(into.code, 2) << out;
    EXPECT_TRUE(has(into.err, "is also an input")) << into.err;
  }
  std::ifstream in(dir / "s0" / "summary.json");
  EXPECT_EQ(std::string(std::istreambuf_iterator<char>(in), {}), summary_before);
  // Merging twice into a separate folder counts each shard once.
  const std::string out = (dir / "merged").string();
  for (int i = 0; i < 2; ++i)
    ASSERT_EQ(run({"merge", (dir / "s0").string(), (dir / "s1").string(), "-r", out}).code, 0);
  EXPECT_EQ(reports::read_report_dir(out).properties.at(0).passed, 36);
}

TEST(MergeCli, AnOlderResultsStreamInTheOutputFolderIsCleared) {
  const auto dir = fresh_dir("stale-stream");
  shard(dir / "s0", "0/2", "4");
  shard(dir / "s1", "1/2", "4");
  std::filesystem::create_directories(dir / "merged");
  std::filesystem::copy_file(dir / "s0" / "results.jsonl", dir / "merged" / "results.jsonl");
  ASSERT_EQ(
      run({"merge", (dir / "s0").string(), (dir / "s1").string(), "-r", (dir / "merged").string()})
          .code,
      0);
  EXPECT_FALSE(std::filesystem::exists(dir / "merged" / "results.jsonl"));
}

} // namespace
} // namespace adsem::merge_cli_test
