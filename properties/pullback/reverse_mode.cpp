// Reverse-mode AD properties (spec §6 P10, P11, P19, P22; seed 000 Cor. 4.8 L504-509, Ex. 3.7 (⋆)
// L349-351, Remark 2.1 L109, §5.1 L519). Oracles: the model's exact derivative (tagged duals), a
// finite-difference estimate, an interval enclosure, and a classical tape (semantics/pullback/
// tape.hpp). None of them runs the calculus's rules.
#include <chrono>
#include <limits>

#include <fmt/format.h>
#include <rapidcheck.h>

#include "generators/pullback/terms.hpp"
#include "properties/core/discards.hpp"
#include "properties/core/fd_compare.hpp"
#include "properties/core/sum_compare.hpp"
#include "properties/pullback/bodies.hpp"
#include "properties/pullback/frontend.hpp"
#include "properties/pullback/support.hpp"
#include "properties/pullback/user_rules.hpp"
#include "semantics/core/finite_difference.hpp"
#include "semantics/core/interval_model.hpp"
#include "semantics/core/jacobian.hpp"
#include "semantics/pullback/anf.hpp"
#include "semantics/pullback/let_series.hpp"
#include "semantics/pullback/sparse_stages.hpp"
#include "semantics/pullback/strategy.hpp"
#include "semantics/pullback/tape.hpp"
#include "syntax/pullback/printer.hpp"
#include "syntax/pullback/substitution.hpp"

namespace adsem::pullback::bodies {

using namespace support;

namespace {

// The covector a gradient query reduced to (0 → zeros; otherwise tabulated by its n probes).
std::vector<double> reduced_covector(const Term& nf, const Type& sigma) {
  if (nf->kind == Kind::covec) return nf->vec.dense();
  if (nf->kind == Kind::zero) return std::vector<double>(dim(sigma), 0.0);
  return coefficients(denote_in(nf, nullptr), sigma);
}

struct Reference {
  Eigen::MatrixXd jacobian;      // of ⟦λy.P⟧ at ⟦V⟧ (model)
  std::vector<double> cotangent; // ω(F V)
  std::vector<double> point;
};

Reference reference(const gen::Query& q) {
  const V f = denote_in(lam(q.y, q.sigma, q.body), nullptr);
  const V pv = denote_in(q.point, nullptr);
  Reference r;
  r.jacobian = model::jacobian(f, pv);
  r.cotangent = coefficients(denote_in(q.omega, nullptr)(f(pv)), q.tau);
  r.point = model::flatten_primal(pv);
  return r;
}

// ⟦λy.P⟧ on tagged interval duals, flattened: the enclosure's and the path magnitudes' function.
model::VectorFunction<model::Dual<model::Interval>> interval_function(const gen::Query& q,
                                                                      const DenoteContext& dc) {
  const auto fi = denote<model::Interval>(lam(q.y, q.sigma, q.body), nullptr, dc);
  return [fi, sigma = q.sigma](std::span<const model::Dual<model::Interval>> xs) {
    std::size_t next = 0;
    return model::flatten(fi(ground<model::Interval>(sigma, xs, next)));
  };
}

// Per input, the magnitude of the terms reverse mode sums into (cᵀJ)_j (model::vjp_magnitude).
std::vector<double> path_magnitudes(const gen::Query& q, const std::vector<double>& point,
                                    const std::vector<double>& cotangent) {
  const DenoteContext dc;
  return model::vjp_magnitude(interval_function(q, dc), point, cotangent, dc.diff);
}

std::vector<double> vjp(const Eigen::MatrixXd& j, const std::vector<double>& c) {
  const Eigen::VectorXd cv =
      Eigen::Map<const Eigen::VectorXd>(c.data(), static_cast<Eigen::Index>(c.size()));
  const Eigen::VectorXd g = j.transpose() * cv;
  return {g.data(), g.data() + g.size()};
}

gen::Query with_constant_cotangent(gen::Query q) {
  if (q.cotangent.empty()) {
    q.cotangent.assign(dim(q.tau), 1.0);
    q.omega = lam("u", q.tau, covec(q.cotangent, q.tau));
  }
  return q;
}

std::size_t count_prims(const Term& t) {
  std::size_t n = t->kind == Kind::prim ? 1 : 0;
  for (const Term& k : t->kids)
    n += count_prims(k);
  return n;
}

// The body the strategy splits: P itself when already final (ID-10), else ANF(P).
Term split_body(const gen::Query& q) {
  return is_final(q.body, q.y) ? q.body : anf(q.body);
}
long stage_count(const Term& split) {
  return split->kind == Kind::let ? static_cast<long>(let_length(split)) : 1L;
}

// Whether every entry of the book named A* is the paper's A-normalisation (rules::a_star) in the
// compact reading: its step on (Ω λy.P)·ω, P not final, then gives ANF(P) as split_body does, up
// to the fresh names each draws (which change no let's place in the series).
bool a_star_is_compact_anf(const Rules& rules) {
  if (rules.bind_atoms) return false;
  using Result = Term (*)(Machine&, const PullbackBody::Redex&, const RuleInfo&);
  bool found = false;
  for (const auto& entry : rules.book->entries()) {
    if (std::visit([](const auto& rule) { return rule.info.name != "A*"; }, entry)) continue;
    const auto* rule = std::get_if<Rule<Anf>>(&entry);
    const Result* result = rule ? rule->result.template target<Result>() : nullptr;
    if (result == nullptr || *result != &rules::a_star) return false;
    found = true;
  }
  return found;
}

// [perf] The stages of ANF(P) for a query run by m: read off the machine's first step when it is
// the paper's A* on the query's pullback (the let series it makes), else A-normalised again
// (split_body). The A-normalisation was made twice per chain (4.5% of cost-linear-steps). Only
// the first step is observed; the run goes on unobserved, with the same firings and terms.
class StageCounter {
public:
  StageCounter(Machine& m, const gen::Query& q) : q_(q) {
    if (is_final(q.body, q.y) || !a_star_is_compact_anf(m.rules())) return;
    m.observe(
        [this](const Term& before, const Step& step, bool premise) { seen(before, step, premise); },
        [] { return false; });
  }
  long stages() const { return stages_ > 0 ? stages_ : stage_count(split_body(q_)); }

private:
  void seen(const Term& before, const Step& step, bool premise) {
    if (premise || step.rule != "A*") return;
    const Node* redex = before.get();
    const Node* contractum = step.result.get();
    for (const int i : step.path) {
      redex = redex->kids[static_cast<std::size_t>(i)].get();
      contractum = contractum->kids[static_cast<std::size_t>(i)].get();
    }
    if (redex->kind == Kind::pullback && redex->kids[0] == q_.body && redex->name == q_.y)
      stages_ = stage_count(contractum->kids[0]);
  }
  const gen::Query& q_;
  long stages_ = 0;
};

} // namespace

// P10, Cor. 4.8(1) (L504-506): ((Ω λy.P)·ω) V →* V' with ⟦V'⟧ = cᵀ 𝒥(⟦λy.P⟧)(⟦V⟧), c = ω(F V),
// against the model's exact Jacobian (n JVPs with fresh tags).
TrialResult reverse_mode_first_order(const PropertyContext& context) {
  return reverse_mode_first_order_at(*gen::first_order_query(false, 3), context);
}

TrialResult reverse_mode_first_order_at(const gen::Query& q, const PropertyContext& context) {
  return guarded(q.term(), [&] {
    const Reference ref = reference(q);
    const Term nf = normalise(q.term(), rules_for(context), run_options(context)).result;
    const std::vector<double> expected = vjp(ref.jacobian, ref.cotangent);
    const std::vector<double> actual = reduced_covector(nf, q.sigma);
    const std::string el = "cᵀJ (model)", al = "pullback reduction";
    return on(props::unless_rounding_of_sums(
                  compare_vectors(expected, el, actual, al, CheckKind::derivative, context),
                  expected, el, actual, al,
                  [&] { return path_magnitudes(q, ref.point, ref.cotangent); },
                  CheckKind::derivative, context.tolerance(CheckKind::derivative)),
              q.term());
  });
}

// P10 against finite differences (Lemma E.2 L852-871), inside a certified box (spec §5.4 M3).
TrialResult reverse_mode_vs_fd(const PropertyContext& context) {
  return reverse_mode_vs_fd_at(*gen::first_order_query(false, 3), context);
}

TrialResult reverse_mode_vs_fd_at(const gen::Query& q, const PropertyContext& context) {
  return guarded(q.term(), [&] {
    const Reference ref = reference(q);
    const Term lam_p = lam(q.y, q.sigma, q.body);
    const DenoteContext dc;
    const auto box_eval = [&](const model::Box& box) {
      const auto fi = denote<model::Interval>(lam_p, nullptr, dc);
      const std::vector<model::Dual<model::Interval>> xs = model::as_duals(box);
      std::size_t next = 0;
      (void)fi(ground<model::Interval>(q.sigma, std::span<const model::Dual<model::Interval>>(xs),
                                       next));
    };
    const model::Certificate cert = model::certify(ref.point, box_eval);
    if (cert.status == model::CertificateStatus::outside)
      return on(TrialResult::discard("undefined-point"), q.term());
    if (cert.status != model::CertificateStatus::certified)
      return on(TrialResult::discard("domain-boundary"), q.term());
    const V f = denote_in(lam_p, nullptr);
    const model::RealVectorFunction fr = [&](const Eigen::VectorXd& x) {
      std::vector<model::Dual<double>> xs(x.data(), x.data() + x.size());
      std::size_t next = 0;
      const auto out = model::flatten_primal(
          f(ground<double>(q.sigma, std::span<const model::Dual<double>>(xs), next)));
      return Eigen::VectorXd(
          Eigen::Map<const Eigen::VectorXd>(out.data(), static_cast<Eigen::Index>(out.size())));
    };
    const Eigen::VectorXd x = Eigen::Map<const Eigen::VectorXd>(
        ref.point.data(), static_cast<Eigen::Index>(ref.point.size()));
    const model::FdJacobianEstimate est = model::fd_jacobian_estimate(fr, x);
    std::vector<double> weights; // |c|: the error of cᵀJ is at most |c|ᵀ error
    for (const double c : ref.cotangent)
      weights.push_back(std::abs(c));
    const Term nf = normalise(q.term(), rules_for(context), run_options(context)).result;
    return on(props::compare_with_estimates(vjp(est.jacobian, ref.cotangent),
                                            vjp(est.error, weights), "cᵀJ (finite differences)",
                                            reduced_covector(nf, q.sigma), "pullback reduction",
                                            context.tolerance(CheckKind::finite_difference)),
              q.term());
  });
}

// P10 against an interval enclosure of the Jacobian over a small box (Dual<Interval>): a result
// outside the (outward-rounded) enclosure, beyond rounding, is a definite bug.
TrialResult reverse_mode_vs_intervals(const PropertyContext& context) {
  return reverse_mode_vs_intervals_at(with_constant_cotangent(*gen::first_order_query(false, 3)),
                                      context);
}

TrialResult reverse_mode_vs_intervals_at(const gen::Query& q, const PropertyContext& context) {
  return guarded(q.term(), [&] {
    const DenoteContext dc;
    const model::VectorFunction<model::Dual<model::Interval>> f = interval_function(q, dc);
    std::vector<double> point;
    flatten_numerals(q.point, point);
    const model::Enclosure enc = model::enclose(f, model::box_around(point, 1e-9), dc.diff);
    const Term nf = normalise(q.term(), rules_for(context), run_options(context)).result;
    const std::vector<double> actual = reduced_covector(nf, q.sigma);
    const Tolerance tol = context.tolerance(CheckKind::derivative);
    for (std::size_t j = 0; j < actual.size(); ++j) {
      model::Interval acc(0.0);
      for (std::size_t i = 0; i < q.cotangent.size(); ++i)
        acc += model::Interval(q.cotangent[i]) * enc.jacobian(i, j);
      if (!std::isfinite(acc.lower()) || !std::isfinite(acc.upper()))
        return on(TrialResult::discard(props::discards::overflow), q.term());
      // beyond rounding of the value, then of the chain rule's terms (only computed here)
      if (!model::encloses_rounded(acc, actual[j], tol) &&
          !model::encloses_rounded(acc, actual[j], tol,
                                   path_magnitudes(q, point, q.cotangent).at(j))) {
        TrialResult r = TrialResult::fail(
            fmt::format("gradient entry {} = {} lies outside the enclosure [{}, {}]", j, actual[j],
                        acc.lower(), acc.upper()));
        r.discrepancy = std::max(acc.lower() - actual[j], actual[j] - acc.upper());
        return on(r, q.term());
      }
    }
    return on(TrialResult::pass(), q.term());
  });
}

// P11, Cor. 4.8(2) (L507, L564): with a free 1-form ω the normal form is (λv.P')*·(ω W) with
// ⟦P'⟧⟨v⟩ = D_y⟦P⟧(⟦V⟧)·v and ⟦W⟧ = ⟦P[V/y]⟧; with functional inputs (σ = R -> R, Church lists,
// Ex. 3.2) the symbolic dual result equals the model's Ω(F)(ω)(V) on probes.
TrialResult reverse_mode_higher_order(const PropertyContext& context) {
  const bool symbolic = *rc::gen::arbitrary<bool>();
  const gen::Query q = symbolic ? *gen::symbolic_query() : *gen::functional_query();
  const std::uint64_t seed = draw_seed();
  return guarded(q.term(), [&] {
    const Term query = q.term();
    const Term nf = normalise(query, rules_for(context), run_options(context)).result;
    std::mt19937_64 rng(seed);
    const Env<double> env = random_env(free_var_types(query), rng);
    const bool shape = symbolic && nf->kind == Kind::dualmap && nf->kids[1]->kind == Kind::app &&
                       nf->kids[1]->kids[0]->kind == Kind::var &&
                       nf->kids[1]->kids[0]->name == "om";
    if (!shape) // functional inputs, or a stuck / zero normal form: ⟦NF⟧ = ⟦query⟧ by probing
      return on(compare(denote_in(query, env), "⟦query⟧ (model)", denote_in(nf, env),
                        "⟦normal form⟧", dual(q.sigma), seed, context),
                query);
    const V f = denote_in(lam(q.y, q.sigma, q.body), env);
    const V point = denote_in(q.point, env);
    const DenoteContext dc;
    for (int k = 0; k < 3; ++k) {
      const V v = random_model_value(q.sigma, rng);
      const V jvp = model::directional_derivative(f, point, v, dc.diff);
      const V body = denote_in(nf->kids[0], extend<double>(env, nf->name, v));
      TrialResult r = compare(jvp, "D⟦P⟧(V)·v (model)", body, "⟦P'⟧⟨v⟩", q.tau, rng(), context);
      if (r.kind != TrialResult::Kind::pass) return on(r, query);
    }
    return on(compare(f(point), "⟦P[V/y]⟧", denote_in(nf->kids[1]->kids[1], env), "⟦W⟧", q.tau,
                      seed, context),
              query);
  });
}

// P22 [D] (Ex. 3.7/3.9, Fig. 4): on straight-line bodies the reduction agrees with a classical
// tape-based reverse mode (semantics/pullback/tape.hpp): the same gradient, the same number of
// primitive evaluations (each once). The extension pullback-sparse (flat stages, sparse covectors;
// semantics/pullback/sparse_stages.hpp, spec §9 pitfalls 3-4) must give the same gradient too.
TrialResult tape_agreement(const PropertyContext& context) {
  return tape_agreement_at(with_constant_cotangent(*gen::first_order_query(true, 3)), context);
}

TrialResult tape_agreement_at(const gen::Query& q, const PropertyContext& context) {
  return guarded(q.term(), [&] {
    std::vector<double> point;
    flatten_numerals(q.point, point);
    const TapeResult tape = tape_reverse(q.body, q.y, q.sigma, point, q.cotangent);
    const Run run = normalise(q.term(), rules_for(context), run_options(context));
    const std::vector<double> reduced = reduced_covector(run.result, q.sigma);
    // two reverse modes sum the chain rule's terms in their own orders
    const auto compare_sums = [&](const std::vector<double>& e, const std::string& el) {
      const std::string al = "pullback reduction";
      return props::unless_rounding_of_sums(
          compare_vectors(e, el, reduced, al, CheckKind::derivative, context), e, el, reduced, al,
          [&] { return path_magnitudes(q, point, q.cotangent); }, CheckKind::derivative,
          context.tolerance(CheckKind::derivative));
    };
    TrialResult r = compare_sums(tape.gradient, "tape reverse mode");
    if (r.kind != TrialResult::Kind::pass) return on(r, q.term());
    const auto sparse = sparse_stage_gradient(q.body, q.y, q.sigma, point, q.cotangent);
    if (!sparse)
      return on(TrialResult::fail("pullback-sparse: a straight-line body left its fragment"),
                q.term());
    r = compare_sums(sparse->gradient, "pullback-sparse (extension)");
    if (r.kind != TrialResult::Kind::pass) return on(r, q.term());
    const long prims = run.rule_counts.count("3") ? run.rule_counts.at("3") : 0;
    if (prims != tape.primitive_evaluations)
      return on(
          TrialResult::fail(fmt::format("rule 3 fired {} times, the tape evaluates {} primitives",
                                        prims, tape.primitive_evaluations)),
          q.term());
    return on(TrialResult::pass(), q.term());
  });
}

// P19 [D] (Ex. 3.7 (⋆) L349-351, §5.1 L519, Remark 2.1 L109): on straight-line first-order
// queries each primitive is evaluated once (rule 3 count = primitives of ANF(P)), one transpose
// (5/5⁺) per stage (fewer only when rule 9 yields 0), and rules 4 and 6 never fire.
TrialResult cost_reverse_mode(const PropertyContext& context) {
  return cost_reverse_mode_at(with_constant_cotangent(*gen::first_order_query(true, 3)), context);
}

TrialResult cost_reverse_mode_at(const gen::Query& q, const PropertyContext& context) {
  return guarded(q.term(), [&] {
    const Run run = normalise(q.term(), rules_for(context), run_options(context));
    const auto n = [&](const char* rule) {
      return run.rule_counts.count(rule) ? run.rule_counts.at(rule) : 0L;
    };
    const Term a = split_body(q);
    const long prims = static_cast<long>(count_prims(a));
    const long stages = stage_count(a);
    const long transposes = n("5") + n("5+");
    std::string why;
    if (n("3") != prims)
      why = fmt::format("rule 3 fired {} times for {} primitives", n("3"), prims);
    else if (n("4") != 0 || n("6") != 0)
      why = fmt::format("rule 4 fired {} and rule 6 fired {} times (forward composition)", n("4"),
                        n("6"));
    else if (transposes > stages || (transposes < stages && n("9") + n("Z5") + n("Z6") == 0))
      why = fmt::format("{} transposes (5/5+) for {} stages", transposes, stages);
    return on(why.empty() ? TrialResult::pass() : TrialResult::fail(why), q.term());
  });
}

// The spread of the cost per stage over growing chains: steps / stages of ANF(P) for each chain,
// largest over smallest. The strategy reduces ANF(P) stage by stage (Ex. 3.7, §5.1), so this is
// the paper's unit of cost; a binary primitive adds a pair stage, so steps per primitive also
// varied with the mix of primitives (a campaign found 23, 71, 176, 381 steps for k = 4..32 on the
// paper's calculus: steps/k 5.75 against 11.9). Over 15,000 chains steps per stage lay in
// 5.75..7.5 (spread at most 1.22); the rule-5-only mutant's grows more than eightfold.
double per_stage_step_spread(const std::vector<std::pair<long, long>>& stages_steps) {
  double lo = std::numeric_limits<double>::infinity(), hi = 0;
  for (const auto& [stages, steps] : stages_steps) {
    const double ratio = static_cast<double>(steps) / static_cast<double>(std::max(1L, stages));
    lo = std::min(lo, ratio);
    hi = std::max(hi, ratio);
  }
  return stages_steps.empty() || !(lo > 0) ? 1.0 : hi / lo;
}

// The cost claim as a bounded ratio over growing programs: straight-line chains of k = 4..32
// primitives; rule 3 fires k times, and the steps per stage of ANF(P) stay within a factor 2
// across k (per_stage_step_spread).
TrialResult cost_linear_steps(const PropertyContext& context) {
  const std::uint64_t seed = draw_seed();
  return guarded([&] {
    std::vector<std::pair<long, long>> stages_steps;
    // [perf] The table is written only for a failure's message (a format per chain was 0.3% of
    // the property's instructions).
    struct Row {
      int k;
      long steps, stages, prims;
      double ms;
    };
    std::vector<Row> rows;
    Term shortest; // the k = 4 chain, the term a verdict is reported on
    const std::vector<int> lengths = {4, 8, 16, 32};
    const std::vector<gen::Query> queries = gen::chain_queries(lengths, seed);
    for (std::size_t i = 0; i < lengths.size(); ++i) {
      const int k = lengths[i];
      const gen::Query& q = queries[i];
      if (!shortest) shortest = q.term();
      const auto start = std::chrono::steady_clock::now();
      RunOptions o = run_options(context);
      o.fuel = 200'000;
      Machine m(rules_for(context), o);
      const StageCounter counter(m, q);
      const Run run = m.normalise(q.term());
      const double ms =
          std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
              .count();
      const long prims = run.rule_counts.count("3") ? run.rule_counts.at("3") : 0;
      const long stages = counter.stages();
      rows.push_back({k, run.steps + run.premise_steps, stages, prims, ms});
      if (prims != k)
        return on(TrialResult::fail(
                      fmt::format("a chain of {} primitives evaluated {} (rule 3)", k, prims)),
                  q.term());
      stages_steps.emplace_back(stages, run.steps + run.premise_steps);
    }
    if (per_stage_step_spread(stages_steps) > 2.0) {
      std::string table;
      for (const Row& r : rows)
        table += fmt::format(" k={}: {} steps, {} stages, {} prim evals, {:.2f} ms;", r.k, r.steps,
                             r.stages, r.prims, r.ms);
      return on(TrialResult::fail("the steps per stage of ANF(P) vary by more than 2x:" + table),
                shortest);
    }
    return on(TrialResult::pass(), shortest);
  });
}

} // namespace adsem::pullback::bodies
