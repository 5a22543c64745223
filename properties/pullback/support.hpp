#pragma once
// Shared pieces of the pullback properties: guarded trial bodies (domain errors and fuel become
// counted discards), the model environment for free variables (spec §5.5 "Constructing model
// values"), and extensional comparison by probing (spec §5.5).
#include <functional>
#include <initializer_list>
#include <random>
#include <string>

#include "properties/core/property.hpp"
#include "semantics/core/lazy_mt19937_64.hpp"
#include "semantics/pullback/denotation.hpp"
#include "semantics/pullback/strategy.hpp"
#include "syntax/pullback/ast.hpp"

namespace adsem::pullback::support {

using props::PropertyContext;
using props::TrialResult;
using V = model::Value<double>;

TrialResult guarded(const std::function<TrialResult()>& body);
// The same, with a discard reported on the input term (so its constructs count in the statistics).
TrialResult guarded(const Term& input, const std::function<TrialResult()>& body);
TrialResult& on(TrialResult& r, const Term& t);
TrialResult on(TrialResult&& r, const Term& t);

// Free variables with their types (from the annotations).
std::map<std::string, Type> free_var_types(const Term& t);
// A random model value of a type: reals in [-2,2]; covectors; linear evaluation functionals on
// non-Euclidean duals; constant covector fields for 1-forms; smooth random functions otherwise.
// Rng: std::mt19937_64, or LazyMt19937_64 (the same numbers) where one is seeded per comparison.
template <class Rng> V random_model_value(const Type& t, Rng& rng);
extern template V random_model_value(const Type&, std::mt19937_64&);
extern template V random_model_value(const Type&, LazyMt19937_64&);
Env<double> random_env(const std::map<std::string, Type>& free, std::mt19937_64& rng);
// random_env for the free variables of all the terms (a name's type: its first annotation).
Env<double> random_env_over(std::initializer_list<Term> terms, std::mt19937_64& rng);

V denote_in(const Term& t, const Env<double>& env, const DenoteContext& dc = DenoteContext());

// The probe family of spec §5.5 at type t applied to a and b: the largest tolerance ratio
// |p(a) − p(b)| / (atol + rtol·max(|p(a)|, |p(b)|)) over its probes (> 1: some probe separates
// them), where, and how many probes and comparisons it took.
struct ProbeReading {
  double worst_ratio = 0;
  double worst_difference = 0;
  std::string worst_place = {};
  int probes = 0;
  int comparisons = 0;
};
ProbeReading probe(const V& a, const V& b, const Type& t, std::uint64_t seed, const Tolerance& tol);

// Extensional comparison at type t (3 arguments per function level), by `probe`.
TrialResult compare(const V& expected, const std::string& expected_label, const V& actual,
                    const std::string& actual_label, const Type& t, std::uint64_t seed,
                    const PropertyContext& context, CheckKind kind = CheckKind::probe);
// Coefficients of a covector value on a Euclidean σ (its n basis probes, complete for linear ones).
std::vector<double> coefficients(const V& functional, const Type& sigma);
TrialResult compare_vectors(const std::vector<double>& expected, const std::string& el,
                            const std::vector<double>& actual, const std::string& al,
                            CheckKind kind, const PropertyContext& context);

// ANF(P) of the body of (Ω λy:σ.P)·ω as the rules in force compute it: the result of their book's
// A* entry (seed 000 §3.2 L205-219, spec §4.2; a mutant's patch of it included), compact or
// literal (ID-9), asked whether or not P is final. On the paper's book: anf(P), literal or not.
Term anf_by_rules(Rules rules, bool literal, const std::string& y, const Type& sigma,
                  const Term& body, const Term& omega);

std::uint64_t draw_seed();
// The step budget of a property run (override: --set fuel=N).
RunOptions run_options(const PropertyContext& context, long fallback = 20'000);

} // namespace adsem::pullback::support
