#pragma once
// Perturbation tags and the context that hands them out (manzyuk spec §5.3: "e := fresh_tag()";
// design.md "The numeric model": a fresh runtime tag per derivative, because nesting depth depends
// on the data).
#include <atomic>
#include <cstdint>
#include <memory>
#include <string_view>

namespace adsem::model {

// A tag names one infinitesimal ε_t of the dual-number ring ℝ[ε_1, ε_2, ...]/(ε_t²).
using Tag = std::uint64_t;

// Hands out distinct tags. Atomic so that one source may serve several threads.
class TagSource {
public:
  Tag fresh() { return next_.fetch_add(1, std::memory_order_relaxed); }

private:
  std::atomic<Tag> next_{1}; // tag 0 is the single ε of PerturbationMode::untagged
};

// How the model's derivative operators use tags. `correct` is the model; the other two are the
// negative controls of manzyuk spec §5.3 that mutants and tests use.
enum class PerturbationMode {
  correct,           // a fresh tag per derivative, tag renaming for function-valued results
  untagged,          // one ε for everything: classic perturbation confusion (manzyuk L50-54)
  fresh_tag_no_swap, // fresh tags but no renaming: tagged perturbation confusion (JFP 2019, M15)
};

std::string_view to_string(PerturbationMode mode);

inline constexpr Tag untagged_epsilon = 0;

// What derivative operators need at run time: the tag source and the mode. Copies share the
// source, so closures returned by the pushforward (which outlive the call and draw fresh tags when
// applied later) stay consistent with the caller. One context per evaluation; no global state.
class DiffContext {
public:
  explicit DiffContext(PerturbationMode mode = PerturbationMode::correct)
      : mode_(mode), source_(std::make_shared<TagSource>()) {}

  // A tag distinct from every tag handed out before by this context's source (untagged mode:
  // always the same ε).
  Tag fresh_tag() const {
    return mode_ == PerturbationMode::untagged ? untagged_epsilon : source_->fresh();
  }
  PerturbationMode mode() const { return mode_; }
  // manzyuk spec §5.3: extract at function type renames e to a fresh e2 (the JFP 2019 fix).
  bool renames_tags() const { return mode_ == PerturbationMode::correct; }

private:
  PerturbationMode mode_;
  std::shared_ptr<TagSource> source_;
};

inline std::string_view to_string(PerturbationMode mode) {
  switch (mode) {
  case PerturbationMode::correct:
    return "correct";
  case PerturbationMode::untagged:
    return "untagged";
  case PerturbationMode::fresh_tag_no_swap:
    return "fresh-tag-no-swap";
  }
  return "correct";
}

} // namespace adsem::model
