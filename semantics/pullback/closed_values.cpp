#include "semantics/pullback/closed_values.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <unordered_map>
#include <utility>
#include <vector>

namespace adsem::pullback {

namespace {

using V = ClosedValues::V;

// The words of a key being built. [perf] Inline up to 64 and left uninitialised (the arguments of
// these terms are a few reals in nested pairs, often more than 16 words): a question answered
// from the table allocates nothing and clears no array; a kept key is copied into a vector.
class Words {
public:
  void push_back(std::uint64_t w) {
    if (size_ < inline_words) {
      inline_[size_++] = w;
      return;
    }
    if (size_ == inline_words) spilled_.assign(inline_.begin(), inline_.end());
    spilled_.push_back(w);
    ++size_;
  }
  std::span<const std::uint64_t> words() const {
    if (size_ <= inline_words) return {inline_.data(), size_};
    return spilled_;
  }

private:
  static constexpr std::size_t inline_words = 64;
  std::array<std::uint64_t, inline_words> inline_; // only the first size_ are ever read
  std::vector<std::uint64_t> spilled_;
  std::size_t size_ = 0;
};
using PointKey = std::vector<std::uint64_t>;

// A ground argument as words: its shape (a kind word, a tuple's length) and its reals' bits (0
// and -0 differ, as they may in a result). False when it carries a perturbation or holds anything
// but reals and tuples.

bool append_real(const model::Dual<double>& x, Words& key) {
  if (!x.is_constant()) return false;
  key.push_back(1);
  key.push_back(std::bit_cast<std::uint64_t>(x.primal()));
  return true;
}

bool append_key(const V& v, Words& key) {
  switch (v.kind()) {
  case model::ValueKind::real:
    return append_real(v.real(), key);
  case model::ValueKind::tuple: {
    const std::span<const V> items = v.items();
    key.push_back(2);
    key.push_back(items.size());
    // [perf] a real item without a call of its own: the arguments are mostly reals in pairs
    for (const V& item : items)
      if (!(item.is_real() ? append_real(item.real(), key) : append_key(item, key))) return false;
    return true;
  }
  default:
    return false;
  }
}

struct PointKeyHash {
  using is_transparent = void;
  std::size_t operator()(std::span<const std::uint64_t> key) const {
    std::uint64_t h = 0xcbf29ce484222325ULL; // FNV-1a over the words
    for (const std::uint64_t w : key)
      h = (h ^ w) * 0x100000001b3ULL;
    return static_cast<std::size_t>(h ^ (h >> 29));
  }
  std::size_t operator()(const PointKey& key) const {
    return (*this)(std::span<const std::uint64_t>(key));
  }
};

struct PointKeyEqual {
  using is_transparent = void;
  bool operator()(std::span<const std::uint64_t> a, std::span<const std::uint64_t> b) const {
    return std::equal(a.begin(), a.end(), b.begin(), b.end());
  }
};

using ResultsByPoint = std::unordered_map<PointKey, V, PointKeyHash, PointKeyEqual>;

// Whether a value holds a perturbed real outside its closures (a leaked tag names a tag of the
// source that drew it: such a value is not kept).
bool carries_tags(const V& v) {
  switch (v.kind()) {
  case model::ValueKind::real:
    return !v.real().is_constant();
  case model::ValueKind::tuple:
    return std::any_of(v.items().begin(), v.items().end(), carries_tags);
  case model::ValueKind::injection:
    return carries_tags(*v.injection().payload);
  default:
    return false;
  }
}

} // namespace

bool ClosedValues::may_keep(const Term& t) {
  switch (t->kind) {
  case Kind::var:
  case Kind::num:
  case Kind::zero:
    return false;
  default: {
    const NodeFacts& f = facts(t);
    return !f.many && f.free.empty();
  }
  }
}

V ClosedValues::keep(const Term& t, V v) {
  if (carries_tags(v)) return v;
  if (v.is_function()) v = remembering(std::move(v));
  values_.insert(t, v);
  return v;
}

V ClosedValues::remembering(V f) {
  // The table is what the closure has been asked; the closure itself stays immutable.
  return V::function([f = std::move(f), results = std::make_shared<ResultsByPoint>()](const V& a) {
    Words key;
    if (!append_key(a, key)) return f(a);
    const std::span<const std::uint64_t> words = key.words();
    if (const auto it = results->find(words); it != results->end()) return it->second;
    V out = f(a);
    if (carries_tags(out)) return out;
    if (out.is_function()) out = remembering(std::move(out));
    results->emplace(PointKey(words.begin(), words.end()), out);
    return out;
  });
}

} // namespace adsem::pullback
