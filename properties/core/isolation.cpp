#include "properties/core/isolation.hpp"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>
#include <optional>
#include <thread>

#include <fcntl.h>
#include <poll.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "properties/core/fork_gate.hpp"
#include "properties/core/memory.hpp"
#include "syntax/core/diagnostic.hpp"

namespace adsem::props {

using Clock = std::chrono::steady_clock;

void write_line(int fd, const std::string& line) {
  const std::string text = line + "\n";
  std::size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return;
    done += static_cast<std::size_t>(n);
  }
}

// The log a child shares with its parent: `filled` counts every byte the child has sent (through
// the pipe or kept here), and the bytes from the child's `written_` to `filled` are in the ring
// (positions taken modulo its size). The child stores `filled` after the bytes, so whatever the
// parent reads after the child's death is whole; the pipe and the ring together hold each byte
// once, counted by the same offsets.
struct ChildLines::Log {
  static constexpr std::size_t ring_size = std::size_t{1} << 18;
  std::atomic<std::uint64_t> filled{0};
  char ring[ring_size];
};
static_assert(std::atomic<std::uint64_t>::is_always_lock_free); // shared between processes

void ChildLines::write_all(const char* data, std::size_t size) {
  while (size > 0) {
    const ssize_t n = ::write(fd_, data, size);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return; // the parent notices a missing line
    data += n;
    size -= static_cast<std::size_t>(n);
  }
}

void ChildLines::flush() {
  const std::uint64_t filled = log_->filled.load(std::memory_order_relaxed);
  if (filled > written_) {
    const std::size_t from = written_ % Log::ring_size;
    const std::size_t size = filled - written_;
    const std::size_t first = std::min(size, Log::ring_size - from);
    write_all(log_->ring + from, first);
    write_all(log_->ring, size - first);
    written_ = filled;
  }
  last_write_ = std::chrono::steady_clock::now();
}

void ChildLines::append(std::string_view text) {
  const std::uint64_t filled = log_->filled.load(std::memory_order_relaxed);
  const std::size_t size = text.size() + 1;
  if (filled - written_ + size > Log::ring_size) {
    flush();
    if (size > Log::ring_size) { // too long to keep: written at once, then counted
      std::string whole(text);
      whole += '\n';
      write_all(whole.data(), whole.size());
      written_ += size;
      log_->filled.store(filled + size, std::memory_order_release);
      return;
    }
  }
  const std::size_t from = filled % Log::ring_size;
  const std::size_t first = std::min(text.size(), Log::ring_size - from);
  std::memcpy(log_->ring + from, text.data(), first);
  std::memcpy(log_->ring, text.data() + first, text.size() - first);
  log_->ring[(filled + text.size()) % Log::ring_size] = '\n';
  log_->filled.store(filled + size, std::memory_order_release);
}

void ChildLines::line(std::string_view text) {
  append(text);
  flush();
}

void ChildLines::soon(std::string_view text) {
  append(text);
  if (std::chrono::steady_clock::now() - last_write_ >= flush_interval) flush();
}

std::string signal_name(int signal) {
  switch (signal) {
  case SIGSEGV:
    return "SIGSEGV";
  case SIGABRT:
    return "SIGABRT";
  case SIGBUS:
    return "SIGBUS";
  case SIGFPE:
    return "SIGFPE";
  case SIGILL:
    return "SIGILL";
  case SIGKILL:
    return "SIGKILL";
  case SIGTERM:
    return "SIGTERM";
  default:
    return "signal " + std::to_string(signal);
  }
}

namespace {

// The CPU time (user + system) a child has used so far; none once it is gone.
class CpuClock {
public:
  explicit CpuClock(pid_t pid) : valid_(::clock_getcpuclockid(pid, &clock_) == 0) {}
  std::optional<double> seconds() const {
    timespec t{};
    if (!valid_ || ::clock_gettime(clock_, &t) != 0) return std::nullopt;
    return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_nsec) * 1e-9;
  }

private:
  clockid_t clock_{};
  bool valid_;
};

// The per-trial timeout counts the child's CPU time since its last line, not the wall clock: on
// a loaded machine a trial's wall time is many times its CPU time, and a wall-clock limit killed
// healthy trials (a false `timeout` counterexample: 62 s of wall time for 9.8 s of CPU at load
// 19). A child that is stuck uses no CPU at all: once it has been silent for the timeout, its CPU
// time is sampled, and CPU time that stays flat for the timeout ends it too (stalled).
class TrialClock {
public:
  TrialClock(pid_t pid, double timeout) : cpu_(pid), timeout_(timeout) {}

  void on_line(Clock::time_point now) {
    spoke_ = true;
    last_line_ = now;
    stall_since_.reset();
    // sampled at most every 20 ms: a busy child writes many lines
    if (now - last_sample_ < std::chrono::milliseconds(20)) return;
    last_sample_ = now;
    cpu_at_line_ = cpu_.seconds().value_or(cpu_at_line_);
  }

  bool spoke() const { return spoke_; }
  ChildOutcome::Timeout why() const { return why_; }

  // None when the trial is over its time; else how long the parent may wait before asking again.
  std::optional<int> wait_ms(Clock::time_point now) {
    const double silent = std::chrono::duration<double>(now - last_line_).count();
    // CPU time passes no faster than the wall clock (the child runs one thread): before the
    // child has been silent for the whole timeout, it cannot be over it.
    if (silent < timeout_) return static_cast<int>((timeout_ - silent) * 1000.0) + 1;
    // Until its first line the worker is starting (the fork's copy-on-write faults, no trial
    // yet), and the kernel accounts a new process's CPU time only at its next tick (a child
    // that has written a line may still read 0 s): the wall clock counts.
    if (!spoke_) {
      why_ = ChildOutcome::Timeout::silent;
      return std::nullopt;
    }
    const std::optional<double> cpu = cpu_.seconds();
    if (!cpu) return 100; // gone: its end of file is on the way
    // A line kept by ChildLines::soon arrives up to its flush interval late: that much more.
    constexpr double lateness = std::chrono::duration<double>(ChildLines::flush_interval).count();
    if (*cpu - cpu_at_line_ >= timeout_ + lateness) {
      why_ = ChildOutcome::Timeout::cpu;
      return std::nullopt;
    }
    if (!stall_since_ || *cpu > stall_cpu_) {
      stall_since_ = now;
      stall_cpu_ = *cpu;
    } else if (std::chrono::duration<double>(now - *stall_since_).count() >= timeout_) {
      why_ = ChildOutcome::Timeout::stuck; // no CPU used for the whole timeout
      return std::nullopt;
    }
    return 100;
  }

private:
  CpuClock cpu_;
  double timeout_;
  bool spoke_ = false;
  ChildOutcome::Timeout why_ = ChildOutcome::Timeout::cpu;
  Clock::time_point last_line_ = Clock::now();
  Clock::time_point last_sample_{};
  double cpu_at_line_ = 0.0;
  std::optional<Clock::time_point> stall_since_;
  double stall_cpu_ = 0.0;
};

} // namespace

ChildOutcome run_in_child(const std::function<int(int fd)>& work, double idle_timeout_seconds,
                          const std::function<void(const std::string& line)>& on_line,
                          const std::atomic<bool>* stop, std::size_t max_resident_bytes) {
  return run_in_child([&](ChildLines& lines) { return work(lines.fd()); }, idle_timeout_seconds,
                      on_line, stop, max_resident_bytes);
}

namespace {
// The shared log of one child, unmapped when the parent is done with it.
class SharedLog {
public:
  SharedLog()
      : memory_(::mmap(nullptr, sizeof(ChildLines::Log), PROT_READ | PROT_WRITE,
                       MAP_SHARED | MAP_ANONYMOUS, -1, 0)) {
    if (memory_ == MAP_FAILED)
      throw AdsemError(ErrorKind::io, std::string("mmap: ") + std::strerror(errno));
    log_ = ::new (memory_) ChildLines::Log;
  }
  ~SharedLog() { ::munmap(memory_, sizeof(ChildLines::Log)); }
  SharedLog(const SharedLog&) = delete;
  SharedLog& operator=(const SharedLog&) = delete;
  ChildLines::Log* get() const { return log_; }

private:
  void* memory_;
  ChildLines::Log* log_ = nullptr;
};

// The bytes [from, log.filled) the pipe did not bring, once the child is gone: what it kept in
// the ring and never wrote (empty when they are no longer all there).
std::string unwritten_tail(const ChildLines::Log& log, std::uint64_t from) {
  const std::uint64_t filled = log.filled.load(std::memory_order_acquire);
  if (filled <= from || filled - from > ChildLines::Log::ring_size) return {};
  std::string tail;
  tail.reserve(filled - from);
  for (std::uint64_t i = from; i < filled; ++i)
    tail += log.ring[i % ChildLines::Log::ring_size];
  return tail;
}
} // namespace

ChildOutcome run_in_child(const std::function<int(ChildLines& lines)>& work,
                          double idle_timeout_seconds,
                          const std::function<void(const std::string& line)>& on_line,
                          const std::atomic<bool>* stop, std::size_t max_resident_bytes) {
  const auto started = Clock::now();
  const SharedLog log;
  int fds[2];
  if (::pipe(fds) != 0)
    throw AdsemError(ErrorKind::io, std::string("pipe: ") + std::strerror(errno));
#ifdef F_SETPIPE_SZ
  // A larger pipe lets the child run ahead while the parent batches its reads (below); failure
  // (a lower system limit) only means the child blocks sooner.
  (void)::fcntl(fds[1], F_SETPIPE_SZ, 1 << 20);
#endif
  const pid_t parent = ::getpid();
  const pid_t pid = fork_gate::fork_alone();
  if (pid < 0) {
    ::close(fds[0]);
    ::close(fds[1]);
    throw AdsemError(ErrorKind::io, std::string("fork: ") + std::strerror(errno));
  }
  if (pid == 0) {
    ::close(fds[0]);
    // Keep only stdio and our own pipe: a pipe end of a sibling worker, forked by another
    // thread of a --jobs campaign, held open here would hide that sibling's death from its
    // reader (no end of file while we live).
    const auto own = static_cast<unsigned>(fds[1]);
    if (own > 3) (void)::close_range(3, own - 1, 0);
    (void)::close_range(own + 1, ~0U, 0);
    // Die with the parent (checked after the call too: the parent may have gone before it).
    if (::prctl(PR_SET_PDEATHSIG, SIGKILL) != 0 || ::getppid() != parent) ::_exit(3);
    int status = 3;
    ChildLines lines(fds[1], log.get());
    try {
      status = work(lines);
    } catch (...) {
    }
    lines.flush();
    ::close(fds[1]);
    ::_exit(status);
  }
  ::close(fds[1]);

  ChildOutcome outcome;
  std::string pending;
  std::uint64_t received = 0; // bytes read from the pipe
  char buffer[65536];
  TrialClock trial_clock(pid, idle_timeout_seconds);
  const auto take = [&](const char* bytes, std::size_t size) {
    received += size;
    pending.append(bytes, size);
    std::size_t start = 0;
    for (std::size_t nl; (nl = pending.find('\n', start)) != std::string::npos; start = nl + 1) {
      trial_clock.on_line(Clock::now());
      if (on_line) on_line(pending.substr(start, nl - start));
    }
    pending.erase(0, start);
  };
  bool killed = false;
  bool stopped = false;
  auto last_memory_check = Clock::time_point{};
  for (;;) {
    if (stop && stop->load()) {
      ::kill(pid, SIGKILL);
      stopped = true;
      break;
    }
    // Throttled: a busy child wakes this loop every few milliseconds.
    if (max_resident_bytes > 0 &&
        Clock::now() - last_memory_check >= std::chrono::milliseconds(20)) {
      last_memory_check = Clock::now();
      const std::size_t resident = resident_bytes(pid);
      if (resident > max_resident_bytes) {
        ::kill(pid, SIGKILL);
        outcome.resident_bytes = resident;
        break;
      }
    }
    int wait_ms = -1;
    if (idle_timeout_seconds > 0) {
      const std::optional<int> left = trial_clock.wait_ms(Clock::now());
      // Once the child has spoken, lines already in the pipe are read first: the parent, not the
      // child, may have been slow.
      pollfd waiting_lines{fds[0], POLLIN, 0};
      if (!left && (!trial_clock.spoke() || ::poll(&waiting_lines, 1, 0) <= 0)) {
        ::kill(pid, SIGKILL);
        killed = true;
        break;
      }
      wait_ms = left.value_or(0);
    }
    if (stop) wait_ms = wait_ms < 0 ? 100 : std::min(wait_ms, 100);
    if (max_resident_bytes > 0) wait_ms = wait_ms < 0 ? 50 : std::min(wait_ms, 50);
    pollfd p{fds[0], POLLIN, 0};
    const int ready = [&] {
      const fork_gate::Waiting waiting;
      return ::poll(&p, 1, wait_ms);
    }();
    if (ready < 0 && errno == EINTR) continue;
    if (ready <= 0) continue; // timeout: re-checked at the top
    const ssize_t n = ::read(fds[0], buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break; // EOF: the child closed its end (exited or died)
    take(buffer, static_cast<std::size_t>(n));
    // Batch the reads: a child that writes a few lines per trial would otherwise wake the parent
    // for every line, and those cross-process wake-ups cost as much as a fast trial. A short nap
    // lets lines pile up in the pipe (the child does not wait for us); the idle timeout and the
    // stop flag are checked at the top, at most this much later.
    if (static_cast<std::size_t>(n) < sizeof buffer) {
      const fork_gate::Waiting waiting;
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
  }
  int status = 0;
  {
    const fork_gate::Waiting waiting;
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
  }
  // The child is gone: what the pipe still holds (a child killed here may have written more
  // since the last read), then what it kept and never wrote. Not for a child killed before the
  // parent read a line from it: it was still starting (TrialClock), whatever it had begun.
  if (!(killed && !trial_clock.spoke())) {
    (void)::fcntl(fds[0], F_SETFL, ::fcntl(fds[0], F_GETFL) | O_NONBLOCK);
    for (;;) {
      const ssize_t n = ::read(fds[0], buffer, sizeof buffer);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) break;
      take(buffer, static_cast<std::size_t>(n));
    }
    const std::string tail = unwritten_tail(*log.get(), received);
    take(tail.data(), tail.size());
  }
  ::close(fds[0]);
  if (outcome.resident_bytes > 0) {
    outcome.end = ChildOutcome::End::over_memory;
    outcome.code = SIGKILL;
  } else if (stopped) {
    outcome.end = ChildOutcome::End::stopped;
    outcome.code = SIGKILL;
  } else if (killed) {
    outcome.end = ChildOutcome::End::timed_out;
    outcome.code = SIGKILL;
    outcome.timeout = trial_clock.why();
  } else if (WIFSIGNALED(status)) {
    outcome.end = ChildOutcome::End::signalled;
    outcome.code = WTERMSIG(status);
  } else {
    outcome.end = ChildOutcome::End::exited;
    outcome.code = WIFEXITED(status) ? WEXITSTATUS(status) : 0;
  }
  outcome.seconds = std::chrono::duration<double>(Clock::now() - started).count();
  return outcome;
}

} // namespace adsem::props
