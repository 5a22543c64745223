// The values of closed ground subterms kept across the denotations of a reduction sequence
// (semantics/perturbative/denotation.hpp, GroundValues): the terms of a sequence share the nodes a
// step did not touch, and a kept value is the value the node denotes afresh.
#include <gtest/gtest.h>

#include <memory>

#include "semantics/perturbative/denotation.hpp"

namespace adsem::perturbative::ground_values_test {
namespace {

const Type R = real_type();

double primal(const Term& m, std::shared_ptr<GroundValues> kept) {
  DenoteContext context;
  context.ground_values = std::move(kept);
  return denote<double>(m, nullptr, context).real().primal();
}

TEST(PerturbativeGroundValues, KeepsClosedGroundSubtermsAcrossTermsThatShareThem) {
  const Term sin = primitive("sin", arrow_type(R, R));
  const Term closed = app(primitive("cos", arrow_type(R, R)), numeral(1)); // cos 1
  const Term open = app(sin, sum(var("y", R), closed));                    // sin (y + cos 1)
  const Term before = app(lam("y", R, open), numeral(2)); // (λy. sin (y + cos 1)) 2
  const Term after = app(sin, sum(numeral(2), closed));   // sin (2 + cos 1), sharing cos 1
  const auto kept = std::make_shared<GroundValues>();
  EXPECT_EQ(primal(before, kept), primal(before, nullptr));
  const GroundValues::Entry& entry = kept->entry(closed.items.front());
  ASSERT_TRUE(entry.value.has_value());
  EXPECT_EQ(entry.value->real().primal(), primal(closed, nullptr));
  EXPECT_FALSE(kept->entry(open.items.front()).cacheable); // y is free in it
  EXPECT_FALSE(kept->entry(open.items.front()).value.has_value());
  EXPECT_EQ(primal(after, kept), primal(after, nullptr));
}

TEST(PerturbativeGroundValues, KeepsOnlyApplicationsProjectionsAndInjectionsOfGroundType) {
  const Term id = lam("y", R, var("y", R));
  EXPECT_FALSE(GroundValues::may_keep(*id.items.front()));                 // a function
  EXPECT_FALSE(GroundValues::may_keep(*numeral(3).items.front()));         // costs nothing
  EXPECT_TRUE(GroundValues::may_keep(*app(id, numeral(3)).items.front())); // (λy.y) 3 : R
  EXPECT_TRUE(GroundValues::may_keep(*proj(1, pair(numeral(1), numeral(2))).items.front()));
  EXPECT_FALSE(GroundValues::may_keep(*push(id).items.front())); // T (λy.y) : TR → TR
}

} // namespace
} // namespace adsem::perturbative::ground_values_test
