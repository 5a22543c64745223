#pragma once
// The program families of `adsem complexity delta-reverse` (properties/core/complexity.hpp).
#include <string>
#include <vector>

#include "properties/core/complexity.hpp"

namespace adsem::delta_reverse {

std::vector<props::ComplexityFamily> complexity_families();

// The source of the linear families (sharing-chain, wide-sum, nested-closures, rnn, let-series,
// long-range-let) at size n, and the point they are differentiated at (benchmarks).
std::string family_source(const std::string& family, int n);
std::vector<double> family_point(const std::string& family, int n);

} // namespace adsem::delta_reverse
