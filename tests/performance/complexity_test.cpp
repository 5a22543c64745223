// The complexity machinery (slopes, sizes, CSV/SVG) and the papers' bounded-ratio
// claims on small n. A mechanism the paper proves linear must keep a flat ratio (log-log slope
// < 0.05 over the upper half of the sizes), and every negative control must grow. Only cost
// counts are asserted here; wall-clock ratios live in the benchmarks and `adsem complexity`.
#include <cmath>
#include <functional>
#include <memory>
#include <set>
#include <sstream>

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "cli/app.hpp"
#include "cli/builtin_registry.hpp"
#include "properties/core/complexity.hpp"
#include "properties/core/memory.hpp"
#include "syntax/core/diagnostic.hpp"

namespace adsem::complexity_test {
namespace {

using props::ComplexityClaim;

const props::Registry& registry() {
  static const props::Registry r = cli::builtin_registry();
  return r;
}

TEST(ComplexitySlope, RecoversThePowerOfAPowerLaw) {
  const std::vector<double> n = {10, 20, 50, 100, 200, 500};
  std::vector<double> square, flat, linear;
  for (const double x : n) {
    square.push_back(3 * x * x);
    flat.push_back(7.5);
    linear.push_back(0.5 * x);
  }
  EXPECT_NEAR(props::loglog_slope(n, square), 2.0, 1e-12);
  EXPECT_NEAR(props::loglog_slope(n, flat), 0.0, 1e-12);
  EXPECT_NEAR(props::loglog_slope(n, linear), 1.0, 1e-12);
  EXPECT_EQ(props::loglog_slope({10}, {3}), 0.0);
}

TEST(ComplexitySlope, TailSlopeIgnoresTheApproachToTheConstant) {
  // ratio(n) = 10 - 90/n rises at small n but is bounded: the tail slope is near 0
  const std::vector<int> n = props::sizes_1_2_5(10, 10'000);
  std::vector<double> ratio;
  for (const int x : n)
    ratio.push_back(10.0 - 90.0 / x);
  EXPECT_GT(props::loglog_slope({n.begin(), n.end()}, ratio), 0.05);
  EXPECT_LT(props::tail_slope(n, ratio), 0.05);
}

TEST(ComplexitySizes, OneTwoFive) {
  EXPECT_EQ(props::sizes_1_2_5(10, 1000), (std::vector<int>{10, 20, 50, 100, 200, 500, 1000}));
  EXPECT_EQ(props::sizes_1_2_5(3, 30), (std::vector<int>{5, 10, 20}));
}

TEST(ComplexityRunner, StopsAtTheCostCapAndWritesCsvAndSvg) {
  props::ComplexityFamily f;
  f.calculus = "toy";
  f.mechanism = "doubling";
  f.family = "chain";
  f.claim = ComplexityClaim::control;
  f.sizes = {1, 2, 4, 8, 16, 32, 64};
  f.make = [](int n) {
    return props::ComplexityInstance{[n] { return double(n); }, [n] { return std::pow(2.0, n); }};
  };
  props::ComplexityOptions o;
  o.time_it = false;
  o.max_cost = 1e6;
  const props::ComplexityRow row = props::run_complexity_family(f, o);
  EXPECT_EQ(row.n, (std::vector<int>{1, 2, 4, 8, 16, 32})); // 2^32 > 1e6: stops there
  EXPECT_FALSE(row.stopped.empty());
  EXPECT_GT(row.slope, 1.0);
  const std::string csv = props::complexity_csv({row});
  EXPECT_NE(csv.find("\"toy\",\"doubling\",\"chain\",control"), std::string::npos) << csv;
  // no secondary, no ω, no timing; then the peak's growth, and no time growth without timing
  EXPECT_NE(csv.find(",0.0000,,,,,,,,,,,,0.0000,,\n"), std::string::npos) << csv;
  const std::string svg = props::complexity_svg("toy", {row});
  EXPECT_NE(svg.find("<polyline"), std::string::npos);
  EXPECT_NE(svg.find("stroke-dasharray"), std::string::npos); // controls are dashed
}

// Every calculus's families at small n: linear claims flat, controls growing.
class CalculusComplexity : public ::testing::TestWithParam<std::string> {};

TEST_P(CalculusComplexity, LinearMechanismsStayBoundedAndControlsGrow) {
  const props::CalculusEntry* entry = registry().find(GetParam());
  ASSERT_NE(entry, nullptr);
  ASSERT_TRUE(entry->complexity_families) << GetParam() << " lists no complexity families";
  props::ComplexityOptions o;
  o.time_it = false;
  o.max_n = 100;
  o.family_seconds = 2;
  o.max_cost = 3e6;
  int linear = 0, controls = 0;
  for (const props::ComplexityFamily& f : entry->complexity_families()) {
    // findings and known violations are reported, never asserted
    if (f.claim == ComplexityClaim::finding || f.known_violation) continue;
    const props::ComplexityRow r = props::run_complexity_family(f, o);
    const std::string what = f.mechanism + " on " + f.family;
    ASSERT_GE(r.n.size(), 3u) << what << ": " << r.stopped;
    for (const double x : r.ratio)
      EXPECT_TRUE(std::isfinite(x) && x > 0) << what;
    if (f.claim == ComplexityClaim::linear) {
      ++linear;
      // a slow reducer may stop at the time budget, never at an error
      EXPECT_TRUE(r.stopped.empty() || r.stopped.rfind("time budget", 0) == 0)
          << what << ": " << r.stopped;
      EXPECT_LT(r.slope, 0.05) << what << ": the ratio grows (last " << r.ratio.back() << ")";
    } else {
      ++controls;
      // exponential or quadratic: the ratio at least quadruples over the sizes and its slope
      // is clearly positive
      EXPECT_GT(r.ratio.back(), 4 * r.ratio.front()) << what;
      EXPECT_GT(r.slope, 0.5) << what;
    }
  }
  EXPECT_GT(linear + controls, 0);
}

INSTANTIATE_TEST_SUITE_P(Calculi, CalculusComplexity,
                         ::testing::Values("delta-reverse", "linear-negation", "pullback",
                                           "simple-diff", "perturbative"),
                         [](const auto& info) {
                           std::string s = info.param;
                           for (char& c : s)
                             if (c == '-') c = '_';
                           return s;
                         });

// The cheap-gradient constant ω (properties/core/operation_weights.hpp): each calculus's table of
// primitive-operation entries names entries of its own rule book (names cannot drift when a book
// changes), every mechanism that measures ω counts primitive firings on both sides of its
// smallest program, and the verdict against Griewank–Walther's bound is computed and reported (a
// finding, never asserted).
TEST_P(CalculusComplexity, EveryOmegaWeightNamesAnEntryOfTheBook) {
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

TEST_P(CalculusComplexity, OmegaCountsPrimitiveFiringsOnBothSidesOfASmallProgram) {
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

// The long-range let series a_k = sin(a_{k-1}) + x (every stage reads the previous one and the
// outer input x) is a family of every calculus, for every mechanism its let series has; at small n
// each runs, costs more than nothing and reports the derivative's peak resident memory.
TEST_P(CalculusComplexity, LongRangeLetRunsForEveryMechanismOfTheLetSeries) {
  const props::CalculusEntry* entry = registry().find(GetParam());
  ASSERT_NE(entry, nullptr);
  std::vector<std::string> let_series, long_range;
  std::vector<props::ComplexityFamily> families;
  for (props::ComplexityFamily& f : entry->complexity_families()) {
    if (f.family == "let-series") let_series.push_back(f.mechanism);
    if (f.family != "long-range-let") continue;
    long_range.push_back(f.mechanism);
    if (f.known_violation) {
      EXPECT_FALSE(f.note.empty()) << f.mechanism;
    }
    families.push_back(std::move(f));
  }
  EXPECT_EQ(long_range, let_series);
  props::ComplexityOptions o;
  o.time_it = false;
  o.max_n = 10;
  o.family_seconds = 0.2; // the literal Fig. 6 rules are exponential: stop after n = 4 or 6
  for (const props::ComplexityFamily& f : families) {
    const props::ComplexityRow r = props::run_complexity_family(f, o);
    ASSERT_FALSE(r.n.empty()) << f.mechanism << ": " << r.stopped;
    ASSERT_EQ(r.peak_mb.size(), r.n.size()) << f.mechanism;
    for (std::size_t i = 0; i < r.n.size(); ++i) {
      EXPECT_GT(r.primal_cost[i], 0) << f.mechanism << " n = " << r.n[i];
      EXPECT_GT(r.derivative_cost[i], r.primal_cost[i]) << f.mechanism << " n = " << r.n[i];
      EXPECT_GE(r.peak_mb[i], 0) << f.mechanism << " n = " << r.n[i];
    }
  }
}

// The derivative's peak resident memory is measured above the memory resident before it: a run
// that holds 64 MiB reports at least that much, one that allocates nothing about nothing.
// A toy family of the given sizes and programs.
props::ComplexityFamily toy_family(const std::string& mechanism, std::vector<int> sizes,
                                   std::function<props::ComplexityInstance(int)> make) {
  props::ComplexityFamily f;
  f.calculus = "toy";
  f.mechanism = mechanism;
  f.family = "chain";
  f.sizes = std::move(sizes);
  f.make = std::move(make);
  return f;
}

// A derivative that holds n MiB at size n (a primal that holds nothing).
props::ComplexityFamily allocating(std::vector<int> sizes) {
  return toy_family("allocating", std::move(sizes), [](int n) {
    return props::ComplexityInstance{[] { return 1.0; },
                                     [n] {
                                       std::vector<char> block(std::size_t(n) << 20, 1);
                                       return double(block[block.size() / 2] + n);
                                     }};
  });
}

// A linear toy family of sizes 1, 2, 4: derivative twice the primal at every size.
props::ComplexityFamily doubling(const std::string& mechanism) {
  return toy_family(mechanism, {1, 2, 4}, [](int n) {
    return props::ComplexityInstance{[n] { return double(n); }, [n] { return 2.0 * n; }};
  });
}

// Krawiec's machine recurses through E-App into closure bodies; nested closures of 4,500 stages
// are about 18,000 nested evaluations, within its 20,000-level guard but past the default 8 MiB
// stack (it crashed `adsem complexity delta-reverse` at n = 5,000): the walk continues on the
// large stack.
TEST(ComplexityFamilies, DeltaReverseNestedClosuresRunPastTheDefaultStack) {
  const props::CalculusEntry* entry = registry().find("delta-reverse");
  ASSERT_NE(entry, nullptr);
  for (const props::ComplexityFamily& f : entry->complexity_families()) {
    if (f.family != "nested-closures") continue;
    const props::ComplexityInstance in = f.make(4500);
    EXPECT_GT(in.primal(), 0);
    EXPECT_GT(in.derivative(), 0);
  }
}

TEST(ComplexityRunner, ReportsTheDerivativesPeakResidentMemory) {
  const props::ComplexityFamily f = allocating({16, 64});
  props::ComplexityOptions o;
  o.time_it = false;
  const props::ComplexityRow row = props::run_complexity_family(f, o);
  ASSERT_EQ(row.peak_mb.size(), 2u);
  EXPECT_GE(row.peak_mb[0], 15.5);
  EXPECT_LT(row.peak_mb[0], 40);
  EXPECT_GE(row.peak_mb[1], 63.5);
  EXPECT_LT(row.peak_mb[1], 100);
  const std::string csv = props::complexity_csv({row});
  EXPECT_NE(csv.find(",time_ratio,peak_mb,"), std::string::npos) << csv;
  EXPECT_NE(csv.find(fmt::format(",{:.3f},", row.peak_mb[1])), std::string::npos) << csv;
}

// Each side is timed on its own: per size one CPU time per side (the minimum of `runs` samples),
// and the time ratio is their quotient. Structure only: no assertion on the times themselves.
TEST(ComplexityRunner, TimesEachSideAsTheMinimumOfItsRuns) {
  const props::ComplexityFamily f = toy_family("summing", {1000, 2000, 4000}, [](int n) {
    const auto work = [n](int per_element) {
      volatile double sum = 0;
      for (int i = 0; i < n * per_element; ++i)
        sum = sum + 1.0 / (i + 1);
      return double(n * per_element) + 0 * sum;
    };
    return props::ComplexityInstance{[work] { return work(1); }, [work] { return work(3); }};
  });
  std::string runs; // 'p' and 'd', one per run, in the order they ran
  const props::ComplexityFamily counted = [&] {
    props::ComplexityFamily c = f;
    c.make = [&runs, make = f.make](int n) {
      props::ComplexityInstance in = make(n);
      in.primal = [&runs, primal = in.primal] {
        runs += 'p';
        return primal();
      };
      in.derivative = [&runs, derivative = in.derivative] {
        runs += 'd';
        return derivative();
      };
      return in;
    };
    return c;
  }();
  props::ComplexityOptions o;
  o.runs = 3;
  o.min_timing = 0; // one run per sample: the sample count is the run count
  const props::ComplexityRow row = props::run_complexity_family(counted, o);
  ASSERT_EQ(row.n, (std::vector<int>{1000, 2000, 4000})) << row.stopped;
  // Three samples of each side per size, alternating; after the first, a side whose runs are short
  // runs once untimed before its sample (warm caches).
  const std::string size_runs = "pd"    // first samples (the derivative's peak memory is read here)
                                "ppdd"  // second: an untimed run, then the timed one, each side
                                "ppdd"; // third
  EXPECT_EQ(runs, size_runs + size_runs + size_runs);
  EXPECT_EQ(row.runs, 3);
  ASSERT_EQ(row.primal_seconds.size(), row.n.size());
  ASSERT_EQ(row.derivative_seconds.size(), row.n.size());
  ASSERT_EQ(row.time_ratio.size(), row.n.size());
  for (std::size_t i = 0; i < row.n.size(); ++i) {
    EXPECT_GT(row.primal_seconds[i], 0);
    EXPECT_GT(row.derivative_seconds[i], 0);
    EXPECT_DOUBLE_EQ(row.time_ratio[i], row.derivative_seconds[i] / row.primal_seconds[i]);
  }
  EXPECT_EQ(row.ratio, (std::vector<double>{3, 3, 3}));
  // each side's own growth beside the ratio's slope
  EXPECT_DOUBLE_EQ(row.primal_time_growth, props::tail_slope(row.n, row.primal_seconds));
  EXPECT_DOUBLE_EQ(row.derivative_time_growth, props::tail_slope(row.n, row.derivative_seconds));
  const std::string csv = props::complexity_csv({row});
  EXPECT_NE(csv.find(",primal_seconds,derivative_seconds,runs,peak_growth,primal_time_growth,"
                     "derivative_time_growth\n"),
            std::string::npos)
      << csv;
  EXPECT_NE(
      csv.find(fmt::format(",{:.6g},{:.6g},3,", row.primal_seconds[0], row.derivative_seconds[0])),
      std::string::npos)
      << csv;
  // without timing: one run each and no times
  o.time_it = false;
  const props::ComplexityRow untimed = props::run_complexity_family(f, o);
  EXPECT_EQ(untimed.runs, 0);
  EXPECT_TRUE(untimed.primal_seconds.empty());
  EXPECT_TRUE(untimed.time_ratio.empty());
}

// A family that stops early says why: the depth guard (the walks' "nested deeper than" error) or
// the memory ceiling (the next size's predicted peak above half of it).
TEST(ComplexityRunner, NamesTheDepthGuardAndTheMemoryCeilingWhenItStops) {
  const props::ComplexityFamily deep = toy_family("nesting", {2, 4, 8, 16}, [](int n) {
    if (n > 4) throw AdsemError(ErrorKind::parse, "term nested deeper than 4 levels");
    return props::ComplexityInstance{[n] { return double(n); }, [n] { return 2.0 * n; }};
  });
  props::ComplexityOptions o;
  o.time_it = false;
  const props::ComplexityRow r = props::run_complexity_family(deep, o);
  EXPECT_EQ(r.n, (std::vector<int>{2, 4}));
  EXPECT_EQ(r.stopped, "depth guard at n = 8: term nested deeper than 4 levels");

  const props::ComplexityFamily big = allocating({16, 64, 1024});
  // room for 64 MiB above the resident memory, not for the 1 GiB the last size would take; no
  // time budget to reach first on a loaded machine
  o.family_seconds = 1e9;
  o.max_resident_bytes = 2 * (props::resident_bytes() + (std::size_t{256} << 20));
  const props::ComplexityRow m = props::run_complexity_family(big, o);
  EXPECT_EQ(m.n, (std::vector<int>{16, 64}));
  EXPECT_EQ(m.stopped.rfind("memory: n = 1024 would need about ", 0), 0u) << m.stopped;
  EXPECT_NEAR(m.peak_growth, 1.0, 0.2); // 16 then 64 MiB: linear in n
}

// Memory an earlier family freed but the heap kept resident (free blocks below a live one) is
// not the next family's: it is given back before the ceiling is read. Without that, one large
// family (simple-diff's Fig. 6 sharing chain, 3.3 GB at n = 10) stopped every family after it
// with "no sizes ran".
TEST(ComplexityRunner, MemoryAnEarlierFamilyFreedDoesNotStopTheNext) {
  props::ComplexityOptions o;
  o.time_it = false;
  o.family_seconds = 1e9;
  o.max_resident_bytes = 2 * (props::resident_bytes() + (std::size_t{64} << 20));
  {
    std::vector<std::unique_ptr<char[]>> freed;
    for (int i = 0; i < 100 * 1024; ++i) { // 100 MiB in blocks of 1 KiB, written
      freed.push_back(std::make_unique<char[]>(1024));
      freed.back()[0] = 1;
    }
    const auto pin = std::make_unique<char[]>(1024); // a live block above them
    freed.clear();
    const props::ComplexityRow r = props::run_complexity_family(doubling("after"), o);
    EXPECT_EQ(r.n, (std::vector<int>{1, 2, 4})) << r.stopped;
    EXPECT_TRUE(r.holds());
  }
}

// A linear claim is checked by its slope, which needs three sizes: a family stopped before that
// has no verdict, and the command does not call it held.
TEST(ComplexityRunner, AnAssertedClaimOnFewerThanThreeSizesDoesNotHold) {
  props::ComplexityOptions o;
  o.time_it = false;
  o.max_n = 2;
  const props::ComplexityRow r = props::run_complexity_family(doubling("short"), o);
  ASSERT_TRUE(r.asserted());
  EXPECT_EQ(r.n, (std::vector<int>{1, 2}));
  EXPECT_FALSE(r.slope_measured());
  EXPECT_FALSE(r.holds());
  o.max_n = 4;
  EXPECT_TRUE(props::run_complexity_family(doubling("short"), o).holds());
}

TEST(ComplexitySlope, PeakGrowthLeavesOutPeaksBelowOneMebibyte) {
  EXPECT_NEAR(props::peak_growth({10, 100, 1000, 10'000}, {0.2, 0.05, 3, 30}), 1.0, 1e-12);
  EXPECT_NEAR(props::peak_growth({10, 100, 1000}, {1, 100, 10'000}), 2.0, 1e-12);
  EXPECT_EQ(props::peak_growth({10, 100, 1000}, {0.1, 0.2, 2}), 0.0); // one measured size
}

int run_cli(const std::vector<std::string>& args, std::string& out) {
  std::ostringstream o, e;
  const int code = cli::run(args, registry(), cli::Io{o, e});
  out = o.str();
  return code;
}

TEST(ComplexityCommand, JsonRowsHaveTheContractShape) {
  std::string out;
  const int code = run_cli({"adsem", "complexity", "delta-reverse", "--max-n", "50", "--no-time",
                            "--family", "sharing-chain", "--json"},
                           out);
  EXPECT_EQ(code, 0) << out;
  const auto j = nlohmann::json::parse(out);
  ASSERT_TRUE(j.contains("rows"));
  ASSERT_GE(j["rows"].size(), 2u); // R and the reverse #2 control
  bool saw_control = false;
  for (const auto& row : j["rows"]) {
    for (const char* key :
         {"calculus", "mechanism", "family", "control", "n", "ratio", "slope", "peak_mb"})
      EXPECT_TRUE(row.contains(key)) << key;
    EXPECT_EQ(row["n"].size(), row["ratio"].size());
    EXPECT_EQ(row["n"].size(), row["peak_mb"].size());
    saw_control = saw_control || row["control"].get<bool>();
  }
  EXPECT_TRUE(saw_control);
  // timed: each side's CPU time per size and the number of samples behind each
  ASSERT_EQ(run_cli({"adsem", "complexity", "delta-reverse", "--max-n", "50", "--runs", "2",
                     "--family", "sharing-chain", "--json"},
                    out),
            0)
      << out;
  for (const auto& row : nlohmann::json::parse(out)["rows"]) {
    for (const char* key : {"primal_seconds", "derivative_seconds", "time_ratio", "runs",
                            "peak_growth", "primal_time_growth", "derivative_time_growth"})
      EXPECT_TRUE(row.contains(key)) << key;
    EXPECT_EQ(row["runs"], 2);
    EXPECT_EQ(row["n"].size(), row["primal_seconds"].size());
    EXPECT_EQ(row["n"].size(), row["derivative_seconds"].size());
  }
}

TEST(ComplexityCommand, AnUnmeasuredLinearClaimIsNotAPass) {
  std::string out;
  // R's wide sum has sizes 10, 20, 50, ...: two sizes below --max-n 20
  EXPECT_EQ(run_cli({"adsem", "complexity", "delta-reverse", "--max-n", "20", "--no-time",
                     "--family", "wide-sum"},
                    out),
            1)
      << out;
  EXPECT_NE(out.find("[unmeasured: 2 sizes ran, a slope needs 3: the claim is not checked]"),
            std::string::npos)
      << out;
  EXPECT_EQ(run_cli({"adsem", "complexity", "delta-reverse", "--max-n", "20", "--no-time",
                     "--family", "wide-sum", "--json"},
                    out),
            1);
  for (const auto& row : nlohmann::json::parse(out)["rows"])
    EXPECT_FALSE(row["slope_measured"].get<bool>()) << row.dump();
}

// BMP's (9) counts 1 step however large the copied value (spec §7 P10), so the copied-value
// volume Σ|v| is reported beside the step ratio (spec §6 P20.4). Its primal values come from the
// primal run and are linear in n on the let series (numerals are copied); the derivative copies
// backpropagators that grow with the series, so its volume is quadratic: the work the paper's
// step count leaves out, and why the wall-clock ratio grows while the step ratio stays flat.
TEST(ComplexityCommand, LinearNegationReportsTheCopyVolumeOfRule9) {
  std::string out;
  const int code = run_cli({"adsem", "complexity", "linear-negation", "--max-n", "100", "--no-time",
                            "--family", "let-series", "--json"},
                           out);
  EXPECT_EQ(code, 0) << out;
  const auto j = nlohmann::json::parse(out);
  ASSERT_EQ(j["rows"].size(), 1u);
  const auto& row = j["rows"][0];
  ASSERT_TRUE(row["secondary"].is_object()) << row.dump();
  const auto& v = row["secondary"];
  EXPECT_EQ(v["measure"], "copy volume");
  ASSERT_EQ(v["primal"].size(), row["n"].size());
  ASSERT_EQ(v["derivative"].size(), row["n"].size());
  for (std::size_t i = 0; i < row["n"].size(); ++i) {
    EXPECT_GT(v["primal"][i].get<double>(), 0.0);
    EXPECT_GT(v["derivative"][i].get<double>(), v["primal"][i].get<double>());
  }
  // n <= 100: 1.85 (2.0 from n = 200 on, `adsem complexity linear-negation`); linear would be 1
  EXPECT_GT(v["growth"].get<double>(), 1.5);
  EXPECT_LT(row["slope"].get<double>(), 0.05); // the step ratio stays flat

  std::string text;
  EXPECT_EQ(run_cli({"adsem", "complexity", "linear-negation", "--max-n", "50", "--no-time",
                     "--family", "let-series"},
                    text),
            0);
  EXPECT_NE(text.find("copy volume: primal"), std::string::npos) << text;
  // a family without a secondary measure prints none and has a null "secondary"
  EXPECT_EQ(run_cli({"adsem", "complexity", "delta-reverse", "--max-n", "50", "--no-time",
                     "--family", "wide-sum", "--json"},
                    out),
            0);
  for (const auto& r : nlohmann::json::parse(out)["rows"])
    EXPECT_TRUE(r["secondary"].is_null());
}

// A toy mechanism whose derivative does 3n or 5n operations on a primal of n: ω and the verdict
// against the reverse bound 4, in the row and the CSV.
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
  EXPECT_NE(csv.find(",omega,omega_bound,omega_verdict,"), std::string::npos) << csv;
  EXPECT_NE(csv.find(",4,20,5,4,above,"), std::string::npos) << csv;
  // a family without weights measures no ω
  props::ComplexityFamily none = toy(3);
  none.weights = {};
  EXPECT_TRUE(props::run_complexity_family(none, o).omega.empty());
  EXPECT_EQ(props::run_complexity_family(none, o).omega_verdict(), "");
}

TEST(CheapGradientCommand, ReportsOmegaInTextAndJsonAndListsTheWeights) {
  std::string out;
  ASSERT_EQ(run_cli({"adsem", "complexity", "simple-diff", "--max-n", "50", "--no-time", "--family",
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

TEST(ThroughputCommand, JsonRowsHaveTheContractShape) {
  std::string out;
  const int code = run_cli(
      {"adsem", "throughput", "simple-diff", "-p", "simple-diff/round-trip", "-n", "20", "--json"},
      out);
  EXPECT_EQ(code, 0) << out;
  const auto j = nlohmann::json::parse(out);
  ASSERT_EQ(j["rows"].size(), 1u);
  const auto& row = j["rows"][0];
  EXPECT_EQ(row["calculus"], "simple-diff");
  EXPECT_EQ(row["property"], "simple-diff/round-trip");
  EXPECT_GT(row["terms_per_second"].get<double>(), 0.0);
}

} // namespace
} // namespace adsem::complexity_test
