#include "semantics/linear_negation/families.hpp"

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

std::string square_chain_higher_order(int k) {
  std::string s = "\\x:R. let s = \\y:R. y * y in ";
  std::string body = "x";
  for (int i = 0; i < k; ++i)
    body = "s (" + body + ")";
  return s + body;
}

std::string nested_chain(int k) {
  std::string body = "x";
  for (int i = 0; i < k; ++i)
    body = std::string(i % 2 == 0 ? "sin(" : "tanh(") + body + ")";
  return "\\x:R. " + body;
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
  const std::string l = "\\f:R -> R -> R. \\h0:R. ";
  std::string body = "h0";
  for (auto it = list.rbegin(); it != list.rend(); ++it)
    body = "f " + real_text(*it) + " (" + body + ")";
  return "\\eps:R. \\rho:R. "
         "let L = \\x:R. \\h:R. sigma(eps * x + rho * h) in "
         "let N = \\l:(R -> R -> R) -> R -> R. l L 0 in "
         "N (" +
         l + body + ")";
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
