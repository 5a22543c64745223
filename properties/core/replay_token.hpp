#pragma once
// A replay token carries everything needed to re-run one counterexample: calculus, property,
// mutant, option overrides, the chunk seed, the size ceiling and RapidCheck's Reproduce
// (random state, size, shrink path). Format: "adsem2." + base64url(JSON) + "." + 16 hex digits,
// the FNV-1a hash of everything before the last '.': a token damaged in transit (one character
// changed, cut or appended) is refused instead of replaying another input. Tokens of the first
// format, "adsem1." + base64url(JSON), have no checksum; they are still read (corpora and docs
// hold them) but only in the exact form adsem wrote, so appended characters are refused too.
// A token of a run with a user's rule file (`--rules FILE`) also names the file and the hash of
// its text (a "rules" object in the JSON); a token without one is written exactly as before.
#include <cstdint>
#include <string>
#include <string_view>

#include <rapidcheck.h>
#include <rapidcheck/detail/Results.h>
#include <rapidcheck/detail/Serialization.h>

#include "properties/core/property.hpp"

namespace adsem::props {

// The rule file a run joined to the semantics, as tokens and reports name it: the path as the
// user wrote it and the FNV-1a hash of its text (UserRules::file, UserRules::hash). Empty = none.
struct RulesRef {
  std::string file;
  std::string hash;
  bool empty() const { return hash.empty(); }
  friend bool operator==(const RulesRef&, const RulesRef&) = default;
};

// The reference to a loaded rule file (null: none).
RulesRef rules_ref(const UserRules* rules);

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
  RulesRef rules; // the rule file joined to the semantics (`--rules`), if any
};

std::string encode_replay_token(const ReplayToken& token);
// Throws AdsemError(usage) naming what is wrong with a malformed, damaged or foreign token.
ReplayToken decode_replay_token(const std::string& text);

// Whether `text` is meant as a replay token ("adsem<digits>." ...), damaged or not: such text is
// decoded (and refused if damaged), never taken for a file name.
bool looks_like_replay_token(std::string_view text);

std::string base64url_encode(const std::string& bytes);
std::string base64url_decode(const std::string& text); // throws AdsemError(usage)

} // namespace adsem::props
