// Every resource bounded: inputs whose work is not bounded by the paper's step count
// (a T_x of exponential size, a copied value of rule (9)), deep or flat chains that a recursive
// walk used to follow onto a stack overflow, and walks that were quadratic in the input. Each runs
// the adsem executable in a child with a wall-clock limit and an address-space cap, so a
// regression fails the test instead of taking the machine.
#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <fcntl.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include "support/scratch.hpp"

namespace adsem::resource_inputs_test {
namespace {

using Clock = std::chrono::steady_clock;

struct Outcome {
  bool finished = false; // false: killed at the time limit
  int exit_code = -1;    // when it exited
  int signal = 0;        // when a signal ended it
  double seconds = 0.0;
  long max_rss_kb = 0;
  std::string output; // stdout and stderr
};

testing::Scratch write_file(const std::string& name, const std::string& text) {
  auto path = testing::scratch_path("resource-inputs-" + name);
  std::ofstream(path.path()) << text;
  return path;
}

// adsem ARGS in a child capped at `address_space_mb`; killed after `limit_seconds`.
Outcome run_adsem(std::vector<std::string> args, double limit_seconds,
                  long address_space_mb = 4000) {
  args.insert(args.begin(), ADSEM_BINARY);
  const auto log_file = testing::scratch_path("resource-inputs-log.txt");
  const std::string log = log_file.string();
  const auto started = Clock::now();
  const pid_t pid = ::fork();
  if (pid == 0) {
    const rlimit cap{static_cast<rlim_t>(address_space_mb) << 20,
                     static_cast<rlim_t>(address_space_mb) << 20};
    ::setrlimit(RLIMIT_AS, &cap);
    const int fd = ::open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    ::dup2(fd, 1);
    ::dup2(fd, 2);
    std::vector<char*> argv;
    for (auto& a : args)
      argv.push_back(a.data());
    argv.push_back(nullptr);
    ::execv(argv[0], argv.data());
    ::_exit(127);
  }
  Outcome out;
  int status = 0;
  rusage usage{};
  for (;;) {
    const pid_t done = ::wait4(pid, &status, WNOHANG, &usage);
    if (done == pid) {
      out.finished = true;
      break;
    }
    if (std::chrono::duration<double>(Clock::now() - started).count() > limit_seconds) {
      ::kill(pid, SIGKILL);
      ::wait4(pid, &status, 0, &usage);
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  out.seconds = std::chrono::duration<double>(Clock::now() - started).count();
  out.max_rss_kb = usage.ru_maxrss;
  if (out.finished && WIFEXITED(status)) out.exit_code = WEXITSTATUS(status);
  if (out.finished && WIFSIGNALED(status)) out.signal = WTERMSIG(status);
  std::ifstream in(log);
  std::ostringstream text;
  text << in.rdbuf();
  out.output = text.str();
  return out;
}

std::string repeat_joined(const std::string& item, const std::string& separator, int n) {
  std::string out;
  for (int i = 0; i < n; ++i)
    out += (i ? separator : "") + item;
  return out;
}

// \x1:R. \x2:R. ... \xn:R. xn and the point 1,...,1.
std::string curried_last(int n) {
  std::string out;
  for (int i = 1; i <= n; ++i)
    out += "\\x" + std::to_string(i) + ":R. ";
  return out + "x" + std::to_string(n);
}

// A tower of n `twice` at growing types applied to (\z. z + 1) and 0: 2^2^...^2 applications.
std::string twice_tower(int n) {
  std::string type = "R";
  std::string out;
  for (int k = 1; k <= n; ++k) {
    out += "let t" + std::to_string(k) + " = \\f:!((" + type + ") -> " + type + "). \\y:!" + type +
           ". f (f y) in\n";
    type = "(" + type + ") -> " + type;
  }
  for (int k = n; k >= 1; --k)
    out += "t" + std::to_string(k) + " ";
  return out + "(\\z:!R. z + 1) 0\n";
}

// Manzyuk's T_x of the curried form is exponential in the number of arguments (3^k summands,
// docs/calculi/perturbative.md); building it counts against fuel now. Before: --fuel 1000 at 40
// arguments ran to 23.7 GB.
TEST(ResourceInputs, PerturbativeCurriedGradStopsOnFuel) {
  const auto file = write_file("curried40.pt", curried_last(40));
  const Outcome o = run_adsem({"grad", "perturbative", file.string(), "--fuel", "1000", "--at",
                               repeat_joined("1", ",", 40)},
                              20.0);
  ASSERT_TRUE(o.finished) << "still running after " << o.seconds << " s";
  EXPECT_EQ(o.exit_code, 1) << o.output;
  EXPECT_NE(o.output.find("fuel error"), std::string::npos) << o.output;
  EXPECT_LT(o.max_rss_kb, 300'000) << o.output;
}

// 14,000 summands used to overflow the stack in the renaming before the type checker
// (rename_walk <- make_binders_unique <- elaborate): now the walks run on a large stack and past
// the guard of 50,000 levels it is the checker's located depth error.
TEST(ResourceInputs, LinearNegationFlatSumIsALocatedTypeError) {
  for (const int n : {60'000, 100'000}) {
    const auto file = write_file("sum.lam", repeat_joined("1", " + ", n));
    const Outcome o = run_adsem({"type", "linear-negation", file.string()}, 20.0);
    ASSERT_TRUE(o.finished) << n;
    EXPECT_EQ(o.signal, 0) << n << ": killed by signal " << o.signal;
    EXPECT_EQ(o.exit_code, 1) << n << ": " << o.output;
    EXPECT_NE(o.output.find("type error: term nested deeper than 50000 levels"), std::string::npos)
        << o.output;
  }
}

// A chain below the limit still types (the check only rejects what the checker rejects).
TEST(ResourceInputs, LinearNegationLongSumBelowTheLimitTypes) {
  const auto file = write_file("sum49000.lam", repeat_joined("1", " + ", 49'000));
  const Outcome o = run_adsem({"type", "linear-negation", file.string()}, 20.0);
  ASSERT_TRUE(o.finished);
  EXPECT_EQ(o.exit_code, 0) << o.output;
  EXPECT_NE(o.output.find("R"), std::string::npos) << o.output;
}

// Rule (9) counts one step however large the value it copies; the copies count against fuel now.
// Before: --fuel 600 on a 5-level tower ran past 30 s and grew to GBs.
TEST(ResourceInputs, LinearNegationTwiceTowerStopsOnFuel) {
  const auto file = write_file("tower5.lam", twice_tower(5));
  const Outcome o = run_adsem({"eval", "linear-negation", file.string(), "--fuel", "600"}, 20.0);
  ASSERT_TRUE(o.finished) << "still running after " << o.seconds << " s";
  EXPECT_EQ(o.exit_code, 1) << o.output;
  EXPECT_NE(o.output.find("fuel error"), std::string::npos) << o.output;
  EXPECT_LT(o.max_rss_kb, 300'000) << o.output;
}

// Zero annotation asked for the type of every subterm afresh and rebuilt it per level: 9,000
// nested λs took 25 s and 3.2 GB. Now linear.
TEST(ResourceInputs, PullbackDeepLambdaTypesInLinearMemory) {
  std::string text;
  for (int i = 0; i < 9'000; ++i)
    text += "\\x" + std::to_string(i) + ":R. ";
  const auto file = write_file("nest.pb", text + "x0");
  const Outcome o = run_adsem({"type", "pullback", file.string()}, 20.0);
  ASSERT_TRUE(o.finished) << "still running after " << o.seconds << " s";
  EXPECT_EQ(o.exit_code, 0) << o.output;
  EXPECT_LT(o.max_rss_kb, 300'000) << o.output;
  EXPECT_LT(o.seconds, 10.0);
}

// (N1) merges two numerals per step; refocusing searched and rebuilt the whole sum after each:
// quadratic (16k summands 2 s, 1M past 60 s). The same steps are now counted in one pass.
TEST(ResourceInputs, PullbackFlatSumEvaluatesInLinearTime) {
  const int n = 300'000;
  const auto file = write_file("sum.pb", repeat_joined("1", " + ", n));
  const Outcome o = run_adsem({"eval", "pullback", file.string(), "--json"}, 20.0);
  ASSERT_TRUE(o.finished) << "still running after " << o.seconds << " s";
  EXPECT_EQ(o.exit_code, 0) << o.output;
  EXPECT_NE(o.output.find("300000"), std::string::npos) << o.output;
  EXPECT_NE(o.output.find("\"steps\": 299999"), std::string::npos) << o.output;
}

} // namespace
} // namespace adsem::resource_inputs_test
