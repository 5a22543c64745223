#include "properties/pullback/support.hpp"

#include <cmath>
#include <map>
#include <set>
#include <utility>

#include <fmt/format.h>
#include <rapidcheck.h>

#include "generators/pullback/terms.hpp"
#include "properties/core/discards.hpp"
#include "properties/core/guarded.hpp"
#include "properties/core/rule_semantic_checks.hpp"
#include "semantics/core/linear_maps.hpp"
#include "semantics/core/probe.hpp"
#include "semantics/pullback/anf.hpp"
#include "syntax/pullback/printer.hpp"

namespace adsem::pullback::support {

TrialResult guarded(const std::function<TrialResult()>& body) {
  return props::guarded_trial(body);
}

TrialResult guarded(const Term& input, const std::function<TrialResult()>& body) {
  TrialResult r = guarded(body);
  if (r.kind == TrialResult::Kind::discard && r.term.empty()) on(r, input);
  return r;
}

TrialResult& on(TrialResult& r, const Term& t) {
  const bool shown = r.shows_input(); // statistics read only the size and the tags
  return r.on(shown ? print(t) : "", shown ? type_text(type_of(t)) : "",
              static_cast<int>(size_of(t)), gen::tags_of(t));
}
TrialResult on(TrialResult&& r, const Term& t) {
  return on(r, t);
}

namespace {
// Preorder, the first occurrence of each name wins; true once every name in `names` has a type.
bool first_annotations(const Term& u, const std::set<std::string>& names,
                       std::map<std::string, Type>& out) {
  if (u->kind == Kind::var && names.count(u->name)) out.emplace(u->name, u->type);
  if (out.size() == names.size()) return true;
  for (const Term& k : u->kids)
    if (first_annotations(k, names, out)) return true;
  return false;
}
} // namespace

std::map<std::string, Type> free_var_types(const Term& t) {
  std::map<std::string, Type> out;
  // The nodes' facts hold FV(t) unless it is large; a closed term needs no walk, and the walk
  // stops once every free name has its annotation (later occurrences never replace it).
  const bool known = !t->kids.empty() && !facts(t).many;
  const std::set<std::string> fv =
      known ? std::set<std::string>(facts(t).free.begin(), facts(t).free.end()) : free_vars(t);
  if (!fv.empty()) first_annotations(t, fv, out);
  return out;
}

namespace {
bool mentions_dual(const Type& t) {
  if (is_dual(t)) return true;
  if (is_prod(t) || is_arrow(t)) return mentions_dual(t->left) || mentions_dual(t->right);
  return false;
}
} // namespace

template <class Rng> V random_model_value(const Type& t, Rng& rng) {
  if (is_euclidean(t)) return model::random_value(model_type(t), rng);
  if (is_prod(t))
    return V::pair(random_model_value(t->left, rng), random_model_value(t->right, rng));
  if (is_dual(t)) {
    const Type s = t->left;
    if (is_euclidean(s)) return model::covector<double>(model::random_covector(dim(s), rng));
    if (is_dual(s)) { // φ ↦ φ(a): evaluation of the functional (linear)
      const V a = random_model_value(s->left, rng);
      return V::function([a](const V& phi) { return phi(a); });
    }
    if (is_arrow(s)) { // k ↦ l(k(a)), l linear on the codomain
      const V a = random_model_value(s->left, rng);
      const V l = random_model_value(dual(s->right), rng);
      return V::function([a, l](const V& k) { return l(k(a)); });
    }
    if (is_prod(s)) { // ⟨p,q⟩ ↦ l₁(p) + l₂(q)
      const V l1 = random_model_value(dual(s->left), rng);
      const V l2 = random_model_value(dual(s->right), rng);
      return V::function(
          [l1, l2](const V& pq) { return model::sum(l1(pq.first()), l2(pq.second())); });
    }
  }
  if (is_arrow(t) && mentions_dual(t->right)) { // e.g. 1-forms: a constant field u ↦ c
    const V c = random_model_value(t->right, rng);
    return V::function([c](const V&) { return c; });
  }
  return model::random_value(model_type(t), rng);
}
template V random_model_value(const Type&, std::mt19937_64&);
template V random_model_value(const Type&, LazyMt19937_64&);

Env<double> random_env(const std::map<std::string, Type>& free, std::mt19937_64& rng) {
  Env<double> env;
  for (const auto& [x, t] : free)
    env = extend<double>(env, x, random_model_value(t, rng));
  return env;
}

Env<double> random_env_over(std::initializer_list<Term> terms, std::mt19937_64& rng) {
  std::map<std::string, Type> free;
  for (const Term& t : terms)
    for (auto& kv : free_var_types(t))
      free.insert(std::move(kv));
  return random_env(free, rng);
}

V denote_in(const Term& t, const Env<double>& env, const DenoteContext& dc) {
  return denote<double>(t, env, dc);
}

namespace {

// Probing at a type of this calculus (spec §5.5): Probe(σ*) evaluates at points of σ (the n basis
// vectors when σ is Euclidean: complete for linear functionals), Probe(σ⇒τ) applies to random
// arguments built by random_model_value, so arguments of dual type are LINEAR functionals (the
// shared model::random_value knows no duals).
struct Probing {
  LazyMt19937_64 rng; // seeded per comparison, a few numbers drawn
  Tolerance tol;
  int probes = 0;
  int comparisons = 0;
  double worst_ratio = 0;
  double worst_difference = 0;
  std::string worst_place = {};

  // `place` is one buffer, extended around each recursive call and cut back after it (a new
  // string per probe and per component was a large part of the comparison's allocations).
  void go(const V& a, const V& b, const Type& t, std::string& place, int depth) {
    if (depth > 6 || probes > 400) return;
    if (is_euclidean(t)) {
      const auto xa = model::flatten_primal(a), xb = model::flatten_primal(b);
      for (std::size_t i = 0; i < xa.size(); ++i) {
        ++comparisons;
        const double r = tolerance_ratio(xa[i], xb[i], tol);
        if (r > worst_ratio) {
          worst_ratio = r;
          worst_difference = std::abs(xa[i] - xb[i]);
          if (!std::isfinite(worst_difference)) worst_difference = INFINITY;
          worst_place = place + (xa.size() > 1 ? "[" + std::to_string(i) + "]" : "");
        }
      }
      return;
    }
    const std::size_t length = place.size();
    if (is_prod(t)) {
      go(a.first(), b.first(), t->left, place.append(" π1"), depth);
      place.resize(length);
      go(a.second(), b.second(), t->right, place.append(" π2"), depth);
      place.resize(length);
      return;
    }
    const Type arg = is_dual(t) ? t->left : t->left;
    const Type res = is_dual(t) ? real_type() : t->right;
    std::vector<V> args;
    if (is_euclidean(arg) && dim(arg) <= 4) { // basis vectors (complete for duals)
      for (std::size_t j = 0; j < dim(arg); ++j) {
        std::vector<double> e(dim(arg), 0.0);
        e[j] = 1.0;
        std::vector<model::Dual<double>> ed(e.begin(), e.end());
        std::size_t next = 0;
        args.push_back(ground<double>(arg, std::span<const model::Dual<double>>(ed), next));
      }
    }
    args.push_back(random_model_value(arg, rng));
    if (!is_dual(t)) args.push_back(random_model_value(arg, rng));
    for (std::size_t k = 0; k < args.size(); ++k) {
      ++probes;
      go(a(args[k]), b(args[k]), res, place.append(" @arg").append(std::to_string(k + 1)),
         depth + 1);
      place.resize(length);
    }
  }
};

} // namespace

ProbeReading probe(const V& a, const V& b, const Type& t, std::uint64_t seed,
                   const Tolerance& tol) {
  Probing p{LazyMt19937_64(seed), tol};
  std::string place;
  p.go(a, b, t, place, 0);
  return {p.worst_ratio, p.worst_difference, std::move(p.worst_place), p.probes, p.comparisons};
}

TrialResult compare(const V& expected, const std::string& expected_label, const V& actual,
                    const std::string& actual_label, const Type& t, std::uint64_t seed,
                    const PropertyContext& context, CheckKind kind) {
  const Tolerance tol = context.tolerance(kind);
  const ProbeReading p = probe(expected, actual, t, seed, tol);
  if (p.worst_ratio <= 1.0) return TrialResult::pass();
  if (!std::isfinite(p.worst_difference)) return TrialResult::discard(props::discards::overflow);
  TrialResult r = TrialResult::fail(
      fmt::format("{} and {} differ by {} at {} ({} probes, {} comparisons)", expected_label,
                  actual_label, p.worst_difference,
                  p.worst_place.empty() ? "the value" : p.worst_place, p.probes, p.comparisons));
  r.discrepancy = p.worst_difference;
  r.tolerance = tol;
  r.tolerance_kind = std::string(to_string(kind));
  return r;
}

std::vector<double> coefficients(const V& functional, const Type& sigma) {
  const V shape = model::zero<double>(model_type(sigma));
  const Eigen::VectorXd c = model::covector_coefficients(functional, shape);
  return {c.data(), c.data() + c.size()};
}

TrialResult compare_vectors(const std::vector<double>& expected, const std::string& el,
                            const std::vector<double>& actual, const std::string& al,
                            CheckKind kind, const PropertyContext& context) {
  // an overflowed entry on either side is a counted discard, not a verdict
  return adsem::rules::compare_meanings(expected, el, actual, al, kind, context,
                                        adsem::rules::Overflow::both_discard);
}

Term anf_by_rules(Rules rules, bool literal, const std::string& y, const Type& sigma,
                  const Term& body, const Term& omega) {
  rules.bind_atoms = literal;
  Machine m(std::move(rules));
  const Rule<Anf>& a_star = m.rules().book->get<Anf>("A*");
  const Term node = pullback(y, sigma, body, omega);
  const Anf::Redex redex{node, is_final(body, y), 0};
  return a_star.result(m, redex, a_star.info)->kids[0];
}

std::uint64_t draw_seed() {
  return *rc::gen::arbitrary<std::uint32_t>();
}

RunOptions run_options(const PropertyContext& context, long fallback) {
  RunOptions o;
  o.fuel = context.option_int("fuel", fallback);
  o.counter = context.rule_counter.get();
  return o;
}

} // namespace adsem::pullback::support
