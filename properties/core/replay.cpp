#include "properties/core/replay.hpp"

#include <fmt/format.h>

#include "properties/core/counterexample_record.hpp"
#include "properties/core/rapidcheck_adapter.hpp"
#include "syntax/core/diagnostic.hpp"

namespace adsem::props {

ReplayOutcome replay(const Registry& registry, const ReplayToken& token,
                     const std::string& command_name) {
  const PropertyDef* def = registry.find_property(token.property);
  if (!def)
    throw AdsemError(ErrorKind::usage,
                     fmt::format("replay token names property '{}', which this adsem does not "
                                 "have (stale token?)",
                                 token.property));
  if (!token.mutant.empty() && !registry.find_mutant(token.mutant))
    throw AdsemError(
        ErrorKind::usage,
        fmt::format("replay token names unknown mutant '{}' (stale token?)", token.mutant));
  const PropertyContext context{token.mutant, token.overrides};
  const TokenRun run = run_token(*def, context, token);

  ReplayOutcome replayed;
  if (run.failure) {
    replayed.reproduced = true;
    replayed.record = make_record(*def, *run.failure, token, 0, command_name);
    replayed.message = fmt::format("{}: counterexample reproduced", def->name);
  } else if (!run.error.empty()) {
    replayed.message =
        fmt::format("{}: the recorded input no longer fails ({})", def->name, run.error);
  } else {
    replayed.message = fmt::format("{}: the recorded input no longer fails", def->name);
  }
  return replayed;
}

} // namespace adsem::props
