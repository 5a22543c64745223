// SIGINT in the middle of a campaign: the adsem process stops after its running chunk, exits
// 130, and leaves a valid results.jsonl with the counterexample found so far and a final report
// marked incomplete.
#include <chrono>
#include <filesystem>
#include <fstream>
#include <thread>

#include <csignal>
#include <sys/wait.h>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "reports/json_lines.hpp"
#include "support/scratch.hpp"
#include "support/spawn_process.hpp"

namespace adsem::interrupt_test {
namespace {

using namespace std::chrono_literals;

bool file_mentions(const std::filesystem::path& file, const std::string& needle) {
  std::ifstream in(file);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  return text.find(needle) != std::string::npos;
}

TEST(Interrupt, SigintLeavesValidJsonLinesAndAnIncompleteReport) {
  const auto dir = testing::fresh_dir("interrupt");
  const std::string report = (dir / "report").string();
  const std::string log = (dir / "log.txt").string();
  // The transposed-Jacobian mutant fails the first property at once; the other properties then
  // have a 60 s budget to use up, so the campaign is surely still running when SIGINT comes.
  const std::vector<std::string> args = {
      ADSEM_BINARY, "campaign", "model",    "--mutant", "model/jacobian-transposed", "--time", "60",
      "--seed",     "1",        "--report", report};
  const pid_t pid = testing::spawn_logged(args, log);
  ASSERT_GT(pid, 0);

  const auto jsonl = std::filesystem::path(report) / "results.jsonl";
  const auto deadline = std::chrono::steady_clock::now() + 30s;
  while (!file_mentions(jsonl, "\"counterexample\"") && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(20ms);
  ASSERT_TRUE(file_mentions(jsonl, "\"counterexample\"")) << "no counterexample streamed in 30 s";
  std::this_thread::sleep_for(200ms); // let it get into the next property
  ASSERT_EQ(kill(pid, SIGINT), 0);

  int status = 0;
  const auto stop_deadline = std::chrono::steady_clock::now() + 20s;
  pid_t done = 0;
  while ((done = waitpid(pid, &status, WNOHANG)) == 0 &&
         std::chrono::steady_clock::now() < stop_deadline)
    std::this_thread::sleep_for(20ms);
  if (done == 0) {
    kill(pid, SIGKILL);
    waitpid(pid, &status, 0);
    FAIL() << "adsem did not stop within 20 s of SIGINT";
  }
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 130);

  const auto results = reports::read_results_jsonl(jsonl);
  EXPECT_EQ(results.unreadable_lines, 0);
  int counterexamples = 0;
  for (const auto& entry : results.entries)
    if (std::holds_alternative<reports::CounterexampleRecord>(entry)) ++counterexamples;
  EXPECT_EQ(counterexamples, 1);

  const auto summary =
      nlohmann::json::parse(std::ifstream(std::filesystem::path(report) / "summary.json"));
  EXPECT_EQ(summary.at("complete"), false);
  EXPECT_EQ(summary.at("counterexamples").size(), 1u);
  EXPECT_TRUE(file_mentions(std::filesystem::path(report) / "report.md", "interrupted"))
      << "the Markdown report should say the campaign is incomplete";
}

} // namespace
} // namespace adsem::interrupt_test
