#pragma once
// Shards: `--shard I/N` runs the chunks k of every property with k % N == I, so N machines share
// a campaign and `adsem merge` sums their reports (docs/ci.md).
#include <string>

namespace adsem::props {

struct Shard {
  int index = 0; // 0 <= index < count
  int count = 1;
};

// Parses "I/N" with 0 <= I < N; throws AdsemError(usage) otherwise.
Shard parse_shard(const std::string& text);

// Whether chunk k belongs to the shard.
inline bool in_shard(const Shard& shard, int chunk) {
  return chunk % shard.count == shard.index;
}

// The first chunk at or after `chunk` that belongs to the shard.
int shard_chunk_from(const Shard& shard, int chunk);

} // namespace adsem::props
