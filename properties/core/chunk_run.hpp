#pragma once
// One chunk of trials of one property: what it runs (ChunkSpec) and how it ended (ChunkRun).
// A chunk is the unit of work of a campaign: time checks, shards and parallel workers all cut a
// property at chunk boundaries.
#include <optional>
#include <string>

#include "properties/core/calculus.hpp"
#include "properties/core/replay_token.hpp"
#include "reports/campaign_result.hpp"

namespace adsem::props {

struct ChunkSpec {
  const PropertyDef& def;
  const PropertyContext& context;
  ReplayToken token; // seed and max_size of the chunk; reproduce filled on failure
  int trials = 0;
  int passed_before = 0; // passes of the property in earlier chunks
  const std::string& command_name;
};

struct ChunkRun {
  enum class End { success, failure, gave_up, error };
  End end = End::success;
  int chunk = 0;                  // its index among the property's chunks
  reports::PropertySummary delta; // this chunk's statistics
  std::optional<reports::CounterexampleRecord> record;
  std::string error;                  // RapidCheck's description of an Error
  std::optional<std::string> warning; // for the property's summary (e.g. a resource discard)
};

// A failure or an error ends the property: no later chunk counts.
inline bool ends_property(ChunkRun::End end) {
  return end == ChunkRun::End::failure || end == ChunkRun::End::error;
}

// How a chunk ended, as the worker's JSON lines spell it ("success", "failure", ...).
const char* end_name(ChunkRun::End end);
ChunkRun::End end_from_name(const std::string& name);

} // namespace adsem::props
