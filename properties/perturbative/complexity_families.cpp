// Manzyuk's forward AD (seed 004): the paper only CONJECTURES that pushing forward costs a
// constant factor over the primal (L32, L353) and gives no operational cost model; the rules of
// Fig. 4 (T_x, L211-218) as printed are not linear (spec §9.6: the operator position distributes
// over bags, ×3 per application level). So every T row is a finding, not an assertion: the
// primal is (λx.M) 0.5 and the derivative π1 (T (λx.M) (1, 0.5)), both normalised by the
// reference strategy, in contraction steps. The negative control is symbolic differentiation
// without sharing (spec §8 E4, L55-59): the tree size of T_x M for the product f1 x · … · fn x
// (every occurrence counted) grows quadratically against the source size.
#include "properties/perturbative/complexity_families.hpp"

#include <functional>

#include <fmt/format.h>

#include "properties/perturbative/operation_weights.hpp"
#include "semantics/perturbative/constants.hpp"
#include "semantics/perturbative/rules.hpp"
#include "semantics/perturbative/strategy.hpp"
#include "semantics/perturbative/transform.hpp"

namespace adsem::perturbative {

namespace {

using props::ComplexityClaim;
using props::ComplexityFamily;
using props::ComplexityInstance;

const char* const unary[] = {"sin", "cos", "tanh", "exp"};

std::string sharing_chain(int n) {
  std::string s = "let x1 = x * x in ";
  for (int i = 1; i < n; ++i)
    s += fmt::format("let x{} = x{} * x{} in ", i + 1, i, i);
  return s + fmt::format("x{}", n);
}
// The bag of summands first..last-1 of sin x + cos x + tanh x + exp x + sin x + ..., the
// calculus's own + (L165-185: a sum is a multiset). Built as a term, not parsed: written out, n
// summands are a left-nested chain of n - 1 '+' that the parser bounds at 10,000 levels. Halving
// keeps the bag unions O(n log n) and gives the summands in the parser's order.
Term wide_sum_range(int first, int last) {
  if (last - first == 1) {
    const Type r = real_type();
    const char* const f = unary[first % 4];
    return app(primitive(f, *constant_types()(f)), var("x", r));
  }
  const int middle = first + (last - first) / 2;
  return sum(wide_sum_range(first, middle), wide_sum_range(middle, last));
}
Term wide_sum(int n) {
  return wide_sum_range(0, n);
}
std::string nested_closures(int n) {
  std::string s = "let g0 = \\y:R. sin y in ";
  for (int i = 1; i <= n; ++i)
    s += fmt::format("let g{} = \\y:R. g{} y * 0.9 + y in ", i, i - 1);
  return s + fmt::format("g{} x", n);
}
std::string rnn(int n) { // h_{k+1} = tanh (x h_k + c_k), h_0 = 0.5
  std::string s = "let h0 = 0.5 in ";
  for (int i = 1; i <= n; ++i)
    s += fmt::format("let h{} = tanh (x * h{} + {}) in ", i, i - 1, 0.01 * (i % 17 + 1));
  return s + fmt::format("h{}", n);
}
std::string let_series(int n) {
  std::string s = "let x1 = sin x in ";
  for (int i = 1; i < n; ++i)
    s += fmt::format("let x{} = {} x{} in ", i + 1, unary[i % 3], i);
  return s + fmt::format("x{}", n);
}
// a_k = sin a_{k-1} + x: every stage reads the previous one and the outer input x
std::string long_range_let(int n) {
  std::string s;
  for (int i = 1; i <= n; ++i)
    s += fmt::format("let a{} = sin {} + x in ", i, i == 1 ? "x" : fmt::format("a{}", i - 1));
  return s + fmt::format("a{}", n);
}

RunOptions options() {
  RunOptions o;
  o.fuel = 2'000'000; // a blow-up stops the family (fuel) instead of running for hours
  return o;
}

// A family whose body M (in x : R) is written as text.
std::function<Term(int)> parsed(std::string (*text)(int)) {
  return [text](int n) { return parse_term(text(n), constant_types(), {{"x", real_type()}}); };
}

ComplexityFamily pushforward(const std::string& name, std::function<Term(int)> body) {
  ComplexityFamily f;
  f.calculus = "perturbative";
  f.family = name;
  f.mechanism = "T (Fig. 4 as printed)";
  f.measure = "contraction steps (reference normaliser)";
  f.claim = ComplexityClaim::finding;
  f.citation = "seed 004 L32, L353 (conjecture), Fig. 4 L211-218; spec §9.6";
  f.sizes = props::sizes_1_2_5(1, 10'000);
  f.mode = props::AdMode::forward;
  f.weights = operation_weights();
  f.make = [body = std::move(body), weights = f.weights](int n) {
    const Term lambda = lam("x", real_type(), body(n));
    const Term primal = app(lambda, numeral(0.5)); // (λx.M) 0.5
    const Term derivative =
        proj(1, app(push(lambda), pair(numeral(1), numeral(0.5)))); // π1 (T (λx.M) (1, 0.5))
    const RulesPtr rules = paper_rules();
    const auto run = [rules, weights](const Term& m) {
      const Run r = normalise(m, *rules, options());
      return props::CostAndOperations{static_cast<double>(r.steps), weights.weigh(r.rule_counts)};
    };
    return props::counted_instance([primal, run] { return run(primal); },
                                   [derivative, run] { return run(derivative); });
  };
  return f;
}

// f1 x * (f2 x * (… fn x)) with free fi : R → R, as an open term in x
Term product_open(int n) {
  const Type r = real_type(), r_to_r = arrow_type(r, r);
  const auto factor = [&](int i) { return app(var(fmt::format("f{}", i), r_to_r), var("x", r)); };
  Term m = factor(n);
  for (int i = n - 1; i >= 1; --i)
    m = app(primitive("mul", arrow_type(product_type(r, r), r)), pair(factor(i), m));
  return m;
}

ComplexityFamily unshared_symbolic() {
  ComplexityFamily f;
  f.calculus = "perturbative";
  f.family = "wide-product";
  f.mechanism = "symbolic T_x without sharing (tree size)";
  f.measure = "term nodes: |T_x M| as a tree / |M|";
  f.claim = ComplexityClaim::control;
  f.citation = "seed 004 L55-59; spec §8 E4";
  f.sizes = props::sizes_1_2_5(2, 500);
  f.make = [](int n) {
    const Term m = product_open(n);
    const RulesPtr rules = paper_rules();
    return ComplexityInstance{[m] { return static_cast<double>(size_of(m)); },
                              [m, rules] {
                                return static_cast<double>(
                                    tree_size(transform(*rules, "x", real_type(), m), 1L << 40));
                              }};
  };
  return f;
}

} // namespace

std::vector<props::ComplexityFamily> complexity_families() {
  return {
      pushforward("sharing-chain", parsed(sharing_chain)),
      pushforward("wide-sum", wide_sum),
      pushforward("nested-closures", parsed(nested_closures)),
      pushforward("rnn", parsed(rnn)),
      pushforward("let-series", parsed(let_series)),
      pushforward("long-range-let", parsed(long_range_let)),
      unshared_symbolic(),
  };
}

} // namespace adsem::perturbative
