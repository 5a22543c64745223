// The primitive table: names and aliases, the one generic definition seen through every scalar
// type, domains on points and boxes, and the paper values of the paper-specific entries.
#include "semantics/core/finite_difference.hpp"
#include "semantics/core/interval_model.hpp"
#include "semantics/core/jacobian.hpp"
#include "semantics/core/primitives.hpp"
#include "semantics/core/tolerance.hpp"
#include "support.hpp"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <cmath>

namespace adsem::primitives_test {
namespace {

using model::Dual;
using model::Interval;

const Primitive& prim(std::string_view name) {
  return primitives().at(name);
}

TEST(PrimitiveTable, FindsEveryNameTheSpecsUse) {
  EXPECT_EQ(primitives().at("mulR").name(), "mul");     // krawiec §2.2
  EXPECT_EQ(primitives().at("mult").name(), "mul");     // mak-ong §7
  EXPECT_EQ(primitives().at("addR").name(), "add");     // krawiec
  EXPECT_EQ(primitives().at("subR").name(), "sub");     // krawiec
  EXPECT_EQ(primitives().at("divR").name(), "div");     // krawiec
  EXPECT_EQ(primitives().at("negR").name(), "neg");     // krawiec
  EXPECT_EQ(primitives().at("pow2").name(), "sq");      // mak-ong §7
  EXPECT_EQ(primitives().at("DProd_2").name(), "dot2"); // abadi-plotkin §7.1
  EXPECT_EQ(primitives().at("lt").name(), "less");      // abadi-plotkin §7.2
  EXPECT_EQ(primitives().at("ltR").name(), "less");     // krawiec §7.3
  for (const char* name : {"add", "sub", "mul", "div", "neg", "sin", "cos", "exp", "log", "sqrt",
                           "tanh", "less", "recip", "sigma", "g"})
    EXPECT_TRUE(primitives().contains(name)) << name;
  EXPECT_EQ(primitives().find("no_such_primitive"), nullptr);
  EXPECT_THROW((void)primitives().at("no_such_primitive"), std::out_of_range);
  EXPECT_TRUE(prim("less").is_predicate());
  EXPECT_FALSE(prim("log").is_predicate());
}

TEST(PrimitiveTable, IsAnImmutableValueExtendedByOneEntry) {
  const PrimitiveTable extended = primitives().with(function_primitive(
      {.name = "softplus", .aliases = {"sp"}, .arity = 1, .meaning = "log(1 + exp x1)"},
      []<class S>(Args<S> x) -> S {
        using std::exp;
        using std::log;
        return log(1.0 + exp(x[0]));
      }));
  EXPECT_FALSE(primitives().contains("softplus"));
  ASSERT_TRUE(extended.contains("sp"));
  const std::vector<double> x{0.0};
  EXPECT_DOUBLE_EQ(extended.at("sp").apply1<double>(x), std::log(2.0));
  // Its derivative (the logistic function) and interval extension come from the same entry.
  const Eigen::MatrixXd j =
      model::jacobian(model::as_vector_function<Dual<double>>(extended.at("sp")),
                      Eigen::VectorXd::Constant(1, 0.0));
  EXPECT_DOUBLE_EQ(j(0, 0), 0.5);
  const std::vector<Interval> box{Interval(-1.0, 1.0)};
  const Interval y = extended.at("sp").apply1<Interval>(box);
  EXPECT_TRUE(model::encloses(y, std::log1p(std::exp(0.3))));
  // A duplicate name is rejected.
  EXPECT_THROW((void)extended.with(extended.at("sp")), std::invalid_argument);
}

TEST(PrimitiveValues, PaperExamples) {
  // abadi-plotkin §8.1: dprod2(<<1,2>,<3,4>>) = 11; grad = <<3,4>,<1,2>>.
  const std::vector<double> p{1, 2, 3, 4};
  EXPECT_EQ(prim("dot2").apply1<double>(p), 11.0);
  const Eigen::VectorXd grad =
      model::gradient(model::as_vector_function<Dual<double>>(prim("dot2")), test::as_vector(p));
  EXPECT_EQ(grad, (Eigen::VectorXd(4) << 3, 4, 1, 2).finished());
  // mak-ong §8.1: g(1,3) = (2, 11), Jg(1,3) = [[1,0],[2,6]].
  const std::vector<double> q{1, 3};
  EXPECT_EQ(prim("g").apply<double>(q), (std::vector<double>{2, 11}));
  const Eigen::MatrixXd jg =
      model::jacobian(model::as_vector_function<Dual<double>>(prim("g")), test::as_vector(q));
  EXPECT_EQ(jg, (Eigen::MatrixXd(2, 2) << 1, 0, 2, 6).finished());
  // ... and the whole pipeline pow2(mult(g(x, y))) has gradient [660, 528] at (1, 3).
  const model::VectorFunction<Dual<double>> pipeline = [](std::span<const Dual<double>> x) {
    const std::vector<Dual<double>> gx = prim("g").apply(x);
    const Dual<double> m = prim("mult").apply1<Dual<double>>(gx);
    return prim("pow2").apply<Dual<double>>(std::vector<Dual<double>>{m});
  };
  EXPECT_EQ(model::gradient(pipeline, test::as_vector(q)),
            (Eigen::VectorXd(2) << 660, 528).finished());
  // bmp §7: dsigma is sigma's derivative; relu and step away from the kink.
  for (const double x : {-1.5, 0.25, 2.0}) {
    const std::vector<double> at{x};
    const Eigen::MatrixXd d = model::jacobian(
        model::as_vector_function<Dual<double>>(prim("sigma")), test::as_vector(at));
    EXPECT_NEAR(d(0, 0), prim("dsigma").apply1<double>(at), 1e-15);
  }
  EXPECT_EQ(prim("relu").apply1<double>(std::vector<double>{-2}), 0.0);
  EXPECT_EQ(prim("relu").apply1<double>(std::vector<double>{3}), 3.0);
  EXPECT_EQ(prim("step").apply1<double>(std::vector<double>{3}), 1.0);
}

TEST(PrimitiveValues, PrimalPartsAreBitwiseThePlainDoubleEvaluation) {
  // abadi-plotkin §6 conventions: primal parts use the same IEEE operations as plain evaluation.
  const std::vector<double> x{0.7, 1.3};
  for (const Primitive& p : primitives().entries()) {
    if (p.is_predicate() || p.arity() > 2) continue;
    const std::vector<double> args(x.begin(), x.begin() + static_cast<long>(p.arity()));
    const std::vector<double> plain = p.apply<double>(args);
    const std::vector<Dual<double>> dual_args(args.begin(), args.end());
    const std::vector<Dual<double>> dual = p.apply<Dual<double>>(dual_args);
    for (std::size_t i = 0; i < plain.size(); ++i)
      EXPECT_EQ(dual[i].primal(), plain[i]) << p.name();
  }
  // a/b is the IEEE quotient even when b is perturbed.
  const Dual<double> b = Dual<double>::perturbation(3.0, 1, 1.0);
  EXPECT_EQ((Dual<double>(1.0) / b).primal(), 1.0 / 3.0);
}

TEST(PrimitiveDomains, PointsOutsideAreUndefined) {
  try {
    (void)prim("log").apply1<double>(std::vector<double>{-1.0});
    FAIL() << "log(-1) must be undefined";
  } catch (const model::Undefined& error) {
    EXPECT_EQ(error.reason(), model::outside_domain);
    EXPECT_EQ(error.diagnostic().kind, ErrorKind::domain);
    EXPECT_NE(std::string(error.what()).find("log(-1)"), std::string::npos);
  }
  EXPECT_THROW((void)prim("log").apply1<double>(std::vector<double>{0.0}), model::Undefined);
  EXPECT_THROW((void)prim("sqrt").apply1<double>(std::vector<double>{0.0}), model::Undefined);
  EXPECT_THROW((void)prim("div").apply1<double>(std::vector<double>{1.0, 0.0}), model::Undefined);
  EXPECT_THROW((void)prim("relu").apply1<double>(std::vector<double>{0.0}), model::Undefined);
  // The domain is read on the tag-free part of a dual.
  const std::vector<Dual<double>> perturbed{Dual<double>::perturbation(-1.0, 7, 1.0)};
  EXPECT_THROW((void)prim("log").apply1<Dual<double>>(perturbed), model::Undefined);
  EXPECT_EQ(prim("div").apply1<double>(std::vector<double>{1.0, -4.0}), -0.25);
}

TEST(PrimitiveDomains, LessIsUndefinedOnTheDiagonal) {
  EXPECT_TRUE(prim("less").holds<double>(std::vector<double>{1.0, 2.0}));
  EXPECT_FALSE(prim("less").holds<double>(std::vector<double>{2.0, 1.0}));
  EXPECT_EQ(prim("less").truth(Args<double>(std::vector<double>{1.5, 1.5})), Truth::boundary);
  try {
    (void)prim("less").holds<double>(std::vector<double>{1.5, 1.5});
    FAIL() << "less(1.5, 1.5) must be undefined";
  } catch (const model::Undefined& error) {
    EXPECT_EQ(error.reason(), model::at_boundary);
  }
  // Decided on the tag-free part: perturbations do not move the guard.
  const std::vector<Dual<double>> xs{Dual<double>::perturbation(1.0, 3, 5.0), Dual<double>(2.0)};
  EXPECT_TRUE(prim("less").holds<Dual<double>>(xs));
}

struct BoxCase {
  const char* primitive;
  std::vector<Interval> box;
  BoxClass expected;
};

TEST(PrimitiveDomains, BoxesAreInsideOutsideOrStraddling) {
  const std::vector<BoxCase> cases = {
      {"log", {Interval(1, 2)}, BoxClass::inside},
      {"log", {Interval(-2, -1)}, BoxClass::outside},
      {"log", {Interval(-1, 0)}, BoxClass::outside}, // 0 is outside the open domain
      {"log", {Interval(-1, 1)}, BoxClass::straddling},
      {"log", {Interval(0, 1)}, BoxClass::straddling},
      {"sqrt", {Interval(1e-300, 1)}, BoxClass::inside},
      {"sqrt", {Interval(-3, -0.5)}, BoxClass::outside},
      {"sqrt", {Interval(-0.5, 0.5)}, BoxClass::straddling},
      {"div", {Interval(-5, 5), Interval(1, 2)}, BoxClass::inside},
      {"div", {Interval(-5, 5), Interval(-2, -1)}, BoxClass::inside},
      {"div", {Interval(1, 2), Interval(0, 0)}, BoxClass::outside},
      {"div", {Interval(1, 2), Interval(-1, 1)}, BoxClass::straddling},
      {"div", {Interval(1, 2), Interval(0, 1)}, BoxClass::straddling},
      {"exp", {Interval(-100, 100)}, BoxClass::inside},
  };
  for (const BoxCase& c : cases)
    EXPECT_EQ(prim(c.primitive).classify(c.box), c.expected)
        << c.primitive << " on " << model::to_string(c.box.front());
}

TEST(PrimitiveDomains, LessOnBoxesIsTrueFalseOrStraddling) {
  const Primitive& less = prim("less");
  EXPECT_EQ(less.truth(Args<Interval>(std::vector<Interval>{Interval(0, 1), Interval(2, 3)})),
            Truth::holds);
  EXPECT_EQ(less.truth(Args<Interval>(std::vector<Interval>{Interval(2, 3), Interval(0, 1)})),
            Truth::fails);
  EXPECT_EQ(less.truth(Args<Interval>(std::vector<Interval>{Interval(0, 2), Interval(1, 3)})),
            Truth::boundary);
  try {
    (void)less.holds<Interval>(std::vector<Interval>{Interval(0, 2), Interval(1, 3)});
    FAIL() << "a straddling guard must be undecided";
  } catch (const model::Undecided& undecided) {
    EXPECT_EQ(undecided.reason(), model::branch_boundary);
  }
  try {
    (void)prim("log").apply1<Interval>(std::vector<Interval>{Interval(-1, 1)});
    FAIL() << "a straddling domain must be undecided";
  } catch (const model::Undecided& undecided) {
    EXPECT_EQ(undecided.reason(), model::domain_boundary);
  }
  EXPECT_THROW((void)prim("log").apply1<Interval>(std::vector<Interval>{Interval(-2, -1)}),
               model::Undefined);
}

// Every primitive's Jacobian from the model agrees with finite differences, and with Eigen's
// AutoDiffScalar, at random points well inside its domain.
RC_GTEST_PROP(PrimitiveProperties, JacobianAgreesWithFiniteDifferencesAndAutoDiff, ()) {
  for (const Primitive& p : primitives().entries()) {
    if (p.is_predicate()) continue;
    const std::vector<double> x = test::draw_point_inside(p);
    const Eigen::VectorXd at = test::as_vector(x);
    const Eigen::MatrixXd exact = model::jacobian(model::as_vector_function<Dual<double>>(p), at);
    const model::VectorFunction<double> plain = model::as_vector_function<double>(p);
    const Eigen::MatrixXd fd = model::fd_jacobian(
        [&](const Eigen::VectorXd& y) {
          const std::vector<double> out = plain(std::span<const double>(y.data(), y.size()));
          return Eigen::VectorXd(test::as_vector(out));
        },
        at);
    const Eigen::MatrixXd autodiff =
        model::jacobian_autodiff(model::as_vector_function<model::AutoDiff>(p), at);
    RC_ASSERT(exact.rows() == static_cast<Eigen::Index>(p.coarity()));
    RC_ASSERT(exact.cols() == static_cast<Eigen::Index>(p.arity()));
    for (Eigen::Index i = 0; i < exact.rows(); ++i)
      for (Eigen::Index j = 0; j < exact.cols(); ++j) {
        RC_ASSERT(within_tolerance(exact(i, j), fd(i, j),
                                   default_tolerance(CheckKind::finite_difference)));
        RC_ASSERT(within_tolerance(exact(i, j), autodiff(i, j),
                                   default_tolerance(CheckKind::derivative)));
      }
  }
}

// The interval extension contains the value, and the Dual<Interval> Jacobian the Jacobian, at
// every point of a random small box.
RC_GTEST_PROP(PrimitiveProperties, IntervalExtensionContainsPointValues, ()) {
  for (const Primitive& p : primitives().entries()) {
    if (p.is_predicate()) continue;
    const std::vector<double> centre = test::draw_point_inside(p);
    const double radius = std::pow(10.0, test::draw_real(-12, std::log10(test::boundary_margin())));
    const model::Box box = model::box_around(centre, radius);
    std::vector<double> x;
    for (const Interval& side : box)
      x.push_back(test::draw_real(side.lower(), side.upper()));
    RC_ASSERT(model::box_contains(box, x));
    const model::Enclosure enclosure =
        model::enclose(model::as_vector_function<Dual<Interval>>(p), box);
    const std::vector<double> value = p.apply<double>(x);
    for (std::size_t i = 0; i < value.size(); ++i)
      RC_ASSERT(model::encloses(enclosure.value[i], value[i]));
    const Eigen::MatrixXd j =
        model::jacobian(model::as_vector_function<Dual<double>>(p), test::as_vector(x));
    RC_ASSERT(enclosure.jacobian.contains(j));
  }
}

} // namespace
} // namespace adsem::primitives_test
