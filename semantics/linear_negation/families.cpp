#include "semantics/linear_negation/families.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

namespace adsem::linear_negation::family {

std::string square_chain(int k) {
  std::string s = "\\x:R. ";
  std::string prev = "x";
  for (int i = 1; i <= k; ++i) {
    s += fmt::format("let z{} = {} * {} in ", i, prev, prev);
    prev = fmt::format("z{}", i);
  }
  return s + prev;
}

// The families' nested applications are written from the outside in, each opening once and the
// closing parentheses at the end: wrapping the term built so far at each level copied it whole,
// quadratic in the depth (the RNN's text at n = 2,000 was 3.5% of its whole normalisation).
std::string square_chain_higher_order(int k) {
  std::string s = "\\x:R. let s = \\y:R. y * y in ";
  for (int i = 0; i < k; ++i)
    s += "s (";
  return s + "x" + std::string(static_cast<std::size_t>(std::max(k, 0)), ')');
}

std::string nested_chain(int k) {
  std::string s = "\\x:R. ";
  for (int i = k - 1; i >= 0; --i) // the outermost is the last wrapped
    s += i % 2 == 0 ? "sin(" : "tanh(";
  return s + "x" + std::string(static_cast<std::size_t>(std::max(k, 0)), ')');
}

std::string let_series(int n) {
  std::string s = "\\x:R. ";
  std::string prev = "x";
  for (int i = 1; i <= n; ++i) {
    s += fmt::format("let z{} = {}({}) in ", i, i % 2 == 1 ? "sin" : "tanh", prev);
    prev = fmt::format("z{}", i);
  }
  return s + prev;
}

std::string long_range_let(int n) {
  std::string s = "\\x:R. ";
  std::string prev = "x";
  for (int i = 1; i <= n; ++i) {
    s += fmt::format("let z{} = sin({}) + x in ", i, prev);
    prev = fmt::format("z{}", i);
  }
  return s + prev;
}

std::vector<double> rnn_inputs(int n) {
  std::vector<double> list;
  for (int i = 0; i < n; ++i)
    list.push_back(0.1 * (i % 7) - 0.3);
  return list;
}

std::string sum_chain(int n) {
  std::string s;
  for (int i = 1; i <= n; ++i)
    s += fmt::format("\\x{}:R. ", i);
  for (int i = 1; i <= n; ++i)
    s += (i > 1 ? " + x" : "x") + std::to_string(i);
  return s;
}

namespace {
std::string real_text(double r) {
  return r < 0 ? fmt::format("(0 - {})", -r) : fmt::format("{}", r);
}
} // namespace

std::string rnn(const std::vector<double>& list) {
  std::string s = "\\eps:R. \\rho:R. "
                  "let L = \\x:R. \\h:R. sigma(eps * x + rho * h) in "
                  "let N = \\l:(R -> R -> R) -> R -> R. l L 0 in "
                  "N (\\f:R -> R -> R. \\h0:R. ";
  for (const double a : list) // f a1 (f a2 (... (f an (h0))))
    s += "f " + real_text(a) + " (";
  return s + "h0" + std::string(list.size(), ')') + ")";
}

RnnGradient rnn_recurrence(const std::vector<double>& list, double e, double r, bool literal) {
  double u = 0, ge = 0, gr = 0;
  for (auto it = list.rbegin(); it != list.rend(); ++it) { // b_k = a_{n+1-k}: last first
    const double b = *it;
    const double s = e * b + r * u;
    const double next = 1.0 / (1.0 + std::exp(-s));
    const double ds = next * (1.0 - next);
    ge = ds * (b + r * ge);
    gr = ds * ((literal ? next : u) + r * gr); // erratum 4: u_{k-1}, printed u_k
    u = next;
  }
  return {u, ge, gr};
}

} // namespace adsem::linear_negation::family
