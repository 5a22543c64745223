#pragma once
// A user's rule file joined to a calculus's rule book (`--rules`, user_rules.hpp): the file's
// patch applied over each base book a run uses (the paper's, or a mutant's), built once per base
// and kept. An edit of an entry the base no longer has (the mutant removed it) is skipped, so
// that the mutant's removal stands.
#include <functional>
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
  using BookPtr = std::shared_ptr<const Book>;
  // Edits a base adds after the patch's own (delta-reverse keeps the base's clause after the
  // user's that replaces it).
  using PerBase = std::function<void(const Book& base, Patch& out)>;

  explicit PatchedBooks(Patch patch, PerBase per_base = {})
      : patch_(std::move(patch)), per_base_(std::move(per_base)) {}

  // `base` with the patch's edits that still apply to it; `base` must outlive this.
  const Book& over(const Book& base) const { return *built(base, nullptr); }
  // The same for a base held by a shared pointer, which the kept book keeps alive.
  BookPtr over(const BookPtr& base) const { return built(*base, base); }

  const Patch& patch() const { return patch_; }

  // The edits of the patch whose entry `base` still has (an added entry always applies), then
  // the base's own (PerBase).
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
    if (per_base_) per_base_(base, out);
    return out;
  }

private:
  BookPtr built(const Book& base, BookPtr keep) const {
    const std::lock_guard lock(mutex_);
    auto& slot = books_[&base];
    if (!slot.second)
      slot = {std::move(keep), std::make_shared<const Book>(base.patched(applicable(base)))};
    return slot.second;
  }

  Patch patch_;
  PerBase per_base_;
  mutable std::mutex mutex_;
  // base -> (the base, where held by a shared pointer; the patched book)
  mutable std::map<const Book*, std::pair<BookPtr, BookPtr>> books_;
};

} // namespace adsem::props
