#include "properties/core/property_selection.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "properties/core/campaign.hpp"
#include "properties/core/user_rules.hpp"
#include "syntax/core/diagnostic.hpp"

namespace adsem::props {
namespace {

bool matches_property(const PropertyDef& def, const std::string& wanted) {
  if (def.name == wanted) return true;
  // "<calc>/<suffix>" with an alias or the bare property name within selected calculi.
  const auto slash = def.name.find('/');
  return slash != std::string::npos && def.name.substr(slash + 1) == wanted;
}

} // namespace

std::vector<const PropertyDef*> select_properties(const Registry& registry,
                                                  const CampaignOptions& options) {
  std::vector<const CalculusEntry*> calculi;
  if (options.calculi.empty() ||
      (options.calculi.size() == 1 && options.calculi.front() == "all")) {
    for (const auto& entry : registry.calculi())
      calculi.push_back(&entry);
  } else {
    for (const auto& id : options.calculi) {
      const CalculusEntry* entry = registry.find(id);
      if (!entry)
        throw AdsemError(ErrorKind::usage,
                         fmt::format("unknown calculus '{}' (see `adsem calculi`)", id));
      calculi.push_back(entry);
    }
  }
  if (!options.mutant.empty() && !registry.find_mutant(options.mutant))
    throw AdsemError(ErrorKind::usage,
                     fmt::format("unknown mutant '{}' (see `adsem calculi`)", options.mutant));

  std::vector<const PropertyDef*> selected;
  for (const CalculusEntry* entry : calculi) {
    for (const auto& def : entry->properties) {
      const bool wanted =
          (options.properties.empty() ||
           std::ranges::any_of(options.properties,
                               [&](const std::string& p) { return matches_property(def, p); })) &&
          (options.kinds.empty() ||
           std::ranges::find(options.kinds, def.kind) != options.kinds.end());
      if (wanted) selected.push_back(&def);
    }
  }
  for (const auto& kind : options.kinds) {
    const bool found =
        std::ranges::any_of(selected, [&](const PropertyDef* def) { return def->kind == kind; });
    if (!found)
      throw AdsemError(
          ErrorKind::usage,
          fmt::format("no selected property is of kind '{}' (see `adsem calculi`)", kind));
  }
  for (const auto& p : options.properties) {
    const bool found = std::ranges::any_of(
        selected, [&](const PropertyDef* def) { return matches_property(*def, p); });
    if (!found)
      throw AdsemError(ErrorKind::usage,
                       fmt::format("unknown property '{}' (see `adsem calculi`)", p));
  }
  // A rule file is compiled for one calculus: its rules mean nothing to another's properties.
  if (const auto& rules = options.user_rules)
    for (const PropertyDef* def : selected)
      if (def->calculus != rules->calculus)
        throw AdsemError(ErrorKind::usage,
                         fmt::format("--rules {} joins the semantics of {}, but property {} "
                                     "is of {}: select one calculus",
                                     rules->file, rules->calculus, def->name, def->calculus));
  return selected;
}

} // namespace adsem::props
