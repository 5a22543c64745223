#pragma once
// Spec §6 P12's corollary [proposal]: the meaning of a Delta is linear in the values of its free
// ids, ⟦u⟧(αγ1 + βγ2) = α⟦u⟧γ1 + β⟦u⟧γ2 (seed 001 L807-813: "Deltas have no nonlinear terms").
// The dense meaning of Fig. 13 (L739-741) is the oracle eval-correctness and dense-tape-adequacy
// compare eval and the tape against, so this checks the oracle itself.
#include <cstdint>
#include <functional>
#include <map>

#include <Eigen/Core>

#include "properties/core/property.hpp"
#include "semantics/delta_reverse/values.hpp"

namespace adsem::delta_reverse {

using DeltaEnv = std::map<std::int64_t, Eigen::VectorXd>;
// ⟦u⟧γ ∈ R^dimension (dense_meaning, or a stand-in in tests).
using DeltaMeaning =
    std::function<Eigen::VectorXd(const Delta& u, const DeltaEnv& gamma, int dimension)>;

// ⟦u⟧(αγ1 + βγ2) against α⟦u⟧γ1 + β⟦u⟧γ2, compared as sums (they may cancel) whose terms have
// the magnitude |α|⟦|u|⟧|γ1| + |β|⟦|u|⟧|γ2| (|u|: every Scale's coefficient made positive).
props::TrialResult check_delta_linearity(const Delta& u, const DeltaEnv& gamma1,
                                         const DeltaEnv& gamma2, double alpha, double beta,
                                         const DeltaMeaning& meaning, int dimension, Tolerance tol);

props::PropertyDef delta_linearity();

} // namespace adsem::delta_reverse
