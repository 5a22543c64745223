#pragma once
// Helpers for the calculi's enumeration tests (docs/enumeration.md): one bounded-exhaustive run of
// a calculus of the built-in registry.
#include <string>
#include <vector>

#include <gtest/gtest.h>

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

// The smallest counterexample of one property under a mutant to size max_size (none: a test
// failure, and size 0).
inline props::EnumerationCounterexample smallest_counterexample(const std::string& calculus,
                                                                const std::string& mutant,
                                                                const std::string& property,
                                                                int max_size) {
  const auto r = enumerate(calculus, mutant, {property}, max_size);
  if (r.rows.size() == 1 && r.rows[0].first.has_value()) return *r.rows[0].first;
  ADD_FAILURE() << property << " held under " << mutant << " to size " << max_size;
  return {};
}

// That counterexample is of this size and this input (nothing smaller fails).
inline void expect_smallest_counterexample(const std::string& calculus, const std::string& mutant,
                                           const std::string& property, int size,
                                           const std::string& input) {
  const auto c = smallest_counterexample(calculus, mutant, property, size);
  EXPECT_EQ(c.size, size) << c.input << ": " << c.reason;
  EXPECT_EQ(c.input, input) << c.reason;
}

} // namespace adsem::testing
