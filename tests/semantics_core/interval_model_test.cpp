// The model over boxes: enclosures of value and Jacobian, classification, and the certificate of
// abadi-plotkin §5.4 (shrink ×0.1 up to 4 times).
#include "semantics/core/interval_model.hpp"
#include "semantics/core/primitives.hpp"
#include "support.hpp"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <cmath>

namespace adsem::model::interval_model_test {
namespace {

const Primitive& prim(std::string_view name) {
  return primitives().at(name);
}

// A small program written once over any scalar S: if x < 1 then log(x) else x·x.
template <class S> std::vector<S> guarded(std::span<const S> x) {
  const std::vector<S> args{x[0], S(1.0)};
  if (prim("less").holds<S>(args)) return prim("log").apply<S>(std::vector<S>{x[0]});
  return {x[0] * x[0]};
}

TEST(IntervalModel, BoxAroundAPoint) {
  const std::vector<double> x{0.5, -10.0};
  const Box box = box_around(x, 0.1);
  EXPECT_LE(box[0].lower(), 0.4);
  EXPECT_GE(box[0].upper(), 0.6);
  EXPECT_LT(box[0].upper(), 0.6 + 1e-15);
  EXPECT_LE(box[1].lower(), -11.0);
  EXPECT_GE(box[1].upper(), -9.0);
  EXPECT_TRUE(box_contains(box, x));
  EXPECT_FALSE(box_contains(box, std::vector<double>{0.7, -10.0}));
}

TEST(IntervalModel, EnclosureRejectsAWrongDerivative) {
  // d/dx sin at 0.5 is cos 0.5; the enclosure over a small box excludes -cos 0.5, so an AD that
  // returned it would be a definite bug.
  const Box box = box_around(std::vector<double>{0.5}, 1e-6);
  const Enclosure e = enclose(as_vector_function<Dual<Interval>>(prim("sin")), box);
  EXPECT_TRUE(encloses(e.jacobian(0, 0), std::cos(0.5)));
  EXPECT_FALSE(encloses(e.jacobian(0, 0), -std::cos(0.5)));
  EXPECT_LT(e.jacobian(0, 0).upper() - e.jacobian(0, 0).lower(), 1e-5);
}

RC_GTEST_PROP(IntervalModelProperties, EnclosesValueAndJacobianOfAProgram, ()) {
  // f(x, y) = (x·y, sin x + exp(y)/x) on boxes away from x = 0.
  const VectorFunction<Dual<Interval>> fi = [](std::span<const Dual<Interval>> v) {
    return std::vector<Dual<Interval>>{v[0] * v[1], sin(v[0]) + exp(v[1]) / v[0]};
  };
  const VectorFunction<Dual<double>> fd = [](std::span<const Dual<double>> v) {
    return std::vector<Dual<double>>{v[0] * v[1], sin(v[0]) + exp(v[1]) / v[0]};
  };
  const std::vector<double> centre{test::draw_real(0.5, 2), test::draw_real(-2, 2)};
  const Box box = box_around(centre, test::draw_real(1e-9, 0.1));
  const std::vector<double> x{test::draw_real(box[0].lower(), box[0].upper()),
                              test::draw_real(box[1].lower(), box[1].upper())};
  const Enclosure e = enclose(fi, box);
  const Eigen::VectorXd at = test::as_vector(x);
  const std::vector<Dual<double>> value = fd(std::vector<Dual<double>>(x.begin(), x.end()));
  RC_ASSERT(encloses(e.value[0], value[0].primal()));
  RC_ASSERT(encloses(e.value[1], value[1].primal()));
  RC_ASSERT(e.jacobian.contains(jacobian(fd, at)));
}

TEST(IntervalModel, GuardsAndDomainsOnBoxes) {
  EXPECT_EQ(classify(prim("log"), Box{Interval(0.5, 2)}), BoxClass::inside);
  EXPECT_EQ(truth_on_box(prim("less"), Box{Interval(0, 1), Interval(1.5, 2)}), Truth::holds);
  // The guarded program on a box that straddles x = 1 is undecided (branch boundary) ...
  try {
    (void)enclose(VectorFunction<Dual<Interval>>(guarded<Dual<Interval>>),
                  box_around(std::vector<double>{1.0}, 0.01));
    FAIL() << "expected Undecided";
  } catch (const Undecided& undecided) {
    EXPECT_EQ(undecided.reason(), branch_boundary);
  }
  // ... and on one side of it, it is enclosed.
  const Enclosure e = enclose(VectorFunction<Dual<Interval>>(guarded<Dual<Interval>>),
                              box_around(std::vector<double>{0.5}, 0.01));
  EXPECT_TRUE(encloses(e.value[0], std::log(0.5)));
  EXPECT_TRUE(encloses(e.jacobian(0, 0), 2.0));
}

Certificate certify_guarded(double x) {
  return certify(std::vector<double>{x},
                 [](const Box& box) { (void)guarded<Interval>(Args<Interval>(box)); });
}

TEST(IntervalModel, CertifyShrinksTheBox) {
  // Inside, far from every boundary: certified at once, with the FD stencil inside the box.
  const Certificate far = certify_guarded(3.0);
  EXPECT_EQ(far.status, CertificateStatus::certified);
  EXPECT_EQ(far.shrinks, 0);
  EXPECT_EQ(far.relative_radius, fd_stencil_relative_radius());
  EXPECT_TRUE(box_contains(far.box, std::vector<double>{3.0 + 3 * fd_step(3.0)}));
  // log near its boundary: the first two boxes straddle 0, the third (radius ×0.01) is inside.
  const Certificate near = certify_guarded(1e-3);
  EXPECT_EQ(near.status, CertificateStatus::certified);
  EXPECT_EQ(near.shrinks, 2);
  EXPECT_NEAR(near.relative_radius, 0.01 * fd_stencil_relative_radius(), 1e-18);
  // Outside log's domain: every mode must report the error.
  const Certificate outside = certify_guarded(-1.0);
  EXPECT_EQ(outside.status, CertificateStatus::outside);
  EXPECT_NE(outside.reason.find("log"), std::string::npos);
  // On the branch switch: still straddling after 4 shrinks, discarded.
  const Certificate on_switch = certify_guarded(1.0 + 1e-9);
  EXPECT_EQ(on_switch.status, CertificateStatus::uncertified);
  EXPECT_EQ(on_switch.shrinks, 4);
  EXPECT_EQ(on_switch.reason, branch_boundary);
  // relu's kink: a domain boundary.
  const Certificate kink = certify(std::vector<double>{0.0}, [](const Box& box) {
    (void)prim("relu").apply<Interval>(Args<Interval>(box));
  });
  EXPECT_EQ(kink.status, CertificateStatus::uncertified);
  EXPECT_EQ(kink.reason, domain_boundary);
}

// An evaluation that returns its ⊥ (certify_partial) is outside with that message, at once; a value
// certifies as with certify.
TEST(IntervalModel, CertifyPartialTakesAReturnedBottomAsOutside) {
  int calls = 0;
  const Certificate bottom =
      certify_partial(std::vector<double>{2.0}, [&](const Box&) -> std::optional<std::string> {
        ++calls;
        return "f^(0) = ⊥";
      });
  EXPECT_EQ(bottom.status, CertificateStatus::outside);
  EXPECT_EQ(bottom.reason, "f^(0) = ⊥");
  EXPECT_EQ(calls, 1);
  const Certificate value =
      certify_partial(std::vector<double>{1e-3}, [](const Box& box) -> std::optional<std::string> {
        (void)guarded<Interval>(Args<Interval>(box));
        return std::nullopt;
      });
  EXPECT_EQ(value.status, CertificateStatus::certified);
  EXPECT_EQ(value.shrinks, certify_guarded(1e-3).shrinks);
}

// exp(3x · 6 / x) is the constant exp(18), but the chain rule sums exp(18)·18/x and
// −exp(18)·18x/x²: the magnitude of those terms is what rounding in J v is relative to.
TEST(IntervalModel, JvpMagnitudeSumsThePathsAbsolutely) {
  const VectorFunction<Dual<Interval>> constant = [](std::span<const Dual<Interval>> x) {
    const Dual<Interval> inner = x[0] * 3.0 * 6.0 / x[0];
    return prim("exp").apply<Dual<Interval>>(std::vector<Dual<Interval>>{inner});
  };
  const std::vector<double> at{2.0}, v{-1.0};
  const std::vector<double> m = jvp_magnitude(constant, at, v);
  ASSERT_EQ(m.size(), 1U);
  EXPECT_NEAR(m[0], 18.0 * std::exp(18.0), 1e-9 * 18.0 * std::exp(18.0));
  // x0 − x1 along (1, 1): J v = 0 from two terms of size 1; a linear map scales |v|.
  const VectorFunction<Dual<Interval>> difference = [](std::span<const Dual<Interval>> x) {
    return std::vector<Dual<Interval>>{x[0] - x[1], x[0] * 3.0};
  };
  const std::vector<double> d =
      jvp_magnitude(difference, std::vector<double>{0.5, 4.0}, std::vector<double>{1.0, 1.0});
  ASSERT_EQ(d.size(), 2U);
  EXPECT_DOUBLE_EQ(d[0], 2.0);
  EXPECT_DOUBLE_EQ(d[1], 3.0);
}

} // namespace
} // namespace adsem::model::interval_model_test
