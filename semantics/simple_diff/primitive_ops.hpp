#pragma once
// LOCAL ADAPTER to the primitive table (design.md "Primitives: one table"). Until the shared
// table semantics/core/primitives.hpp exists, this one file names every primitive by string,
// gives its arity in simple-diff types, and computes `ev(op, V)` and the reverse derivatives
// `op_r`, `op_r_r`, ... (seed 003 lines 233-241; spec §2.4, §7). Switching to the shared table
// means rewriting this file only; nothing else in simple_diff computes a primitive.
//
// Requirements (spec §7, A1-A5): every op has an open domain; `op_r : T × U → T` with
// ev(op_r, <a, w>) = J_a(op)^T w and Dom(op_r) = Dom(op) × R^|U| exactly; Op is closed under
// (-)_r; the predicate `less` is partial, undefined at equality (seed 003 lines 68-72, 152).
//
// op_r^k is computed exactly (up to rounding) with multilinear tagged dual numbers
// (spec §5.4 option A, §7.2 "Implementing the closure (A4)"): each level of (-)_r adds one
// fresh tag; the domain is checked on the tag-free part of the base op's input.
#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "syntax/core/diagnostic.hpp"
#include "syntax/simple_diff/printer.hpp"
#include "syntax/simple_diff/signature.hpp"

namespace adsem::simple_diff::prim {

// Σ_S c_S ε^S over sets S of tags (bit masks), ε_t² = 0.
class Num {
public:
  Num() = default;
  Num(double r) { // NOLINT: implicit from a real
    if (r != 0.0) terms_.push_back({0, r});
  }
  double real() const { return !terms_.empty() && terms_[0].first == 0 ? terms_[0].second : 0.0; }
  // the part carrying tag t, with t removed
  Num coefficient(int t) const {
    Num out;
    const std::uint64_t bit = std::uint64_t{1} << t;
    for (const auto& [m, c] : terms_)
      if (m & bit) out.terms_.push_back({m & ~bit, c});
    out.normalise();
    return out;
  }
  Num with_tag(int t) const { // this + ε_t
    Num out = *this;
    out.terms_.push_back({std::uint64_t{1} << t, 1.0});
    out.normalise();
    return out;
  }
  std::uint64_t tags() const {
    std::uint64_t all = 0;
    for (const auto& term : terms_)
      all |= term.first;
    return all;
  }
  friend Num operator+(const Num& a, const Num& b) {
    Num out = a;
    out.terms_.insert(out.terms_.end(), b.terms_.begin(), b.terms_.end());
    out.normalise();
    return out;
  }
  friend Num operator-(const Num& a) {
    Num out = a;
    for (auto& term : out.terms_)
      term.second = -term.second;
    return out;
  }
  friend Num operator-(const Num& a, const Num& b) { return a + (-b); }
  friend Num operator*(const Num& a, const Num& b) {
    Num out;
    for (const auto& [ma, ca] : a.terms_)
      for (const auto& [mb, cb] : b.terms_)
        if ((ma & mb) == 0) out.terms_.push_back({ma | mb, ca * cb});
    out.normalise();
    return out;
  }
  // f(a + n) = Σ_k f^(k)(a)/k! n^k, with derivs[k] = f^(k)(a) for k = 0..#tags
  template <typename Derivs> Num apply(Derivs&& derivs) const {
    const double a = real();
    Num n = *this - Num(a);
    const int order = std::popcount(tags());
    const std::vector<double> d = derivs(a, order);
    Num out(d[0]);
    Num power(1.0);
    double factorial = 1.0;
    for (int k = 1; k <= order; ++k) {
      power = power * n;
      factorial *= k;
      Num term = power;
      for (auto& t : term.terms_)
        t.second *= d[k] / factorial;
      out = out + term;
    }
    return out;
  }

private:
  void normalise() {
    std::vector<std::pair<std::uint64_t, double>> merged;
    std::sort(terms_.begin(), terms_.end(),
              [](const auto& x, const auto& y) { return x.first < y.first; });
    for (const auto& t : terms_) {
      if (!merged.empty() && merged.back().first == t.first)
        merged.back().second += t.second;
      else
        merged.push_back(t);
    }
    terms_.clear();
    for (const auto& t : merged)
      if (t.second != 0.0 || t.first == 0) terms_.push_back(t);
    if (terms_.size() == 1 && terms_[0].first == 0 && terms_[0].second == 0.0) terms_.clear();
  }
  std::vector<std::pair<std::uint64_t, double>> terms_; // sorted by mask
};

// A base primitive: name, arity, open domain, and the function written once over Num.
struct BaseOp {
  std::string name;
  TypePtr domain;
  TypePtr codomain;
  int in = 1, out = 1;     // |domain|, |codomain|
  std::string domain_text; // "" = all of R^n
  std::function<bool(std::span<const double>)> defined_at;
  std::function<std::vector<Num>(std::span<const Num>)> f;
};

namespace detail {

inline std::vector<double> derivs_of(double a, int k, const std::function<double(double, int)>& d) {
  std::vector<double> out(static_cast<std::size_t>(k) + 1);
  for (int i = 0; i <= k; ++i)
    out[static_cast<std::size_t>(i)] = d(a, i);
  return out;
}

// tanh^(k) as a polynomial in t = tanh a: P_0 = t, P_{k+1} = P_k'(t) (1 - t²)
inline double tanh_derivative(double a, int k) {
  std::vector<double> p{0.0, 1.0}; // coefficients of P_0 = t
  for (int i = 0; i < k; ++i) {
    std::vector<double> dp(p.size() > 1 ? p.size() - 1 : 1, 0.0);
    for (std::size_t j = 1; j < p.size(); ++j)
      dp[j - 1] = p[j] * static_cast<double>(j);
    std::vector<double> next(dp.size() + 2, 0.0);
    for (std::size_t j = 0; j < dp.size(); ++j) {
      next[j] += dp[j];
      next[j + 2] -= dp[j];
    }
    p = next;
  }
  const double t = std::tanh(a);
  double v = 0.0, power = 1.0;
  for (double c : p) {
    v += c * power;
    power *= t;
  }
  return v;
}

inline Num unary(const Num& x, double (*d)(double, int)) {
  return x.apply([d](double a, int k) { return derivs_of(a, k, d); });
}

inline double d_sin(double a, int k) {
  switch (k % 4) {
  case 0:
    return std::sin(a);
  case 1:
    return std::cos(a);
  case 2:
    return -std::sin(a);
  default:
    return -std::cos(a);
  }
}
inline double d_cos(double a, int k) {
  return d_sin(a, k + 1);
}
inline double d_exp(double a, int) {
  return std::exp(a);
}
inline double d_log(double a, int k) { // (-1)^(k-1) (k-1)! / a^k
  if (k == 0) return std::log(a);
  double f = 1.0;
  for (int i = 2; i < k; ++i)
    f *= i;
  return ((k % 2) ? 1.0 : -1.0) * f / std::pow(a, k);
}
inline double d_sqrt(double a, int k) { // (1/2)(1/2 - 1)...(1/2 - k + 1) a^(1/2 - k)
  double c = 1.0;
  for (int i = 0; i < k; ++i)
    c *= 0.5 - i;
  return c * std::pow(a, 0.5 - k);
}
inline double d_recip(double a, int k) { // (-1)^k k! / a^(k+1)
  double f = 1.0;
  for (int i = 2; i <= k; ++i)
    f *= i;
  return ((k % 2) ? -1.0 : 1.0) * f / std::pow(a, k + 1);
}
inline double d_tanh(double a, int k) {
  return tanh_derivative(a, k);
}

inline bool all_reals(std::span<const double>) {
  return true;
}

inline BaseOp unary_op(std::string name, double (*d)(double, int), std::string domain_text = "",
                       std::function<bool(std::span<const double>)> dom = all_reals) {
  return BaseOp{std::move(name),
                real_type(),
                real_type(),
                1,
                1,
                std::move(domain_text),
                std::move(dom),
                [d](std::span<const Num> x) { return std::vector<Num>{unary(x[0], d)}; }};
}

inline BaseOp binary_op(std::string name, std::function<Num(const Num&, const Num&)> f,
                        std::string domain_text = "",
                        std::function<bool(std::span<const double>)> dom = all_reals) {
  return BaseOp{std::move(name),
                real_power(2),
                real_type(),
                2,
                1,
                std::move(domain_text),
                std::move(dom),
                [f](std::span<const Num> x) { return std::vector<Num>{f(x[0], x[1])}; }};
}

inline std::optional<BaseOp> dprod(int n) { // DProd_n : real^n × real^n → real (line 235)
  if (n < 1 || n > 64) return std::nullopt;
  return BaseOp{"dprod" + std::to_string(n),
                product_type(real_power(n), real_power(n)),
                real_type(),
                2 * n,
                1,
                "",
                all_reals,
                [n](std::span<const Num> x) {
                  Num s(0.0);
                  for (int i = 0; i < n; ++i)
                    s = s + x[i] * x[n + i];
                  return std::vector<Num>{s};
                }};
}

inline std::optional<BaseOp> base_op(std::string_view name) {
  if (name == "add") return binary_op("add", [](const Num& a, const Num& b) { return a + b; });
  if (name == "sub") return binary_op("sub", [](const Num& a, const Num& b) { return a - b; });
  if (name == "mul" || name == "mult")
    return binary_op("mul", [](const Num& a, const Num& b) { return a * b; });
  if (name == "div")
    return binary_op(
        "div", [](const Num& a, const Num& b) { return a * unary(b, d_recip); }, "y != 0",
        [](std::span<const double> v) { return v[1] != 0.0; });
  if (name == "neg")
    return BaseOp{"neg",       real_type(),
                  real_type(), 1,
                  1,           "",
                  all_reals,   [](std::span<const Num> x) { return std::vector<Num>{-x[0]}; }};
  if (name == "sin") return unary_op("sin", d_sin);
  if (name == "cos") return unary_op("cos", d_cos);
  if (name == "exp") return unary_op("exp", d_exp);
  if (name == "tanh") return unary_op("tanh", d_tanh);
  if (name == "log")
    return unary_op("log", d_log, "x > 0", [](std::span<const double> v) { return v[0] > 0; });
  if (name == "sqrt") // 0 excluded: not smooth there (spec §7.2)
    return unary_op("sqrt", d_sqrt, "x > 0", [](std::span<const double> v) { return v[0] > 0; });
  if (name == "recip")
    return unary_op("recip", d_recip, "x != 0",
                    [](std::span<const double> v) { return v[0] != 0.0; });
  if (name.rfind("dprod", 0) == 0) {
    std::string_view digits = name.substr(5);
    if (!digits.empty() && digits[0] == '_') digits.remove_prefix(1);
    if (digits.empty() || digits.size() > 2 ||
        digits.find_first_not_of("0123456789") != std::string_view::npos)
      return std::nullopt;
    return dprod(std::stoi(std::string(digits)));
  }
  return std::nullopt;
}

inline std::string flat_text(std::span<const double> v) {
  if (v.size() == 1) return print_real(v[0]);
  std::string s = "(";
  for (std::size_t i = 0; i < v.size(); ++i)
    s += (i ? ", " : "") + print_real(v[i]);
  return s + ")";
}

} // namespace detail

// An operation symbol: a base op and the number k of (-)_r applied to it.
struct Operation {
  BaseOp base;
  int order = 0;
  std::string name() const {
    std::string n = base.name;
    for (int i = 0; i < order; ++i)
      n += "_r";
    return n;
  }
  // op_r : T × U → T
  std::pair<TypePtr, TypePtr> arity() const {
    TypePtr dom = base.domain, cod = base.codomain;
    for (int i = 0; i < order; ++i) {
      TypePtr next_dom = product_type(dom, cod);
      cod = dom;
      dom = next_dom;
    }
    return {dom, cod};
  }
  std::pair<int, int> sizes() const {
    int in = base.in, out = base.out;
    for (int i = 0; i < order; ++i) {
      const int next_in = in + out;
      out = in;
      in = next_in;
    }
    return {in, out};
  }
};

inline std::optional<Operation> find_operation(std::string_view name) {
  int order = 0;
  while (name.size() > 2 && name.substr(name.size() - 2) == "_r") {
    name.remove_suffix(2);
    ++order;
  }
  if (order > 60) return std::nullopt;
  auto base = detail::base_op(name);
  if (!base) return std::nullopt;
  return Operation{std::move(*base), order};
}

namespace detail {
// ev(op^(k), x) on Nums; next_tag is the first tag unused by x.
inline std::vector<Num> eval_order(const Operation& op, int k, std::span<const Num> x,
                                   int next_tag) {
  if (k == 0) {
    std::vector<double> reals;
    for (const Num& v : x)
      reals.push_back(v.real());
    if (!op.base.defined_at(reals)) throw AdsemError(ErrorKind::domain, "");
    return op.base.f(x);
  }
  Operation lower{op.base, k - 1};
  const auto [in, out] = lower.sizes();
  std::span<const Num> a = x.subspan(0, static_cast<std::size_t>(in));
  std::span<const Num> w = x.subspan(static_cast<std::size_t>(in), static_cast<std::size_t>(out));
  std::vector<Num> result;
  std::vector<Num> shifted(a.begin(), a.end());
  for (int j = 0; j < in; ++j) { // column j of J^T w, with a fresh tag on a_j
    shifted[static_cast<std::size_t>(j)] = a[static_cast<std::size_t>(j)].with_tag(next_tag);
    const std::vector<Num> y = eval_order(op, k - 1, shifted, next_tag + 1);
    shifted[static_cast<std::size_t>(j)] = a[static_cast<std::size_t>(j)];
    Num r(0.0);
    for (int i = 0; i < out; ++i)
      r = r + w[static_cast<std::size_t>(i)] * y[static_cast<std::size_t>(i)].coefficient(next_tag);
    result.push_back(r);
  }
  if (in == 0) eval_order(op, k - 1, shifted, next_tag); // keep the domain check
  return result;
}
} // namespace detail

// ev(op, x) on the flattened argument (seed 003 line 233; partial: AdsemError(domain)).
inline std::vector<double> apply_operation(const Operation& op, std::span<const double> x) {
  std::vector<Num> nx(x.begin(), x.end());
  try {
    const std::vector<Num> y = detail::eval_order(op, op.order, nx, 0);
    std::vector<double> out;
    for (const auto& v : y)
      out.push_back(v.real());
    return out;
  } catch (const AdsemError&) {
    std::string msg = op.name() + " is undefined at " + detail::flat_text(x);
    if (!op.base.domain_text.empty())
      msg += " (domain of " + op.base.name + ": " + op.base.domain_text + ")";
    throw AdsemError(ErrorKind::domain, msg);
  }
}

// Predicates: `less : real^2` (line 152), undefined on the diagonal; `gt` its mirror (spec §7.2,
// a toolkit choice for `a > b`). bev returns nullopt where it is undefined.
struct Predicate {
  std::string name;
  TypePtr domain;
};
inline std::optional<Predicate> find_predicate(std::string_view name) {
  if (name == "less" || name == "lt") return Predicate{"less", real_power(2)};
  if (name == "gt" || name == "greater") return Predicate{"gt", real_power(2)};
  return std::nullopt;
}
inline bool apply_predicate(const Predicate& p, std::span<const double> x) {
  const double a = x[0], b = x[1];
  if (a == b || std::isnan(a) || std::isnan(b))
    throw AdsemError(ErrorKind::domain,
                     p.name + " is undefined at " + detail::flat_text(x) +
                         " (the partial comparison has no value at equality; seed 003 line 152)");
  return p.name == "less" ? a < b : a > b;
}

// The table as the parser and type checker see it.
class PrimitiveSignature final : public Signature {
public:
  std::optional<OpArity> op(std::string_view name) const override {
    auto found = find_operation(name);
    if (!found) return std::nullopt;
    auto [dom, cod] = found->arity();
    return OpArity{found->name(), dom, cod};
  }
  std::optional<PredArity> pred(std::string_view name) const override {
    auto found = find_predicate(name);
    if (!found) return std::nullopt;
    return PredArity{found->name, found->domain};
  }
};

inline const Signature& signature() {
  static const PrimitiveSignature sig;
  return sig;
}

} // namespace adsem::simple_diff::prim
