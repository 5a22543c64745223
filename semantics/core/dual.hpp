#pragma once
// Tagged multivariate dual numbers (abadi-plotkin spec §5.4 "option A"; manzyuk spec §5.3
// "Scalars"): the ring C[ε_1, ε_2, ...]/(ε_t²), an element being Σ_S c_S ε^S over finite tag sets
// S.
//
// C is double (values and exact derivatives) or Interval (enclosures of value and derivatives
// over a box: interval arithmetic is inclusion-isotonic, so every coefficient encloses the true
// coefficient at every point of the box).
//
// Representation: the sorted list of live tags t_0 < ... < t_{k-1} and a dense array of 2^k
// coefficients; bit i of an index says whether ε_{t_i} is in the monomial (index 0 is the constant
// term). Both are stored inside the number up to two live tags (InlineVector), so an unperturbed
// number, a first derivative and a nested second one allocate nothing: heap vectors for a few
// coefficients made malloc and free the largest cost of the probing comparisons. The flat form
// makes tag extraction and swapping direct (manzyuk spec §5.3). Tags whose coefficients are all
// exactly zero are dropped after each operation, so k is the number of perturbations actually
// present; nested derivatives keep k at the nesting depth.
//
// Higher derivatives. A smooth unary function is applied by the truncated Taylor expansion
//   f(c + n) = Σ_{j=0}^{k} f^(j)(c) n^j / j!     (n nilpotent, n^{k+1} = 0 with k live tags),
// which is exact in this ring. The towers f^(j)(c) come from each elementary function's own
// recurrence (exp: exp; sin/cos: the 4-cycle; log, 1/x, sqrt: power rules; tanh: the polynomial
// recurrence P_{j+1} = P_j' (1 - t²)), evaluated in C, so they are rigorous for intervals too.
// A primitive written once over a generic scalar (primitives.hpp) composes these operations, so its
// derivatives of every order follow by the ring laws; nothing is differentiated by hand.
//
// Primal parts are computed by the same IEEE operations as plain doubles (a/b is a/b, not a*(1/b)),
// so a model run on Dual<double> reproduces a plain run bit for bit in its tag-free part.
#include "semantics/core/interval.hpp"
#include "semantics/core/tags.hpp"
#include "syntax/core/diagnostic.hpp"
#include "syntax/core/inline_vector.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdio>
#include <initializer_list>
#include <iterator>
#include <ostream>
#include <span>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace adsem::model {

inline std::string coefficient_string(double x) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.17g", x);
  return buffer;
}
inline std::string coefficient_string(const Interval& x) {
  return to_string(x);
}

template <class C> class Dual {
public:
  using Coefficient = C;
  // Inline up to two live tags (the nesting depth of the properties' derivatives, almost always).
  static constexpr std::size_t inline_tags = 2;
  using TagList = InlineVector<Tag, inline_tags>;
  using Coefficients = InlineVector<C, std::size_t{1} << inline_tags>; // all 2^k, index = mask
  // f(c), f'(c), ..., f^(k)(c) for the Taylor expansion of a unary function.
  using Tower = InlineVector<C, inline_tags + 2>;
  // 2^20 coefficients: far beyond any nesting depth a property reaches.
  static constexpr std::size_t max_live_tags = 20;

  // A constant's one coefficient is written in place (the general list constructor was not
  // inlined: a call and a range copy at every number the model makes).
  Dual() : coefficients_(std::in_place, C(0.0)) {}
  Dual(double value)
      : coefficients_(std::in_place, C(value)) {} // implicit: literals mix with duals
  Dual(const C& value) requires(!std::is_same_v<C, double>) : coefficients_(std::in_place, value) {}

  // value + tangent·ε_tag: the perturbation of manzyuk spec §5.3.
  static Dual perturbation(const C& value, Tag tag, const C& tangent) {
    if (is_exact_zero(tangent)) return Dual(value);
    return Dual(TagList{tag}, Coefficients{value, tangent});
  }

  // The tag-free part (all ε := 0).
  const C& primal() const { return coefficients_[0]; }
  const TagList& tags() const { return tags_; }
  bool is_constant() const { return tags_.empty(); }
  bool depends_on(Tag tag) const { return std::binary_search(tags_.begin(), tags_.end(), tag); }

  // The coefficient of the monomial Π_{t in monomial} ε_t (0 if a tag is not live).
  C coefficient(std::initializer_list<Tag> monomial) const {
    return coefficient(std::span<const Tag>(monomial.begin(), monomial.size()));
  }
  C coefficient(std::span<const Tag> monomial) const {
    std::size_t mask = 0;
    for (const Tag tag : monomial) {
      const auto it = std::lower_bound(tags_.begin(), tags_.end(), tag);
      if (it == tags_.end() || *it != tag) return C(0.0);
      mask |= std::size_t{1} << static_cast<std::size_t>(it - tags_.begin());
    }
    return at(mask);
  }

  // All 2^|tags()| coefficients, index = monomial mask (bit i <-> tags()[i]), zeros included.
  std::span<const C> coefficients() const { return {coefficients_.data(), size()}; }

  // Calls visit(monomial_tags, coefficient) for every nonzero term, constant term first.
  template <class Visit> void for_each_term(Visit visit) const {
    TagList monomial;
    for (std::size_t mask = 0; mask < size(); ++mask) {
      if (mask != 0 && is_exact_zero(at(mask))) continue;
      monomial.clear();
      for (std::size_t i = 0; i < tags_.size(); ++i)
        if (mask >> i & 1) monomial.push_back(tags_[i]);
      visit(std::span<const Tag>(monomial.data(), monomial.size()), at(mask));
    }
  }

  // ---- tag operations (manzyuk spec §5.3: extract_R, swap_R) ----

  // The coefficient of ε_tag: the monomials containing tag, with tag removed (extract TANGENT).
  friend Dual tangent_part(const Dual& x, Tag tag) { return x.slice(tag, true); }
  // x with ε_tag := 0 (extract PRIMAL).
  friend Dual primal_part(const Dual& x, Tag tag) { return x.slice(tag, false); }
  // Renames a to b and b to a in every monomial.
  friend Dual swap_tags(const Dual& x, Tag a, Tag b) {
    if (a == b || (!x.depends_on(a) && !x.depends_on(b))) return x;
    TagList renamed = x.tags_;
    for (Tag& tag : renamed)
      tag = tag == a ? b : tag == b ? a : tag;
    TagList sorted = renamed;
    std::sort(sorted.begin(), sorted.end());
    std::array<std::size_t, max_live_tags> position{};
    for (std::size_t i = 0; i < renamed.size(); ++i)
      position[i] = static_cast<std::size_t>(
          std::lower_bound(sorted.begin(), sorted.end(), renamed[i]) - sorted.begin());
    Coefficients out(x.size(), C(0.0));
    for (std::size_t mask = 0; mask < x.size(); ++mask)
      out[remap(mask, position)] = x.at(mask);
    return Dual(std::move(sorted), std::move(out));
  }

  // ---- ring operations ----

  friend Dual operator+(const Dual& a, const Dual& b) {
    return combine(a, b, [](C& into, const C& y) { into += y; });
  }
  friend Dual operator-(const Dual& a, const Dual& b) {
    return combine(a, b, [](C& into, const C& y) { into -= y; });
  }
  friend Dual operator-(const Dual& a) {
    Dual result = a;
    for (C& c : result.coefficients_)
      c = -c;
    return result;
  }
  friend Dual operator*(const Dual& a, const Dual& b) {
    if (a.is_constant()) return b.scaled(a.primal());
    if (b.is_constant()) return a.scaled(b.primal());
    const TagList all = union_of(a.tags_, b.tags_);
    const Coefficients x = embed(a, all);
    const Coefficients y = embed(b, all);
    // Subset convolution: ε_t² = 0 keeps only products of disjoint monomials.
    const std::size_t full = x.size() - 1;
    Coefficients out(x.size(), C(0.0));
    for (std::size_t i = 0; i < x.size(); ++i) {
      if (is_exact_zero(x[i])) continue;
      const std::size_t rest = full & ~i;
      for (std::size_t j = rest;; j = (j - 1) & rest) {
        if (!is_exact_zero(y[j])) out[i | j] += x[i] * y[j];
        if (j == 0) break;
      }
    }
    return Dual(all, std::move(out));
  }
  friend Dual operator/(const Dual& a, const Dual& b) {
    if (b.is_constant()) {
      if (a.is_constant()) return Dual(C(a.primal() / b.primal())); // as below, made directly
      Coefficients out = a.coefficients_;
      for (C& c : out)
        c = c / b.primal();
      return Dual(a.tags_, std::move(out));
    }
    Dual result = a * reciprocal(b);
    result.coefficients_[0] = a.primal() / b.primal(); // the IEEE quotient, not a * (1/b)
    return result;
  }
  Dual& operator+=(const Dual& b) { return *this = *this + b; }
  Dual& operator-=(const Dual& b) { return *this = *this - b; }
  Dual& operator*=(const Dual& b) { return *this = *this * b; }
  Dual& operator/=(const Dual& b) { return *this = *this / b; }

  // ---- elementary functions, found by argument-dependent lookup from generic code ----

  friend Dual exp(const Dual& x) {
    return taylor(x, [](const C& c, std::size_t k) {
      using std::exp;
      return Tower(k + 1, exp(c));
    });
  }
  friend Dual log(const Dual& x) {
    return taylor(x, [](const C& c, std::size_t k) {
      using std::log;
      Tower d{log(c)};
      if (k >= 1) d.push_back(C(1.0) / c);
      for (std::size_t j = 1; j < k; ++j) // f^(j+1) = f^(j) * (-j) / c
        d.push_back(d[j] * C(-static_cast<double>(j)) / c);
      return d;
    });
  }
  friend Dual sin(const Dual& x) {
    return taylor(x, [](const C& c, std::size_t k) {
      using std::cos;
      using std::sin;
      return sine_cycle(sin(c), cos(c), k);
    });
  }
  friend Dual cos(const Dual& x) {
    return taylor(x, [](const C& c, std::size_t k) {
      using std::cos;
      using std::sin;
      return sine_cycle(cos(c), -sin(c), k);
    });
  }
  friend Dual sqrt(const Dual& x) {
    return taylor(x, [](const C& c, std::size_t k) {
      using std::sqrt;
      Tower d{sqrt(c)};
      for (std::size_t j = 0; j < k; ++j) // f^(j+1) = f^(j) * (1/2 - j) / c
        d.push_back(d[j] * C(0.5 - static_cast<double>(j)) / c);
      return d;
    });
  }
  friend Dual tanh(const Dual& x) {
    return taylor(x, [](const C& c, std::size_t k) {
      using std::tanh;
      const C t = tanh(c);
      // f^(j) = P_j(t) with P_0 = t and P_{j+1} = P_j' * (1 - t^2), coefficients kept in C.
      Tower polynomial{C(0.0), C(1.0)};
      Tower d{t};
      for (std::size_t j = 0; j < k; ++j) {
        Tower next(polynomial.size() + 1, C(0.0));
        for (std::size_t p = 1; p < polynomial.size(); ++p) {
          const C term = polynomial[p] * C(static_cast<double>(p)); // derivative: p a_p t^{p-1}
          next[p - 1] += term;
          next[p + 1] -= term;
        }
        polynomial = std::move(next);
        C value = polynomial.back();
        for (std::size_t p = polynomial.size() - 1; p-- > 0;)
          value = value * t + polynomial[p];
        d.push_back(value);
      }
      return d;
    });
  }
  friend Dual reciprocal(const Dual& x) {
    return taylor(x, [](const C& c, std::size_t k) {
      Tower d{C(1.0) / c};
      for (std::size_t j = 0; j < k; ++j) // f^(j+1) = f^(j) * (-(j+1)) / c
        d.push_back(d[j] * C(-static_cast<double>(j + 1)) / c);
      return d;
    });
  }

  // The same element with every coefficient mapped (e.g. lift Dual<double> to Dual<Interval>).
  template <class D, class F> Dual<D> map_coefficients(F f) const {
    typename Dual<D>::Coefficients out;
    for (std::size_t mask = 0; mask < size(); ++mask)
      out.push_back(f(at(mask)));
    return Dual<D>::from_parts(typename Dual<D>::TagList(tags_.begin(), tags_.end()),
                               std::move(out));
  }

  // Raw constructor for code that builds elements term by term (map_coefficients, tests).
  static Dual from_parts(TagList tags, Coefficients coefficients) {
    return Dual(std::move(tags), std::move(coefficients));
  }

private:
  template <class> friend class Dual;

  Dual(TagList tags, Coefficients coefficients) : tags_(std::move(tags)) {
    if (tags_.size() > max_live_tags)
      throw AdsemError(ErrorKind::eval, "model: more than " + std::to_string(max_live_tags) +
                                            " live perturbation tags in one number");
    trim(tags_, coefficients);
    coefficients_ = std::move(coefficients);
  }

  std::size_t size() const { return coefficients_.size(); }
  const C& at(std::size_t mask) const { return coefficients_[mask]; }

  static Tower sine_cycle(const C& f0, const C& f1, std::size_t k) {
    Tower d{f0};
    if (k >= 1) d.push_back(f1);
    for (std::size_t j = 2; j <= k; ++j)
      d.push_back(-d[j - 2]); // f'' = -f
    return d;
  }

  // f(c + n) = Σ_j f^(j)(c) n^j / j! with tower(c, k) = {f(c), f'(c), ..., f^(k)(c)}.
  template <class Derivatives> static Dual taylor(const Dual& x, Derivatives tower) {
    const std::size_t k = x.tags_.size();
    const Tower d = tower(x.primal(), k);
    if (k == 0) return Dual(d[0]);
    if (k == 1) return Dual(x.tags_, Coefficients{d[0], d[1] * x.at(1)});
    Dual nilpotent = x;
    nilpotent.coefficients_[0] = C(0.0);
    Dual result(d[0]);
    Dual power = nilpotent;
    double factorial = 1;
    for (std::size_t j = 1; j <= k && !power.is_constant(); ++j) {
      factorial *= static_cast<double>(j);
      result += power.scaled(d[j] / C(factorial));
      if (j < k) power = power * nilpotent;
    }
    return result;
  }

  Dual scaled(const C& factor) const {
    // A constant's product made directly, by the statement the loop below runs (c = factor * c:
    // which NaN a product of two NaNs keeps follows its operand order in the generated code),
    // without copying the coefficients and the empty tag list and trimming them.
    if (is_constant()) {
      C c = primal();
      c = factor * c;
      return Dual(c);
    }
    Coefficients out = coefficients_;
    for (C& c : out)
      c = factor * c;
    return Dual(tags_, std::move(out));
  }

  // tangent = true: coefficient of ε_tag; false: ε_tag := 0.
  Dual slice(Tag tag, bool tangent) const {
    const auto it = std::lower_bound(tags_.begin(), tags_.end(), tag);
    if (it == tags_.end() || *it != tag) return tangent ? Dual() : *this;
    // A first-order number a + b·ε_tag (most of them): its part is the constant b or a, what the
    // general path below makes, without building an empty tag list and a one-element array.
    if (tags_.size() == 1) return Dual(at(tangent ? 1 : 0));
    const std::size_t bit = static_cast<std::size_t>(it - tags_.begin());
    TagList rest = tags_;
    rest.erase(rest.begin() + static_cast<std::ptrdiff_t>(bit));
    Coefficients out(size() / 2, C(0.0));
    for (std::size_t mask = 0; mask < size(); ++mask)
      if (((mask >> bit) & 1) == (tangent ? 1u : 0u)) out[drop_bit(mask, bit)] = at(mask);
    return Dual(std::move(rest), std::move(out));
  }

  static std::size_t drop_bit(std::size_t mask, std::size_t bit) {
    const std::size_t low = mask & ((std::size_t{1} << bit) - 1);
    return ((mask >> (bit + 1)) << bit) | low;
  }

  static std::size_t remap(std::size_t mask,
                           const std::array<std::size_t, max_live_tags>& position) {
    std::size_t out = 0;
    for (std::size_t i = 0; mask != 0; ++i, mask >>= 1)
      if (mask & 1) out |= std::size_t{1} << position[i];
    return out;
  }

  static TagList union_of(const TagList& a, const TagList& b) {
    TagList out;
    std::set_union(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(out));
    if (out.size() > max_live_tags)
      throw AdsemError(ErrorKind::eval, "model: more than " + std::to_string(max_live_tags) +
                                            " live perturbation tags in one number");
    return out;
  }

  // x's coefficients re-indexed over the larger tag list `all` (a superset of x's tags).
  static Coefficients embed(const Dual& x, const TagList& all) {
    if (x.tags_ == all) return x.coefficients_;
    std::array<std::size_t, max_live_tags> position{};
    for (std::size_t i = 0, j = 0; i < x.tags_.size(); ++i) {
      while (all[j] != x.tags_[i])
        ++j;
      position[i] = j;
    }
    Coefficients out(std::size_t{1} << all.size(), C(0.0));
    for (std::size_t mask = 0; mask < x.size(); ++mask)
      out[remap(mask, position)] = x.at(mask);
    return out;
  }

  template <class Op> static Dual combine(const Dual& a, const Dual& b, Op op) {
    if (a.is_constant() && b.is_constant()) { // the one coefficient, no copy of a
      C result = a.primal();
      op(result, b.primal());
      return Dual(result);
    }
    const TagList all = union_of(a.tags_, b.tags_);
    Coefficients out = embed(a, all);
    const Coefficients y = embed(b, all);
    for (std::size_t i = 0; i < out.size(); ++i)
      op(out[i], y[i]);
    return Dual(all, std::move(out));
  }

  // Drops tags whose monomials all have coefficient exactly zero.
  static void trim(TagList& tags, Coefficients& coefficients) {
    for (std::size_t bit = tags.size(); bit-- > 0;) {
      bool all_zero = true;
      for (std::size_t mask = 0; mask < coefficients.size() && all_zero; ++mask)
        if ((mask >> bit & 1) && !is_exact_zero(coefficients[mask])) all_zero = false;
      if (!all_zero) continue;
      Coefficients kept(coefficients.size() / 2, C(0.0));
      for (std::size_t mask = 0; mask < coefficients.size(); ++mask)
        if (!(mask >> bit & 1)) kept[drop_bit(mask, bit)] = coefficients[mask];
      coefficients = std::move(kept);
      tags.erase(tags.begin() + static_cast<std::ptrdiff_t>(bit));
    }
  }

  TagList tags_;              // sorted, distinct
  Coefficients coefficients_; // all 2^|tags_|, index = monomial mask (bit i <-> tags_[i])
};

// "1 + 2·ε3 + 0.5·ε3ε7": for messages, reports and test output.
template <class C> std::string to_string(const Dual<C>& x) {
  std::string out;
  x.for_each_term([&](std::span<const Tag> monomial, const C& c) {
    if (!out.empty()) out += " + ";
    out += coefficient_string(c);
    for (std::size_t i = 0; i < monomial.size(); ++i)
      out += (i == 0 ? "·ε" : "ε") + std::to_string(monomial[i]);
  });
  return out;
}

template <class C> std::ostream& operator<<(std::ostream& os, const Dual<C>& x) {
  return os << to_string(x);
}

} // namespace adsem::model
