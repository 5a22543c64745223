#pragma once
// Up to --jobs visits of properties at once, each in its own worker process (chunk_worker.hpp),
// each watched by a thread of this process. The threads only drive their worker and queue what
// it sends; everything else (statistics, results.jsonl, corpus, progress) happens on the thread
// that calls `wait`, so the campaign's state has a single writer. That thread runs code while
// the others fork (fork_gate.hpp): it is Working from the pool's construction to its end, and
// Waiting only inside `wait` and the joins; construct, use and destroy a pool on one thread.
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <exception>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

#include "properties/core/chunk_plan.hpp"
#include "properties/core/fork_gate.hpp"

namespace adsem::props {

// What a running visit reported: one finished chunk, or (no chunk) its end.
struct VisitEvent {
  std::size_t task = 0;
  std::optional<ChunkRun> chunk;
  VisitEnd end;             // with no chunk: where the visit stopped
  double seconds = 0.0;     // with no chunk: how long the visit ran
  std::exception_ptr error; // with no chunk: what the visit threw, if anything
};

class WorkerPool {
public:
  // `stop` (SIGINT/SIGTERM) stops every visit: their workers are killed at once.
  explicit WorkerPool(const std::atomic<bool>* stop) : stop_(stop) {}
  WorkerPool(const WorkerPool&) = delete;
  WorkerPool& operator=(const WorkerPool&) = delete;
  // Kills the workers still running and waits for their threads.
  ~WorkerPool();

  // Starts the visit `plan` (its stop flag is the pool's, per task) as task `task`.
  void start(std::size_t task, PropertyPlan plan);
  // Kills the worker of a running task (its later events are still delivered).
  void cancel(std::size_t task);
  std::size_t running() const { return running_.size(); }
  // The events queued so far, waiting up to `timeout` for the first one; the end event of a
  // task comes after all its chunks, and its thread is joined by then.
  std::vector<VisitEvent> wait(std::chrono::milliseconds timeout);

private:
  struct Running {
    std::unique_ptr<std::atomic<bool>> stop;
    std::thread thread;
  };
  void post(VisitEvent event);

  fork_gate::Working working_; // the calling thread, for the pool's lifetime
  const std::atomic<bool>* stop_;
  std::mutex mutex_;
  std::condition_variable ready_;
  std::deque<VisitEvent> queue_;
  std::map<std::size_t, Running> running_; // touched only by the calling thread
};

} // namespace adsem::props
