#include "properties/core/chunk_seed.hpp"

#include "properties/core/fnv1a.hpp"

namespace adsem::props {
namespace {

// Deterministic mixing (std::hash is not stable across implementations).
std::uint64_t splitmix64(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

} // namespace

std::uint64_t chunk_seed(std::uint64_t campaign_seed, const std::string& property, int chunk) {
  return splitmix64(splitmix64(campaign_seed ^ fnv1a(property)) +
                    static_cast<std::uint64_t>(chunk));
}

} // namespace adsem::props
