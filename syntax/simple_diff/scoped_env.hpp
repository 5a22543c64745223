#pragma once
// An environment with shadowing and call frames, with O(1) extension and lookup: the
// Γ[x:T] / ρ[x ↦ V] of the paper without copying. A call enters a new frame in which only the
// bindings made inside it are visible (the callee runs in {x ↦ V'}, seed 003 Fig. 2 O-call).
// The bindings are one stack; each name's id (NameIndex) leads to its innermost binding, and
// each binding to the one of the same name it shadows.
#include <cstdint>
#include <string>
#include <vector>

#include "syntax/simple_diff/name_index.hpp"

namespace adsem::simple_diff {

template <typename V> class ScopedEnv {
public:
  ScopedEnv() = default;
  ScopedEnv(const ScopedEnv&) = delete;
  ScopedEnv& operator=(const ScopedEnv&) = delete;

  void push(const std::string& x, V v) {
    // Room for a typical run's bindings at once (as the index makes room for its names).
    if (bindings_.capacity() == 0) {
      bindings_.reserve(NameIndex::first_names);
      innermost_.reserve(NameIndex::first_names);
    }
    const std::uint32_t id = ids_.insert(x);
    if (id == innermost_.size()) innermost_.push_back(none);
    bindings_.push_back(Binding{std::move(v), frame_, id, innermost_[id]});
    innermost_[id] = static_cast<std::uint32_t>(bindings_.size() - 1);
  }
  std::size_t mark() const { return bindings_.size(); }
  void pop_to(std::size_t m) {
    while (bindings_.size() > m) {
      const Binding& b = bindings_.back();
      innermost_[b.id] = b.shadowed;
      bindings_.pop_back();
    }
  }
  // The binding visible in the current frame, or nullptr. Valid until the next push.
  const V* find(const std::string& x) const {
    const Binding* b = innermost(x);
    return b && b->frame == frame_ ? &b->value : nullptr;
  }
  // Bound in some enclosing frame but hidden by the current one (for error messages).
  bool bound_outside(const std::string& x) const {
    const Binding* b = innermost(x);
    return b && b->frame != frame_;
  }
  int enter_frame() {
    const int saved = frame_;
    frame_ = ++next_frame_;
    return saved;
  }
  void leave_frame(int saved) { frame_ = saved; }

  // Restores the environment when leaving a scope (also on exceptions).
  class Scope {
  public:
    explicit Scope(ScopedEnv& env) : env_(env), mark_(env.mark()) {}
    ~Scope() { env_.pop_to(mark_); }
    Scope(const Scope&) = delete;
    Scope& operator=(const Scope&) = delete;

  private:
    ScopedEnv& env_;
    std::size_t mark_;
  };
  // A call frame: nothing outside it is visible until it ends.
  class Frame {
  public:
    explicit Frame(ScopedEnv& env) : env_(env), mark_(env.mark()), saved_(env.enter_frame()) {}
    ~Frame() {
      env_.pop_to(mark_);
      env_.leave_frame(saved_);
    }
    Frame(const Frame&) = delete;
    Frame& operator=(const Frame&) = delete;

  private:
    ScopedEnv& env_;
    std::size_t mark_;
    int saved_;
  };

private:
  static constexpr std::uint32_t none = NameIndex::none;
  struct Binding {
    V value;
    int frame;
    std::uint32_t id;       // the name's id
    std::uint32_t shadowed; // the binding of the same name this one hides, or none
  };
  const Binding* innermost(const std::string& x) const {
    const std::uint32_t id = ids_.find(x);
    if (id == none || innermost_[id] == none) return nullptr;
    return &bindings_[innermost_[id]];
  }

  NameIndex ids_;                        // every name ever bound here
  std::vector<std::uint32_t> innermost_; // by id: the innermost binding, or none
  std::vector<Binding> bindings_;        // in the order of the pushes; leaving a scope pops them
  int frame_ = 0;
  int next_frame_ = 0;
};

} // namespace adsem::simple_diff
