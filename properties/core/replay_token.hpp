#pragma once
// A replay token carries everything needed to re-run one counterexample: calculus, property,
// mutant, option overrides, the chunk seed, the size ceiling and RapidCheck's Reproduce
// (random state, size, shrink path). Format: "adsem1." + base64url(JSON).
#include <cstdint>
#include <string>

#include <rapidcheck.h>
#include <rapidcheck/detail/Results.h>
#include <rapidcheck/detail/Serialization.h>

#include "properties/core/property.hpp"

namespace adsem::props {

struct ReplayToken {
  static constexpr int format_version = 1;
  std::string calculus;
  std::string property; // full name
  std::string mutant;   // "" = none
  Overrides overrides;
  std::uint64_t seed = 0; // seed of the chunk that failed
  int max_size = 0;
  rc::detail::Reproduce reproduce;
  // > 0 for crash/timeout records (isolation): the process died before RapidCheck could name the
  // case, so replay re-runs the whole chunk of this many trials from `seed`.
  int chunk_trials = 0;
};

std::string encode_replay_token(const ReplayToken& token);
// Throws AdsemError(usage) naming what is wrong with a malformed or foreign token.
ReplayToken decode_replay_token(const std::string& text);

std::string base64url_encode(const std::string& bytes);
std::string base64url_decode(const std::string& text); // throws AdsemError(usage)

} // namespace adsem::props
