#pragma once
// Shared helpers for the semantics_core tests: RapidCheck draws of reals and of points well inside
// a primitive's domain.
#include "semantics/core/finite_difference.hpp"
#include "semantics/core/interval_model.hpp"
#include "semantics/core/primitives.hpp"

#include <rapidcheck.h>

#include <cstdint>
#include <vector>

namespace adsem::test {

// A real uniform in [low, high] on a grid of 2^30 steps (shrinks towards low). The size is fixed
// so that early (small-size) cases are spread over the whole range too.
inline double draw_real(double low, double high) {
  const std::int64_t steps = std::int64_t{1} << 30;
  const std::int64_t k =
      *rc::gen::resize(rc::kNominalSize, rc::gen::inRange<std::int64_t>(0, steps + 1));
  return low + (high - low) * static_cast<double>(k) / static_cast<double>(steps);
}

inline std::vector<double> draw_reals(std::size_t n, double low, double high) {
  std::vector<double> out;
  for (std::size_t i = 0; i < n; ++i)
    out.push_back(draw_real(low, high));
  return out;
}

// Ten stencil radii: points at least this far (relatively) from every domain boundary.
inline double boundary_margin() {
  return 10 * model::fd_stencil_relative_radius();
}

// A point in [-2, 2]^n whose box of relative radius boundary_margin() lies inside the domain
// (so finite differences and small boxes around it are certified). Discards if none is found.
inline std::vector<double> draw_point_inside(const Primitive& primitive) {
  for (int attempt = 0; attempt < 20; ++attempt) {
    const std::vector<double> x = draw_reals(primitive.arity(), -2, 2);
    if (primitive.classify(model::box_around(x, boundary_margin())) == BoxClass::inside) return x;
  }
  RC_DISCARD("no point well inside the domain of " + primitive.name());
  return {};
}

inline Eigen::VectorXd as_vector(const std::vector<double>& x) {
  return Eigen::Map<const Eigen::VectorXd>(x.data(), static_cast<Eigen::Index>(x.size()));
}

} // namespace adsem::test
