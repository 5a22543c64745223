#pragma once
// What every perturbative property body shares: discards for partial domains / fuel / overflow,
// the input fields of a trial, extensional comparison by probing, the model under the active
// mutant's perturbation mode, and the PropertyDef boilerplate. The property lists themselves are
// in properties.cpp (spec §6.1-6.2 core), functor_properties.cpp (T as a functor, AD-1/3/4),
// lemma_properties.cpp (SEM-3, SEM-4, SEM-11, cost) and model_properties.cpp (MOD-*).
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "properties/core/property.hpp"
#include "properties/perturbative/rule_adapter.hpp"
#include "semantics/perturbative/denotation.hpp"
#include "semantics/perturbative/strategy.hpp"

namespace adsem::perturbative::support {

using props::PropertyContext;
using props::PropertyDef;
using props::TrialResult;
using V = model::Value<double>;

inline constexpr const char* calculus = "perturbative";
// T_x output above this tree size is discarded as "blow-up" (spec §10: cap about 4000 for SEM-5).
inline constexpr long tx_size_cap = 4000;

RunOptions run_options(const PropertyContext& context);

// Runs a body; the outcomes that are not verdicts become counted discards (design.md "Partial
// domains"; spec §4.7 fuel; spec §7 overflow).
TrialResult guarded(const std::function<TrialResult()>& body);

// Fills the trial's input fields from m (its tags plus `extra_tags`).
TrialResult on(TrialResult r, const Term& m, const std::vector<std::string>& extra_tags = {});

bool finite(const std::vector<double>& xs);

// Extensional comparison (spec §5.3 "Observations"; probing at function types, k = 3).
TrialResult compare_values(const V& expected, const std::string& expected_label, const V& actual,
                           const std::string& actual_label, const Type& type, std::uint64_t seed,
                           const PropertyContext& context);

// The model's context under the active mutant (the model mutants break the model, spec §5.3).
DenoteContext denote_context(const PropertyContext& context);
// `ground_values` (optional) keeps the values of closed ground subterms across the calls that
// share it (the terms of one reduction sequence).
V denote_closed(const Term& m, const PropertyContext& context,
                std::shared_ptr<GroundValues> ground_values = nullptr);
// ⟦m⟧ in the environment y ↦ y_value (when y_name is not empty).
V denote_in(const Term& m, const std::string& y_name, const V& y_value, const DenoteContext& dc);

// T_x M (Fig. 4) for x : σ through the active mutant's book; the clauses it fires count in the
// campaign's rule coverage.
Term tx(const PropertyContext& context, const std::string& x, const Type& sigma, const Term& m);

// Under `--rules`, a share of the trials (props::draw_targeted) takes an instance of one of the
// file's rules, as check-rule draws it (rule_adapter.hpp): a function λa. C[σ(LHS)] of type
// domain → R (domain R or R × R), or nullopt (no rule file, not this trial, a file that only
// removes rules).
std::optional<Targeted> targeted_instance(const PropertyContext& context, const Type& domain);
// A closed term of a type drawn from `types` (gen::closed_term), or under `--rules` for a share of
// the trials the closed program (λa. C[σ(LHS)]) a0 : R when R is among the types.
Term closed_input(const PropertyContext& context, const std::vector<Type>& types);
// A closed function of type domain → R (gen::term at the default depth), or under `--rules` an
// instance λa. C[σ(LHS)].
Term function_input(const PropertyContext& context, const Type& domain);

std::uint64_t probe_seed();
// A uniform choice in [0, n) whatever RapidCheck's size (inRange alone scales with the size, which
// would make the first case dominate the small trials).
int uniform(int n);
// Fills the trial's input fields from m with ONLY the given tags (for properties where m is just
// the source of a model morphism, so the generator's construct coverage is not what they report).
TrialResult on_only(TrialResult r, const Term& m, std::vector<std::string> tags);

PropertyDef def(std::string name, std::string kind, std::string summary, std::string citation,
                std::function<TrialResult(const PropertyContext&)> body);

} // namespace adsem::perturbative::support

namespace adsem::perturbative {
std::vector<props::PropertyDef> functor_properties();
std::vector<props::PropertyDef> lemma_properties();
std::vector<props::PropertyDef> model_properties();
} // namespace adsem::perturbative
