#include "properties/core/worker_map.hpp"

#include <algorithm>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

#include "properties/core/fork_gate.hpp"
#include "properties/core/isolation.hpp"

namespace adsem::props {

void map_in_workers(std::size_t count, int jobs,
                    const std::function<std::string(std::size_t)>& work,
                    const std::function<void(std::size_t, std::optional<std::string>)>& on_result,
                    const std::atomic<bool>* stop, std::size_t max_resident_bytes) {
  const auto stopped = [stop] { return stop && stop->load(); };
  std::mutex mutex;
  std::condition_variable ready;
  std::vector<std::optional<std::string>> lines(count);
  std::vector<bool> done(count, false);
  std::atomic<std::size_t> next{0};
  std::exception_ptr failure;
  const auto drive = [&] {
    const fork_gate::Working working;
    for (std::size_t i; !stopped() && (i = next++) < count;) {
      std::optional<std::string> line;
      try {
        const ChildOutcome outcome = run_in_child(
            [&](int fd) {
              write_line(fd, work(i));
              return 0;
            },
            0.0, [&](const std::string& text) { line = text; }, stop, max_resident_bytes);
        if (outcome.end != ChildOutcome::End::exited || outcome.code != 0) line.reset();
      } catch (...) {
        const std::lock_guard lock(mutex);
        if (!failure) failure = std::current_exception();
      }
      {
        const std::lock_guard lock(mutex);
        lines[i] = std::move(line);
        done[i] = true;
      }
      ready.notify_one();
    }
    ready.notify_one();
  };
  // This thread runs on_result while the drivers fork (fork_gate.hpp).
  const fork_gate::Working working;
  const auto workers = static_cast<std::size_t>(std::max(1, jobs));
  std::vector<std::thread> threads;
  for (std::size_t t = 0; t < std::min(workers, count); ++t)
    threads.emplace_back(drive);
  for (std::size_t i = 0; i < count;) {
    std::optional<std::string> line;
    {
      const fork_gate::Waiting waiting;
      std::unique_lock lock(mutex);
      ready.wait_for(lock, std::chrono::milliseconds(100), [&] { return done[i] || failure; });
      if (failure) break;
      if (!done[i]) {
        if (stopped() && next.load() <= i) break; // never started: not reported
        continue;
      }
      line = std::move(lines[i]);
    }
    on_result(i++, std::move(line));
  }
  {
    const fork_gate::Waiting waiting;
    for (std::thread& thread : threads)
      thread.join();
  }
  if (failure) std::rethrow_exception(failure);
}

} // namespace adsem::props
