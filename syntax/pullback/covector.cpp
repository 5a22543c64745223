#include "syntax/pullback/covector.hpp"

#include <algorithm>
#include <cmath>

namespace adsem::pullback {

bool Covector::stored(double v) {
  return v != 0.0 || std::signbit(v) || std::isnan(v);
}

Covector::Covector(const std::vector<double>& dense) : data_(std::make_unique<Data>()) {
  data_->dim = dense.size();
  for (std::size_t i = 0; i < dense.size(); ++i)
    if (stored(dense[i])) data_->entries.push_back({static_cast<std::uint32_t>(i), dense[i]});
}

std::unique_ptr<Covector::Data> Covector::copy(const Data& d) {
  return std::make_unique<Data>(d);
}

Covector Covector::from_sorted(std::size_t dim, std::vector<Entry> entries) {
  Covector c;
  c.data_ = std::make_unique<Data>();
  c.data_->dim = dim;
  std::erase_if(entries, [](const Entry& e) { return !stored(e.value); });
  c.data_->entries = std::move(entries);
  return c;
}

double Covector::operator[](std::size_t i) const {
  const auto e = entries();
  const auto it = std::lower_bound(e.begin(), e.end(), i,
                                   [](const Entry& x, std::size_t k) { return x.index < k; });
  return it != e.end() && it->index == i ? it->value : 0.0;
}

std::vector<double> Covector::dense() const {
  std::vector<double> d(size(), 0.0);
  for (const Entry& e : entries())
    d[e.index] = e.value;
  return d;
}

std::span<const Covector::Entry> Covector::window(std::size_t from, std::size_t to) const {
  const auto e = entries();
  const auto below = [](const Entry& x, std::size_t k) { return x.index < k; };
  const auto lo = std::lower_bound(e.begin(), e.end(), from, below);
  const auto hi = std::lower_bound(lo, e.end(), to, below);
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
  if (a.size() != b.size()) return false;
  bool same = true;
  merge_walk(a, b, [&](std::uint32_t, double x, double y) { same = same && x == y; });
  return same;
}

Covector operator+(const Covector& a, const Covector& b) {
  // Where both are absent the dense sum is +0.0 + +0.0 = +0.0: absent again.
  std::vector<Covector::Entry> out;
  merge_walk(a, b, [&](std::uint32_t i, double x, double y) { out.push_back({i, x + y}); });
  return Covector::from_sorted(a.size(), std::move(out));
}

} // namespace adsem::pullback
