// Bounded-exhaustive enumeration of delta-reverse (generators/delta_reverse/enumeration.hpp,
// properties/delta_reverse/enumeration.hpp, docs/enumeration.md): the counts of the smallest
// sizes by hand, every program well typed at its size, a mutant killed with a smallest
// counterexample, and the paper's semantics passing to the bound.
#include <set>

#include <gtest/gtest.h>

#include "cli/builtin_registry.hpp"
#include "generators/delta_reverse/enumeration.hpp"
#include "properties/core/enumeration.hpp"
#include "syntax/delta_reverse/printer.hpp"
#include "syntax/delta_reverse/typecheck.hpp"

namespace adsem::delta_reverse::enumeration_test {
namespace {

const props::Registry& registry() {
  static const props::Registry r = cli::builtin_registry();
  return r;
}

props::EnumerationResult run(const std::string& mutant, std::vector<std::string> properties,
                             int max_size) {
  props::EnumerationOptions o;
  o.calculus = "delta-reverse";
  o.mutant = mutant;
  o.properties = std::move(properties);
  o.max_size = max_size;
  return props::run_enumeration(registry(), o);
}

// Programs λx:Real. e, by hand (literals 1.0, -2.0 of Real):
//   size 2: e is x, 1.0 or -2.0                                                      3
//   size 3: none (no body of size 2: a unary call is app, op and its argument)       0
//   size 4: sin a, log a, fromInt k (k 0 or 1), a of size 1: 3 + 3 + 2; let y1 = a in b
//           with a, b of size 1: a : Real (3 choices, b then x, y1 or 2 literals: 4) or a : Int
//           (2 choices, b: x or 2 literals: 3)                                        26
TEST(DeltaReverseEnumeration, CountsOfTheSmallestSizesAreTheHandCounts) {
  EXPECT_EQ(props::enumeration_counts(registry(), "delta-reverse", 4),
            (std::vector<std::uint64_t>{0, 0, 3, 0, 26}));
}

// Every enumerated body type-checks at Real in x : Real, has the size it is listed under (with
// the λ, the program's), and is listed once.
TEST(DeltaReverseEnumeration, EveryProgramIsWellTypedOfItsSizeAndDistinct) {
  const int bound = 7;
  gen::TermEnumeration e(gen::EnumGrammar{}, {bound});
  const gen::EnumSort body = gen::enum_body_sort();
  long total = 0;
  for (int n = 1; n <= bound; ++n) {
    std::set<std::string> seen;
    const std::uint64_t count = e.count(body, n);
    for (std::uint64_t i = 0; i < count; ++i) {
      const Term m = e.nth(body, n, i);
      ASSERT_EQ(size_of(m), static_cast<std::size_t>(n)) << print(m);
      const Typed typed = typecheck(m, {{"x", real_type()}});
      ASSERT_TRUE(same_type(typed.type, real_type())) << print(m);
      seen.insert(print(m));
    }
    EXPECT_EQ(seen.size(), count) << "size " << n;
    total += static_cast<long>(count);
  }
  EXPECT_GT(total, 3000);
}

// eval writing m[id] := x instead of adding: the smallest program with fan-out, λx. x + x (size
// 6), is its counterexample, found without shrinking; nothing smaller fails.
TEST(DeltaReverseEnumeration, KillsOverwriteOnFanOutWithTheSmallestFanOut) {
  const auto r =
      run("delta-reverse/eval-overwrites-on-fan-out", {"delta-reverse/reverse-correctness"}, 6);
  ASSERT_EQ(r.rows.size(), 1U);
  ASSERT_TRUE(r.rows[0].first.has_value());
  EXPECT_EQ(r.rows[0].first->size, 6) << r.rows[0].first->input;
  EXPECT_NE(r.rows[0].first->input.find("x + x"), std::string::npos) << r.rows[0].first->input;
}

// The first counterexample of each property run, its size and program.
void expect_smallest(const props::EnumerationResult& r, const std::string& property, int size,
                     const std::string& program) {
  for (const props::EnumerationRow& row : r.rows)
    if (row.property == property) {
      ASSERT_TRUE(row.first.has_value()) << property;
      EXPECT_EQ(row.first->size, size) << property << ": " << row.first->input;
      EXPECT_NE(row.first->input.find(program), std::string::npos)
          << property << ": " << row.first->input;
      return;
    }
  ADD_FAILURE() << property << " did not run";
}

// mulR's partials swapped: the Fig. 15 wrapper's ⊙ multiplies with mulR, so the smallest program,
// \(x : Real). x (size 2), already gets a wrong gradient from R{e}; finite differences and the
// seeded wrapper see it there. The tape (Fig. 11) of that program has no mulR: dense-tape-adequacy
// first fails on \(x : Real). 1.0 * x (size 6), as forward-correctness does.
TEST(DeltaReverseEnumeration, KillsPartialsSwappedAtSizesTwoAndSix) {
  const auto r = run("delta-reverse/partials-swapped",
                     {"delta-reverse/reverse-vs-finite-differences",
                      "delta-reverse/wrapper-variants-agree", "delta-reverse/dense-tape-adequacy"},
                     6);
  expect_smallest(r, "delta-reverse/reverse-vs-finite-differences", 2, "x  at 0.5");
  expect_smallest(r, "delta-reverse/wrapper-variants-agree", 2, "x  at 0.5");
  expect_smallest(r, "delta-reverse/dense-tape-adequacy", 6, "1.0 * x");
}

// The sweep oldest first: with the Fig. 15 wrapper's ⊙ (a mulR binding) beside sin's,
// wrapper-variants-agree fails on \(x : Real). sin x (size 4); R1 and R2 do not sweep, and the
// Fig. 11 wrapper needs two primitive bindings to go wrong: reverse-versions-agree and the
// dot-product test fail on \(x : Real). sin (sin x) (size 6). Eval overwriting on fan-out: the
// dot-product test fails on the smallest fan-out, \(x : Real). x + x (size 6).
TEST(DeltaReverseEnumeration, KillsSweepOrderAndOverwriteWithTheSmallestPrograms) {
  const auto order =
      run("delta-reverse/eval-in-allocation-order",
          {"delta-reverse/wrapper-variants-agree", "delta-reverse/reverse-versions-agree",
           "delta-reverse/forward-reverse-duality"},
          6);
  expect_smallest(order, "delta-reverse/wrapper-variants-agree", 4, "sin x");
  expect_smallest(order, "delta-reverse/reverse-versions-agree", 6, "sin (sin x)");
  expect_smallest(order, "delta-reverse/forward-reverse-duality", 6, "sin (sin x)");
  const auto overwrite =
      run("delta-reverse/eval-overwrites-on-fan-out", {"delta-reverse/forward-reverse-duality"}, 6);
  expect_smallest(overwrite, "delta-reverse/forward-reverse-duality", 6, "x + x");
}

// The paper's rules hold on every input to size 7 (7,318 inputs) for all sixteen properties that
// take part: the four of one drawn program and the twelve whose checks the random bodies share.
TEST(DeltaReverseEnumeration, ThePapersSemanticsPassesToTheBound) {
  const auto r = run("", {}, 7);
  EXPECT_TRUE(r.complete);
  ASSERT_EQ(r.rows.size(), 16U);
  for (const props::EnumerationRow& row : r.rows) {
    EXPECT_FALSE(row.first.has_value()) << row.property << ": " << row.first->input << "\n"
                                        << row.first->reason;
    EXPECT_GT(row.checked, 0) << row.property;
  }
}

} // namespace
} // namespace adsem::delta_reverse::enumeration_test
