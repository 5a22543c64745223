// [perf] Atoms over a shared spine (syntax/pullback/ast.hpp components, substitution.cpp): the
// paths of a tupled argument share their projections, substitution keeps that sharing, and the
// terms are those of the unshared paths (printing, equality, atoms); the remembered atom mark
// never survives a copy with other kids.
#include <gtest/gtest.h>

#include "syntax/pullback/printer.hpp"
#include "syntax/pullback/substitution.hpp"

namespace adsem::pullback::shared_paths_test {
namespace {

Term real_var(const std::string& x) {
  return var(x, real_type());
}

// Component i of p : Rⁿ built path by path, nothing shared (the construction before).
Term unshared_component(const Term& p, std::size_t n, std::size_t i) {
  if (n == 1) return p;
  if (i == n - 1) return proj(2, p);
  return unshared_component(proj(1, p), n - 1, i);
}

// x1 + … + xn with xi the i-th component, and the root of the i-th path.
Term sum_of(const std::vector<Term>& parts) {
  return sum(std::vector<Term>(parts.begin(), parts.end()));
}

TEST(PullbackSharedPaths, ComponentsAreTheNestedProjectionsOverOneSpine) {
  for (const std::size_t n : {1U, 2U, 3U, 7U}) {
    const Term p = var("p", real_power(n));
    const std::vector<Term> parts = components(p, n);
    ASSERT_EQ(parts.size(), n);
    for (std::size_t i = 0; i < n; ++i) {
      const Term expected = unshared_component(p, n, i);
      EXPECT_TRUE(alpha_equal(parts[i], expected)) << n << " " << i;
      EXPECT_EQ(print(parts[i]), print(expected));
      EXPECT_TRUE(is_atom(parts[i]));
      EXPECT_EQ(atom_root(parts[i]), "p");
      EXPECT_EQ(atom_path(parts[i]), atom_path(expected));
    }
    if (n >= 3) { // the first two components read the same π₁ⁿ⁻²(p)
      EXPECT_EQ(parts[0]->kids[0], parts[1]->kids[0]);
      EXPECT_EQ(parts[1]->kids[0]->kids[0], parts[2]->kids[0]);
    }
  }
}

// Rule 8's substitution y := π₁(w), z := π₂(w) (seed 000 Fig. 3 L240) over the shared paths gives
// the terms of the unshared ones, and the spine stays shared in the result.
TEST(PullbackSharedPaths, SubstitutionKeepsTheSpineShared) {
  const std::size_t n = 6;
  const Type sigma = real_power(n);
  const Term p = var("p", sigma);
  const Term w = var("w", prod(sigma, real_type()));
  const Term shared = sum_of(components(p, n));
  std::vector<Term> plain;
  for (std::size_t i = 0; i < n; ++i)
    plain.push_back(unshared_component(p, n, i));
  const Term unshared = sum_of(plain);
  const Term a = substitute_in_turn(shared, "p", proj(1, w), "z", proj(2, w));
  const Term b = substitute_in_turn(unshared, "p", proj(1, w), "z", proj(2, w));
  EXPECT_EQ(print(a), print(b));
  EXPECT_TRUE(alpha_equal(a, b));
  EXPECT_EQ(a->kids[0]->kids[0], a->kids[1]->kids[0]); // still one spine
  EXPECT_EQ(atom_path(a->kids[0]), (std::vector<int>{1, 1, 1, 1, 1, 1}));
  const Term c = substitute(shared, "p", proj(1, w));
  EXPECT_EQ(print(c), print(a));
  EXPECT_EQ(c->kids[0]->kids[0], c->kids[1]->kids[0]);
  // under a binder that hides p the shared path is left alone, outside it is substituted
  const Term hidden = pair(lam("p", sigma, shared->kids[0]), shared->kids[1]);
  const Term d = substitute(hidden, "p", proj(1, w));
  EXPECT_EQ(d->kids[0], hidden->kids[0]);
  EXPECT_EQ(atom_root(d->kids[1]), "w");
  for (const Term& e : {substitute_in_turn(hidden, "p", proj(1, w), "z", proj(2, w)),
                        substitute_each(hidden, {{"p", proj(1, w)}})}) {
    EXPECT_EQ(print(e), print(d));
    EXPECT_EQ(e->kids[0], hidden->kids[0]);
  }
}

// substitute_each is the substitutions in turn: at once where that is the same, and in turn
// where a later name occurs in an earlier replacement, a name repeats or a binder would capture.
TEST(PullbackSharedPaths, SubstituteEachIsTheSubstitutionsInTurn) {
  const Term x = real_var("x");
  const Term y = real_var("y");
  const Term body = pair(pair(x, y), lam("y", real_type(), pair(x, y)));
  const auto in_turn = [](Term t, const std::vector<std::pair<std::string, Term>>& by) {
    for (const auto& [v, s] : by)
      t = substitute(t, v, s);
    return t;
  };
  const std::vector<std::vector<std::pair<std::string, Term>>> cases = {
      {{"x", proj(1, var("q", prod(real_type(), real_type())))}, {"y", num(2.0)}},
      {{"x", y}, {"y", num(3.0)}},        // y occurs in x's replacement
      {{"x", num(1.0)}, {"x", num(2.0)}}, // a name twice
      {{"x", real_var("y")}},             // the binder y would capture
      {{"y", prim("sin", arrow(real_type(), real_type()), x)}, {"x", num(4.0)}},
  };
  for (const auto& by : cases) {
    const Term expected = in_turn(body, by);
    const Term got = substitute_each(body, by); // a renamed binder draws its own fresh name
    EXPECT_TRUE(alpha_equal(got, expected)) << print(expected);
  }
}

TEST(PullbackSharedPaths, ACopiedNodeNeverKeepsItsAtomMark) {
  const Term t = proj(1, var("p", prod(real_type(), real_type())));
  ASSERT_TRUE(is_atom(t)); // remembered now
  Node n = *t;
  n.kids[0] = pair(num(1.0), num(2.0)); // π₁⟨1, 2⟩ is no atom
  const Term copy = make_node(std::move(n));
  EXPECT_FALSE(is_atom(copy));
  EXPECT_TRUE(is_atom(t));
  EXPECT_FALSE(is_atom(proj(2, copy)));
}

} // namespace
} // namespace adsem::pullback::shared_paths_test
