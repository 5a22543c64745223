#include "syntax/core/large_stack.hpp"

#include <pthread.h>
#include <sys/mman.h>
#include <ucontext.h>

// AddressSanitizer does not support switching stacks with swapcontext (its shadow of the caller's
// stack reports false stack-use-after-scope errors: the fuzz build found it on every simple-diff
// input). Under ASan the walk therefore runs on a fresh thread with a large stack, as before the
// swapcontext speed-up; release builds keep the fast path.
#if defined(__SANITIZE_ADDRESS__)
#define ADSEM_LARGE_STACK_BY_THREAD 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define ADSEM_LARGE_STACK_BY_THREAD 1
#endif
#endif

namespace adsem {

namespace {

constexpr std::size_t stack_bytes = std::size_t{1} << 30;

// Why swapcontext and not a thread: a new pthread with a fresh 1 GiB stack per call paid a thread
// creation, an mmap/munmap of the stack and two scheduler hand-offs; on a loaded machine a trial
// spent 97% of its wall clock waiting (perf stat: 0.03 CPUs utilised). Now each thread keeps one
// large stack (reserved once, pages touched only as used) and switches to it in user space with
// swapcontext: same depth budget, no thread.
thread_local bool on_large = false;

struct Job {
  const std::function<void()>* body = nullptr;
  std::exception_ptr error;
  ucontext_t caller{};
};
thread_local Job* current_job = nullptr;

void trampoline() {
  Job* job = current_job;
  try {
    (*job->body)();
  } catch (...) {
    job->error = std::current_exception();
  }
  // returning resumes uc_link (the caller's context)
}

// This thread's large stack, reserved on first use; nullptr when the reservation failed.
void* thread_stack() {
  struct Stack {
    void* base = nullptr;
    Stack() {
      void* p = mmap(nullptr, stack_bytes, PROT_READ | PROT_WRITE,
                     MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
      base = p == MAP_FAILED ? nullptr : p;
    }
    ~Stack() {
      if (base) munmap(base, stack_bytes);
    }
  };
  thread_local Stack stack;
  return stack.base;
}

#ifdef ADSEM_LARGE_STACK_BY_THREAD
void* thread_trampoline(void* arg) {
  auto* job = static_cast<Job*>(arg);
  on_large = true;
  try {
    (*job->body)();
  } catch (...) {
    job->error = std::current_exception();
  }
  return nullptr;
}

// The walk on a new thread with a stack of stack_bytes; false when no thread could be started.
bool run_on_thread(Job& job) {
  pthread_attr_t attr;
  bool started = false;
  pthread_t thread;
  if (pthread_attr_init(&attr) == 0) {
    if (pthread_attr_setstacksize(&attr, stack_bytes) == 0)
      started = pthread_create(&thread, &attr, thread_trampoline, &job) == 0;
    pthread_attr_destroy(&attr);
  }
  if (started) pthread_join(thread, nullptr);
  return started;
}
#endif

} // namespace

bool running_on_large_stack() {
  return on_large;
}

void run_on_large_stack(const std::function<void()>& body) {
#ifdef ADSEM_LARGE_STACK_BY_THREAD
  if (on_large) {
    body();
    return;
  }
  Job by_thread;
  by_thread.body = &body;
  if (!run_on_thread(by_thread)) { // no thread available: run here (the depth budgets apply)
    body();
    return;
  }
  if (by_thread.error) std::rethrow_exception(by_thread.error);
  return;
#endif
  void* stack = on_large ? nullptr : thread_stack();
  if (!stack) { // already on the large stack, or no stack available: run here (the depth
    body();     // budgets still apply)
    return;
  }
  Job job;
  job.body = &body;
  ucontext_t callee{};
  if (getcontext(&callee) != 0) {
    body();
    return;
  }
  callee.uc_stack.ss_sp = stack;
  callee.uc_stack.ss_size = stack_bytes;
  callee.uc_link = &job.caller;
  makecontext(&callee, trampoline, 0);
  Job* const outer = current_job;
  current_job = &job;
  on_large = true;
  const int switched = swapcontext(&job.caller, &callee);
  on_large = false;
  current_job = outer;
  if (switched != 0) {
    body();
    return;
  }
  if (job.error) std::rethrow_exception(job.error);
}

} // namespace adsem
