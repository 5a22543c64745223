#pragma once
// Helpers for the calculi's enumeration tests (docs/enumeration.md): one bounded-exhaustive run of
// a calculus of the built-in registry.
#include <string>
#include <vector>

#include "cli/builtin_registry.hpp"
#include "properties/core/enumeration.hpp"

namespace adsem::testing {

inline const props::Registry& builtin_registry() {
  static const props::Registry r = cli::builtin_registry();
  return r;
}

// Every input of `calculus` to size `max_size` under `mutant` ("" for the paper's rules), for
// `properties` (empty: all that take part).
inline props::EnumerationResult enumerate(const std::string& calculus, const std::string& mutant,
                                          std::vector<std::string> properties, int max_size) {
  props::EnumerationOptions o;
  o.calculus = calculus;
  o.mutant = mutant;
  o.properties = std::move(properties);
  o.max_size = max_size;
  return props::run_enumeration(builtin_registry(), o);
}

} // namespace adsem::testing
