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

// The paper's rules hold on every input to size 7 for every property that takes part.
TEST(DeltaReverseEnumeration, ThePapersSemanticsPassesToTheBound) {
  const auto r = run("", {}, 7);
  EXPECT_TRUE(r.complete);
  ASSERT_EQ(r.rows.size(), 4U);
  for (const props::EnumerationRow& row : r.rows) {
    EXPECT_FALSE(row.first.has_value()) << row.property << ": " << row.first->input << "\n"
                                        << row.first->reason;
    EXPECT_GT(row.checked, 0) << row.property;
  }
}

} // namespace
} // namespace adsem::delta_reverse::enumeration_test
