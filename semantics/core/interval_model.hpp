#pragma once
// The model over boxes (design.md "Three oracles" and "Partial domains"; abadi-plotkin §5.4
// "interval certificate"): the same generic evaluation, run on Interval / Dual<Interval>,
// encloses the value and the Jacobian of a model function over a whole box, and decides whether
// the box lies inside the domains of the primitives it meets and on one side of every guard.
//
//  - Primitive::apply<Dual<Interval>> / holds<...> throw model::Undecided("domain-boundary" /
//    "branch-boundary") when a box straddles, and model::Undefined when it is wholly outside.
//  - certify(point, evaluate) runs an evaluation over a box around the point, shrinking it by 0.1
//    up to 4 times while it is undecided (abadi-plotkin §5.4). A certified box is a neighbourhood
//    on which the point is in every domain and takes one control path: finite differences inside
//    it are valid, and a derivative outside its enclosure is a definite bug.
#include "semantics/core/interval.hpp"
#include "semantics/core/jacobian.hpp"
#include "semantics/core/primitives.hpp"
#include "semantics/core/tags.hpp"

#include <Eigen/Core>

#include <functional>
#include <optional>
#include <span>
#include <string>
#include <variant>
#include <vector>

namespace adsem::model {

using Box = std::vector<Interval>;

// x_i ± r · max(1, |x_i|), endpoints rounded outward.
Box box_around(std::span<const double> point, double relative_radius);
Box point_box(std::span<const double> point);
bool box_contains(const Box& box, std::span<const double> point);
// The tag-free arguments of a box, as Dual<Interval> numbers.
std::vector<Dual<Interval>> as_duals(const Box& box);

// Row-major m x n matrix of intervals.
struct IntervalMatrix {
  std::size_t rows = 0;
  std::size_t cols = 0;
  std::vector<Interval> entries;

  const Interval& operator()(std::size_t i, std::size_t j) const { return entries[i * cols + j]; }
  bool contains(const Eigen::MatrixXd& m) const;
};

struct Enclosure {
  std::vector<Interval> value; // f over the box
  IntervalMatrix jacobian;     // J_f over the box
};

// Value and Jacobian of f enclosed over the box (Dual<Interval>, one fresh tag per column).
// Throws Undecided / Undefined as the primitives do.
Enclosure enclose(const VectorFunction<Dual<Interval>>& f, const Box& box,
                  const DiffContext& context = DiffContext());

// The magnitude of the terms the chain rule sums into J v at x: per output, Σ over the paths from
// input i of |product of the partials on the path| · |v_i| (|J| |v| path by path, >= |(J v)_k|).
// J v of a constant function is 0 but its terms need not be (exp(3x · 6 / x)); rounding in any
// evaluation order errs relative to these (tolerance.hpp, SumWithMagnitude). Computed as J v on
// Dual<Interval> with the point x and the tangents [-|v_i|, |v_i|]: first-order tangents are linear
// in the seed, and symmetric intervals add and scale as their radii do. Throws as enclose does.
std::vector<double> jvp_magnitude(const VectorFunction<Dual<Interval>>& f,
                                  std::span<const double> x, std::span<const double> v,
                                  const DiffContext& context = DiffContext());

// The same for cᵀJ at x, per input j: Σ_k |c_k| · (jvp_magnitude for the unit tangent e_j)_k, the
// magnitude of the terms reverse mode sums into component j. One interval JVP per input.
std::vector<double> vjp_magnitude(const VectorFunction<Dual<Interval>>& f,
                                  std::span<const double> x, std::span<const double> c,
                                  const DiffContext& context = DiffContext());

// The magnitude a floating-point evaluation's rounding errs relative to, read off the enclosure
// of the same evaluation in interval arithmetic at a point: its width over the machine epsilon, at
// least the value's own size. Each operation widens the enclosure by about |∂result/∂operation|
// times the rounding of its own value, so for a sum of n terms it is at most about n Σ|a_i|
// (docs/model.md "Sums", where the terms' magnitudes are known) and for cos(y) it is |sin y| · |y|
// and the magnitudes that made y. Infinite for an unbounded enclosure.
double rounding_magnitude(const Interval& enclosure);

// A primitive's domain / a predicate's truth on a box.
BoxClass classify(const Primitive& primitive, const Box& box);
Truth truth_on_box(const Primitive& predicate, const Box& box);

enum class CertificateStatus {
  certified,   // a box around the point is inside every domain, on one side of every guard
  outside,     // the point is certainly outside a domain (every mode must report the error)
  uncertified, // still straddling after the last shrink: discard, counted
};
std::string_view to_string(CertificateStatus status);

struct Certificate {
  CertificateStatus status = CertificateStatus::uncertified;
  Box box;                    // the last box tried
  double relative_radius = 0; // of that box
  int shrinks = 0;            // how many times the box was shrunk
  std::string reason;         // Undecided::reason() (uncertified) or the error message (outside)
};

struct CertifyOptions {
  double initial_relative_radius = 0; // 0: fd_stencil_relative_radius(), so FD fits inside
  double shrink_factor = 0.1;
  int max_shrinks = 4;
};

// Runs evaluate(box) on boxes around the point, shrinking while it throws Undecided. Undefined
// means outside; other exceptions (fuel, ...) propagate.
Certificate certify(std::span<const double> point,
                    const std::function<void(const Box&)>& evaluate_on_box,
                    const CertifyOptions& options = {});
// The same for an evaluation that reports ⊥ by returning its message (outside) rather than by
// throwing Undefined; nullopt is a value.
Certificate
certify_partial(std::span<const double> point,
                const std::function<std::optional<std::string>(const Box&)>& evaluate_on_box,
                const CertifyOptions& options = {});
// The same for an evaluation that also reports a straddled box by returning it rather than by
// throwing: on one box, nullopt for a value, else the message of the ⊥ met (outside) or the
// model::Undecided met (shrink and retry).
using BoxBottom = std::optional<std::variant<std::string, Undecided>>;
Certificate certify_reported(std::span<const double> point,
                             const std::function<BoxBottom(const Box&)>& evaluate_on_box,
                             const CertifyOptions& options = {});

} // namespace adsem::model
