#pragma once
// P17's check (seed 000, Hahn–Banach L442-446, Prop. E.3 L873-877; spec §5.5, §6 P17): the probe
// family that every pullback comparison uses (support::probe) separates distinct values.
#include <functional>

#include "properties/pullback/support.hpp"

namespace adsem::pullback::separation {

// A probe family: the worst tolerance ratio of its probes on a pair of values of one type.
using ProbeFamily =
    std::function<support::ProbeReading(const support::V&, const support::V&, const Type&)>;

// x ≠ y at t. `certain` when they differ where the family's probes are complete (the n basis
// probes of a Euclidean part, the n basis evaluations of a covector): not separating them there is
// a failure. Elsewhere (function spaces, duals of them: K sampled arguments) it is a counted
// discard, so that the discards give the detection rate.
props::TrialResult check(const support::V& x, const support::V& y, const Type& t, bool certain,
                         const ProbeFamily& family);

} // namespace adsem::pullback::separation
