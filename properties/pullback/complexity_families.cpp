// Mak–Ong's reverse-mode claim (seed 000 Ex. 3.7 (⋆) L349-351, §5.1 L519; spec §6 P19): the
// pullback reduction of the gradient query ((Ω λy.P) · Ω[1]) V evaluates each primitive once and
// performs one transpose per stage, so its cost is a constant factor over evaluating P at V. The
// cost measure is the reduction's own: top-level steps plus steps inside premises (strategy.hpp).
// The primal is (λy.P) V normalised by the same strategy. The App. A.2 literal ANF (every atom
// let-bound, mechanism pullback-literal-anf) is reported as a finding, not asserted.
#include "properties/pullback/complexity_families.hpp"

#include <functional>

#include <fmt/format.h>

#include "properties/pullback/frontend.hpp"
#include "properties/pullback/operation_weights.hpp"
#include "semantics/pullback/primitive_table.hpp"
#include "semantics/pullback/sparse_stages.hpp"
#include "semantics/pullback/strategy.hpp"
#include "syntax/core/large_stack.hpp"

namespace adsem::pullback {

namespace {

using props::ComplexityClaim;
using props::ComplexityFamily;
using props::ComplexityInstance;

std::string sharing_chain(int n) {
  std::string s = "\\x0:R. ";
  for (int i = 1; i <= n; ++i)
    s += fmt::format("let x{} = mult(<x{}, x{}>) in ", i, i - 1, i - 1);
  return s + fmt::format("x{}", n);
}
std::string wide_sum(int n) {
  std::string s, sum;
  for (int i = 1; i <= n; ++i) {
    s += fmt::format("\\x{}:R. ", i);
    sum += fmt::format("{}x{}", i == 1 ? "" : " + ", i);
  }
  return s + sum;
}
// g_k = λy. g_{k-1}(y) + y, local functions applied to the differentiated variable
std::string nested_closures(int n) {
  std::string s = "\\x:R. let g0 = \\y:R. sin(y) in ";
  for (int i = 1; i <= n; ++i)
    s += fmt::format("let g{} = \\y:R. add(<g{} y, y>) in ", i, i - 1);
  return s + fmt::format("g{} x", n);
}
// h_{k+1} = tanh(w h_k + c_k) unrolled n times (BMP §6's RNN shape), parameters w, h0
std::string rnn(int n) {
  std::string s = "\\w:R. \\h0:R. ";
  for (int i = 1; i <= n; ++i)
    s +=
        fmt::format("let h{} = tanh(add(<mult(<w, h{}>), {}>)) in ", i, i - 1, 0.01 * (i % 17 + 1));
  return s + fmt::format("h{}", n);
}
std::string let_series(int n) {
  std::string s = "\\x0:R. ";
  for (int i = 1; i <= n; ++i)
    s += fmt::format("let x{} = {}(x{}) in ", i, i % 2 == 1 ? "sin" : "tanh", i - 1);
  return s + fmt::format("x{}", n);
}
// a_k = sin(a_{k-1}) + x: every stage reads the previous one and the outer input x
std::string long_range_let(int n) {
  std::string s = "\\x:R. ";
  for (int i = 1; i <= n; ++i)
    s +=
        fmt::format("let a{} = add(<sin({}), x>) in ", i, i == 1 ? "x" : fmt::format("a{}", i - 1));
  return s + fmt::format("a{}", n);
}

ComplexityFamily family(const std::string& name, std::string (*source)(int), bool literal_anf,
                        std::vector<int> sizes, bool eta = false) {
  ComplexityFamily f;
  f.calculus = "pullback";
  f.family = name;
  f.mechanism = literal_anf ? "pullback-literal-anf (App. A.2)" : "pullback (compact ANF)";
  if (eta) f.mechanism = "pullback, eta query (Ω λy.f y)";
  f.measure = "reduction steps (top level + premises)";
  f.claim = literal_anf ? ComplexityClaim::finding : ComplexityClaim::linear;
  f.citation = "seed 000 Ex. 3.7 (⋆) L349-351, §5.1 L519; spec §6 P19";
  f.sizes = std::move(sizes);
  f.weights = operation_weights();
  f.make = [name, source, literal_anf, eta, weights = f.weights](int n) {
    const Tupled fn = tupled_real_function(parse_closed(source(n)));
    const std::vector<double> at(dim(fn.domain), name == "sharing-chain" ? 1.0 : 0.3);
    Rules rules = rules_for("");
    rules.bind_atoms = literal_anf;
    RunOptions o;
    o.fuel = 2'000'000'000;
    const Term primal = app(fn.function, numeral_tuple(fn.domain, at));
    const Term query = eta ? eta_gradient_query(fn, {1.0}, at) : gradient_query(fn, {1.0}, at);
    // the weighted primitive firings count premises too; on the large stack, as the per-term
    // commands run: the terms nest about 2n levels (syntax/pullback/nesting.hpp), and the walks
    // without a depth guard (the free-variable facts) recurse that deep
    const auto cost = [rules, o, weights](const Term& t) {
      const Run r = on_large_stack([&] { return normalise(t, rules, o); });
      return props::CostAndOperations{static_cast<double>(r.steps + r.premise_steps),
                                      weights.weigh(r.rule_counts)};
    };
    return props::counted_instance([primal, cost] { return cost(primal); },
                                   [query, cost] { return cost(query); });
  };
  return f;
}

// The extension's families (sparse_stages.hpp), built as terms (no text of 10,000 stages to parse
// per size; `adsem grad` reads the same series from a file, syntax/pullback/nesting.hpp).
// λp:σ. let b₁ = bound(1) in … in bₙ, after the `prefix` bindings (the curried inputs as paths of
// p).
struct Chain {
  Type domain;
  std::vector<std::pair<std::string, Term>> prefix;
  std::string name; // b_i = name + i; b_0 is prefix's last or p
  Term (*bound)(int i, const Chain&);
};
Term real_var(const std::string& x) {
  return var(x, real_type());
}
Term chain_var(const Chain& c, int i) {
  if (i > 0) return real_var(c.name + std::to_string(i));
  return c.prefix.empty() ? var("p", c.domain) : real_var(c.prefix.back().first);
}
Term chain_term(const Chain& c, int n) {
  Term t = chain_var(c, n);
  for (int i = n; i >= 1; --i)
    t = let(c.name + std::to_string(i), real_type(), c.bound(i, c), t);
  for (auto it = c.prefix.rbegin(); it != c.prefix.rend(); ++it)
    t = let(it->first, type_of(it->second), it->second, t);
  return lam("p", c.domain, t);
}
Term prim2(const char* f, Term a, Term b) {
  return make_prim(f, pair(std::move(a), std::move(b)));
}
const Chain sparse_let_series{real_type(), {}, "x", [](int i, const Chain& c) {
                                return make_prim(i % 2 == 1 ? "sin" : "tanh", chain_var(c, i - 1));
                              }};
const Chain sparse_sharing_chain{real_type(), {}, "x", [](int i, const Chain& c) {
                                   return prim2("mult", chain_var(c, i - 1), chain_var(c, i - 1));
                                 }};
const Chain sparse_long_range_let{real_type(), {}, "a", [](int i, const Chain& c) {
                                    return prim2("add", make_prim("sin", chain_var(c, i - 1)),
                                                 var("p", real_type()));
                                  }};
const Chain sparse_rnn{prod(real_type(), real_type()),
                       {{"w", proj(1, var("p", prod(real_type(), real_type())))},
                        {"h0", proj(2, var("p", prod(real_type(), real_type())))}},
                       "h",
                       [](int i, const Chain& c) {
                         return make_prim(
                             "tanh", prim2("add", prim2("mult", real_var("w"), chain_var(c, i - 1)),
                                           num(0.01 * (i % 17 + 1))));
                       }};

ComplexityFamily sparse_family(const std::string& name, std::function<Term(int)> function) {
  ComplexityFamily f;
  f.calculus = "pullback";
  f.family = name;
  f.mechanism = "pullback-sparse (extension)";
  f.measure = "the extension's steps (A*, split + conquer per stage, sparse 5+)";
  f.claim = ComplexityClaim::linear;
  f.citation = "extension of seed 000 (spec §9 pitfalls 3-4); claim: seed 000 §5.1 L519";
  f.sizes = props::sizes_1_2_5(10, 10'000);
  f.make = [name, function = std::move(function)](int n) {
    const Term fn = function(n); // λp:σ. body
    const std::vector<double> at(dim(fn->type), name == "sharing-chain" ? 1.0 : 0.3);
    const auto cost = [fn, at](bool reverse) {
      const auto g = sparse_stage_gradient(fn->kids[0], fn->name, fn->type, at, {1.0}, reverse);
      if (!g) throw AdsemError(ErrorKind::eval, "pullback-sparse: not a first-order body");
      return static_cast<double>(reverse ? g->steps : g->forward_steps);
    };
    return ComplexityInstance{[cost] { return cost(false); }, [cost] { return cost(true); }};
  };
  return f;
}

} // namespace

Term long_range_let_term(int n) {
  return chain_term(sparse_long_range_let, n);
}

// The paper family's λx₁…λxₙ as `adsem grad` tuples it (frontend.cpp; seed 000 §3.1.3
// L167-173): the inputs are the paths of p over one spine.
Term wide_sum_function(int n) {
  const auto size = static_cast<std::size_t>(n);
  const Type sigma = real_power(size);
  return lam("p", sigma, sum(components(var("p", sigma), size)));
}

// Measured (docs/performance.md, pullback). The query is the paper's ((Ω λx.P)·Ω[1]) V, pulled
// back along the family's own λ (curried inputs by the pattern-λ sugar, seed 000 L167-173). On
// the first-order families let series, sharing chain and wide sum the step ratio is flat, as the
// paper claims ("exactly reverse-mode AD when restricted to first-order", L389). Findings (not
// asserted):
// - the RNN's weight w is bound once and read by every stage; rule 8 (L240) nests the earlier
//   variables one pair deeper per stage, so at stage k it is the atom w_{π1…π1} with k
//   projections, and rule 20a's forward argument ⟨V, E[V/y]⟩ (L248) substitutes the tuple into
//   it: k rule-2 steps (π_i⟨V₁,V₂⟩ → V_i, L363) at stage k, quadratic in all (spec §9.4).
// - nested closures are higher order: each local function's stage derives its body in a rule
//   18 / 19b premise and its tangent re-evaluates the inner closures forward (spec §9.5), so the
//   ratio grows linearly (quadratic cost); the paper claims linear cost only for first order.
// - the η-expanded query ((Ω λy.f y)·Ω[1]) V puts f's λ inside the differentiated body: rule 19b
//   derives it in a premise with a generic 1-form ω', whose reverse chain rule 6 composes forward
//   by substitution (symbolic differentiation); on a sharing chain the tangent term doubles per
//   stage (exponential).
// - the long-range let series a_k = sin(a_{k-1}) + x reads the outer x at every stage: the RNN's
//   projection path again, on a first-order term the paper claims linear (a known violation).
// The extension pullback-sparse (sparse_stages.hpp: flat stages, sparse covectors, spec §9
// pitfalls 3-4) is asserted linear on the first-order families, rnn and long-range-let included.
std::vector<props::ComplexityFamily> complexity_families() {
  std::vector<props::ComplexityFamily> all;
  const auto violated = [](ComplexityFamily f, std::string note) {
    f.known_violation = f.claim == ComplexityClaim::linear;
    f.note = std::move(note);
    return f;
  };
  const auto finding = [](ComplexityFamily f, std::string note) {
    f.claim = ComplexityClaim::finding;
    f.note = std::move(note);
    return f;
  };
  for (const bool literal : {false, true}) {
    all.push_back(family("let-series", let_series, literal, props::sizes_1_2_5(10, 10'000)));
    all.push_back(violated(family("long-range-let", long_range_let, literal, {5, 10, 20, 50, 100}),
                           "the outer x is read by every stage: as with the RNN's weight, rule 8 "
                           "nests it one pair deeper per stage and rule 20a's E[V/y] projects it "
                           "along a path as long as the stage distance; step ratio slope 0.8 at "
                           "n <= 100 (steps ~ n^2), peak memory 297 MB at n = 100"));
    all.push_back(family("sharing-chain", sharing_chain, literal, props::sizes_1_2_5(10, 10'000)));
    all.push_back(
        family("wide-sum", wide_sum, literal, props::sizes_1_2_5(10, literal ? 20 : 10'000)));
    all.push_back(finding(family("rnn", rnn, literal, {5, 10, 20, 50, 100}),
                          "rule 20a's E[V/y] projects the shared weight along a path as long as "
                          "the stage distance (rule 8 nesting): quadratic rule-2 steps"));
    all.push_back(finding(family("nested-closures", nested_closures, literal, {2, 4, 6, 8}),
                          "higher order: rules 18/19b re-evaluate inner closures (spec §9.5); "
                          "the paper claims linear cost for first order only (L389)"));
  }
  // The extension beside the paper's mechanism: linear on the first-order families, including
  // the two the paper's rules make quadratic (rnn, long-range-let) and the wide sum, whose live
  // term the paper's dual maps make Θ(n²) nodes (its n inputs' covector at every stage).
  const auto chain = [](const Chain& c) { return [&c](int n) { return chain_term(c, n); }; };
  all.push_back(sparse_family("let-series", chain(sparse_let_series)));
  all.push_back(sparse_family("long-range-let", chain(sparse_long_range_let)));
  all.push_back(sparse_family("sharing-chain", chain(sparse_sharing_chain)));
  all.push_back(sparse_family("wide-sum", wide_sum_function));
  all.push_back(sparse_family("rnn", chain(sparse_rnn)));
  all.push_back(finding(family("sharing-chain", sharing_chain, false, {2, 4, 6, 8, 10}, true),
                        "rule 19b's premise (generic ω') composes by rule 6: symbolic "
                        "differentiation, tangent term doubles per stage"));
  return all;
}

} // namespace adsem::pullback
