// The simple-diff generator builds its terms annotated (pairs and projections carry T, U), so a
// draw is not type-checked again: the type checker must accept every drawn term at its drawn
// type and fill in exactly the annotations the builder wrote (seed 003 Fig. 1, line 110).
#include <gtest/gtest.h>
#include <rapidcheck.h>

#include "generators/simple_diff/terms.hpp"
#include "semantics/simple_diff/run.hpp"
#include "syntax/simple_diff/printer.hpp"

namespace adsem::simple_diff::generator_test {
namespace {

constexpr std::uint64_t seed = 20261129;

// Same tree, and on pairs and projections both annotations present and equal.
bool same_elaboration(const Term& built, const Term& checked, std::string& where) {
  if (built->kind != checked->kind) {
    where = print(built);
    return false;
  }
  if (built->kind == Kind::pair || built->kind == Kind::fst || built->kind == Kind::snd) {
    if (!built->ann_left() || !built->ann_right() ||
        !same_type(built->ann_left(), checked->ann_left()) ||
        !same_type(built->ann_right(), checked->ann_right())) {
      where = print(built);
      return false;
    }
  }
  const Term b[] = {built->a, built->b, built->c};
  const Term c[] = {checked->a, checked->b, checked->c};
  for (int i = 0; i < 3; ++i) {
    if (!b[i] != !c[i]) {
      where = print(built);
      return false;
    }
    if (b[i] && !same_elaboration(b[i], c[i], where)) return false;
  }
  return true;
}

TEST(SimpleDiffGenerators, BuiltTermsAreElaborated) {
  gen::TermOptions divergent;
  divergent.divergent = true;
  gen::TermOptions traces;
  traces.trace_only = true;
  const std::vector<rc::Gen<gen::OpenTerm>> gens = {
      gen::open_term(), gen::open_term({.real_result = true, .result = nullptr}),
      gen::open_term(divergent), gen::open_term(traces)};
  for (std::size_t g = 0; g < gens.size(); ++g) {
    for (int i = 0; i < 150; ++i) {
      const gen::OpenTerm t =
          gens[g](rc::Random(seed + 1000 * g + static_cast<std::uint64_t>(i)), 100).value();
      const Typed typed = typecheck(t.term, primitives(), gen::gamma_of(t));
      EXPECT_TRUE(same_type(typed.type, t.type)) << print(t.term);
      std::string where;
      EXPECT_TRUE(same_elaboration(t.term, typed.term, where))
          << "annotations differ at " << where << " in " << print(t.term);
    }
  }
}

} // namespace
} // namespace adsem::simple_diff::generator_test
