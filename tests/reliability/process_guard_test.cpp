// The process guard (cli/process_guard.hpp) of a command that stops cleanly: the first signal
// sets the stop flag; a command that then does not end is ended 5 s later, and a second signal
// ends it at once, both with exit 130. Each case runs in a forked child (the guard blocks
// signals and owns the process's exit), signalled by itself.
#include <chrono>
#include <csignal>
#include <thread>

#include <unistd.h>

#include <gtest/gtest.h>

#include "cli/process_guard.hpp"
#include "crash_calculus.hpp"
#include "properties/core/isolation.hpp"

namespace adsem::process_guard_test {
namespace {

using namespace std::chrono_literals;

// A command that takes the clean stop, gets SIGINT, reports that it saw the flag, then never
// polls it again (one long step); with `second_signal` it is signalled again 200 ms later.
props::ChildOutcome run_guarded(bool second_signal, bool& saw_flag) {
  saw_flag = false;
  return props::run_in_child(
      [second_signal](int fd) {
        cli::ProcessGuard guard;
        guard.accept_clean_stop();
        ::kill(::getpid(), SIGINT);
        for (int i = 0; i < 100 && !guard.stop_requested().load(); ++i)
          std::this_thread::sleep_for(10ms);
        if (guard.stop_requested().load()) props::write_line(fd, "flag");
        if (second_signal) {
          std::this_thread::sleep_for(200ms);
          ::kill(::getpid(), SIGTERM);
        }
        testing::hang();
        return 0;
      },
      20, [&saw_flag](const std::string& line) { saw_flag = saw_flag || line == "flag"; });
}

TEST(ProcessGuard, ACleanStopThatDoesNotEndIsEndedAfterTheGrace) {
  bool saw_flag = false;
  const auto o = run_guarded(false, saw_flag);
  EXPECT_TRUE(saw_flag) << "the first signal should set the stop flag, not end the process";
  ASSERT_EQ(o.end, props::ChildOutcome::End::exited);
  EXPECT_EQ(o.code, 130);
  EXPECT_GE(o.seconds, 4.5);
  EXPECT_LT(o.seconds, 10.0);
}

TEST(ProcessGuard, ASecondSignalEndsAtOnce) {
  bool saw_flag = false;
  const auto o = run_guarded(true, saw_flag);
  EXPECT_TRUE(saw_flag);
  ASSERT_EQ(o.end, props::ChildOutcome::End::exited);
  EXPECT_EQ(o.code, 130);
  EXPECT_LT(o.seconds, 3.0);
}

} // namespace
} // namespace adsem::process_guard_test
