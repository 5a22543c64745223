// IEEE overflow is reported at its cause, the primitive that overflows
// (semantics/core/overflow.hpp).
#include <gtest/gtest.h>

#include <cmath>

#include "semantics/core/overflow.hpp"
#include "semantics/core/primitives.hpp"

namespace adsem::model::overflow_test {
namespace {

// IEEE overflow at its cause: a primitive given finite arguments that returns inf or NaN throws,
// on points (double, Dual<double>, AutoDiff); an enclosure may be unbounded.
TEST(PrimitiveOverflow, ThrowsOnPointsNotOnEnclosures) {
  const Primitive& exp_ = primitives().at("exp");
  const Primitive& mul = primitives().at("mul");
  EXPECT_THROW(exp_.apply1<double>(std::vector<double>{1000.0}), Overflow);
  EXPECT_THROW(mul.apply1<double>(std::vector<double>{1e200, 1e200}), Overflow);
  EXPECT_THROW(exp_.apply1<Dual<double>>(std::vector<Dual<double>>{Dual<double>(710.0)}), Overflow);
  EXPECT_NO_THROW(exp_.apply1<Interval>(std::vector<Interval>{Interval(0.0, 1000.0)}));
  // non-finite arguments are not this primitive's overflow: it passes them on
  EXPECT_TRUE(std::isinf(exp_.apply1<double>(std::vector<double>{INFINITY})));
  EXPECT_DOUBLE_EQ(exp_.apply1<double>(std::vector<double>{1.0}), std::exp(1.0));
}

} // namespace
} // namespace adsem::model::overflow_test
