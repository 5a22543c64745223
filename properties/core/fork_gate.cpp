#include "properties/core/fork_gate.hpp"

#include <condition_variable>
#include <memory>
#include <mutex>

#include <unistd.h>

namespace adsem::props::fork_gate {
namespace {

struct Gate {
  std::mutex mutex;
  std::condition_variable changed;
  int working = 0; // threads inside a Working scope and not Waiting
  int forking = 0; // threads waiting to fork: new work waits for them
};

// One gate per process, as fork is per process. Constructed before main (no guard variable a
// fork could catch half-initialised).
Gate gate;

// This thread's nested Working scopes; 0 while it waits (or never declared any).
thread_local int depth = 0;

void enter() {
  std::unique_lock lock(gate.mutex);
  gate.changed.wait(lock, [] { return gate.forking == 0; });
  ++gate.working;
}

void leave() {
  {
    const std::lock_guard lock(gate.mutex);
    --gate.working;
  }
  gate.changed.notify_all();
}

} // namespace

Working::Working() {
  if (depth++ == 0) enter();
}

Working::~Working() {
  if (--depth == 0) leave();
}

Waiting::Waiting() : depth_(depth) {
  if (depth_ == 0) return;
  depth = 0;
  leave();
}

Waiting::~Waiting() {
  if (depth_ == 0) return;
  enter();
  depth = depth_;
}

pid_t fork_alone() {
  const Waiting waiting; // this thread's own work does not hold the fork up
  pid_t pid = 0;
  {
    std::unique_lock lock(gate.mutex);
    ++gate.forking;
    gate.changed.wait(lock, [] { return gate.working == 0; });
    // Forked while holding the gate's mutex, so that no other thread holds it in the child.
    pid = ::fork();
    if (pid == 0) {
      // The child: the other threads are gone. Their waits live on in the condition variable's
      // state, where a notify could wait for them forever, so the gate starts afresh.
      lock.release();
      std::construct_at(&gate.mutex);
      std::construct_at(&gate.changed);
      gate.forking = 0;
      gate.working = 0;
    } else {
      --gate.forking;
    }
  }
  if (pid != 0) gate.changed.notify_all();
  return pid;
}

} // namespace adsem::props::fork_gate
