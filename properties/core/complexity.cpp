#include "properties/core/complexity.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <ctime>
#include <memory>
#include <numeric>
#include <optional>
#include <utility>

#include <fmt/format.h>

#include "properties/core/memory.hpp"
#include "reports/svg_chart.hpp"
#include "syntax/core/diagnostic.hpp"

namespace adsem::props {

const char* to_string(ComplexityClaim claim) {
  switch (claim) {
  case ComplexityClaim::linear:
    return "linear";
  case ComplexityClaim::finding:
    return "finding";
  case ComplexityClaim::control:
    return "control";
  }
  return "linear";
}

double loglog_slope(const std::vector<double>& x, const std::vector<double>& y) {
  std::vector<double> lx, ly;
  for (std::size_t i = 0; i < x.size() && i < y.size(); ++i)
    if (x[i] > 0 && y[i] > 0 && std::isfinite(x[i]) && std::isfinite(y[i])) {
      lx.push_back(std::log(x[i]));
      ly.push_back(std::log(y[i]));
    }
  if (lx.size() < 2) return 0;
  const double k = static_cast<double>(lx.size());
  const double mx = std::accumulate(lx.begin(), lx.end(), 0.0) / k;
  const double my = std::accumulate(ly.begin(), ly.end(), 0.0) / k;
  double sxy = 0, sxx = 0;
  for (std::size_t i = 0; i < lx.size(); ++i) {
    sxy += (lx[i] - mx) * (ly[i] - my);
    sxx += (lx[i] - mx) * (lx[i] - mx);
  }
  return sxx > 0 ? sxy / sxx : 0;
}

double tail_slope(const std::vector<int>& n, const std::vector<double>& y) {
  const std::size_t count = std::min(n.size(), y.size());
  const std::size_t keep = std::min(count, std::max<std::size_t>(3, (count + 1) / 2));
  std::vector<double> x, v;
  for (std::size_t i = count - keep; i < count; ++i) {
    x.push_back(n[i]);
    v.push_back(y[i]);
  }
  return loglog_slope(x, v);
}

double peak_growth(const std::vector<int>& n, const std::vector<double>& peak_mb) {
  std::vector<int> sizes;
  std::vector<double> measured;
  for (std::size_t i = 0; i < n.size() && i < peak_mb.size(); ++i)
    if (peak_mb[i] >= 1.0) {
      sizes.push_back(n[i]);
      measured.push_back(peak_mb[i]);
    }
  return sizes.size() < 2 ? 0 : tail_slope(sizes, measured);
}

std::vector<int> sizes_1_2_5(int lo, int hi) {
  std::vector<int> out;
  for (long decade = 1; decade <= hi; decade *= 10)
    for (const long m : {1L, 2L, 5L})
      if (const long n = m * decade; n >= lo && n <= hi) out.push_back(static_cast<int>(n));
  return out;
}

ComplexityInstance counted_instance(std::function<CostAndOperations()> primal,
                                    std::function<CostAndOperations()> derivative) {
  const auto operations = std::make_shared<std::pair<double, double>>();
  ComplexityInstance in;
  in.primal = [primal = std::move(primal), operations] {
    const CostAndOperations run = primal();
    operations->first = run.operations;
    return run.cost;
  };
  in.derivative = [derivative = std::move(derivative), operations] {
    const CostAndOperations run = derivative();
    operations->second = run.operations;
    return run.cost;
  };
  in.primal_ops = [operations] { return operations->first; };
  in.derivative_ops = [operations] { return operations->second; };
  return in;
}

namespace {

using clock = std::chrono::steady_clock;

// CPU seconds of this process. CPU and not wall clock: on a shared machine the wall clock counts
// the time other processes held the core, which differs between the primal's and the
// derivative's runs. Process, not thread: the sanitizer builds run the walks on a thread of
// their own (syntax/core/large_stack.hpp); the memory watcher's polls are a small, equal share of
// both sides.
double cpu_seconds() {
  timespec t{};
  ::clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
}

// A side whose runs take less than this is run once, untimed, before each of its samples after
// the first, so that it is timed in its own warm caches: the samples of the two sides alternate,
// and a primal timed right after a derivative whose memory left the caches (simple-diff's wide
// sum, about 30 MB at n = 10,000) read slower than the same primal timed after itself.
constexpr double warm_up_below_seconds = 0.1;

// CPU seconds per run of f in one sample: f repeated until it has used min_seconds (the per-run
// time of a sample is its total over its repetitions), after one untimed run when `warm_up`.
// `cost` is the cost of the last run.
double sample_cpu_seconds(const std::function<double()>& f, double min_seconds, bool warm_up,
                          double& cost) {
  if (warm_up) cost = f();
  int repetitions = 0;
  const double start = cpu_seconds();
  double used = 0;
  do {
    cost = f();
    ++repetitions;
    used = cpu_seconds() - start;
  } while (used < min_seconds && repetitions < 1000);
  return used / repetitions;
}

// The peak resident memory of `run` above the resident memory before it, in MiB: the heap's free
// pages go back to the system first (release_free_memory), so that the run cannot hide its
// allocations in memory an earlier size left resident; then the peak (VmHWM) is set to the current
// resident memory. Process-wide: exact while this thread is the only one allocating (adsem
// complexity measures one family at a time per process). 0 where the peak cannot be reset.
double measure_peak(const std::function<void()>& run) {
  release_free_memory();
  const bool reset = reset_peak_resident();
  const std::size_t before = resident_bytes();
  run();
  const std::size_t peak = peak_resident_bytes();
  if (!reset || peak < before) return 0;
  return static_cast<double>(peak - before) / (1024.0 * 1024.0);
}

// Below this a size's CPU time is no measurement for the prediction (timer and scheduling
// noise), so it never stops a family.
constexpr double min_measurable_seconds = 0.005;

// What the next size n will take, from the last two measured sizes: their growth exponent, at
// least 1 (no family gets cheaper per element as it grows), applied to the last value. Values
// below `floor` are no measurement (a peak under 1 MiB): 0, or exponent 1 from the last one.
double predicted(const std::vector<int>& sizes, const std::vector<double>& values, int n,
                 double floor = 0) {
  if (sizes.empty() || values.empty() || values.back() <= floor || values.back() <= 0) return 0;
  double exponent = 1;
  if (sizes.size() >= 2 && values.size() >= 2 && values[values.size() - 2] > floor &&
      values[values.size() - 2] > 0)
    exponent =
        std::max(1.0, std::log(values.back() / values[values.size() - 2]) /
                          std::log(static_cast<double>(sizes.back()) / sizes[sizes.size() - 2]));
  return values.back() * std::pow(static_cast<double>(n) / sizes.back(), exponent);
}

// Why a size could not run, named by the limit it reached: the recursion guards of the parsers,
// checkers and evaluators all say "nested deeper than" (syntax/core/depth_guard.hpp).
std::string error_stop(int n, const std::string& message) {
  if (message.find("nested deeper than") != std::string::npos)
    return fmt::format("depth guard at n = {}: {}", n, message);
  return fmt::format("n = {}: {}", n, message);
}

} // namespace

ComplexityRow run_complexity_family(const ComplexityFamily& f, const ComplexityOptions& o) {
  ComplexityRow row;
  row.calculus = f.calculus;
  row.mechanism = f.mechanism;
  row.family = f.family;
  row.measure = f.measure;
  row.citation = f.citation;
  row.claim = f.claim;
  row.known_violation = f.known_violation;
  row.note = f.note;
  row.secondary_measure = f.secondary_measure;
  row.mode = f.mode;
  row.weights = f.weights;
  row.runs = o.time_it ? std::max(1, o.runs) : 0;
  const auto start = clock::now();
  // CPU time of each measured size, all its runs included: the prediction below extrapolates
  // it, and on a loaded machine one descheduled wall-clock sample of a few milliseconds made a
  // growth exponent of 9 and stopped a linear family at n = 20 "on time".
  std::vector<double> size_seconds;
  for (const int n : f.sizes) {
    if (n > o.max_n) break;
    if (o.stop && o.stop->load()) {
      row.stopped = fmt::format("interrupted before n = {}", n);
      break;
    }
    const double used = std::chrono::duration<double>(clock::now() - start).count();
    if (used > o.family_seconds) {
      row.stopped = fmt::format("time budget ({:.0f} s) used before n = {}", o.family_seconds, n);
      break;
    }
    if (const double need = predicted(row.n, size_seconds, n, min_measurable_seconds);
        used + need > o.family_seconds) {
      row.stopped = fmt::format("time budget ({:.0f} s): n = {} would need about {:.0f} s more",
                                o.family_seconds, n, need);
      break;
    }
    if (const double need = predicted(row.n, row.peak_mb, n, 1.0); o.max_resident_bytes > 0) {
      const double half = 0.5 * static_cast<double>(o.max_resident_bytes);
      const auto over = [&] { return resident_bytes() + need * 1024 * 1024 > half; };
      // Memory an earlier family freed can stay resident in the heap (freed nodes between live
      // ones): give it back before reading, or one large family stops every family after it.
      if (over()) release_free_memory();
      if (over()) {
        row.stopped = fmt::format(
            "memory: n = {} would need about {:.0f} MiB beside the {:.0f} MiB resident, above "
            "half of the memory ceiling ({})",
            n, need, static_cast<double>(resident_bytes()) / (1024.0 * 1024.0),
            format_bytes(o.max_resident_bytes));
        break;
      }
    }
    const double size_start = cpu_seconds();
    double primal = 0, derivative = 0, tp = 0, td = 0, primal2 = 0, derivative2 = 0, peak = 0;
    std::optional<std::pair<double, double>> ops; // weighted primitive firings, primal/derivative
    try {
      const ComplexityInstance in = f.make(n);
      if (o.time_it) {
        // The minimum over the samples of each side, the run least disturbed by the rest of the
        // machine (caches, frequency, preemption). The sides' samples alternate, so that both
        // minima are drawn from the same stretch of time: this machine's speed drifts by up to 2x
        // over seconds, and a primal of a few milliseconds timed all at once, before the
        // derivative, made one size's ratio jump (simple-diff's wide sum at n = 10,000 read 19-35
        // across runs). The first derivative sample is the one whose peak memory is read.
        tp = sample_cpu_seconds(in.primal, o.min_timing, false, primal);
        peak = measure_peak(
            [&] { td = sample_cpu_seconds(in.derivative, o.min_timing, false, derivative); });
        for (int sample = 1; sample < row.runs; ++sample) {
          tp = std::min(
              tp, sample_cpu_seconds(in.primal, o.min_timing, tp < warm_up_below_seconds, primal));
          td = std::min(td, sample_cpu_seconds(in.derivative, o.min_timing,
                                               td < warm_up_below_seconds, derivative));
        }
      } else {
        primal = in.primal();
        peak = measure_peak([&] { derivative = in.derivative(); });
      }
      if (!f.secondary_measure.empty()) {
        primal2 = in.primal_secondary();
        derivative2 = in.derivative_secondary();
      }
      if (!f.weights.empty() && in.primal_ops && in.derivative_ops)
        ops.emplace(in.primal_ops(), in.derivative_ops());
    } catch (const AdsemError& e) {
      row.stopped = error_stop(n, e.diagnostic().message);
      break;
    }
    size_seconds.push_back(cpu_seconds() - size_start);
    row.n.push_back(n);
    row.primal_cost.push_back(primal);
    row.derivative_cost.push_back(derivative);
    row.ratio.push_back(primal > 0 ? derivative / primal : 0);
    if (o.time_it) {
      row.primal_seconds.push_back(tp);
      row.derivative_seconds.push_back(td);
      row.time_ratio.push_back(tp > 0 ? td / tp : 0);
    }
    row.peak_mb.push_back(peak);
    if (!f.secondary_measure.empty()) {
      row.primal_secondary.push_back(primal2);
      row.derivative_secondary.push_back(derivative2);
    }
    if (ops) {
      row.primal_ops.push_back(ops->first);
      row.derivative_ops.push_back(ops->second);
      row.omega.push_back(ops->first > 0 ? ops->second / ops->first : 0);
    }
    if (derivative > o.max_cost && n != f.sizes.back()) {
      row.stopped = fmt::format("derivative cost {:.3g} above the cap {:.3g} at n = {}", derivative,
                                o.max_cost, n);
      break;
    }
  }
  row.slope = tail_slope(row.n, row.ratio);
  row.time_slope = tail_slope(row.n, row.time_ratio);
  row.primal_time_growth = tail_slope(row.n, row.primal_seconds);
  row.derivative_time_growth = tail_slope(row.n, row.derivative_seconds);
  row.secondary_growth = tail_slope(row.n, row.derivative_secondary);
  row.peak_growth = peak_growth(row.n, row.peak_mb);
  return row;
}

std::string ComplexityRow::omega_verdict() const {
  if (omega.empty()) return "";
  const double worst = *std::max_element(omega.begin(), omega.end());
  return worst <= omega_bound() ? "within" : "above";
}

std::string complexity_csv(const std::vector<ComplexityRow>& rows) {
  std::string csv = "calculus,mechanism,family,claim,measure,n,primal_cost,derivative_cost,ratio,"
                    "time_ratio,peak_mb,slope,time_slope,primal_secondary,derivative_secondary,"
                    "secondary_growth,primal_ops,derivative_ops,omega,omega_bound,omega_verdict,"
                    "primal_seconds,derivative_seconds,runs,peak_growth,primal_time_growth,"
                    "derivative_time_growth\n";
  const auto quoted = [](const std::string& s) {
    std::string q = "\"";
    for (const char c : s)
      q += c == '"' ? std::string("\"\"") : std::string(1, c);
    return q + "\"";
  };
  for (const ComplexityRow& r : rows)
    for (std::size_t i = 0; i < r.n.size(); ++i)
      csv += fmt::format(
          "{},{},{},{},{},{},{},{},{:.6g},{},{:.3f},{:.4f},{:.4f},{},{},{},{:.4f},{}\n",
          quoted(r.calculus), quoted(r.mechanism), quoted(r.family), to_string(r.claim),
          quoted(r.measure), r.n[i], r.primal_cost[i], r.derivative_cost[i], r.ratio[i],
          i < r.time_ratio.size() ? fmt::format("{:.6g}", r.time_ratio[i]) : "",
          i < r.peak_mb.size() ? r.peak_mb[i] : 0.0, r.slope, r.time_slope,
          i < r.derivative_secondary.size()
              ? fmt::format("{},{},{:.4f}", r.primal_secondary[i], r.derivative_secondary[i],
                            r.secondary_growth)
              : ",,",
          i < r.omega.size()
              ? fmt::format("{},{},{:.6g},{},{}", r.primal_ops[i], r.derivative_ops[i], r.omega[i],
                            r.omega_bound(), r.omega_verdict())
              : ",,,,",
          i < r.derivative_seconds.size() ? fmt::format("{:.6g},{:.6g},{}", r.primal_seconds[i],
                                                        r.derivative_seconds[i], r.runs)
                                          : ",,",
          r.peak_growth,
          r.runs > 0 ? fmt::format("{:.4f},{:.4f}", r.primal_time_growth, r.derivative_time_growth)
                     : ",");
  return csv;
}

std::string complexity_svg(const std::string& title, const std::vector<ComplexityRow>& rows) {
  std::vector<reports::LineSeries> series;
  for (const ComplexityRow& r : rows) {
    reports::LineSeries s;
    s.label = fmt::format(
        "{} / {}{} (slope {:.2f})", r.mechanism, r.family,
        r.claim == ComplexityClaim::linear ? "" : fmt::format(" [{}]", to_string(r.claim)),
        r.slope);
    s.dashed = r.claim != ComplexityClaim::linear;
    for (std::size_t i = 0; i < r.n.size(); ++i)
      s.points.emplace_back(r.n[i], r.ratio[i]);
    series.push_back(std::move(s));
  }
  return reports::loglog_chart_svg(title, series, "n (family size)",
                                   "derivative cost / primal cost");
}

} // namespace adsem::props
