#include "syntax/simple_diff/large_stack.hpp"

#include <pthread.h>

namespace adsem::simple_diff {

namespace {

constexpr std::size_t stack_bytes = std::size_t{1} << 30;

thread_local bool on_large = false;

struct Job {
  const std::function<void()>* body;
  std::exception_ptr error;
};

void* trampoline(void* arg) {
  auto* job = static_cast<Job*>(arg);
  on_large = true;
  try {
    (*job->body)();
  } catch (...) {
    job->error = std::current_exception();
  }
  return nullptr;
}

} // namespace

void run_on_large_stack(const std::function<void()>& body) {
  if (on_large) {
    body();
    return;
  }
  Job job{&body, nullptr};
  pthread_attr_t attr;
  bool started = false;
  pthread_t thread;
  if (pthread_attr_init(&attr) == 0) {
    if (pthread_attr_setstacksize(&attr, stack_bytes) == 0)
      started = pthread_create(&thread, &attr, trampoline, &job) == 0;
    pthread_attr_destroy(&attr);
  }
  if (!started) { // no thread available: run here (the depth budgets still apply)
    body();
    return;
  }
  pthread_join(thread, nullptr);
  if (job.error) std::rethrow_exception(job.error);
}

} // namespace adsem::simple_diff
