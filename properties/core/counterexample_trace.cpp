#include "properties/core/counterexample_trace.hpp"

#include <exception>

#include <fmt/format.h>

namespace adsem::props {

void fill_counterexample_trace(const Registry& registry, reports::CounterexampleRecord& record,
                               const std::shared_ptr<const UserRules>& user_rules) {
  if (!record.trace.empty() || record.outcome == "crash" || record.outcome == "timeout") return;
  const CalculusEntry* calculus = registry.find(record.calculus);
  if (!calculus || !calculus->frontend || calculus->rules.empty()) return;
  EvalOptions options;
  options.fuel = counterexample_trace_fuel;
  options.trace = true;
  options.mutant = record.mutant;
  options.user_rules = user_rules;
  std::vector<std::string> trace;
  try {
    trace = calculus->frontend->trace_counterexample(record, options);
  } catch (const std::exception&) {
    return; // the input does not run to a value again (an error, out of fuel): no trace to show
  }
  if (trace.size() > counterexample_trace_lines) {
    const std::size_t more = trace.size() - counterexample_trace_lines;
    trace.resize(counterexample_trace_lines);
    trace.push_back(fmt::format("... {} more steps", more));
  }
  record.trace = std::move(trace);
}

} // namespace adsem::props
