#include "semantics/core/interval_model.hpp"

#include "semantics/core/finite_difference.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace adsem::model {

Box box_around(std::span<const double> point, double relative_radius) {
  Box box;
  for (const double x : point) {
    const Interval radius = Interval(relative_radius) * std::max(1.0, std::abs(x));
    box.push_back(Interval(x) + Interval(-radius.upper(), radius.upper()));
  }
  return box;
}

Box point_box(std::span<const double> point) {
  return Box(point.begin(), point.end());
}

bool box_contains(const Box& box, std::span<const double> point) {
  if (box.size() != point.size()) return false;
  for (std::size_t i = 0; i < box.size(); ++i)
    if (!encloses(box[i], point[i])) return false;
  return true;
}

std::vector<Dual<Interval>> as_duals(const Box& box) {
  return std::vector<Dual<Interval>>(box.begin(), box.end());
}

bool IntervalMatrix::contains(const Eigen::MatrixXd& m) const {
  if (static_cast<std::size_t>(m.rows()) != rows || static_cast<std::size_t>(m.cols()) != cols)
    return false;
  for (std::size_t i = 0; i < rows; ++i)
    for (std::size_t j = 0; j < cols; ++j)
      if (!encloses((*this)(i, j), m(static_cast<Eigen::Index>(i), static_cast<Eigen::Index>(j))))
        return false;
  return true;
}

Enclosure enclose(const VectorFunction<Dual<Interval>>& f, const Box& box,
                  const DiffContext& context) {
  const std::vector<Dual<Interval>> point = as_duals(box);
  Enclosure out;
  for (const Dual<Interval>& y : f(point))
    out.value.push_back(y.primal());
  out.jacobian.rows = out.value.size();
  out.jacobian.cols = box.size();
  out.jacobian.entries.assign(out.jacobian.rows * out.jacobian.cols, Interval(0.0));
  for (std::size_t j = 0; j < box.size(); ++j) {
    const std::vector<Dual<Interval>> column = jacobian_column_dual<Interval>(f, point, j, context);
    for (std::size_t i = 0; i < column.size(); ++i)
      out.jacobian.entries[i * out.jacobian.cols + j] = column[i].primal();
  }
  return out;
}

std::vector<double> jvp_magnitude(const VectorFunction<Dual<Interval>>& f,
                                  std::span<const double> x, std::span<const double> v,
                                  const DiffContext& context) {
  const std::vector<Dual<Interval>> point = as_duals(point_box(x));
  std::vector<Dual<Interval>> seed;
  for (const double vi : v)
    seed.emplace_back(Interval(-std::abs(vi), std::abs(vi)));
  std::vector<double> out;
  for (const Dual<Interval>& t : jvp_dual<Interval>(f, point, seed, context))
    out.push_back(std::max(std::abs(t.primal().lower()), std::abs(t.primal().upper())));
  return out;
}

std::vector<double> vjp_magnitude(const VectorFunction<Dual<Interval>>& f,
                                  std::span<const double> x, std::span<const double> c,
                                  const DiffContext& context) {
  std::vector<double> out;
  std::vector<double> unit(x.size(), 0.0);
  for (std::size_t j = 0; j < x.size(); ++j) {
    unit[j] = 1.0;
    const std::vector<double> per_output = jvp_magnitude(f, x, unit, context);
    unit[j] = 0.0;
    double m = 0.0;
    for (std::size_t k = 0; k < per_output.size() && k < c.size(); ++k)
      m += std::abs(c[k]) * per_output[k];
    out.push_back(m);
  }
  return out;
}

double rounding_magnitude(const Interval& enclosure) {
  const double lo = enclosure.lower(), hi = enclosure.upper();
  if (!std::isfinite(lo) || !std::isfinite(hi)) return std::numeric_limits<double>::infinity();
  return std::max((hi - lo) / std::numeric_limits<double>::epsilon(),
                  std::max(std::abs(lo), std::abs(hi)));
}

BoxClass classify(const Primitive& primitive, const Box& box) {
  return primitive.classify(box);
}

Truth truth_on_box(const Primitive& predicate, const Box& box) {
  return predicate.truth(Args<Interval>(box));
}

std::string_view to_string(CertificateStatus status) {
  switch (status) {
  case CertificateStatus::certified:
    return "certified";
  case CertificateStatus::outside:
    return "outside";
  case CertificateStatus::uncertified:
    return "uncertified";
  }
  return "uncertified";
}

Certificate certify(std::span<const double> point,
                    const std::function<void(const Box&)>& evaluate_on_box,
                    const CertifyOptions& options) {
  return certify_partial(
      point,
      [&](const Box& box) -> std::optional<std::string> {
        evaluate_on_box(box);
        return std::nullopt;
      },
      options);
}

Certificate
certify_partial(std::span<const double> point,
                const std::function<std::optional<std::string>(const Box&)>& evaluate_on_box,
                const CertifyOptions& options) {
  return certify_reported(
      point,
      [&](const Box& box) -> BoxBottom {
        if (std::optional<std::string> undefined = evaluate_on_box(box))
          return std::move(*undefined);
        return std::nullopt;
      },
      options);
}

Certificate certify_reported(std::span<const double> point,
                             const std::function<BoxBottom(const Box&)>& evaluate_on_box,
                             const CertifyOptions& options) {
  Certificate certificate;
  certificate.relative_radius = options.initial_relative_radius > 0
                                    ? options.initial_relative_radius
                                    : fd_stencil_relative_radius();
  for (int attempt = 0;; ++attempt) {
    certificate.box = box_around(point, certificate.relative_radius);
    certificate.shrinks = attempt;
    try {
      BoxBottom bottom = evaluate_on_box(certificate.box);
      if (!bottom) {
        certificate.status = CertificateStatus::certified;
        certificate.reason.clear();
        return certificate;
      }
      if (auto* undefined = std::get_if<std::string>(&*bottom)) {
        certificate.status = CertificateStatus::outside;
        certificate.reason = std::move(*undefined);
        return certificate;
      }
      certificate.status = CertificateStatus::uncertified;
      certificate.reason = std::get<Undecided>(*bottom).reason();
    } catch (const Undefined& error) {
      certificate.status = CertificateStatus::outside;
      certificate.reason = error.what();
      return certificate;
    } catch (const Undecided& undecided) {
      certificate.status = CertificateStatus::uncertified;
      certificate.reason = undecided.reason();
    }
    if (attempt >= options.max_shrinks) return certificate;
    certificate.relative_radius *= options.shrink_factor;
  }
}

} // namespace adsem::model
