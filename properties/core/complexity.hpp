#pragma once
// The papers' complexity claims, measured: for each AD mechanism of a calculus, program
// families of growing size n are run through the primal and through the derivative; the cost of
// the derivative divided by the cost of the primal is reported in the calculus's own cost measure
// (reduction steps, primitive operations, delta bindings) and as a CPU-time ratio (each side timed
// on its own, the minimum of several runs), with the log-log slope of the ratio over n. Beside the
// paper's measure, the cheap-gradient constant ω: the weighted primitive-operation firings of the
// derivative over the primal's (operation_weights.hpp), against Griewank–Walther's bound for the
// mechanism's mode. A calculus lists its families (per-calculus complexity_families.cpp); this file
// runs them, fits slopes and writes CSV and SVG.
#include <atomic>
#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include "properties/core/operation_weights.hpp"

namespace adsem::props {

// One program of the family at size n, prepared (parsed, checked, translated) outside the
// timing: each closure runs the measured computation once and returns its cost in the family's
// cost measure. A closure throws AdsemError (fuel, eval) when the run cannot finish.
struct ComplexityInstance {
  std::function<double()> primal;
  std::function<double()> derivative;
  // The family's secondary measure (ComplexityFamily::secondary_measure) of the last run of
  // primal / derivative, read once after the runs; unset when the family has none.
  std::function<double()> primal_secondary = nullptr;
  std::function<double()> derivative_secondary = nullptr;
  // The weighted primitive-operation firings (ComplexityFamily::weights) of the last run of
  // primal / derivative, read once after the runs; unset when the family does not measure ω.
  std::function<double()> primal_ops = nullptr;
  std::function<double()> derivative_ops = nullptr;
};

// One run's cost in the family's measure and its weighted primitive-operation firings.
struct CostAndOperations {
  double cost = 0;
  double operations = 0;
};
// The instance whose runs report both: primal_ops / derivative_ops read the operations of the
// last run of each side.
ComplexityInstance counted_instance(std::function<CostAndOperations()> primal,
                                    std::function<CostAndOperations()> derivative);

// What the paper says about the mechanism on the family: the test asserts `linear` only.
enum class ComplexityClaim {
  linear,  // the paper proves derivative cost = O(primal cost): the ratio stays bounded
  finding, // the literal rules are not linear; the curve is the finding (reported, not asserted)
  control, // a negative control: must grow (exponential or quadratic)
};
const char* to_string(ComplexityClaim claim);

struct ComplexityFamily {
  std::string calculus;  // "delta-reverse"
  std::string mechanism; // "R (Fig. 11)", "R2 (Fig. 8)", ...
  std::string family;    // "sharing-chain", "wide-sum", "nested-closures", "rnn", "let-series"
  std::string measure;   // the cost measure, e.g. "machine rule steps"
  // A work measure the paper's cost measure leaves out, reported beside it (never asserted), e.g.
  // the copied-value volume of BMP's rule (9), which counts 1 step whatever the value's size
  // (seed 002 spec §6 P20.4, §7 P10). Empty: none.
  std::string secondary_measure;
  ComplexityClaim claim = ComplexityClaim::linear;
  std::vector<int> sizes;                        // n, increasing
  std::function<ComplexityInstance(int n)> make; // the program of size n
  std::string citation;                          // where the paper states the claim
  // The paper claims linear cost but this implementation is measured not to meet it on this
  // family (e.g. a reconstructed strategy with a per-step cost): reported with `note`, never
  // asserted by the test or the exit code, so that the finding stays visible instead of red.
  bool known_violation = false;
  std::string note;
  // The cheap-gradient constant ω: the mode fixes the bound (cheap_gradient_bound); the weights
  // are the calculus's primitive-operation entries. Empty weights: ω is not measured (a family
  // whose cost is no run, e.g. a tree size).
  AdMode mode = AdMode::reverse;
  OperationWeights weights = {};
};

struct ComplexityOptions {
  int max_n = 10'000; // sizes above it are skipped
  // A family stops growing once it has used this much time, or when its next size is predicted to
  // exceed it (the last size's time scaled by the growth measured so far).
  double family_seconds = 8.0;
  double max_cost = 2e7;    // ... or once a derivative cost exceeds this (controls)
  double min_timing = 2e-3; // a timed sample repeats its closure until it has used this much CPU
  int runs = 5;             // timed samples per side and size; the minimum is reported
  bool time_it = true;      // false: one run each, no time ratio (tests)
  // The memory ceiling of the process (adsem --max-memory), 0: none. A family stops before a size
  // whose derivative is predicted to take more than half of it, instead of ending the process.
  std::size_t max_resident_bytes = 0;
  const std::atomic<bool>* stop = nullptr; // SIGINT/SIGTERM: looked at before every size
};

struct ComplexityRow {
  std::string calculus, mechanism, family, measure, citation;
  ComplexityClaim claim = ComplexityClaim::linear;
  std::vector<int> n;
  std::vector<double> primal_cost, derivative_cost;
  std::vector<double> ratio; // derivative_cost / primal_cost
  // CPU seconds of one run of each side: the minimum over `runs` timed samples (empty without
  // time_it), and their quotient.
  std::vector<double> primal_seconds = {}, derivative_seconds = {};
  std::vector<double> time_ratio; // derivative_seconds / primal_seconds
  int runs = 0;                   // timed samples per side and size (0 without time_it)
  // The derivative's peak resident memory above the resident memory before it (measure_peak in
  // complexity.cpp), in MiB; 0 where this system cannot reset the peak (no /proc/self/clear_refs).
  std::vector<double> peak_mb = {};
  // The growth exponent of peak_mb over n (tail fit, sizes whose peak is at least 1 MiB: below it
  // the value is a floor, not a measurement); 0 with fewer than two such sizes.
  double peak_growth = 0;
  double slope = 0;      // log-log slope of ratio over n (tail fit, see tail_slope)
  double time_slope = 0; // the same for time_ratio
  // The growth exponents of primal_seconds and derivative_seconds over n (tail fit; 0 without
  // timing): a ratio's slope says only how the two sides grow relative to each other, and a
  // faster primal raises it (linear-negation's primal runs are rewriting too).
  double primal_time_growth = 0, derivative_time_growth = 0;
  // The secondary measure (empty vectors when the family has none): its primal and derivative
  // values per n, and the log-log slope of the derivative's value over n (tail fit): its growth
  // exponent, 1 when it is linear in n, 2 when it is quadratic.
  std::string secondary_measure = {};
  std::vector<double> primal_secondary = {}, derivative_secondary = {};
  double secondary_growth = 0;
  // The cheap-gradient constant (empty vectors when the family does not measure it): weighted
  // primitive-operation firings of primal and derivative per n and their quotient ω, compared with
  // Griewank–Walther's bound for `mode` (a finding, never asserted).
  AdMode mode = AdMode::reverse;
  OperationWeights weights = {};
  std::vector<double> primal_ops = {}, derivative_ops = {}, omega = {};
  // Why the family stopped before its last size, or "": "time budget ...", "depth guard ...",
  // "memory ...", "cost cap ...", "interrupted ..." or "n = N: " and the run's error (fuel).
  std::string stopped;
  bool known_violation = false;
  std::string note;
  bool control() const { return claim == ComplexityClaim::control; }
  // A linear claim that is asserted (not a known violation).
  bool asserted() const { return claim == ComplexityClaim::linear && !known_violation; }
  // The slope is a measurement only over at least three sizes (tail_slope fits three or more); a
  // family stopped before that has no verdict, and an asserted claim without one does not hold.
  static constexpr std::size_t sizes_for_slope = 3;
  bool slope_measured() const { return n.size() >= sizes_for_slope; }
  // An asserted claim holds when its slope was measured and is below 0.05.
  bool holds() const { return !asserted() || (slope_measured() && slope < 0.05); }
  double omega_bound() const { return cheap_gradient_bound(mode); }
  // "within" when every measured ω is at most the bound, "above" otherwise, "" without ω.
  std::string omega_verdict() const;
};

// Least-squares slope of log y over log x (points with x, y > 0); 0 with fewer than two points.
double loglog_slope(const std::vector<double>& x, const std::vector<double>& y);
// The slope over the upper half of the sizes (at least the last three points, or all of them):
// a ratio that approaches its constant from below at small n is bounded, and its early rise is not
// the asymptotic slope.
double tail_slope(const std::vector<int>& n, const std::vector<double>& y);

// The growth exponent of a peak memory series over n: tail_slope over the sizes whose peak is at
// least 1 MiB (smaller values are a floor, not a measurement); 0 with fewer than two of them.
double peak_growth(const std::vector<int>& n, const std::vector<double>& peak_mb);

// 10, 20, 50, 100, 200, 500, ... up to hi (inclusive of values <= hi), starting at lo.
std::vector<int> sizes_1_2_5(int lo, int hi);

ComplexityRow run_complexity_family(const ComplexityFamily& family,
                                    const ComplexityOptions& options);

// One CSV line per (row, n): calculus,mechanism,family,claim,measure,n,primal_cost,
// derivative_cost,ratio,time_ratio,peak_mb,slope,time_slope,primal_secondary,derivative_secondary,
// secondary_growth (the last three empty when the family has no secondary measure),primal_ops,
// derivative_ops,omega,omega_bound,omega_verdict (the last five empty without ω),primal_seconds,
// derivative_seconds,runs (empty without timing),peak_growth,primal_time_growth,
// derivative_time_growth (empty without timing).
std::string complexity_csv(const std::vector<ComplexityRow>& rows);
// A log-log line chart of ratio over n, one line per row (controls dashed).
std::string complexity_svg(const std::string& title, const std::vector<ComplexityRow>& rows);

} // namespace adsem::props
