#pragma once
// Forking a process that has threads (isolation.hpp). Only the forking thread lives on in the
// child: had another thread of ours been initialising a function-local static, or holding any
// lock, at that moment, the child would wait for it forever. (Seen: a --jobs worker stuck in
// __cxa_guard_acquire on adsem::primitives(), which another thread was initialising when it
// forked.) So a fork waits until no other thread of the gate runs code:
//
//   - a thread that runs code while others may fork declares it with a `Working` scope (a worker
//     thread for its whole life; the thread that drives the workers for as long as they run);
//   - inside it, the thread opens the gate with a `Waiting` scope while it only blocks (poll, a
//     sleep, a condition variable, a join);
//   - `fork_alone()` forks once every other Working thread is Waiting; new work waits for a
//     pending fork, so forks are not starved.
//
// A thread that never declares Working is not waited for, so one thread alone (a campaign with
// --jobs 1) forks at once. Forks are short: the gate holds others up for a few milliseconds.
#include <sys/types.h>

namespace adsem::props::fork_gate {

class Working {
public:
  Working();
  ~Working();
  Working(const Working&) = delete;
  Working& operator=(const Working&) = delete;
};

class Waiting {
public:
  Waiting();
  ~Waiting();
  Waiting(const Waiting&) = delete;
  Waiting& operator=(const Waiting&) = delete;

private:
  int depth_; // the Working scopes this thread had when it began to wait
};

// fork(2) while no other thread of the gate runs code; as fork: the child's pid, 0 in the child,
// -1 with errno on failure.
pid_t fork_alone();

} // namespace adsem::props::fork_gate
