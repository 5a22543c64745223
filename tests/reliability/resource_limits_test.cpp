// Every resource bounded: SIGINT/SIGTERM end any command with exit 130, the
// resident-memory ceiling (--max-memory) ends a command with a resource error (exit 4), a trial of
// an isolated campaign over the ceiling is a counted "resource" discard, and an exception that is
// no AdsemError is an internal error (exit 3), not an "eval" error posing as a counterexample.
// Spawned processes are watched with a deadline and a resident-memory guard of their own, so a
// regression fails the test, not the machine.
#include <chrono>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include <sys/stat.h>
#include <sys/wait.h>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "crash_calculus.hpp"
#include "properties/core/memory.hpp"
#include "support/cli_run.hpp"
#include "support/read_text.hpp"
#include "support/scratch.hpp"
#include "support/spawn_process.hpp"
#include "syntax/core/diagnostic.hpp"

namespace adsem::resource_limits_test {
namespace {

using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;

using testing::read_text;

// A fresh folder per test under the system's temporary folder.
testing::Scratch scratch(const std::string& name) {
  return testing::fresh_dir("resource-" + name);
}

struct Ended {
  bool exited = false; // on its own, with an exit status
  int code = -1;
  double seconds = 0.0;
  std::string why; // when the watch had to kill it
};

// Waits for `pid`, killing it (SIGKILL) after `limit` or once its resident memory passes `guard`.
Ended watch(pid_t pid, std::chrono::duration<double> limit,
            std::size_t guard = std::size_t{1536} << 20) {
  const auto started = Clock::now();
  Ended e;
  int status = 0;
  for (;;) {
    if (::waitpid(pid, &status, WNOHANG) == pid) break;
    if (Clock::now() - started > limit)
      e.why = "still running after the time limit";
    else if (props::resident_bytes(pid) > guard)
      e.why = "resident memory passed " + props::format_bytes(guard);
    if (!e.why.empty()) {
      ::kill(pid, SIGKILL);
      ::waitpid(pid, &status, 0);
      break;
    }
    std::this_thread::sleep_for(10ms);
  }
  e.seconds = std::chrono::duration<double>(Clock::now() - started).count();
  e.exited = e.why.empty() && WIFEXITED(status);
  e.code = e.exited ? WEXITSTATUS(status) : -1;
  if (e.why.empty() && WIFSIGNALED(status))
    e.why = "killed by signal " + std::to_string(WTERMSIG(status));
  return e;
}

class SignalEndsATermCommand : public ::testing::TestWithParam<int> {};

// `adsem eval` on a FIFO nobody writes to blocks for ever in the middle of the command: a term
// command that does not end by itself, whatever its calculus or --fuel. Before the process guard,
// the first SIGINT/SIGTERM only set a flag that term commands never read.
TEST_P(SignalEndsATermCommand, WithExit130AtTheFirstSignal) {
  const int signal = GetParam();
  const auto dir = scratch(signal == SIGINT ? "sigint" : "sigterm");
  const auto fifo = dir / "never-written";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  const auto log = dir / "log.txt";
  const pid_t pid =
      testing::spawn_logged({ADSEM_BINARY, "eval", "perturbative", fifo.string()}, log.string());
  ASSERT_GT(pid, 0);
  std::this_thread::sleep_for(500ms); // started and blocked in the read
  ASSERT_EQ(::kill(pid, signal), 0);
  const Ended e = watch(pid, 10s);
  ASSERT_TRUE(e.exited) << e.why << "\n" << read_text(log);
  EXPECT_EQ(e.code, 130) << read_text(log);
  EXPECT_LT(e.seconds, 3.0);
  EXPECT_NE(
      read_text(log).find(signal == SIGINT ? "interrupted by SIGINT" : "interrupted by SIGTERM"),
      std::string::npos)
      << read_text(log);
}

INSTANTIATE_TEST_SUITE_P(Signals, SignalEndsATermCommand, ::testing::Values(SIGINT, SIGTERM),
                         [](const auto& info) {
                           return info.param == SIGINT ? "sigint" : "sigterm";
                         });

// Manzyuk's T_x of a curried 40-argument function has 3^k summands (docs/calculi/perturbative.md):
// at the default fuel its `grad` grows by hundreds of MB a second, far past the ceiling, before
// fuel or the work cap stop it (the watch above stops it at 1.5 GiB). Sources are read only up
// to 4 MiB, so an endless file such as /dev/zero is a parse error, not a memory test.
std::string curried_last(int n) {
  std::string out;
  for (int i = 1; i <= n; ++i)
    out += "\\x" + std::to_string(i) + ":R. ";
  return out + "x" + std::to_string(n);
}

TEST(MemoryCeiling, EndsACommandWithAResourceError) {
  std::string ones = "1";
  for (int i = 1; i < 40; ++i)
    ones += ",1";
  for (const bool json : {false, true}) {
    const auto dir = scratch(json ? "ceiling-json" : "ceiling");
    const auto log = dir / "log.txt";
    std::vector<std::string> args = {ADSEM_BINARY, "grad", "perturbative", "-e",  curried_last(40),
                                     "--at",       ones,   "--max-memory", "200M"};
    if (json) args.push_back("--json");
    const pid_t pid = testing::spawn_logged(args, log.string());
    ASSERT_GT(pid, 0);
    const Ended e = watch(pid, 60s);
    const std::string text = read_text(log);
    ASSERT_TRUE(e.exited) << e.why << "\n" << text;
    EXPECT_EQ(e.code, 4) << text;
    EXPECT_NE(text.find("resource error: resident memory"), std::string::npos) << text;
    EXPECT_NE(text.find("--max-memory"), std::string::npos) << text;
    if (json) {
      EXPECT_NE(text.find(R"("kind":"resource")"), std::string::npos) << text;
    }
  }
}

TEST(MemoryCeiling, SizesAreReadWithBinaryUnits) {
  EXPECT_EQ(props::parse_memory_size("4G", "--max-memory"), std::size_t{4} << 30);
  EXPECT_EQ(props::parse_memory_size("512m", "--max-memory"), std::size_t{512} << 20);
  EXPECT_EQ(props::parse_memory_size("100KB", "--max-memory"), std::size_t{100} << 10);
  EXPECT_EQ(props::parse_memory_size("1048576", "--max-memory"), std::size_t{1} << 20);
  EXPECT_EQ(props::parse_memory_size("0", "--max-memory"), 0u);
  for (const char* bad : {"", "G", "-1G", "1.5G", "4X", "4GiB", "99999999999999999999"})
    EXPECT_THROW((void)props::parse_memory_size(bad, "--max-memory"), AdsemError) << bad;
  const auto run = testing::run_cli(testing::crash_registry(), {"calculi", "--max-memory", "lots"});
  EXPECT_EQ(run.code, 2);
  EXPECT_NE(run.err.find("--max-memory expects a size"), std::string::npos) << run.err;
}

// A trial that takes memory until something stops it (at most 1 GiB, then it waits, so that
// without a ceiling the per-trial timeout ends it rather than the machine).
void hog() {
  std::vector<std::vector<char>> blocks;
  for (int i = 0; i < 64; ++i) {
    blocks.emplace_back(std::size_t{16} << 20, char(1)); // touched: resident
    std::this_thread::sleep_for(2ms);
  }
  testing::hang();
}

props::Registry hog_registry() {
  props::CalculusEntry crashy;
  crashy.id = "crashy";
  crashy.paper = "none (memory ceiling self-test)";
  crashy.properties = {
      testing::crash_property("hog", "takes memory without bound when n > 5", true, hog)};
  props::Registry registry;
  registry.add(std::move(crashy));
  return registry;
}

// Through the CLI (in-process; the campaign isolates its trials by default): every chunk of
// 25 trials reaches an n > 5 within its first trials, whose worker the parent kills at the
// ceiling: 4 chunks, 4 resource discards, no pass or failure made of them, no counterexample.
TEST(MemoryCeiling, AnIsolatedTrialOverItIsAResourceDiscard) {
  const auto registry = hog_registry();
  const std::size_t ceiling_mib = (props::resident_bytes() >> 20) + 200;
  const auto run =
      testing::run_cli(registry, {"campaign", "crashy", "--trials", "100", "--seed", "3",
                                  "--no-corpus", "--no-config", "--trial-timeout", "20",
                                  "--max-memory", std::to_string(ceiling_mib) + "M", "--json"});
  const auto result = nlohmann::json::parse(run.out, nullptr, false);
  ASSERT_FALSE(result.is_discarded()) << run.out << run.err;
  EXPECT_TRUE(result.at("counterexamples").empty()) << run.out;
  ASSERT_EQ(result.at("properties").size(), 1u);
  const auto& hog = result.at("properties")[0];
  EXPECT_EQ(hog.at("failed"), 0);
  EXPECT_EQ(hog.at("errors"), 0);
  const int resource = hog.at("discard_reasons").value("resource", 0);
  EXPECT_EQ(resource, 4) << hog.dump();
  EXPECT_EQ(hog.at("discarded"), resource);
  EXPECT_EQ(hog.at("trials"), hog.at("passed").get<int>() + resource);
  EXPECT_NE(hog.at("status"), "failed");
  int warnings = 0; // one per killed worker, saying the rest of its chunk was skipped
  for (const auto& w : hog.at("warnings"))
    warnings += w.get<std::string>().starts_with("resource: trial");
  EXPECT_EQ(warnings, resource) << hog.at("warnings").dump();
  EXPECT_EQ(run.code, 0) << run.err;
}

// An exception that is no AdsemError is a bug of adsem: its own kind and exit code (3), never
// exit 1 (which says a counterexample or an error of the input was found).
TEST(InternalError, HasItsOwnKindAndExitCode) {
  props::Registry registry;
  props::CalculusEntry broken;
  broken.id = "broken";
  broken.paper = "none (internal error self-test)";
  broken.complexity_families = []() -> std::vector<props::ComplexityFamily> {
    throw std::logic_error("a broken invariant");
  };
  registry.add(std::move(broken));
  const auto text = testing::run_cli(registry, {"complexity", "broken"});
  EXPECT_EQ(text.code, 3);
  EXPECT_NE(text.err.find("internal error"), std::string::npos) << text.err;
  EXPECT_NE(text.err.find("a broken invariant"), std::string::npos) << text.err;
  const auto json = testing::run_cli(registry, {"complexity", "broken", "--json"});
  EXPECT_EQ(json.code, 3);
  const auto error = nlohmann::json::parse(json.out, nullptr, false);
  ASSERT_FALSE(error.is_discarded()) << json.out;
  EXPECT_EQ(error.at("error").at("kind"), "internal");
}

} // namespace
} // namespace adsem::resource_limits_test
