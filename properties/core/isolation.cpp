#include "properties/core/isolation.hpp"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>

#include <thread>

#include <fcntl.h>
#include <poll.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "properties/core/memory.hpp"
#include "syntax/core/diagnostic.hpp"

namespace adsem::props {

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

ChildOutcome run_in_child(const std::function<int(int fd)>& work, double idle_timeout_seconds,
                          const std::function<void(const std::string& line)>& on_line,
                          const std::atomic<bool>* stop, std::size_t max_resident_bytes) {
  using Clock = std::chrono::steady_clock;
  const auto started = Clock::now();
  int fds[2];
  if (::pipe(fds) != 0)
    throw AdsemError(ErrorKind::io, std::string("pipe: ") + std::strerror(errno));
#ifdef F_SETPIPE_SZ
  // A larger pipe lets the child run ahead while the parent batches its reads (below); failure
  // (a lower system limit) only means the child blocks sooner.
  (void)::fcntl(fds[1], F_SETPIPE_SZ, 1 << 20);
#endif
  const pid_t parent = ::getpid();
  const pid_t pid = ::fork();
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
    try {
      status = work(fds[1]);
    } catch (...) {
    }
    ::close(fds[1]);
    ::_exit(status);
  }
  ::close(fds[1]);

  ChildOutcome outcome;
  std::string pending;
  char buffer[65536];
  auto last_line = Clock::now();
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
      const double idle = std::chrono::duration<double>(Clock::now() - last_line).count();
      const double left = idle_timeout_seconds - idle;
      if (left <= 0) {
        ::kill(pid, SIGKILL);
        killed = true;
        break;
      }
      wait_ms = static_cast<int>(left * 1000.0) + 1;
    }
    if (stop) wait_ms = wait_ms < 0 ? 100 : std::min(wait_ms, 100);
    if (max_resident_bytes > 0) wait_ms = wait_ms < 0 ? 50 : std::min(wait_ms, 50);
    pollfd p{fds[0], POLLIN, 0};
    const int ready = ::poll(&p, 1, wait_ms);
    if (ready < 0 && errno == EINTR) continue;
    if (ready <= 0) continue; // timeout: re-checked at the top
    const ssize_t n = ::read(fds[0], buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break; // EOF: the child closed its end (exited or died)
    pending.append(buffer, static_cast<std::size_t>(n));
    std::size_t start = 0;
    for (std::size_t nl; (nl = pending.find('\n', start)) != std::string::npos; start = nl + 1) {
      last_line = Clock::now();
      if (on_line) on_line(pending.substr(start, nl - start));
    }
    pending.erase(0, start);
    // Batch the reads: a child that writes a few lines per trial would otherwise wake the parent
    // for every line, and those cross-process wake-ups cost as much as a fast trial. A short nap
    // lets lines pile up in the pipe (the child does not wait for us); the idle timeout and the
    // stop flag are checked at the top, at most this much later.
    if (static_cast<std::size_t>(n) < sizeof buffer)
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  ::close(fds[0]);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (outcome.resident_bytes > 0) {
    outcome.end = ChildOutcome::End::over_memory;
    outcome.code = SIGKILL;
  } else if (stopped) {
    outcome.end = ChildOutcome::End::stopped;
    outcome.code = SIGKILL;
  } else if (killed) {
    outcome.end = ChildOutcome::End::timed_out;
    outcome.code = SIGKILL;
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
