#pragma once
// The fuzz targets run every input on ONE worker thread with a 1 GiB stack. Why: the parsers'
// depth guards (10,000 levels, syntax/core/depth_guard.hpp) are sized for the 8 MiB main stack
// of a release build; ASan's frames are several times larger, so 900 nested `-(...)` already
// overflowed the main stack of the fuzzer (a false finding). And simple-diff runs each walk on a
// fresh 1 GiB thread (syntax/core/large_stack.hpp), which under ASan costs milliseconds
// per thread and capped its fuzzers at ~200 runs/s: there the loop itself runs inside
// run_on_large_stack, so the walks see they are on a large stack and run directly.
// Exceptions come back to the caller; sanitizer reports and libFuzzer's -timeout work as usual.
#include <condition_variable>
#include <cstdlib>
#include <exception>
#include <functional>
#include <mutex>

#include <pthread.h>

namespace adsem::fuzz {

// Runs a function on the current (large-stack) thread, e.g. run_on_large_stack.
using StackWrap = void (*)(const std::function<void()>&);

class StackWorker {
public:
  explicit StackWorker(StackWrap wrap) : wrap_(wrap) {
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setstacksize(&attr, std::size_t{1} << 30);
    pthread_t thread;
    if (pthread_create(&thread, &attr, &StackWorker::start, this) != 0) std::abort();
    pthread_attr_destroy(&attr);
    pthread_detach(thread);
  }

  void run(const std::function<void()>& job) {
    std::unique_lock lock(mutex_);
    job_ = &job;
    error_ = nullptr;
    pending_ = true;
    changed_.notify_all();
    changed_.wait(lock, [&] { return !pending_; });
    if (error_) std::rethrow_exception(error_);
  }

private:
  static void* start(void* self) {
    auto* worker = static_cast<StackWorker*>(self);
    if (worker->wrap_)
      worker->wrap_([worker] { worker->serve(); });
    else
      worker->serve();
    return nullptr;
  }

  void serve() {
    for (;;) {
      std::unique_lock lock(mutex_);
      changed_.wait(lock, [&] { return pending_; });
      try {
        (*job_)();
      } catch (...) {
        error_ = std::current_exception();
      }
      pending_ = false;
      changed_.notify_all();
    }
  }

  StackWrap wrap_;
  std::mutex mutex_;
  std::condition_variable changed_;
  const std::function<void()>* job_ = nullptr;
  std::exception_ptr error_;
  bool pending_ = false;
};

// The process's worker (started with the first input, never stopped).
inline void run_on_worker(const std::function<void()>& job, StackWrap wrap) {
  static auto* worker = new StackWorker(wrap);
  worker->run(job);
}

} // namespace adsem::fuzz
