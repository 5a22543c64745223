#pragma once
// The option keys a property may read from overrides (`--set KEY=VALUE`, `set = [...]` in
// adsem.toml, replay tokens). A key nobody reads would be silently ignored, so a typo such as
// tolerance.derivitive.rtol would run with the default tolerance: the set is closed, and
// PropertyContext refuses to read a key missing from it (so the list cannot fall behind).
#include <string>
#include <string_view>
#include <vector>

#include "properties/core/property.hpp"

namespace adsem::props {

// Every key, sorted: tolerance.<kind>.rtol|atol for each check kind, then the named options.
const std::vector<std::string>& known_option_keys();

bool is_known_option_key(std::string_view key);

// The known key closest to `key` by edit distance (for "did you mean").
std::string nearest_option_key(std::string_view key);

// "unknown option key 'X' (did you mean 'Y'? see docs/campaigns.md)", or "" when known.
std::string unknown_option_key_message(std::string_view key);

// Throws AdsemError(usage) naming the first unknown key of `overrides`; `where` says where it
// came from ("--set", ...).
void check_option_keys(const Overrides& overrides, std::string_view where);

} // namespace adsem::props
