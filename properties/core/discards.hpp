#pragma once
// Discard reasons that the shared machinery gives, for every calculus alike. A discard is counted
// and reported, never a pass (design.md "Partial domains").
namespace adsem::props::discards {

// A value left the reals through IEEE overflow (semantics/core/overflow.hpp).
inline constexpr const char* overflow = "overflow";
// The finite-difference estimate cannot resolve a discrepancy (properties/core/fd_compare.hpp).
inline constexpr const char* fd_unstable = "fd-unstable";

} // namespace adsem::props::discards
