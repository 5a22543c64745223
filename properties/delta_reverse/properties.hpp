#pragma once
#include <vector>

#include "properties/core/property.hpp"
#include "properties/delta_reverse/support.hpp"

namespace adsem::delta_reverse {

// The properties of spec §6 (stable names delta-reverse/<property>).
std::vector<props::PropertyDef> properties();
// The same theorems on programs with vectors (§10.2; array_properties.cpp).
std::vector<props::PropertyDef> array_properties();

// adequacy, forward-correctness and reverse-correctness on one drawn program, point and tangent
// (tests, and the array extension's properties).
// Γ ⊢ e : A ⟹ X{Γ} ⊢ X{e} : X{A} for the four translations (translation-typing): a failure
// names the first that is not, with its output as the trace.
props::TrialResult translations_typed(const Term& e, const Context& gamma, const Type& a,
                                      const RunSetup& v);
props::TrialResult adequacy_at(const support::Drawn& d, const props::PropertyContext& context);
props::TrialResult forward_correctness_at(const support::Drawn& d, const Value& ds,
                                          const props::PropertyContext& context);
props::TrialResult reverse_correctness_at(const support::Drawn& d, const Value& dt,
                                          const props::PropertyContext& context);

// The other properties whose input is one program, each as the check its random body runs, with
// what that body draws after the program fixed (tangents and cotangents 1): bounded-exhaustive
// enumeration's checks (enumeration.cpp).
using ProgramCheck =
    std::function<props::TrialResult(const support::Drawn&, const props::PropertyContext&)>;
std::vector<std::pair<std::string, ProgramCheck>> program_checks();

} // namespace adsem::delta_reverse
