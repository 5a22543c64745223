#pragma once
// Crash isolation: run a piece of work in a forked child process that streams
// newline-terminated lines back through a pipe. A child that dies by a signal (segfault, abort)
// or stays silent longer than an idle timeout (killed with SIGKILL) becomes an outcome the
// caller reports, instead of ending the calling process. POSIX only (fork, pipe, poll).
#include <atomic>
#include <cstddef>
#include <functional>
#include <string>

namespace adsem::props {

struct ChildOutcome {
  enum class End { exited, signalled, timed_out, stopped, over_memory };
  End end = End::exited;
  int code = 0; // the exit status (exited) or the signal number (signalled)
  double seconds = 0.0;
  std::size_t resident_bytes = 0; // over_memory: the child's resident memory when it was killed
  // timed_out: why. cpu: it used the timeout's CPU time without a line; stuck: silent, and then
  // no CPU used for the timeout; silent: no first line within the timeout (wall clock).
  enum class Timeout { cpu, stuck, silent };
  Timeout timeout = Timeout::cpu;
};

// Runs `work(fd)` in a forked child; the child writes lines to fd (write_line) and its return
// value becomes its exit status (an exception escaping `work` exits with status 3). The parent
// calls `on_line` for every complete line as it arrives, and kills the child when no line arrived
// for `idle_timeout_seconds` (<= 0: wait forever). The child ends with _exit: no destructors,
// atexit handlers or stdio flushes run in it, so the parent's buffered output is not duplicated.
// When `stop` is given, the parent looks at it at least every 100 ms and, once it is set (SIGINT
// or SIGTERM to the campaign), kills the child (SIGKILL) and returns End::stopped at once rather
// than waiting for the child's work to end. When `max_resident_bytes` is not 0, the parent reads
// the child's resident memory at least every 50 ms and kills it (SIGKILL) once it is above:
// End::over_memory. The child is killed too if the parent dies (PR_SET_PDEATHSIG), so no worker
// outlives an adsem that ended on a signal or at its own memory ceiling. The child closes every
// descriptor but stdio and its pipe, so several threads may each run a child at once (--jobs).
ChildOutcome run_in_child(const std::function<int(int fd)>& work, double idle_timeout_seconds,
                          const std::function<void(const std::string& line)>& on_line,
                          const std::atomic<bool>* stop = nullptr,
                          std::size_t max_resident_bytes = 0);

// Writes `line` and a newline to fd, retrying short writes; errors are ignored (the parent
// notices a missing line).
void write_line(int fd, const std::string& line);

// "SIGSEGV", "SIGABRT", ... or "signal N".
std::string signal_name(int signal);

} // namespace adsem::props
