#pragma once
// The seed of each chunk of trials: a function of the campaign seed, the property's name and the
// chunk's index only, so shards (which take every N-th chunk), parallel workers (which take
// chunks in any order) and reruns see the same cases.
#include <cstdint>
#include <string>

namespace adsem::props {

std::uint64_t chunk_seed(std::uint64_t campaign_seed, const std::string& property, int chunk);

} // namespace adsem::props
