#pragma once
// FNV-1a, 64 bits: a stable hash of text (corpus file names, replay-token checksums). Changing one
// byte always changes it (each step is a bijection of the running hash).
#include <cstdint>
#include <string_view>

namespace adsem::props {

inline std::uint64_t fnv1a(std::string_view text) {
  std::uint64_t h = 0xcbf29ce484222325ULL;
  for (const unsigned char c : text)
    h = (h ^ c) * 0x100000001b3ULL;
  return h;
}

} // namespace adsem::props
