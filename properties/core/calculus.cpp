#include "properties/core/calculus.hpp"

#include <algorithm>

namespace adsem::props {

EvalResult Frontend::reduce(const std::string& source, const EvalOptions& options) const {
  EvalOptions traced = options;
  traced.trace = true;
  return eval(source, traced);
}

std::vector<std::string> Frontend::trace_counterexample(const reports::CounterexampleRecord& record,
                                                        const EvalOptions& options) const {
  // The standalone program when the property gave one, else the term itself, which for many
  // properties is a closed term of the calculus (one that is not fails to parse or type-check).
  return reduce(record.source.empty() ? record.term : record.source, options).trace;
}

void Registry::add(CalculusEntry entry) {
  calculi_.push_back(std::move(entry));
}

const CalculusEntry* Registry::find(const std::string& id_or_alias) const {
  for (const auto& entry : calculi_) {
    if (entry.id == id_or_alias) return &entry;
    if (std::ranges::find(entry.aliases, id_or_alias) != entry.aliases.end()) return &entry;
  }
  return nullptr;
}

const PropertyDef* Registry::find_property(const std::string& full_name) const {
  for (const auto& entry : calculi_)
    for (const auto& property : entry.properties)
      if (property.name == full_name) return &property;
  return nullptr;
}

const MutantDef* Registry::find_mutant(const std::string& full_name) const {
  for (const auto& entry : calculi_)
    for (const auto& mutant : entry.mutants)
      if (mutant.name == full_name) return &mutant;
  return nullptr;
}

void use_rule_table(CalculusEntry& entry, std::vector<RuleInfo> table) {
  entry.rules.clear();
  for (const RuleInfo& rule : table)
    entry.rules.push_back(rule.name);
  entry.rule_table = std::move(table);
}

} // namespace adsem::props
