#pragma once
// How every calculus declares its mutants (properties/<calc>/mutants.cpp, docs/mutants.md): a
// mutant is a named patch of the calculus's rule book, declared beside its bug class, description
// and expected killers; what a run under it uses (the patched book) is built once, the first time
// a run asks for it.
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "properties/core/property.hpp"

namespace adsem::props {

// What a run under one mutant uses, built from its patch the first time it is asked for and then
// kept: listing the mutants, or a run of another mutant, does not pay for patching every book
// (delta-reverse's seven patched books were a fifth of a one-trial process). Thread-safe; copies
// share the one build.
template <class Built> class BuiltOnce {
public:
  explicit BuiltOnce(std::function<Built()> build)
      : state_(std::make_shared<State>(std::move(build))) {}

  const Built& get() const {
    std::call_once(state_->once, [this] {
      state_->built.emplace(state_->build());
      state_->build = nullptr;
    });
    return *state_->built;
  }

private:
  struct State {
    explicit State(std::function<Built()> b) : build(std::move(b)) {}
    std::function<Built()> build;
    std::once_flag once;
    std::optional<Built> built;
  };
  std::shared_ptr<State> state_;
};

// Declares the mutants of one calculus: declare(name, bug, summary, killers, patch) is the mutant
// `name`, with its registry entry ("<calculus>/<name>", each killer "<calculus>/<killer>"), its
// patch named after it, and build(patch), what a run under it uses (built once, when first asked
// for). Mutant is the calculus's aggregate {MutantDef, Patch, BuiltOnce<Built>}.
template <class Mutant, class Patch, class Built> struct MutantDeclarer {
  std::string_view calculus;
  Built (*build)(const Patch&);

  Mutant operator()(std::string_view name, std::string bug, std::string summary,
                    std::vector<std::string> killers, Patch patch) const {
    const std::string prefix = std::string(calculus) + "/";
    for (std::string& killer : killers)
      killer = prefix + killer;
    patch.name = prefix + std::string(name);
    BuiltOnce<Built> built([build = build, patch] { return build(patch); });
    MutantDef def{std::string(calculus), patch.name, std::move(bug), std::move(summary),
                  std::move(killers)};
    return Mutant{std::move(def), std::move(patch), std::move(built)};
  }
};

// The registry entries of a catalogue, in its order.
template <class Mutant> std::vector<MutantDef> mutant_defs(const std::vector<Mutant>& catalogue) {
  std::vector<MutantDef> out;
  out.reserve(catalogue.size());
  for (const Mutant& m : catalogue)
    out.push_back(m.def);
  return out;
}

// The mutant of the catalogue with the full name `name`; nullptr when there is none.
template <class Mutant>
const Mutant* find_mutant(const std::vector<Mutant>& catalogue, std::string_view name) {
  for (const Mutant& m : catalogue)
    if (m.def.name == name) return &m;
  return nullptr;
}

} // namespace adsem::props
