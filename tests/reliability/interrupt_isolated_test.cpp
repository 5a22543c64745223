// Interrupting an isolated campaign: `adsem campaign ... --isolate --report DIR` gets
// SIGINT or SIGTERM about 1.5 s in, either alone (kill PID) or together with its forked trial
// child (kill -PGID, what Ctrl-C in a terminal or `timeout` does). It must exit 130 within a few
// seconds, leave results.jsonl with every line valid JSON and the counterexample found before the
// signal, and a summary.json/report.md marked incomplete. (tests/campaign/interrupt_test.cpp
// checks SIGINT to the process; this covers both signals, the process group and a property
// interrupted in the middle of a chunk.)
#include <atomic>
#include <chrono>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <ostream>
#include <string>
#include <thread>
#include <vector>

#include <sys/wait.h>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "crash_calculus.hpp"
#include "properties/core/isolation.hpp"
#include "reports/json_lines.hpp"
#include "support/read_text.hpp"
#include "support/scratch.hpp"
#include "support/spawn_process.hpp"

namespace adsem::interrupt_isolated_test {
namespace {

using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;

using testing::read_text;

struct Case {
  int signal;
  bool whole_group; // kill(-pgid): the campaign and its running trial child
  std::string name;
};

void PrintTo(const Case& c, std::ostream* out) {
  *out << c.name;
}

class InterruptIsolated : public ::testing::TestWithParam<Case> {};

TEST_P(InterruptIsolated, ExitsWithValidJsonLinesAndAnIncompleteReport) {
  const Case c = GetParam();
  const auto dir = testing::fresh_dir("interrupt-isolated-" + c.name);
  const auto report = dir / "report";
  const std::string log = (dir / "log.txt").string();
  // The transposed-Jacobian mutant fails the model's first property within a chunk; the other
  // properties then share a 60 s budget, so the campaign is surely running when the signal comes.
  const std::vector<std::string> args = {ADSEM_BINARY,
                                         "campaign",
                                         "model",
                                         "--mutant",
                                         "model/jacobian-transposed",
                                         "--time",
                                         "60",
                                         "--seed",
                                         "1",
                                         "--isolate",
                                         "--no-corpus",
                                         "--no-config",
                                         "--report",
                                         report.string()};
  const auto started = Clock::now();
  const pid_t pid = testing::spawn_logged(args, log, /*own_group=*/true);
  ASSERT_GT(pid, 0);

  const auto jsonl = report / "results.jsonl";
  const auto found = [&] {
    return read_text(jsonl).find("\"counterexample\"") != std::string::npos;
  };
  while (!found() && Clock::now() - started < 30s)
    std::this_thread::sleep_for(20ms);
  ASSERT_TRUE(found()) << "no counterexample streamed in 30 s\n" << read_text(log);
  std::this_thread::sleep_until(std::max(Clock::now() + 200ms, started + 1500ms));
  ASSERT_EQ(::kill(c.whole_group ? -pid : pid, c.signal), 0);
  const auto signalled = Clock::now();

  int status = 0;
  pid_t done = 0;
  while ((done = ::waitpid(pid, &status, WNOHANG)) == 0 && Clock::now() - signalled < 20s)
    std::this_thread::sleep_for(20ms);
  if (done == 0) {
    ::kill(-pid, SIGKILL);
    ::waitpid(pid, &status, 0);
    FAIL() << "adsem did not stop within 20 s of the signal\n" << read_text(log);
  }
  const double stop_seconds = std::chrono::duration<double>(Clock::now() - signalled).count();
  EXPECT_LT(stop_seconds, 5.0) << "a stop request should not wait for a whole chunk";
  ASSERT_TRUE(WIFEXITED(status)) << read_text(log);
  EXPECT_EQ(WEXITSTATUS(status), 130) << read_text(log);

  // Every line of results.jsonl is one JSON value (nothing half-written, no child output).
  std::ifstream lines(jsonl);
  int line_count = 0;
  for (std::string line; std::getline(lines, line); ++line_count)
    EXPECT_FALSE(nlohmann::json::parse(line, nullptr, false).is_discarded())
        << "line " << line_count + 1 << " is not JSON: " << line;
  EXPECT_GE(line_count, 3); // campaign header, counterexample, summaries
  const auto results = reports::read_results_jsonl(jsonl);
  EXPECT_EQ(results.unreadable_lines, 0);
  int counterexamples = 0;
  for (const auto& entry : results.entries)
    if (const auto* r = std::get_if<reports::CounterexampleRecord>(&entry)) {
      ++counterexamples;
      EXPECT_EQ(r->outcome, "fail") << "the interrupted trial child is no crash: " << r->message;
    }
  EXPECT_EQ(counterexamples, 1);

  const auto summary = nlohmann::json::parse(std::ifstream(report / "summary.json"));
  EXPECT_EQ(summary.at("complete"), false);
  EXPECT_EQ(summary.at("counterexamples").size(), 1u);
  bool interrupted_property = false;
  for (const auto& p : summary.at("properties"))
    interrupted_property = interrupted_property || p.at("status") == "interrupted";
  EXPECT_TRUE(interrupted_property) << "the running property should be marked interrupted";
  EXPECT_NE(read_text(report / "report.md").find("interrupted"), std::string::npos);
  std::filesystem::remove_all(dir);
}

// The stop request reaches a trial child that would never end: run_in_child kills it within
// ~100 ms (End::stopped) even without an idle timeout.
TEST(InterruptIsolatedChild, AStopRequestKillsAHangingChildAtOnce) {
  std::atomic<bool> stop{false};
  std::thread requester([&] {
    std::this_thread::sleep_for(300ms);
    stop.store(true);
  });
  const auto o = props::run_in_child(
      [](int) {
        testing::hang();
        return 0;
      },
      0, {}, &stop);
  requester.join();
  EXPECT_EQ(o.end, props::ChildOutcome::End::stopped);
  EXPECT_LT(o.seconds, 3.0);
}

// A campaign whose running chunk hangs (no per-trial timeout): the stop request ends it promptly,
// the property is "interrupted" (not failed: killing the child on purpose is no crash), the
// cases the child finished are kept, and the result is incomplete.
TEST(InterruptIsolatedChild, AStoppedCampaignHasNoCrashRecord) {
  const auto registry = testing::crash_registry();
  props::CampaignOptions options = testing::toy_options({"crashy/fine", "crashy/hang"}, 200, 7);
  options.calculi = {"crashy"};
  options.isolate = true;
  options.trial_timeout_seconds = 0; // only the stop request can end the hanging chunk
  std::atomic<bool> stop{false};
  options.stop_requested = &stop;
  std::thread requester([&] {
    std::this_thread::sleep_for(1s);
    stop.store(true);
  });
  const auto started = Clock::now();
  const auto result = props::run_campaign(registry, options);
  requester.join();
  EXPECT_LT(std::chrono::duration<double>(Clock::now() - started).count(), 5.0);
  EXPECT_FALSE(result.complete);
  EXPECT_TRUE(result.counterexamples.empty());
  // The registry runs crashy/hang before crashy/fine; the property it never reached is listed as
  // not run (it used to be left out of the result).
  ASSERT_EQ(result.properties.size(), 2u);
  const auto& hang = result.properties[0];
  EXPECT_EQ(hang.name, "crashy/hang");
  EXPECT_EQ(hang.status, "interrupted");
  EXPECT_EQ(hang.failed, 0);
  EXPECT_EQ(hang.trials, hang.passed); // the cases the child finished before it was stopped
  EXPECT_EQ(result.properties[1].name, "crashy/fine");
  EXPECT_EQ(result.properties[1].status, "not-run");
  EXPECT_EQ(result.properties[1].trials, 0);
}

INSTANTIATE_TEST_SUITE_P(Signals, InterruptIsolated,
                         ::testing::Values(Case{SIGINT, false, "sigint"},
                                           Case{SIGTERM, false, "sigterm"},
                                           Case{SIGINT, true, "sigint_group"},
                                           Case{SIGTERM, true, "sigterm_group"}),
                         [](const auto& info) { return info.param.name; });

} // namespace
} // namespace adsem::interrupt_isolated_test
