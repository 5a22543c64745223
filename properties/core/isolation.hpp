#pragma once
// Crash isolation: run a piece of work in a forked child process that streams
// newline-terminated lines back through a pipe. A child that dies by a signal (segfault, abort)
// or stays silent longer than an idle timeout (killed with SIGKILL) becomes an outcome the
// caller reports, instead of ending the calling process. POSIX only (fork, pipe, poll).
#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

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

// What a child sends its parent (run_in_child). `line` writes a line to the pipe at once; `soon`
// keeps it in a log the child shares with the parent (a MAP_SHARED mapping made before the fork)
// and writes the log to the pipe with the next `line`, when the log is full, or once
// `flush_interval` has passed since the last write. Why: a trial worker's per-trial lines (a
// heartbeat, the input, the case) were three write(2) calls and three wake-ups of the parent per
// trial, 20-45% of the CPU of a campaign of fast trials. Nothing is lost when the child dies:
// the parent takes what the pipe did not bring from the shared log, so the lines of a trial that
// crashes or is killed still reach it, in order.
class ChildLines {
public:
  static constexpr std::chrono::milliseconds flush_interval{10};
  struct Log; // the shared mapping: a byte count and a ring of bytes

  ChildLines(int fd, Log* log) : fd_(fd), log_(log) {}
  void line(std::string_view text);
  void soon(std::string_view text);
  void flush(); // what `soon` kept, to the pipe
  int fd() const { return fd_; }

private:
  void append(std::string_view text);
  void write_all(const char* data, std::size_t size);
  int fd_;
  Log* log_;
  std::uint64_t written_ = 0; // bytes of the log written to the pipe
  std::chrono::steady_clock::time_point last_write_ = std::chrono::steady_clock::now();
};

// Runs `work(lines)` in a forked child, which sends all its lines to the parent through `lines`
// (none straight to lines.fd(): the shared log counts the pipe's bytes); as the form below
// otherwise. A child's lines may arrive up to ChildLines::flush_interval late, so the
// per-trial timeout gives that much more CPU time before it kills.
ChildOutcome run_in_child(const std::function<int(ChildLines& lines)>& work,
                          double idle_timeout_seconds,
                          const std::function<void(const std::string& line)>& on_line,
                          const std::atomic<bool>* stop = nullptr,
                          std::size_t max_resident_bytes = 0);

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
