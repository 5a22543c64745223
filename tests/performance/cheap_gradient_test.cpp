// The cheap-gradient constant ω of `adsem complexity` (properties/core/operation_weights.hpp):
// each calculus's table of primitive-operation entries names entries of its own rule book (names
// cannot drift when a book changes), every mechanism that measures ω counts primitive firings on
// both sides of a small program, and the verdict against Griewank–Walther's bound is computed
// and reported (a finding, never asserted).
#include <cmath>
#include <set>
#include <sstream>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "cli/app.hpp"
#include "cli/builtin_registry.hpp"
#include "properties/core/complexity.hpp"

namespace adsem {
namespace {

const props::Registry& registry() {
  static const props::Registry r = cli::builtin_registry();
  return r;
}

class CheapGradient : public ::testing::TestWithParam<std::string> {};

TEST_P(CheapGradient, EveryWeightedNameIsAnEntryOfTheBook) {
  const props::CalculusEntry* entry = registry().find(GetParam());
  ASSERT_NE(entry, nullptr);
  std::set<std::string> book;
  for (const RuleInfo& info : entry->rule_table)
    book.insert(info.name);
  ASSERT_FALSE(book.empty()) << GetParam() << " lists no rule book";
  int tables = 0;
  for (const props::ComplexityFamily& f : entry->complexity_families()) {
    if (f.weights.empty()) continue;
    ++tables;
    for (const props::OperationWeight& w : f.weights.entries) {
      EXPECT_TRUE(book.count(w.entry)) << f.mechanism << " weighs '" << w.entry
                                       << "', which is no entry of " << GetParam() << "'s book";
      EXPECT_GT(w.weight, 0) << w.entry; // an entry that weighs 0 is left out of the table
      EXPECT_FALSE(w.operation.empty()) << w.entry;
    }
  }
  EXPECT_GT(tables, 0) << GetParam() << ": no mechanism measures ω";
}

TEST_P(CheapGradient, PrimitiveFiringsAreCountedOnBothSidesOfASmallProgram) {
  const props::CalculusEntry* entry = registry().find(GetParam());
  ASSERT_NE(entry, nullptr);
  props::ComplexityOptions o;
  o.time_it = false;
  for (const props::ComplexityFamily& f : entry->complexity_families()) {
    if (f.weights.empty()) continue;
    o.max_n = f.sizes.front(); // the family's smallest program
    const std::string what = f.mechanism + " on " + f.family;
    const props::ComplexityRow r = props::run_complexity_family(f, o);
    ASSERT_FALSE(r.n.empty()) << what << ": " << r.stopped;
    ASSERT_EQ(r.omega.size(), r.n.size()) << what;
    for (std::size_t i = 0; i < r.n.size(); ++i) {
      EXPECT_GT(r.primal_ops[i], 0) << what << " n = " << r.n[i];
      EXPECT_GT(r.derivative_ops[i], 0) << what << " n = " << r.n[i];
      EXPECT_TRUE(std::isfinite(r.omega[i])) << what << " n = " << r.n[i];
    }
    EXPECT_FALSE(r.omega_verdict().empty()) << what;
  }
}

INSTANTIATE_TEST_SUITE_P(Calculi, CheapGradient,
                         ::testing::Values("delta-reverse", "linear-negation", "pullback",
                                           "simple-diff", "perturbative"),
                         [](const auto& info) {
                           std::string s = info.param;
                           for (char& c : s)
                             if (c == '-') c = '_';
                           return s;
                         });

// A toy mechanism whose derivative does 3n or 5n operations on a primal of n: ω and the verdict
// against the reverse bound 4, in the row, the CSV and the text table.
props::ComplexityFamily toy(double per_operation) {
  props::ComplexityFamily f;
  f.calculus = "toy";
  f.mechanism = "reverse";
  f.family = "chain";
  f.sizes = {1, 2, 4};
  f.weights = {{{"mul", 1, "one multiplication"}}};
  f.make = [per_operation](int n) {
    props::ComplexityInstance in{[n] { return double(n); }, [n] { return 10.0 * n; }};
    in.primal_ops = [n] { return double(n); };
    in.derivative_ops = [n, per_operation] { return per_operation * n; };
    return in;
  };
  return f;
}

TEST(CheapGradientRunner, ComputesOmegaAndItsVerdict) {
  props::ComplexityOptions o;
  o.time_it = false;
  const props::ComplexityRow within = props::run_complexity_family(toy(3), o);
  EXPECT_EQ(within.omega, (std::vector<double>{3, 3, 3}));
  EXPECT_EQ(within.omega_bound(), 4);
  EXPECT_EQ(within.omega_verdict(), "within");
  const props::ComplexityRow above = props::run_complexity_family(toy(5), o);
  EXPECT_EQ(above.omega_verdict(), "above");
  const std::string csv = props::complexity_csv({above});
  EXPECT_NE(csv.find(",omega,omega_bound,omega_verdict\n"), std::string::npos) << csv;
  EXPECT_NE(csv.find(",4,20,5,4,above\n"), std::string::npos) << csv;
  // a family without weights measures no ω
  props::ComplexityFamily none = toy(3);
  none.weights = {};
  EXPECT_TRUE(props::run_complexity_family(none, o).omega.empty());
  EXPECT_EQ(props::run_complexity_family(none, o).omega_verdict(), "");
}

int run_cli(const std::vector<std::string>& args, std::string& out) {
  std::ostringstream o, e;
  const int code = cli::run(args, registry(), cli::Io{o, e});
  out = o.str();
  return code;
}

TEST(CheapGradientCommand, ReportsOmegaInTextAndJsonAndListsTheWeights) {
  std::string out;
  ASSERT_EQ(run_cli({"adsem", "complexity", "simple-diff", "--max-n", "20", "--no-time", "--family",
                     "let-series", "--family-seconds", "0.1", "--json"},
                    out),
            0)
      << out;
  for (const auto& row : nlohmann::json::parse(out)["rows"]) {
    ASSERT_TRUE(row["omega"].is_object()) << row.dump();
    const auto& w = row["omega"];
    EXPECT_EQ(w["mode"], "reverse");
    EXPECT_EQ(w["bound"], 4.0);
    EXPECT_EQ(w["omega"].size(), row["n"].size());
    EXPECT_TRUE(w["verdict"] == "within" || w["verdict"] == "above") << w.dump();
    EXPECT_FALSE(w["weights"].empty());
  }
  ASSERT_EQ(run_cli({"adsem", "complexity", "perturbative", "--max-n", "5", "--no-time", "--family",
                     "wide-sum"},
                    out),
            0);
  EXPECT_NE(out.find("the forward bound 2.5]"), std::string::npos) << out;
  ASSERT_EQ(run_cli({"adsem", "complexity", "--weights"}, out), 0);
  for (const char* entry : {"O-op", "delta", "prim-23", "eval-Scale", "N1"})
    EXPECT_NE(out.find(entry), std::string::npos) << entry << "\n" << out;
}

} // namespace
} // namespace adsem
