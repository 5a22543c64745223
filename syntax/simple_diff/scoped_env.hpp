#pragma once
// An environment with shadowing and call frames, with O(1) extension and lookup: the
// Γ[x:T] / ρ[x ↦ V] of the paper without copying. A call enters a new frame in which only the
// bindings made inside it are visible (the callee runs in {x ↦ V'}, seed 003 Fig. 2 O-call).
#include <string>
#include <unordered_map>
#include <vector>

namespace adsem::simple_diff {

template <typename V> class ScopedEnv {
public:
  ScopedEnv() = default;
  // not copyable: the push order points into this environment's own map
  ScopedEnv(const ScopedEnv&) = delete;
  ScopedEnv& operator=(const ScopedEnv&) = delete;

  void push(const std::string& x, V v) {
    std::vector<Entry>& bindings = map_[x];
    bindings.push_back(Entry{std::move(v), frame_});
    order_.push_back(&bindings);
  }
  std::size_t mark() const { return order_.size(); }
  void pop_to(std::size_t m) {
    while (order_.size() > m) {
      order_.back()->pop_back();
      order_.pop_back();
    }
  }
  // The binding visible in the current frame, or nullptr.
  const V* find(const std::string& x) const {
    auto it = map_.find(x);
    if (it == map_.end() || it->second.empty()) return nullptr;
    const Entry& e = it->second.back();
    return e.frame == frame_ ? &e.value : nullptr;
  }
  // Bound in some enclosing frame but hidden by the current one (for error messages).
  bool bound_outside(const std::string& x) const {
    auto it = map_.find(x);
    return it != map_.end() && !it->second.empty() && it->second.back().frame != frame_;
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
  struct Entry {
    V value;
    int frame;
  };
  std::unordered_map<std::string, std::vector<Entry>> map_;
  // the binding lists in the order of the pushes (a map's elements never move), so that leaving
  // a scope neither copies nor hashes a name
  std::vector<std::vector<Entry>*> order_;
  int frame_ = 0;
  int next_frame_ = 0;
};

} // namespace adsem::simple_diff
