#include "properties/core/worker_pool.hpp"

#include "properties/core/chunk_worker.hpp"
#include "properties/core/fork_gate.hpp"

namespace adsem::props {

WorkerPool::~WorkerPool() {
  for (auto& [task, run] : running_)
    run.stop->store(true);
  const fork_gate::Waiting waiting; // the threads may be waiting to fork
  for (auto& [task, run] : running_)
    run.thread.join();
}

void WorkerPool::start(std::size_t task, PropertyPlan plan) {
  auto stop = std::make_unique<std::atomic<bool>>(stop_ && stop_->load());
  plan.stop = stop.get();
  std::thread thread([this, task, plan] {
    const fork_gate::Working working;
    VisitEvent end;
    end.task = task;
    const auto started = Clock::now();
    try {
      end.end = run_property_isolated(plan, [&](ChunkRun&& chunk) {
        VisitEvent event;
        event.task = task;
        event.chunk = std::move(chunk);
        post(std::move(event));
      });
    } catch (...) {
      end.error = std::current_exception();
    }
    end.seconds = std::chrono::duration<double>(Clock::now() - started).count();
    post(std::move(end));
  });
  running_.emplace(task, Running{std::move(stop), std::move(thread)});
}

void WorkerPool::cancel(std::size_t task) {
  if (const auto it = running_.find(task); it != running_.end()) it->second.stop->store(true);
}

void WorkerPool::post(VisitEvent event) {
  {
    const std::lock_guard lock(mutex_);
    queue_.push_back(std::move(event));
  }
  ready_.notify_one();
}

std::vector<VisitEvent> WorkerPool::wait(std::chrono::milliseconds timeout) {
  if (stop_ && stop_->load())
    for (auto& [task, run] : running_)
      run.stop->store(true);
  std::vector<VisitEvent> events;
  {
    const fork_gate::Waiting waiting;
    std::unique_lock lock(mutex_);
    ready_.wait_for(lock, timeout, [&] { return !queue_.empty(); });
    events.assign(std::make_move_iterator(queue_.begin()), std::make_move_iterator(queue_.end()));
    queue_.clear();
  }
  for (const VisitEvent& event : events)
    if (!event.chunk) {
      const auto it = running_.find(event.task);
      const fork_gate::Waiting waiting;
      it->second.thread.join();
      running_.erase(it);
    }
  return events;
}

} // namespace adsem::props
