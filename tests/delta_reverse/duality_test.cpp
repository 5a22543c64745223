// forward-reverse-duality (Krawiec et al., Lemma 1) compares two sums of the chain rule's terms:
// after cancellation both are ~0 and their rounding is relative to the terms, so the bound scales
// with the terms (docs/model.md, "Tolerance policy"), and a wrong derivative is still a failure.
#include <algorithm>
#include <filesystem>
#include <stdexcept>

#include <gtest/gtest.h>

#include "cli/builtin_registry.hpp"
#include "properties/core/campaign.hpp"
#include "properties/core/user_rules.hpp"

namespace adsem::delta_reverse::duality_test {
namespace {

constexpr const char* duality = "delta-reverse/forward-reverse-duality";

long failures(const std::string& file, std::uint64_t seed) {
  static const props::Registry registry = cli::builtin_registry();
  props::CampaignOptions o;
  o.calculi = {"delta-reverse"};
  o.properties = {duality};
  o.trials = 40;
  o.seed = seed;
  o.user_rules = props::load_user_rules(
      *registry.find("delta-reverse"),
      (std::filesystem::path(ADSEM_SOURCE_DIR) / "examples" / "rules" / "delta_reverse" / file)
          .string());
  const reports::CampaignResult r = props::run_campaign(registry, o);
  const auto it =
      std::ranges::find_if(r.properties, [](const auto& p) { return p.name == duality; });
  if (it == r.properties.end()) throw std::logic_error("no property forward-reverse-duality");
  return it->failed;
}

// Seed 1 draws exp(((v0 + (v0 + v0)) * 2.0 * 3.0) / v0), the constant exp(18): its tangent sums
// exp(18)·18/v0 and −exp(18)·18·v0/v0², forward gave −0 and reverse −5.96e-8, which the policy
// scaled by the results (~0) called a failure. The rule of the file does not even fire there.
TEST(DeltaReverseDuality, CancellationInAConstantFunctionIsNoFailure) {
  EXPECT_EQ(failures("campaign-duplicate-work.rules", 1), 0);
}

// Fig. 14's cos row with its sign dropped makes R{e} wrong where F{e} is right: still caught.
TEST(DeltaReverseDuality, AWrongReverseDerivativeStillFails) {
  EXPECT_GT(failures("campaign-cos-sign.rules", 1), 0);
}

} // namespace
} // namespace adsem::delta_reverse::duality_test
