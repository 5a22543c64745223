// Fuel bounds the work of a step, not only the step count: the (T) step builds T_x,
// whose size is exponential in the term (2^k summands for k nested projections, 3^k for k nested
// applications, spec §9.6), and that construction spends the work cap (fuel * work_per_step).
#include <gtest/gtest.h>

#include "properties/perturbative/mutants.hpp"
#include "semantics/perturbative/strategy.hpp"

namespace adsem::perturbative::work_cap_test {
namespace {

const Type R = real_type();

// T (\p:R*(R*(...)). pi2 (pi2 (... p))) at depth k: its T_x has 2^k summands.
Term push_of_projections(int k) {
  Type sigma = R;
  for (int i = 0; i < k; ++i)
    sigma = product_type(R, sigma);
  Term body = var("p", sigma);
  for (int i = 0; i < k; ++i)
    body = proj(2, body);
  return push(lam("p", sigma, body));
}

TEST(PerturbativeWorkCap, BuildingTxSpendsTheWorkCap) {
  RunOptions o;
  o.fuel = 10; // 640 units: the T_x of depth 12 has 4,096 summands
  for (const bool small_step : {false, true}) {
    try {
      const Term m = push_of_projections(12);
      (void)(small_step ? reduce_small_step(m, *paper_rules(), o)
                        : normalise(m, *paper_rules(), o));
      ADD_FAILURE() << "no fuel error";
    } catch (const AdsemError& e) {
      EXPECT_EQ(e.diagnostic().kind, ErrorKind::fuel);
      // stopped while building T_x, not after (the node visits of the normaliser come later)
      EXPECT_NE(e.diagnostic().message.find("building T_x"), std::string::npos)
          << e.diagnostic().message;
    }
  }
}

TEST(PerturbativeWorkCap, SmallTxFitsTheDefaultCap) {
  const perturbative::Run run = normalise(push_of_projections(6), *paper_rules());
  EXPECT_EQ(run.rule_counts.at("T"), 1);
}

} // namespace
} // namespace adsem::perturbative::work_cap_test
