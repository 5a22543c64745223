#pragma once
// Which properties a campaign runs: its calculi, --property names and --kind filters.
#include <string>
#include <vector>

#include "properties/core/calculus.hpp"

namespace adsem::props {

struct CampaignOptions;

// The selection a campaign would run, in order (for listings and --dry-run). Throws
// AdsemError(usage) for unknown calculi, properties, kinds or mutants.
std::vector<const PropertyDef*> select_properties(const Registry& registry,
                                                  const CampaignOptions& options);

} // namespace adsem::props
