#include "properties/core/counterexample_record.hpp"

namespace adsem::props {
namespace {

std::string shell_quote(const std::string& text) {
  std::string out = "'";
  for (const char c : text)
    out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

} // namespace

reports::CounterexampleRecord make_record(const PropertyDef& def, const TrialResult& t,
                                          const ReplayToken& token, int trials_before,
                                          const std::string& command_name) {
  reports::CounterexampleRecord r;
  r.calculus = def.calculus;
  r.property = def.name;
  r.mutant = token.mutant;
  r.seed = token.seed;
  r.trials_before = trials_before;
  r.outcome = t.kind == TrialResult::Kind::error ? "error" : "fail";
  r.message = t.reason;
  r.term = t.term;
  r.source = t.source;
  r.term_size = t.size;
  r.type = t.type;
  r.expected = t.expected;
  r.actual = t.actual;
  r.discrepancy = t.discrepancy;
  r.tolerance = t.tolerance;
  r.tolerance_kind = t.tolerance_kind;
  r.trace = t.trace;
  r.replay_token = encode_replay_token(token);
  r.rules_file = token.rules.file;
  r.rules_hash = token.rules.hash;
  r.replay_command = command_name + " replay " + shell_quote(r.replay_token);
  if (!token.rules.empty()) r.replay_command += " --rules " + shell_quote(token.rules.file);
  return r;
}

} // namespace adsem::props
