#pragma once
// Independent pieces of work (one measured property, one program family) on up to --jobs worker
// processes at once (isolation.hpp), each sending back one line of text; the results come back
// on the calling thread in the order of the work, as a one-process loop would give them.
#include <atomic>
#include <cstddef>
#include <functional>
#include <optional>
#include <string>

namespace adsem::props {

// Runs `work(i)` for every i < count, lowest i first, in forked workers, up to `jobs` at once.
// `on_result(i, line)` is called on the calling thread for i = 0, 1, ... as soon as the items
// before i are in; the line is empty (nullopt) when the worker died, went over
// `max_resident_bytes` (0: no ceiling) or was stopped. Once `*stop` is set no item starts and
// running workers are killed; the items not run are not reported.
void map_in_workers(std::size_t count, int jobs,
                    const std::function<std::string(std::size_t)>& work,
                    const std::function<void(std::size_t, std::optional<std::string>)>& on_result,
                    const std::atomic<bool>* stop = nullptr, std::size_t max_resident_bytes = 0);

} // namespace adsem::props
