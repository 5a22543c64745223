#include "properties/delta_reverse/cost_properties.hpp"

#include <algorithm>
#include <map>
#include <mutex>
#include <tuple>

#include <fmt/format.h>
#include <rapidcheck.h>

#include "generators/core/uniform.hpp"
#include "properties/delta_reverse/frontend.hpp"
#include "properties/delta_reverse/support.hpp"

namespace adsem::delta_reverse {

namespace {
using props::PropertyContext;
using props::PropertyDef;
using props::TrialResult;
using namespace support;

// Constants of the bound steps(Drev run) <= c1 * steps(e s) (spec §6 P17; the paper gives none,
// spec §11 item 10). Measured on the families below: 9-13 target steps per source step.
constexpr double c1 = 16.0;
// max_n ratio(n) / min_n ratio(n) < 1.5 over the sizes (spec §6 P17 pass criteria).
constexpr double flatness = 1.5;

long eval_rules(const Ledger& l) {
  long n = 0;
  for (const Step r : {Step::Eval_Zero, Step::Eval_Scale, Step::Eval_Add, Step::Eval_Var,
                       Step::Eval_Let_Nothing, Step::Eval_Let_Just})
    n += l.count(r);
  return n;
}
long sweep_node_rules(const Ledger& l) {
  long n = 0;
  for (const Step r : {Step::Sweep_Zero, Step::Sweep_Scale, Step::Sweep_Add, Step::Sweep_Var})
    n += l.count(r);
  return n;
}

} // namespace

namespace {
CostSample measure_uncached(const std::string& source, const std::vector<double>& at,
                            bool with_r1_r2, long fuel);
} // namespace

std::string doubling_chain(int k) {
  std::string s = "\\(x : Real). let x1 = x + x in ";
  for (int i = 1; i < k; ++i)
    s += fmt::format("let x{} = x{} + x{} in ", i + 1, i, i);
  return s + fmt::format("x{}", k);
}

std::string halved_doubling_chain(int k) {
  std::string s = "\\(x : Real). let x1 = (x + x) * 0.5 in ";
  for (int i = 1; i < k; ++i)
    s += fmt::format("let x{} = (x{} + x{}) * 0.5 in ", i + 1, i, i);
  return s + fmt::format("x{}", k);
}

std::string sum_chain(int a) {
  std::string params, sum;
  for (int i = 1; i <= a; ++i) {
    params += fmt::format("{}x{} : Real", i == 1 ? "" : ", ", i);
    sum += fmt::format("{}x{}", i == 1 ? "" : " + ", i);
  }
  return "\\(" + params + "). " + sum;
}

std::string twice_tower(int k) {
  std::string s = "let twice = \\(f : Real -> Real). \\(y : Real). f (f y) in "
                  "let g0 = \\(y : Real). y * 0.5 + sin y in ";
  for (int i = 1; i <= k; ++i)
    s += fmt::format("let g{} = twice g{} in ", i, i - 1);
  return s + fmt::format("\\(x : Real). g{} x", k);
}

CostSample measure(const std::string& source, const std::vector<double>& at, bool with_r1_r2,
                   long fuel) {
  // The runs are deterministic (no draws): a cache keeps repeated trials cheap.
  static std::mutex mutex;
  static std::map<std::tuple<std::string, std::vector<double>, bool>, CostSample> cache;
  const auto key = std::make_tuple(source, at, with_r1_r2);
  {
    const std::lock_guard lock(mutex);
    if (const auto it = cache.find(key); it != cache.end()) return it->second;
  }
  const CostSample c = measure_uncached(source, at, with_r1_r2, fuel);
  const std::lock_guard lock(mutex);
  cache.emplace(key, c);
  return c;
}

namespace {
CostSample measure_uncached(const std::string& source, const std::vector<double>& at,
                            bool with_r1_r2, long fuel) {
  const RealProgram rp = real_program(parse_closed(source));
  const Value s = point_of(rp.program.s, at);
  CostSample c;
  const PrimalRun primal = run_primal(rp.program, s, fuel);
  c.primal_steps = primal.steps;
  c.real_prim_calls = primal.real_prim_calls;
  const ReverseRun map =
      reverse(rp.program, s, v_real(1.0), Wrapper::fig11, EvalImpl::map, {}, fuel);
  c.drev_steps = map.program_steps;
  c.bindings = static_cast<long>(map.binds.size());
  for (const auto& b : map.binds)
    c.delta_nodes += static_cast<long>(delta_nodes(b.second));
  c.eval_visits = eval_rules(map.ledger);
  const ReverseRun arr =
      reverse(rp.program, s, v_real(1.0), Wrapper::fig11, EvalImpl::array, {}, fuel);
  c.sweep_nodes = sweep_node_rules(arr.ledger);
  if (with_r1_r2) {
    c.eval2_visits = reverse2(rp.program, s, 1.0, {}, fuel).eval2_visits;
    c.dense_flops = reverse1(rp.program, s, 1.0, {}, fuel).dense_flops;
  }
  return c;
}
} // namespace

namespace {

// ---- efficiency (§7.4, L599-621; spec §6 P17) ----
TrialResult efficiency(const PropertyContext& context) {
  const int family = adsem::gen::uniform_in(0, 3);
  const long f = std::max<long>(fuel(context), 5'000'000);
  std::vector<int> sizes;
  std::function<std::string(int)> make;
  std::function<std::vector<double>(int)> point;
  std::string name;
  switch (family) {
  case 0:
    name = "halved doubling chain (B1)";
    sizes = {16, 32, 64, 128, 256, 512};
    make = halved_doubling_chain;
    point = [](int) { return std::vector<double>{1.5}; };
    break;
  case 1:
    name = "sum chain (B2)";
    sizes = {8, 16, 32, 64, 128, 256};
    make = sum_chain;
    point = [](int a) { return std::vector<double>(static_cast<std::size_t>(a), 0.75); };
    break;
  default:
    name = "twice tower (B3)";
    sizes = {3, 4, 5, 6, 7, 8};
    make = twice_tower;
    point = [](int) { return std::vector<double>{0.3}; };
    break;
  }
  TrialResult r = TrialResult::pass();
  std::vector<double> step_ratio, memory_ratio, eval_ratio;
  std::vector<std::string> lines;
  for (const int n : sizes) {
    const CostSample c = measure(make(n), point(n), false, f);
    lines.push_back(fmt::format(
        "n={}: primal {} steps, Drev {} steps, {} bindings, {} Delta nodes, "
        "eval {} visits, sweep {} nodes",
        n, c.primal_steps, c.drev_steps, c.bindings, c.delta_nodes, c.eval_visits, c.sweep_nodes));
    if (c.bindings != c.real_prim_calls) {
      r = TrialResult::fail(fmt::format("{} n={}: {} bindings for {} real primitive calls", name, n,
                                        c.bindings, c.real_prim_calls));
      break;
    }
    if (c.drev_steps > c1 * static_cast<double>(c.primal_steps)) {
      r = TrialResult::fail(fmt::format("{} n={}: Drev took {} steps > {} x {} primal steps", name,
                                        n, c.drev_steps, c1, c.primal_steps));
      break;
    }
    if (c.eval_visits > c.delta_nodes + c.bindings + 8) {
      r = TrialResult::fail(fmt::format("{} n={}: eval made {} visits > nodes {} + bindings {} + 8",
                                        name, n, c.eval_visits, c.delta_nodes, c.bindings));
      break;
    }
    step_ratio.push_back(static_cast<double>(c.drev_steps) / c.primal_steps);
    memory_ratio.push_back(static_cast<double>(c.bindings + c.delta_nodes) / c.primal_steps);
    eval_ratio.push_back(static_cast<double>(c.eval_visits) / c.primal_steps);
  }
  const auto flat = [&](const std::vector<double>& xs, const char* what) {
    if (r.kind != TrialResult::Kind::pass || xs.empty()) return;
    const auto [lo, hi] = std::minmax_element(xs.begin(), xs.end());
    if (*hi > flatness * *lo)
      r = TrialResult::fail(fmt::format("{}: {} per primal step ranges from {:.3f} to {:.3f} "
                                        "(not O(primal steps))",
                                        name, what, *lo, *hi));
  };
  flat(step_ratio, "Drev steps");
  flat(memory_ratio, "tape memory (bindings + nodes)");
  flat(eval_ratio, "eval visits");
  r.trace = lines;
  r.on(make(sizes.front()), name, static_cast<int>(sizes.back()), {});
  return r;
}

// ---- reverse2-exponential (P18, L342, L405-422): the paper's negative controls. R2's eval_2
// makes exactly 2^(k+1) − 1 visits on the doubling chain of k additions while the primal and R
// grow linearly; R1 does Θ(a²) scalar operations on the sum of a inputs ----
TrialResult negative_controls(const PropertyContext& context) {
  const int k = *rc::gen::inRange(3, 13); // grows with the size
  const long f = std::max<long>(fuel(context), 5'000'000);
  const CostSample small = measure(doubling_chain(k), {1.5}, true, f);
  const CostSample big = measure(doubling_chain(k + 2), {1.5}, true, f);
  TrialResult r = TrialResult::pass();
  const long want = (2L << k) - 1;
  if (small.eval2_visits != want)
    r = TrialResult::fail(fmt::format("eval_2 made {} visits on the chain of {} additions, not "
                                      "2^(k+1) - 1 = {} (sharing was not lost?)",
                                      small.eval2_visits, k, want));
  else if (small.eval_visits != 4L * k + 1 || small.sweep_nodes != 3L * k + 1)
    r = TrialResult::fail(fmt::format("R's eval made {} visits and the sweep {} (want 4k+1 = {}, "
                                      "3k+1 = {})",
                                      small.eval_visits, small.sweep_nodes, 4 * k + 1, 3 * k + 1));
  else if (4 * small.eval2_visits > big.eval2_visits ||
           static_cast<double>(big.primal_steps) > 2.0 * small.primal_steps)
    r = TrialResult::fail("eval_2 visits did not grow 4-fold from k to k + 2");
  if (r.kind == TrialResult::Kind::pass) {
    const int a = *rc::gen::inRange(4, 33); // grows with the size
    const CostSample s1 = measure(sum_chain(a), std::vector<double>(a, 0.5), true, f);
    const CostSample s2 = measure(sum_chain(2 * a), std::vector<double>(2 * a, 0.5), true, f);
    if (s2.dense_flops < 3.5 * s1.dense_flops)
      r = TrialResult::fail(fmt::format("R1 did {} then {} scalar ops from a = {} to {}: not "
                                        "quadratic",
                                        s1.dense_flops, s2.dense_flops, a, 2 * a));
    else if (s2.eval_visits > 2.5 * s1.eval_visits)
      r = TrialResult::fail("R's eval is not linear on the sum chain");
  }
  r.on(doubling_chain(k), "Real -> Real", k, {});
  return r;
}

} // namespace

std::vector<props::PropertyDef> cost_properties() {
  return {
      PropertyDef{"delta-reverse", "delta-reverse/efficiency", "cost",
                  "Drev steps, tape memory and eval visits are O(primal steps) over growing "
                  "programs with heavy sharing; one binding per real primitive call",
                  "spec §6 P17; seed 001 §7.4 L599-621", efficiency},
      PropertyDef{"delta-reverse", "delta-reverse/negative-controls", "cost",
                  "R2's eval_2 is exponential (2^(k+1)-1 visits) and R1 quadratic on the families "
                  "where R is linear",
                  "spec §6 P18; seed 001 L342, L350-356, L405-422", negative_controls},
  };
}

} // namespace adsem::delta_reverse
