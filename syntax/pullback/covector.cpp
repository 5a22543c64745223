#include "syntax/pullback/covector.hpp"

#include <algorithm>
#include <cmath>

namespace adsem::pullback {

bool Covector::stored(double v) {
  return v != 0.0 || std::signbit(v) || std::isnan(v);
}

Covector::Covector(const std::vector<double>& dense) : dim_(dense.size()) {
  for (std::size_t i = 0; i < dense.size(); ++i)
    if (stored(dense[i])) entries_.push_back({static_cast<std::uint32_t>(i), dense[i]});
}

Covector Covector::from_sorted(std::size_t dim, std::vector<Entry> entries) {
  Covector c;
  c.dim_ = dim;
  std::erase_if(entries, [](const Entry& e) { return !stored(e.value); });
  c.entries_ = std::move(entries);
  return c;
}

double Covector::operator[](std::size_t i) const {
  const auto it = std::lower_bound(entries_.begin(), entries_.end(), i,
                                   [](const Entry& e, std::size_t k) { return e.index < k; });
  return it != entries_.end() && it->index == i ? it->value : 0.0;
}

std::vector<double> Covector::dense() const {
  std::vector<double> d(dim_, 0.0);
  for (const Entry& e : entries_)
    d[e.index] = e.value;
  return d;
}

std::span<const Covector::Entry> Covector::window(std::size_t from, std::size_t to) const {
  const auto below = [](const Entry& e, std::size_t k) { return e.index < k; };
  const auto lo = std::lower_bound(entries_.begin(), entries_.end(), from, below);
  const auto hi = std::lower_bound(lo, entries_.end(), to, below);
  return {lo, hi};
}

// Walks the union of the indices of a and b in order; f(index, a_i, b_i), absent entries +0.0.
template <class F> static void merge_walk(const Covector& a, const Covector& b, F f) {
  const auto ea = a.entries(), eb = b.entries();
  std::size_t i = 0, j = 0;
  while (i < ea.size() || j < eb.size()) {
    if (j == eb.size() || (i < ea.size() && ea[i].index < eb[j].index)) {
      f(ea[i].index, ea[i].value, 0.0);
      ++i;
    } else if (i == ea.size() || eb[j].index < ea[i].index) {
      f(eb[j].index, 0.0, eb[j].value);
      ++j;
    } else {
      f(ea[i].index, ea[i].value, eb[j].value);
      ++i;
      ++j;
    }
  }
}

bool operator==(const Covector& a, const Covector& b) {
  if (a.dim_ != b.dim_) return false;
  bool same = true;
  merge_walk(a, b, [&](std::uint32_t, double x, double y) { same = same && x == y; });
  return same;
}

Covector operator+(const Covector& a, const Covector& b) {
  // Where both are absent the dense sum is +0.0 + +0.0 = +0.0: absent again.
  std::vector<Covector::Entry> out;
  merge_walk(a, b, [&](std::uint32_t i, double x, double y) { out.push_back({i, x + y}); });
  return Covector::from_sorted(a.dim_, std::move(out));
}

} // namespace adsem::pullback
