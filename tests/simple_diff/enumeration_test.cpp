// Bounded-exhaustive enumeration of simple-diff (generators/simple_diff/enumeration.hpp,
// properties/simple_diff/enumeration.hpp, docs/enumeration.md): the counts of the smallest sizes
// by hand, every term well typed at its size, a mutant killed with a smallest counterexample, the
// paper's semantics passing to the bound, and the CLI.
#include <atomic>
#include <set>

#include <gtest/gtest.h>

#include "cli/builtin_registry.hpp"
#include "generators/simple_diff/enumeration.hpp"
#include "properties/core/enumeration.hpp"
#include "semantics/simple_diff/run.hpp"
#include "syntax/simple_diff/printer.hpp"
#include "syntax/simple_diff/typecheck.hpp"
#include "tests/support/cli_run.hpp"

namespace adsem::simple_diff::enumeration_test {
namespace {

const props::Registry& registry() {
  static const props::Registry r = cli::builtin_registry();
  return r;
}

// x : real ⊢ _ : real, by hand (literals 0, 1, -2; docs/enumeration.md):
//   size 1: x and the 3 literals                                                    4
//   size 2: exp(a), log(a), a of size 1 (no real × real term has size 1)            2·4 = 8
//   size 3: a + b (4·4); exp, log of a size-2 term (2·8); let y1:real = a in b
//           (4·5, b may be y1); let y1:unit = * in b (4); letrec_2 f1(y1) = a in b
//           (4·4: a over y1, b over x)                                                 72
TEST(SimpleDiffEnumeration, CountsOfTheSmallestSizesAreTheHandCounts) {
  gen::TermEnumeration e(gen::EnumGrammar{}, {4});
  const gen::EnumSort program = gen::enum_program_sort();
  EXPECT_EQ(e.count(program, 1), 4U);
  EXPECT_EQ(e.count(program, 2), 8U);
  EXPECT_EQ(e.count(program, 3), 72U);
  EXPECT_EQ(props::enumeration_counts(registry(), "simple-diff", 3),
            (std::vector<std::uint64_t>{0, 4, 8, 72}));
}

// Every enumerated term type-checks at real in x : real, has the size it is listed under, and is
// listed once.
TEST(SimpleDiffEnumeration, EveryTermIsWellTypedOfItsSizeAndDistinct) {
  const int bound = 6;
  gen::TermEnumeration e(gen::EnumGrammar{}, {bound});
  const gen::EnumSort program = gen::enum_program_sort();
  long total = 0;
  for (int n = 1; n <= bound; ++n) {
    std::set<std::string> seen;
    const std::uint64_t count = e.count(program, n);
    for (std::uint64_t i = 0; i < count; ++i) {
      const Term m = e.nth(program, n, i);
      ASSERT_EQ(term_size(*m), n) << print(m);
      const Typed typed = typecheck(m, primitives(), {{"x", real_type()}});
      ASSERT_TRUE(same_type(typed.type, real_type())) << print(m);
      seen.insert(print(m));
    }
    EXPECT_EQ(seen.size(), count) << "size " << n;
    total += static_cast<long>(count);
  }
  EXPECT_GT(total, 1000);
}

props::EnumerationResult run(const std::string& mutant, std::vector<std::string> properties,
                             int max_size) {
  props::EnumerationOptions o;
  o.calculus = "simple-diff";
  o.mutant = mutant;
  o.properties = std::move(properties);
  o.max_size = max_size;
  return props::run_enumeration(registry(), o);
}

// The transposed pullback of a unary op is found by adequacy at size 5, the smallest size with
// rd around an op (1.rd_V(y1:real. exp(y1)) needs 5 nodes): enumeration reports a smallest
// counterexample, with no shrinking.
TEST(SimpleDiffEnumeration, KillsATransposedPullbackWithASmallestCounterexample) {
  const auto r =
      run("simple-diff/op-r-arguments-swapped", {"simple-diff/operational-correctness"}, 5);
  ASSERT_EQ(r.rows.size(), 1U);
  const props::EnumerationRow& row = r.rows[0];
  ASSERT_TRUE(row.first.has_value());
  EXPECT_FALSE(row.first->error) << row.first->reason;
  EXPECT_EQ(row.first->size, 5) << row.first->input;
  EXPECT_NE(row.first->input.find(".rd"), std::string::npos) << row.first->input;
  // nothing of size <= 4 fails (the sizes run in order and the first failure is kept)
  const auto clean =
      run("simple-diff/op-r-arguments-swapped", {"simple-diff/operational-correctness"}, 4);
  EXPECT_FALSE(clean.rows[0].first.has_value());
}

// L-scall as printed (seed 003 line 930) drops the let x:T = V wrapper of a limited call's trace:
// the smallest program with a limited call, letrec[2] f1(y1:real):real = y1 in f1(x) (size 4),
// already has a trace with y1 free, which type-preservation (Prop. 3.6) rejects.
TEST(SimpleDiffEnumeration, TypePreservationKillsTheLiteralLScallAtSizeFour) {
  const auto r = run("simple-diff/paper-literal-l-scall", {"simple-diff/type-preservation"}, 5);
  ASSERT_TRUE(r.rows[0].first.has_value());
  EXPECT_EQ(r.rows[0].first->size, 4) << r.rows[0].first->input;
  EXPECT_NE(r.rows[0].first->input.find("letrec[2] f1(y1:real):real = y1 in f1(x)"),
            std::string::npos)
      << r.rows[0].first->input;
}

// A stop request (SIGINT/SIGTERM) ends the run before its next term; the sizes finished are
// reported and the run is incomplete.
TEST(SimpleDiffEnumeration, AStopRequestEndsTheRunCleanly) {
  const std::atomic<bool> stop{true};
  props::EnumerationOptions o;
  o.calculus = "simple-diff";
  o.max_size = 4;
  o.stop_requested = &stop;
  const auto r = props::run_enumeration(registry(), o);
  EXPECT_EQ(r.stopped_by, "interrupted");
  EXPECT_FALSE(r.complete);
  EXPECT_EQ(r.completed_size, 0);
  for (const auto& row : r.rows)
    EXPECT_EQ(row.checked, 0);
}

// The paper's rules hold on every input to size 5 for every property that takes part; each
// checked some inputs, and the discards carry reasons.
TEST(SimpleDiffEnumeration, ThePapersSemanticsPassesToTheBound) {
  const auto r = run("", {}, 5);
  EXPECT_TRUE(r.complete);
  ASSERT_GE(r.rows.size(), 5U);
  for (const props::EnumerationRow& row : r.rows) {
    EXPECT_FALSE(row.first.has_value()) << row.property << ": " << row.first->input << "\n"
                                        << row.first->reason;
    EXPECT_GT(row.checked, 0) << row.property;
    EXPECT_EQ(row.checked, row.passed) << row.property;
    for (const auto& [reason, n] : row.discards)
      EXPECT_FALSE(reason.empty()) << row.property;
  }
}

// A call of letrec[2] past its limit (clo_0, Fig. 8) is the approximant's definite ⊥, not an
// unknown: operational-interpolation checks every such input (no `fuel` discard; there were
// 32 to size 5 when the trace branch read clo_0's error as running out of fuel).
TEST(SimpleDiffEnumeration, InterpolationChecksTheLimitedRecursionsBottom) {
  const auto r = run("", {"simple-diff/operational-interpolation"}, 5);
  ASSERT_EQ(r.rows.size(), 1U);
  EXPECT_FALSE(r.rows[0].first.has_value());
  EXPECT_EQ(r.rows[0].discards.count("fuel"), 0U);
  EXPECT_EQ(r.rows[0].checked, r.rows[0].passed);
  EXPECT_EQ(r.rows[0].checked, 10200);
}

TEST(SimpleDiffEnumeration, TheCommandPrintsCountsVerdictsAndExitCodes) {
  const auto counts =
      testing::run_cli(registry(), {"enumerate", "simple-diff", "-k", "3", "--counts"});
  EXPECT_EQ(counts.code, 0) << counts.err;
  EXPECT_NE(counts.out.find("72"), std::string::npos) << counts.out;
  const auto held = testing::run_cli(
      registry(), {"enumerate", "simple-diff", "-p", "simple-diff/type-preservation", "-k", "4"});
  EXPECT_EQ(held.code, 0) << held.out << held.err;
  EXPECT_NE(held.out.find("held"), std::string::npos) << held.out;
  const auto killed = testing::run_cli(
      registry(), {"enumerate", "simple-diff", "-p", "simple-diff/operational-correctness", "-k",
                   "5", "-m", "simple-diff/op-r-arguments-swapped", "--json"});
  EXPECT_EQ(killed.code, 1) << killed.out << killed.err;
  EXPECT_NE(killed.out.find("\"counterexample\""), std::string::npos) << killed.out;
  EXPECT_EQ(
      testing::run_cli(registry(), {"enumerate", "simple-diff", "-k", "3", "--trials", "4"}).code,
      2);
  EXPECT_EQ(testing::run_cli(registry(), {"enumerate", "simple-diff", "-k", "3", "-p",
                                          "simple-diff/linear-cost"})
                .code,
            2); // a property without a check of one input
  const auto help = testing::run_cli(registry(), {"enumerate", "--help"});
  EXPECT_EQ(help.code, 0);
  EXPECT_NE(help.out.find("--max-size"), std::string::npos);
}

} // namespace
} // namespace adsem::simple_diff::enumeration_test
