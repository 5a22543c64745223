#pragma once
// The bodies of the pullback properties (registered with names and citations in properties.cpp).
#include <cstdint>
#include <functional>
#include <utility>
#include <vector>

#include "generators/pullback/terms.hpp"
#include "properties/core/property.hpp"

namespace adsem::pullback::bodies {
using props::PropertyContext;
using props::TrialResult;
// structure.cpp
TrialResult round_trip(const PropertyContext&);
TrialResult round_trip_of(const Term& t);
TrialResult subject_reduction(const PropertyContext&);
TrialResult strong_normalisation(const PropertyContext&);
TrialResult unique_decomposition(const PropertyContext&);
TrialResult anf_shape(const PropertyContext&);
TrialResult anf_shape_at(const gen::Query&, const PropertyContext&); // one query's body
// The checks of one given term (the random bodies above draw it; enumeration.hpp enumerates it).
TrialResult subject_reduction_of(const Term& t, const PropertyContext&);
TrialResult strong_normalisation_of(const Term& t, const PropertyContext&);
TrialResult unique_decomposition_of(const Term& t, const PropertyContext&);
// soundness.cpp
TrialResult soundness_of_steps(const PropertyContext&);
TrialResult soundness_of_anf(const PropertyContext&);
// One query's body, its probes drawn from `seed`.
TrialResult soundness_of_anf_at(const gen::Query&, std::uint64_t seed, const PropertyContext&);
TrialResult linearity(const PropertyContext&);
TrialResult dual_linearity(const PropertyContext&);
TrialResult substitution(const PropertyContext&);
TrialResult sum_law(const PropertyContext&);
TrialResult dot_product(const PropertyContext&);
TrialResult dot_product_of(const Term& t, std::uint64_t seed, const PropertyContext&);
// One given term, its probes drawn from `seed`.
TrialResult soundness_of_steps_of(const Term& t, std::uint64_t seed, const PropertyContext&);
// reverse_mode.cpp
TrialResult reverse_mode_first_order(const PropertyContext&);
TrialResult reverse_mode_first_order_at(const gen::Query&, const PropertyContext&); // one query
TrialResult reverse_mode_vs_fd(const PropertyContext&);
TrialResult reverse_mode_vs_fd_at(const gen::Query&, const PropertyContext&); // one query
TrialResult reverse_mode_vs_intervals(const PropertyContext&);
TrialResult reverse_mode_vs_intervals_at(const gen::Query&, const PropertyContext&); // one query
TrialResult reverse_mode_higher_order(const PropertyContext&);
TrialResult tape_agreement(const PropertyContext&);
TrialResult tape_agreement_at(const gen::Query&, const PropertyContext&); // straight-line
TrialResult cost_reverse_mode(const PropertyContext&);
TrialResult cost_reverse_mode_at(const gen::Query&, const PropertyContext&); // straight-line
TrialResult cost_linear_steps(const PropertyContext&);
// (stages of ANF(P), steps) per chain -> the largest over the smallest steps per stage
double per_stage_step_spread(const std::vector<std::pair<long, long>>& stages_steps);
// model_checks.cpp
TrialResult premise_jacobian(const PropertyContext&);
TrialResult adequacy(const PropertyContext&);
// One given term; `seed` is asked only when the term is not ground (probing its value).
TrialResult adequacy_of(const Term& t, const std::function<std::uint64_t()>& seed,
                        const PropertyContext&);
TrialResult translation(const PropertyContext&);
// One given term, its probes drawn from `seed` (also soundness_of_steps_of, simulation_of).
TrialResult translation_of(const Term& t, std::uint64_t seed, const PropertyContext&);
// A term of templates 3, 4 or 1 or a closed term, as translation draws it.
Term every_template_term();
// jacobian_bodies.cpp
TrialResult jacobian_bodies(const PropertyContext&);
TrialResult jacobian_bodies_of(const Term& t, std::uint64_t seed, const PropertyContext&);
// simulation.cpp
TrialResult simulation(const PropertyContext&);
TrialResult simulation_of(const Term& t, std::uint64_t seed, const PropertyContext&);
// separation.cpp
TrialResult separation(const PropertyContext&);
} // namespace adsem::pullback::bodies
