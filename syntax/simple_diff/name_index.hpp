#pragma once
// Dense ids for names: the n-th distinct name inserted gets id n - 1. An open-addressing table of
// ids over one string holding every name's characters, so that a name costs no allocation of its
// own and a lookup touches three arrays. The environments of a run hold one
// fresh name per binding of a trace (R-fast's A-normal form binds one per redex, spec §9 P-1(b)),
// so on a wide term they hold thousands: a node-based hash map per name made the derivative's
// time per binding grow with their number (docs/performance.md, "What is still open").
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace adsem::simple_diff {

class NameIndex {
public:
  static constexpr std::uint32_t none = UINT32_MAX;
  // Room made at the first insert. A machine's index starts empty and most runs bind a few
  // dozen names, so growing from a small table rehashed and moved its names several times a run.
  static constexpr std::size_t first_names = 32;

  // The id of x, or `none`.
  std::uint32_t find(std::string_view x) const {
    if (slots_.empty()) return none;
    return slots_[probe(x, hash(x))].id;
  }
  // The id of x, inserting it when new (its id is then size() - 1).
  std::uint32_t insert(std::string_view x) {
    if (2 * (names_.size() + 1) > slots_.size()) grow();
    const std::uint64_t h = hash(x);
    Slot& slot = slots_[probe(x, h)];
    if (slot.id == none) {
      slot = Slot{static_cast<std::uint32_t>(names_.size()), tag(h)};
      names_.push_back(
          Name{static_cast<std::uint32_t>(text_.size()), static_cast<std::uint32_t>(x.size()), h});
      text_.append(x);
    }
    return slot.id;
  }
  std::size_t size() const { return names_.size(); }
  std::string_view name(std::uint32_t id) const {
    return std::string_view(text_).substr(names_[id].offset, names_[id].length);
  }

private:
  // A name's characters sit in text_, all names one after another: no string per name to build,
  // and none to move when names_ grows (moving them was a copy each).
  struct Name {
    std::uint32_t offset;
    std::uint32_t length;
    std::uint64_t hash;
  };
  // An empty slot has id `none`; the tag (the hash's high half) spares reading the names of
  // the other ids on the probe path.
  struct Slot {
    std::uint32_t id = none;
    std::uint32_t tag = 0;
  };
  // FNV-1a, inline: the names are short (x, y_12, t37), and the library's hash was a call of its
  // own per lookup. Only the probe order depends on it; the ids do not.
  static std::uint64_t hash(std::string_view x) {
    std::uint64_t h = 14695981039346656037ull;
    for (const char c : x)
      h = (h ^ static_cast<unsigned char>(c)) * 1099511628211ull;
    return h;
  }
  static std::uint32_t tag(std::uint64_t h) { return static_cast<std::uint32_t>(h >> 32); }
  bool same(const Name& name, std::string_view x) const {
    if (name.length != x.size()) return false;
    const char* text = text_.data() + name.offset;
    for (std::size_t i = 0; i < x.size(); ++i)
      if (text[i] != x[i]) return false;
    return true;
  }

  // The slot holding x, or the empty slot where it belongs (linear probing; never full).
  std::size_t probe(std::string_view x, std::uint64_t h) const {
    const std::size_t mask = slots_.size() - 1;
    for (std::size_t i = h & mask;; i = (i + 1) & mask) {
      const Slot slot = slots_[i];
      if (slot.id == none) return i;
      if (slot.tag == tag(h) && same(names_[slot.id], x)) return i;
    }
  }
  // Doubles the table (load at most 1/2) and places every id again.
  void grow() {
    if (slots_.empty()) {
      names_.reserve(first_names);
      text_.reserve(8 * first_names);
    }
    slots_.assign(slots_.empty() ? 2 * first_names : 2 * slots_.size(), Slot{});
    const std::size_t mask = slots_.size() - 1;
    for (std::size_t id = 0; id < names_.size(); ++id) {
      std::size_t i = names_[id].hash & mask;
      while (slots_[i].id != none)
        i = (i + 1) & mask;
      slots_[i] = Slot{static_cast<std::uint32_t>(id), tag(names_[id].hash)};
    }
  }

  std::string text_;        // every name's characters, in the order of insertion
  std::vector<Name> names_; // by id
  std::vector<Slot> slots_; // a power of two in size
};

} // namespace adsem::simple_diff
