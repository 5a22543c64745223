#pragma once
// A user's rule file joined to a calculus's rule book (`--rules`, user_rules.hpp): the file's
// patch applied over each base book a run uses (the paper's, or a mutant's), built once per base
// and kept. An edit of an entry the base no longer has (the mutant removed it) is skipped, so
// that the mutant's removal stands.
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <variant>

namespace adsem::props {

template <class Book> class PatchedBooks {
public:
  using Patch = typename Book::Patch;
  explicit PatchedBooks(Patch patch) : patch_(std::move(patch)) {}

  // `base` with the patch's edits that still apply to it; `base` must outlive this.
  const Book& over(const Book& base) const {
    const std::lock_guard lock(mutex_);
    std::shared_ptr<const Book>& slot = books_[&base];
    if (!slot) slot = std::make_shared<const Book>(base.patched(applicable(base)));
    return *slot;
  }

  // The edits of the patch whose entry `base` still has (an added entry always applies).
  Patch applicable(const Book& base) const {
    Patch out;
    out.name = patch_.name;
    for (const auto& edit : patch_.edits) {
      const auto* replace = std::get_if<typename Patch::Replace>(&edit);
      const auto* remove = std::get_if<typename Patch::Remove>(&edit);
      const std::string* name = replace ? &replace->name : remove ? &remove->name : nullptr;
      if (name && !base.position(*name)) continue; // the mutant removed it
      out.edits.push_back(edit);
    }
    return out;
  }

private:
  Patch patch_;
  mutable std::mutex mutex_;
  mutable std::map<const Book*, std::shared_ptr<const Book>> books_; // base -> patched
};

} // namespace adsem::props
