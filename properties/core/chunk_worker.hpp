#pragma once
// A visit of a property in forked worker processes (isolation.hpp): a trial that crashes or
// hangs becomes a "crash" or "timeout" counterexample, and a worker over the memory ceiling is
// replaced by a new one that goes on from the next chunk.
#include <functional>

#include "properties/core/chunk_plan.hpp"

namespace adsem::props {

// Runs the visit `plan` describes in worker processes: one, or one more after each worker the
// memory ceiling killed, each going on from where the last one stopped. `on_chunk` gets every
// finished chunk as it arrives (on the calling thread). plan.stop kills the worker at once.
VisitEnd run_property_isolated(const PropertyPlan& plan,
                               const std::function<void(ChunkRun&&)>& on_chunk);

} // namespace adsem::props
