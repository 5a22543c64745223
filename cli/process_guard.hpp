#pragma once
// The process-wide limits of the adsem executable, watched by one thread: SIGINT/SIGTERM and the
// resident-memory ceiling (--max-memory). Construct it first in main: it blocks both signals in
// the calling thread, so every thread and forked trial worker started later inherits the block
// and the signals reach only the watcher (sigtimedwait). No code runs in a signal handler.
//
// A signal ends the process with exit 130 at once, unless the running command polls the stop
// flag (accept_clean_stop: campaigns, mutants, complexity, throughput); then the first signal sets
// the flag, the command stops cleanly and writes what it has, and the process ends anyway if it has
// not within clean_stop_grace; a second signal ends it at once. Resident memory above the ceiling
// ends the process with a "resource" error (exit 4).
#include <atomic>
#include <chrono>
#include <cstddef>
#include <stop_token>
#include <thread>

namespace adsem::cli {

class ProcessGuard {
public:
  static constexpr std::chrono::seconds clean_stop_grace{5};

  ProcessGuard();
  ProcessGuard(const ProcessGuard&) = delete;
  ProcessGuard& operator=(const ProcessGuard&) = delete;
  ~ProcessGuard(); // the watcher thread is woken, stops and is joined

  const std::atomic<bool>& stop_requested() const { return stop_requested_; }
  // The running command polls stop_requested() and ends by itself (with exit 130).
  void accept_clean_stop() { clean_stop_ = true; }
  void set_memory_ceiling(std::size_t bytes) { ceiling_ = bytes; } // 0 = none
  void set_json(bool json) { json_ = json; } // how the resource error is printed

private:
  void watch(const std::stop_token& token);

  std::atomic<bool> stop_requested_{false};
  std::atomic<bool> clean_stop_{false};
  std::atomic<bool> json_{false};
  std::atomic<std::size_t> ceiling_{0};
  const bool signals_blocked_; // before the watcher starts, so that it inherits the block too
  std::jthread watcher_;       // last: it starts once the members above exist
};

} // namespace adsem::cli
