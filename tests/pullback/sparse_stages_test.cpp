// Why the paper's mechanism is quadratic on series whose stages read far back, and the extension
// pullback-sparse (flat stages, sparse covectors; semantics/pullback/sparse_stages.hpp) that is
// linear there and gives the same gradients.
#include <gtest/gtest.h>
#include <rapidcheck.h>

#include <fmt/format.h>

#include "generators/pullback/terms.hpp"
#include "properties/pullback/complexity_families.hpp"
#include "properties/pullback/frontend.hpp"
#include "semantics/pullback/sparse_stages.hpp"
#include "semantics/pullback/strategy.hpp"
#include "syntax/pullback/printer.hpp"

namespace adsem::pullback::sparse_stages_test {
namespace {

// a_k = sin(a_{k-1}) + x: every stage reads the outer x.
std::string long_range_let(int n) {
  std::string s = "\\x:R. ";
  for (int i = 1; i <= n; ++i)
    s +=
        fmt::format("let a{} = add(<sin({}), x>) in ", i, i == 1 ? "x" : fmt::format("a{}", i - 1));
  return s + fmt::format("a{}", n);
}

long rule_2_firings(int n) {
  const Tupled f = tupled_real_function(parse_closed(long_range_let(n)));
  RunOptions o;
  o.fuel = 100'000'000;
  const Run run = normalise(gradient_query(f, {1.0}, {0.3}), {}, o);
  return run.rule_counts.count("2") ? run.rule_counts.at("2") : 0;
}

// The diagnosis: rule 8 (seed 000 L240) nests the earlier variables one pair deeper per stage, so
// at stage k the outer x is the path w.1…1 of length about k, and rule 20a's ⟨V, E[V/w]⟩ (L248)
// projects it by rule 2 (π_i⟨V₁,V₂⟩ → V_i, L363) once per pair: Θ(n²) projections. Doubling n
// quadruples them; this is the paper's rules as printed, which the paper mechanism keeps.
TEST(PullbackSparseStages, PaperRulesProjectQuadraticallyOnLongRangeLets) {
  const long at20 = rule_2_firings(20), at40 = rule_2_firings(40), at80 = rule_2_firings(80);
  EXPECT_GT(at40, 3.5 * at20) << at20 << " " << at40;
  EXPECT_GT(at80, 3.7 * at40) << at40 << " " << at80;
  EXPECT_GT(at80, 80 * 79 / 2);
}

TEST(PullbackSparseStages, SameGradientAsThePaperMechanism) {
  const Frontend fe;
  for (const auto& [source, at] : std::vector<std::pair<std::string, std::vector<double>>>{
           {long_range_let(20), {0.3}},
           {"\\w:R. \\h0:R. let h1 = tanh(add(<mult(<w, h0>), 0.1>)) in let h2 = "
            "tanh(add(<mult(<w, h1>), 0.2>)) in h2",
            {0.7, -0.4}},
           {"\\p:R*R. let q = <mult(<p.1, p.2>), sin(p.1)> in let r = add(q) in mult(<r, q.1>)",
            {0.3, 0.7}},
           {"\\x:R. let y = <x, <2, x>> in let z = y.2 in add(<z.1, mult(<y.1, z.2>)>) + 0", {1.5}},
       }) {
    const props::GradResult paper = fe.grad(source, at, "pullback", {});
    const props::GradResult sparse = fe.grad(source, at, "pullback-sparse", {});
    EXPECT_EQ(sparse.mechanism, "pullback-sparse") << source;
    EXPECT_DOUBLE_EQ(sparse.value, paper.value) << source;
    ASSERT_EQ(sparse.gradient.size(), paper.gradient.size()) << source;
    for (std::size_t i = 0; i < paper.gradient.size(); ++i)
      EXPECT_NEAR(sparse.gradient[i], paper.gradient[i], 1e-12 * (1 + std::abs(paper.gradient[i])))
          << source;
  }
}

TEST(PullbackSparseStages, SameGradientOnRandomStraightLineQueries) {
  const auto result = rc::detail::checkTestable(
      [] {
        gen::Query q = *gen::first_order_query(true, 3);
        q.cotangent.assign(dim(q.tau), 0.0);
        for (double& c : q.cotangent)
          c = *rc::gen::inRange(-3, 4);
        q.omega = lam("u", q.tau, covec(q.cotangent, q.tau));
        std::vector<double> point;
        const std::function<void(const Term&)> flatten = [&](const Term& t) {
          if (t->kind == Kind::num) point.push_back(t->value);
          for (const Term& k : t->kids)
            flatten(k);
        };
        flatten(q.point);
        pullback::Run run;
        try {
          run = normalise(q.term());
        } catch (const AdsemError&) {
          RC_DISCARD("the reduction raised an error (domain, fuel)");
        }
        const auto sparse = sparse_stage_gradient(q.body, q.y, q.sigma, point, q.cotangent);
        RC_ASSERT(sparse.has_value());
        std::vector<double> reduced(dim(q.sigma), 0.0);
        if (run.result->kind == Kind::covec) reduced = run.result->vec.dense();
        RC_ASSERT(run.result->kind == Kind::covec || run.result->kind == Kind::zero);
        RC_ASSERT(sparse->gradient.size() == reduced.size());
        for (std::size_t i = 0; i < reduced.size(); ++i)
          RC_ASSERT(std::abs(sparse->gradient[i] - reduced[i]) <=
                    1e-9 * (1 + std::abs(reduced[i])));
      },
      rc::detail::TestMetadata{},
      [] {
        rc::detail::TestParams params;
        params.seed = 23;
        params.maxSuccess = 300;
        return params;
      }());
  EXPECT_EQ(result.template is<rc::detail::SuccessResult>(), true);
}

TEST(PullbackSparseStages, OutsideTheFirstOrderFragmentItDefersToThePaperRules) {
  const Term f = parse_closed("\\x:R. let h = \\z:R. sin(z) in h x");
  EXPECT_FALSE(sparse_stage_gradient(f->kids[0], f->name, f->type, {0.3}, {1.0}).has_value());
  const props::GradResult r =
      Frontend{}.grad("\\x:R. let h = \\z:R. sin(z) in h x", {0.3}, "pullback-sparse", {});
  EXPECT_NEAR(r.gradient.at(0), std::cos(0.3), 1e-15);
  EXPECT_NE(r.mechanism, "pullback-sparse");
}

// The long-range let series at N = 10,000 (built without the parser): steps linear in N (a constant
// per stage), the gradient the same as at N = 5,000 (the series has converged: a_k → a fixed
// point).
TEST(PullbackSparseStages, LongRangeLetsAreLinearUpToTenThousand) {
  const auto run = [](int n) {
    const Term f = long_range_let_term(n);
    return *sparse_stage_gradient(f->kids[0], f->name, f->type, {0.3}, {1.0});
  };
  const SparseGradient small = run(100), half = run(5000), full = run(10'000);
  EXPECT_EQ(full.stages, 30'001u); // sin, ⟨·,·⟩, add per let; the result
  EXPECT_LE(full.steps, 2 * half.steps + 10);
  EXPECT_LE(full.steps, 8 * 10'000 + 10);
  EXPECT_NEAR(full.gradient.at(0), small.gradient.at(0), 1e-12);
  EXPECT_EQ(full.value, half.value);
}

// The same series read from source text, as `adsem grad pullback FILE --mechanism
// pullback-sparse` reads it: 10,000 lets parse and check (syntax/pullback/nesting.hpp) and the
// gradient is the one of the series built as a term.
TEST(PullbackSparseStages, LongRangeLetsOfTenThousandReadFromSourceText) {
  constexpr int n = 10'000;
  std::string source = "\\x:R. ";
  for (int i = 1; i <= n; ++i)
    source += fmt::format("let a{} = add(<sin({}), x>) in ", i,
                          i == 1 ? std::string("x") : fmt::format("a{}", i - 1));
  source += fmt::format("a{}", n);
  const props::GradResult r = Frontend{}.grad(source, {0.3}, "pullback-sparse", {});
  EXPECT_EQ(r.mechanism, "pullback-sparse");
  const Term f = long_range_let_term(n);
  const SparseGradient built = *sparse_stage_gradient(f->kids[0], f->name, f->type, {0.3}, {1.0});
  ASSERT_EQ(r.gradient.size(), 1u);
  EXPECT_EQ(r.gradient[0], built.gradient.at(0));
  EXPECT_EQ(r.value, built.value.at(0));
}

// The wide sum's n inputs are the paths p.1…1.2 of one tuple, as long as the input's position:
// each is read from its node's remembered place in p's slots, not by walking the path from p (the
// extension was Θ(n²) here). The gradient is every input's 1, the paper mechanism's at small n.
TEST(PullbackSparseStages, TheWideSumsInputsAreReadWithoutWalkingTheirPaths) {
  const auto run = [](int n) {
    const Term f = wide_sum_function(n);
    return *sparse_stage_gradient(f->kids[0], f->name, f->type,
                                  std::vector<double>(static_cast<std::size_t>(n), 0.3), {1.0});
  };
  const SparseGradient full = run(10'000), half = run(5'000);
  EXPECT_EQ(full.gradient, std::vector<double>(10'000, 1.0));
  EXPECT_NEAR(full.value.at(0), 3000.0, 1e-9);
  EXPECT_LE(full.steps, 2 * half.steps + 10);
  const Term small = wide_sum_function(6);
  const std::vector<double> at = {0.5, -1.0, 2.0, 0.25, 3.0, -0.75};
  RunOptions o;
  o.fuel = 1'000'000;
  const pullback::Run paper = normalise(gradient_query({small, small->type}, {1.0}, at), {}, o);
  ASSERT_EQ(paper.result->kind, Kind::covec) << print(paper.result);
  EXPECT_EQ(paper.result->vec.dense(), run(6).gradient);
}

// A path node read under two bindings of its root (a source let binding the name again, the node
// shared): the second read sees the second binding's slots at the place remembered from the first
// (the place is relative to the root's slots, not the slots themselves).
TEST(PullbackSparseStages, APathReadAgainAfterItsRootIsBoundAgainReadsTheNewBinding) {
  const Type r2 = prod(real_type(), real_type());
  const Term first = proj(1, var("q", r2)); // one node, read twice
  const Term p = var("p", r2);
  const Term body =
      let("q", r2, p,
          let("a", real_type(), first,
              let("q", r2, pair(proj(2, p), proj(1, p)),
                  let("b", real_type(), first,
                      make_prim("add", pair(var("a", real_type()), var("b", real_type())))))));
  const auto g = sparse_stage_gradient(body, "p", r2, {2.0, 5.0}, {1.0});
  ASSERT_TRUE(g.has_value());
  EXPECT_EQ(g->value, std::vector<double>{7.0}); // a = p.1 = 2, b = p.2 = 5
  EXPECT_EQ(g->gradient, (std::vector<double>{1.0, 1.0}));
}

} // namespace
} // namespace adsem::pullback::sparse_stages_test
