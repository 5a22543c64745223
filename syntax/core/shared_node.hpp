#pragma once
// Shared handles for term and type nodes whose reference counts are not synchronised.
//
// Why: std::shared_ptr counts with locked (atomic) instructions once the process has a second
// thread (glibc's __libc_single_threaded), and adsem always has one: the process guard's watcher
// (cli/process_guard.hpp); a trial worker forked from the pool inherits the flag. Copying and
// releasing term handles is a large share of a reduction's work (14% of pullback/adequacy's
// time, docs/performance.md), and the atomic form of each count is several times the plain one.
//
// Why it is safe: a term belongs to the thread that builds it. The campaign's trials run on one
// thread of a process (its main thread, or the forking thread of a worker: fork(2) keeps only
// that one); the pool's other threads only drive their workers and never hold a node
// (properties/core/worker_pool.hpp), and forks happen while no other thread runs code
// (properties/core/fork_gate.hpp). Do not hand a node to another thread.
//
// libstdc++ offers this policy as its documented extension (__shared_ptr with _S_single, "Selecting
// Lock Policy" in its manual); with another standard library the handles are std::shared_ptr.
#include <memory>
#include <utility>

namespace adsem {

#if defined(__GLIBCXX__)
template <class T> using SharedNode = std::__shared_ptr<T, __gnu_cxx::_S_single>;
template <class T> using WeakNode = std::__weak_ptr<T, __gnu_cxx::_S_single>;

template <class T, class... Args> SharedNode<T> make_shared_node(Args&&... args) {
  return std::__make_shared<T, __gnu_cxx::_S_single>(std::forward<Args>(args)...);
}
template <class T, class Alloc, class... Args>
SharedNode<T> allocate_shared_node(const Alloc& alloc, Args&&... args) {
  return std::__allocate_shared<T, __gnu_cxx::_S_single>(alloc, std::forward<Args>(args)...);
}
#else
template <class T> using SharedNode = std::shared_ptr<T>;
template <class T> using WeakNode = std::weak_ptr<T>;

template <class T, class... Args> SharedNode<T> make_shared_node(Args&&... args) {
  return std::make_shared<T>(std::forward<Args>(args)...);
}
template <class T, class Alloc, class... Args>
SharedNode<T> allocate_shared_node(const Alloc& alloc, Args&&... args) {
  return std::allocate_shared<T>(alloc, std::forward<Args>(args)...);
}
#endif

} // namespace adsem
