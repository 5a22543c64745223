#pragma once
// A rule-trace excerpt for every shrunk counterexample. Properties that compare values, not
// steps, record none; the campaign then runs the shrunk input once more through its calculus's
// front end with the trace on (Frontend::trace_counterexample), so that every report card shows
// the rules that fired. Once per counterexample, after shrinking; never per trial.
#include "properties/core/calculus.hpp"
#include "reports/campaign_result.hpp"

namespace adsem::props {

// Steps the re-run may take, and the trace lines the record keeps (reports show fewer).
inline constexpr long counterexample_trace_fuel = 10'000;
inline constexpr std::size_t counterexample_trace_lines = 200;

// Fills record.trace when it is empty, the record's calculus has a front end that can read the
// input back, and the input ran in this process (a crash or timeout is not run again here). An
// input that fails to run again (an error, out of fuel) leaves the trace empty.
// `user_rules`: the campaign's rule file (`--rules`), which the re-run joins to the rules too.
void fill_counterexample_trace(const Registry& registry, reports::CounterexampleRecord& record,
                               const std::shared_ptr<const UserRules>& user_rules = nullptr);

} // namespace adsem::props
