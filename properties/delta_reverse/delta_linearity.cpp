#include "properties/delta_reverse/delta_linearity.hpp"

#include <cmath>
#include <vector>

#include "generators/core/uniform.hpp"
#include "properties/core/sum_compare.hpp"
#include "properties/delta_reverse/random_deltas.hpp"
#include "semantics/delta_reverse/delta_eval.hpp"
#include <fmt/format.h>

namespace adsem::delta_reverse {

namespace {
using props::PropertyContext;
using props::TrialResult;

// u with every Scale coefficient r replaced by |r|: ⟦|u|⟧|γ| sums the magnitudes of the terms
// ⟦u⟧γ sums (a Delta's meaning is a polynomial with no subtraction of its own).
Delta absolute(const Delta& u) {
  using DK = DeltaNode::Kind;
  switch (u->kind) {
  case DK::scale:
    return d_scale(std::abs(u->r), absolute(u->a));
  case DK::add:
    return d_add(absolute(u->a), absolute(u->b));
  case DK::let:
    return d_let(u->id, absolute(u->a), absolute(u->b));
  default:
    return u;
  }
}

DeltaEnv combined(double alpha, const DeltaEnv& g1, double beta, const DeltaEnv& g2) {
  DeltaEnv out;
  for (const auto& [id, x] : g1)
    out[id] = alpha * x + beta * g2.at(id);
  return out;
}

DeltaEnv absolute(const DeltaEnv& g) {
  DeltaEnv out;
  for (const auto& [id, x] : g)
    out[id] = x.cwiseAbs();
  return out;
}

// The free ids' values: dimension reals in quarters, -2..2, as eval-correctness draws them (but
// uniformly, as random_delta draws).
DeltaEnv random_env(int free_ids, int dimension) {
  DeltaEnv g;
  for (std::int64_t i = 1; i <= free_ids; ++i) {
    Eigen::VectorXd x(dimension);
    for (int c = 0; c < dimension; ++c)
      x(c) = adsem::gen::uniform_in(-8, 9) / 4.0;
    g[i] = x;
  }
  return g;
}

TrialResult linearity(const PropertyContext& context) {
  const int free_ids = 3, dimension = 3;
  std::int64_t next_let = 10;
  const Delta u = random_delta(free_ids, next_let, 4);
  const DeltaEnv g1 = random_env(free_ids, dimension), g2 = random_env(free_ids, dimension);
  const double alpha = adsem::gen::uniform_in(-200, 201) / 100.0;
  const double beta = adsem::gen::uniform_in(-200, 201) / 100.0;
  TrialResult r = check_delta_linearity(u, g1, g2, alpha, beta, dense_meaning, dimension,
                                        context.tolerance(CheckKind::exact_value));
  r.on(print_delta(u), "Delta", static_cast<int>(delta_nodes(u)), {});
  return r;
}

} // namespace

TrialResult check_delta_linearity(const Delta& u, const DeltaEnv& gamma1, const DeltaEnv& gamma2,
                                  double alpha, double beta, const DeltaMeaning& meaning,
                                  int dimension, Tolerance tol) {
  const Eigen::VectorXd lhs = meaning(u, combined(alpha, gamma1, beta, gamma2), dimension);
  const Eigen::VectorXd m1 = meaning(u, gamma1, dimension), m2 = meaning(u, gamma2, dimension);
  const Delta abs_u = absolute(u);
  const Eigen::VectorXd magnitude = std::abs(alpha) * meaning(abs_u, absolute(gamma1), dimension) +
                                    std::abs(beta) * meaning(abs_u, absolute(gamma2), dimension);
  std::vector<SumWithMagnitude> expected, actual;
  for (int c = 0; c < dimension; ++c) {
    expected.push_back({alpha * m1(c) + beta * m2(c), magnitude(c)});
    actual.push_back({lhs(c), magnitude(c)});
  }
  return props::compare_sum_vectors(expected, "α⟦u⟧γ1 + β⟦u⟧γ2", actual, "⟦u⟧(αγ1 + βγ2)",
                                    CheckKind::exact_value, tol);
}

props::PropertyDef delta_linearity() {
  return props::PropertyDef{"delta-reverse",
                            "delta-reverse/delta-linearity",
                            "linearity",
                            "a Delta's meaning is linear in its free ids' values: ⟦u⟧(αγ1 + βγ2) "
                            "= α⟦u⟧γ1 + β⟦u⟧γ2",
                            "seed 001, Lemma 6 L802-813; spec §6 P12 corollary [proposal]",
                            linearity};
}

} // namespace adsem::delta_reverse
