#pragma once
// The numeral covectors r̲* of σ* (seed 000 Fig. 1 L129-133: dim(σ) reals). [perf] Stored sparse:
// rule 8 (L240) threads every earlier intermediate through the stage tuples, so the covector of
// stage k has about k entries, nearly all zero, and a dense one makes the reverse sweep of rules
// 5/5⁺ quadratic in the stages where reverse mode is linear (spec §9 pitfall 4: "use sparse
// covectors ... results are identical"). An absent entry is +0.0; a -0.0 is kept, so the dense
// view, the printed text and every sum are the same as a dense vector's.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

namespace adsem::pullback {

class Covector {
public:
  struct Entry {
    std::uint32_t index;
    double value;
  };

  Covector() = default;
  explicit Covector(const std::vector<double>& dense);
  // Copies copy the entries (a value, as a vector is). Inline: every node copied or remade copies
  // its (nearly always empty) covector.
  Covector(const Covector& other) : data_(other.data_ ? copy(*other.data_) : nullptr) {}
  Covector& operator=(const Covector& other) {
    if (this != &other) data_ = other.data_ ? copy(*other.data_) : nullptr;
    return *this;
  }
  Covector(Covector&&) noexcept = default;
  Covector& operator=(Covector&&) noexcept = default;
  ~Covector() = default;
  // From entries sorted by index, each index once; entries equal to +0.0 are dropped.
  static Covector from_sorted(std::size_t dim, std::vector<Entry> entries);

  std::size_t size() const { return data_ ? data_->dim : 0; }
  bool empty() const { return size() == 0; }
  double operator[](std::size_t i) const;
  std::vector<double> dense() const;
  std::span<const Entry> entries() const {
    return data_ ? std::span<const Entry>(data_->entries) : std::span<const Entry>();
  }
  // The entries whose index lies in [from, to), as a subspan (binary search).
  std::span<const Entry> window(std::size_t from, std::size_t to) const;

  // As dense vectors: the same dimension and every entry equal by `==` (so -0.0 equals +0.0 and
  // a NaN equals nothing), an absent entry read as +0.0.
  friend bool operator==(const Covector& a, const Covector& b);

  // The entrywise sum a + b of rule N3, each entry the same double a dense sum computes.
  friend Covector operator+(const Covector& a, const Covector& b);

  // Is v stored (anything but +0.0)?
  static bool stored(double v);

private:
  struct Data {
    std::vector<Entry> entries;
    std::size_t dim = 0;
  };
  // [perf] One pointer, empty (null) in every node but a covector literal: each term node has a
  // Covector member, and its size decides whether the node with its kids inline (small_list.hpp)
  // stays in the allocator's 160-byte class.
  std::unique_ptr<Data> data_;
  static std::unique_ptr<Data> copy(const Data& d);
};

} // namespace adsem::pullback
