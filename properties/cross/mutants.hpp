#pragma once
// The cross calculus's mutants. Two are its own bug classes: an embedding that prints one
// primitive wrongly, and a mechanism's gradient read back in the wrong order. The others run one
// calculus's own mutant inside the cross check (the target's front end gets it), to show that the
// agreement property catches each calculus's AD bugs from the outside, with nothing but the
// gradient to look at.
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "properties/core/property.hpp"

namespace adsem::cross {

inline constexpr const char* sub_reversed_mutant = "cross/delta-reverse-sub-reversed";
inline constexpr const char* gradient_reversed_mutant = "cross/pullback-gradient-reversed";

// For a forwarding mutant "cross/via-<calc>-<name>": the target calculus and its mutant's full
// name; nullopt for every other name.
std::optional<std::pair<std::string, std::string>> forwarded_mutant(const std::string& mutant);

std::vector<props::MutantDef> cross_mutants();

} // namespace adsem::cross
