// Crash isolation and per-trial timeouts: a property that segfaults, aborts or hangs
// becomes a counterexample with outcome crash/timeout and its reported input; the campaign goes
// on with the next property, and nothing found earlier is lost.
#include <atomic>
#include <chrono>
#include <ctime>
#include <filesystem>
#include <sstream>
#include <thread>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "cli/app.hpp"
#include "crash_calculus.hpp"
#include "properties/core/fork_gate.hpp"
#include "properties/core/isolation.hpp"
#include "properties/core/replay.hpp"
#include "reports/json_lines.hpp"
#include "support/scratch.hpp"

namespace adsem::isolation_test {
namespace {

props::CampaignOptions crashy_options(std::vector<std::string> properties, int trials) {
  props::CampaignOptions options = testing::toy_options(std::move(properties), trials, 7);
  options.calculi = {"crashy"};
  options.isolate = true;
  options.trial_timeout_seconds = 1.0;
  return options;
}

const reports::CounterexampleRecord* record_of(const reports::CampaignResult& result,
                                               const std::string& property) {
  for (const auto& r : result.counterexamples)
    if (r.property == property) return &r;
  return nullptr;
}

TEST(RunInChild, ReportsExitSignalAndTimeout) {
  std::vector<std::string> lines;
  const auto collect = [&](const std::string& line) { lines.push_back(line); };
  auto o = props::run_in_child(
      [](int fd) {
        props::write_line(fd, "a");
        props::write_line(fd, "b");
        return 4;
      },
      5, collect);
  EXPECT_EQ(o.end, props::ChildOutcome::End::exited);
  EXPECT_EQ(o.code, 4);
  EXPECT_EQ(lines, (std::vector<std::string>{"a", "b"}));
  o = props::run_in_child([](int) { return std::raise(SIGSEGV); }, 5, collect);
  EXPECT_EQ(o.end, props::ChildOutcome::End::signalled);
  EXPECT_EQ(props::signal_name(o.code), "SIGSEGV");
  o = props::run_in_child(
      [](int) {
        testing::hang();
        return 0;
      },
      0.3, collect);
  EXPECT_EQ(o.end, props::ChildOutcome::End::timed_out);
  EXPECT_LT(o.seconds, 3.0);
}

// Lines a child keeps (ChildLines::soon) reach the parent in order when it exits, and when it
// dies before writing them: from the shared log, also past the log's size (written out as it
// fills) and with a line longer than the log (written at once).
TEST(RunInChild, KeptLinesSurviveTheChildsDeath) {
  std::vector<std::string> lines;
  const auto collect = [&](const std::string& line) { lines.push_back(line); };
  const auto numbered = [](int count, std::size_t width) {
    std::vector<std::string> out;
    for (int i = 0; i < count; ++i) {
      std::string line = std::to_string(i);
      line.resize(width, 'x');
      out.push_back(line);
    }
    return out;
  };
  const std::vector<std::string> few = numbered(3, 10);
  const std::vector<std::string> many = numbered(4000, 200); // 800 KB: the log is 256 KB
  const std::vector<std::string> with_long = [&] {
    std::vector<std::string> out = numbered(5, 10);
    out.insert(out.begin() + 2, std::string(300000, 'L'));
    return out;
  }();
  for (const std::vector<std::string>* sent : {&few, &many, &with_long}) {
    for (const bool crash : {false, true}) {
      lines.clear();
      const auto o = props::run_in_child(
          [&](props::ChildLines& out) {
            out.line("first");
            for (const std::string& line : *sent)
              out.soon(line);
            if (crash) std::raise(SIGSEGV);
            return 0;
          },
          5, collect);
      EXPECT_EQ(o.end,
                crash ? props::ChildOutcome::End::signalled : props::ChildOutcome::End::exited);
      std::vector<std::string> expected{"first"};
      expected.insert(expected.end(), sent->begin(), sent->end());
      EXPECT_EQ(lines.size(), expected.size()) << "crash " << crash;
      EXPECT_TRUE(lines == expected) << "crash " << crash;
    }
  }
}

// A child killed for its CPU time (a hung trial) still delivers the lines it kept before.
TEST(RunInChild, KeptLinesOfAHungTrialReachTheParent) {
  std::vector<std::string> lines;
  const auto o = props::run_in_child(
      [](props::ChildLines& out) {
        out.line("chunk");
        out.soon("start");
        out.soon("input");
        testing::hang();
        return 0;
      },
      0.3, [&](const std::string& line) { lines.push_back(line); });
  EXPECT_EQ(o.end, props::ChildOutcome::End::timed_out);
  EXPECT_EQ(lines, (std::vector<std::string>{"chunk", "start", "input"}));
}

// Once a worker has spoken, the per-trial timeout counts CPU time: a child that gets a fifth of
// a core (as a trial does on a loaded machine) runs past the timeout in wall time and is not
// killed for it; one that uses no CPU at all (stuck) is killed once its CPU time has stayed flat
// for the timeout.
TEST(RunInChild, TimesOutOnCpuTimeNotOnTheWallClock) {
  using namespace std::chrono_literals;
  const auto ignore = [](const std::string&) {};
  auto o = props::run_in_child(
      [](int fd) {
        props::write_line(fd, "started"); // a worker announces its chunk at once
        const auto end = std::chrono::steady_clock::now() + 900ms;
        while (std::chrono::steady_clock::now() < end) {
          const auto spin = std::chrono::steady_clock::now() + 1ms;
          while (std::chrono::steady_clock::now() < spin) {
          }
          std::this_thread::sleep_for(4ms);
        }
        props::write_line(fd, "done");
        return 0;
      },
      0.3, ignore);
  EXPECT_EQ(o.end, props::ChildOutcome::End::exited);
  EXPECT_GE(o.seconds, 0.9);
  o = props::run_in_child( // busy: over the timeout in CPU time
      [](int fd) {
        props::write_line(fd, "started");
        testing::hang();
        return 0;
      },
      0.2, ignore);
  EXPECT_EQ(o.end, props::ChildOutcome::End::timed_out);
  EXPECT_EQ(o.timeout, props::ChildOutcome::Timeout::cpu);
  o = props::run_in_child(
      [](int fd) {
        props::write_line(fd, "started");
        std::this_thread::sleep_for(1h);
        return 0;
      },
      0.2, ignore);
  EXPECT_EQ(o.end, props::ChildOutcome::End::timed_out);
  EXPECT_EQ(o.timeout, props::ChildOutcome::Timeout::stuck);
  EXPECT_GE(o.seconds, 0.4); // silent for the timeout, then flat for the timeout
  EXPECT_LT(o.seconds, 3.0);
}

// A fork while another thread initialises a function-local static used to leave the child
// waiting for that initialisation forever. A thread that is Working (fork_gate.hpp) is never
// caught half-way: here it initialises a slow static while the main thread forks, and the child
// uses the same static.
int slow_static_value() {
  static const int value = [] {
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    return 42;
  }();
  return value;
}

TEST(ForkGate, AForkWaitsForAThreadInsideAStaticInitialisation) {
  std::atomic<bool> started{false};
  std::thread initialiser([&] {
    const props::fork_gate::Working working;
    started = true;
    (void)slow_static_value();
  });
  while (!started)
    std::this_thread::yield();
  std::this_thread::sleep_for(std::chrono::milliseconds(50)); // inside the initialisation now
  std::string line;
  const auto o = props::run_in_child(
      [](int fd) {
        props::write_line(fd, std::to_string(slow_static_value()));
        return 0;
      },
      2.0, [&](const std::string& l) { line = l; });
  initialiser.join();
  EXPECT_EQ(o.end, props::ChildOutcome::End::exited);
  EXPECT_EQ(line, "42");
}

TEST(Isolation, CrashesAndHangsBecomeRecordsAndTheCampaignGoesOn) {
  const auto registry = testing::crash_registry();
  const auto dir = testing::scratch_path("reliability-isolation");
  auto options = crashy_options({}, 40);
  options.stream_dir = dir;
  const auto result = props::run_campaign(registry, options);

  ASSERT_EQ(result.properties.size(), 5u); // every property ran, the ones after crashes too
  for (const auto& p : result.properties)
    EXPECT_EQ(p.status, p.name == "crashy/fine" ? "passed" : "failed") << p.name;
  EXPECT_EQ(result.properties.back().trials, 40);
  EXPECT_EQ(result.properties.back().passed, 40);

  const auto* seg = record_of(result, "crashy/segfault");
  ASSERT_NE(seg, nullptr);
  EXPECT_EQ(seg->outcome, "crash");
  EXPECT_NE(seg->message.find("SIGSEGV"), std::string::npos) << seg->message;
  // The input the body reported before it crashed.
  EXPECT_TRUE(seg->term == "n = 6" || seg->term == "n = 7" || seg->term == "n = 8" ||
              seg->term == "n = 9")
      << seg->term;
  EXPECT_FALSE(seg->replay_token.empty());

  const auto* ab = record_of(result, "crashy/abort");
  ASSERT_NE(ab, nullptr);
  EXPECT_EQ(ab->outcome, "crash");
  EXPECT_NE(ab->message.find("SIGABRT"), std::string::npos) << ab->message;

  const auto* hung = record_of(result, "crashy/hang");
  ASSERT_NE(hung, nullptr);
  EXPECT_EQ(hung->outcome, "timeout");
  EXPECT_EQ(hung->term.rfind("n = ", 0), 0u) << hung->term;

  const auto* silent = record_of(result, "crashy/silent-segfault");
  ASSERT_NE(silent, nullptr);
  EXPECT_EQ(silent->outcome, "crash");
  EXPECT_NE(silent->term.find("seed"), std::string::npos) << silent->term; // how to replay

  // Streamed as they were found: four counterexamples and five property lines.
  const auto file = reports::read_results_jsonl(dir / reports::results_jsonl_name);
  EXPECT_EQ(file.unreadable_lines, 0);
  int records = 0, summaries = 0;
  for (const auto& entry : file.entries) {
    records += std::holds_alternative<reports::CounterexampleRecord>(entry);
    summaries += std::holds_alternative<reports::PropertySummary>(entry);
  }
  EXPECT_EQ(records, 4);
  EXPECT_EQ(summaries, 5);
}

TEST(Isolation, ACrashTokenReplaysTheCrash) {
  const auto registry = testing::crash_registry();
  const auto result = props::run_campaign(registry, crashy_options({"crashy/segfault"}, 40));
  ASSERT_EQ(result.counterexamples.size(), 1u);
  const auto token = props::decode_replay_token(result.counterexamples[0].replay_token);
  EXPECT_GT(token.chunk_trials, 0);
  // Replaying re-runs the chunk: it crashes again (in a child, so this test survives it).
  const auto o = props::run_in_child(
      [&](int) {
        props::replay(registry, token);
        return 0;
      },
      10, {});
  EXPECT_EQ(o.end, props::ChildOutcome::End::signalled);
  EXPECT_EQ(o.code, SIGSEGV);
}

// A trial slower than the per-trial timeout is a `timeout` record; its replay runs the chunk in
// process, without the timeout, and says how slow the slowest trial still is, so "no longer
// fails" is not read as fixed when the trial is as slow as it was.
TEST(Isolation, ATimeoutTokenReplaySaysHowSlowTheSlowestTrialIs) {
  props::Registry registry = testing::toy_registry();
  props::CalculusEntry slow;
  slow.id = "crashy";
  slow.paper = "none (timeout replay self-test)";
  slow.properties = {testing::crash_property("slow", "uses 0.3 s of CPU when n > 5", true, [] {
    const std::clock_t start = std::clock();
    while (std::clock() - start < CLOCKS_PER_SEC * 3 / 10) {
    }
  })};
  registry.add(std::move(slow));
  auto options = crashy_options({"crashy/slow"}, 10);
  options.trial_timeout_seconds = 0.1;
  const auto result = props::run_campaign(registry, options);
  ASSERT_EQ(result.counterexamples.size(), 1u);
  EXPECT_EQ(result.counterexamples[0].outcome, "timeout");
  const auto token = props::decode_replay_token(result.counterexamples[0].replay_token);
  const auto replayed = props::replay(registry, token);
  EXPECT_FALSE(replayed.reproduced);
  EXPECT_NE(replayed.message.find("the recorded chunk no longer fails"), std::string::npos)
      << replayed.message;
  const auto slowest = replayed.message.find("the slowest (trial ");
  ASSERT_NE(slowest, std::string::npos) << replayed.message;
  const double seconds = std::stod(replayed.message.substr(replayed.message.find(") in ") + 5));
  EXPECT_GE(seconds, 0.25) << replayed.message;
}

// Isolation changes where trials run, not what they find: same counts, same counterexamples.
TEST(Isolation, SameResultsAsInProcess) {
  const auto registry = testing::toy_registry();
  auto options = testing::toy_options({"below-ten", "even-discards", "throws"}, 120, 11);
  const auto plain = props::run_campaign(registry, options);
  options.isolate = true;
  const auto isolated = props::run_campaign(registry, options);
  ASSERT_EQ(plain.properties.size(), isolated.properties.size());
  for (std::size_t i = 0; i < plain.properties.size(); ++i) {
    auto a = reports::to_json(plain.properties[i]);
    auto b = reports::to_json(isolated.properties[i]);
    for (auto* j : {&a, &b}) {
      j->erase("seconds");
      j->erase("seconds_to_first_failure");
    }
    EXPECT_EQ(a, b);
  }
  ASSERT_EQ(plain.counterexamples.size(), isolated.counterexamples.size());
  for (std::size_t i = 0; i < plain.counterexamples.size(); ++i)
    EXPECT_EQ(reports::to_json(plain.counterexamples[i]),
              reports::to_json(isolated.counterexamples[i]));
}

TEST(Isolation, CliFlagsWriteCrashRecords) {
  const auto registry = testing::crash_registry();
  const auto dir = testing::scratch_path("reliability-cli-isolate");
  std::ostringstream out, err;
  const int code = cli::run({"adsem", "campaign",    "crashy",   "-p",         "segfault",
                             "-p",    "hang",        "-p",       "fine",       "-n",
                             "30",    "--seed",      "3",        "--isolate",  "--trial-timeout",
                             "0.5",   "--no-corpus", "--report", dir.string(), "--format",
                             "json"},
                            registry, cli::Io{out, err});
  EXPECT_EQ(code, 1) << out.str() << err.str();
  const auto summary = nlohmann::json::parse(std::ifstream(dir / "summary.json"));
  std::set<std::string> outcomes;
  for (const auto& r : summary.at("counterexamples"))
    outcomes.insert(r.at("outcome").get<std::string>());
  EXPECT_EQ(outcomes, (std::set<std::string>{"crash", "timeout"}));
  EXPECT_EQ(summary.at("properties").size(), 3u);
}

} // namespace
} // namespace adsem::isolation_test
