// The run over a calculus's bounded-exhaustive inputs (enumeration.hpp).
#include "properties/core/enumeration.hpp"

#include <chrono>

#include "generators/core/sized_enumeration.hpp"
#include "properties/core/calculus.hpp"
#include "properties/core/campaign.hpp"
#include "properties/core/discards.hpp"
#include "properties/core/property_selection.hpp"
#include "semantics/core/overflow.hpp"
#include "syntax/core/diagnostic.hpp"

namespace adsem::props {

namespace {

using EnumClock = std::chrono::steady_clock;

std::unique_ptr<InputEnumeration> enum_inputs_of(const Registry& registry,
                                                 const std::string& calculus, int max_size) {
  const CalculusEntry* entry = registry.find(calculus);
  if (!entry) throw AdsemError(ErrorKind::usage, "unknown calculus '" + calculus + "'");
  if (!entry->enumeration)
    throw AdsemError(ErrorKind::usage, "calculus '" + entry->id + "' has no enumeration yet");
  if (max_size < 1) throw AdsemError(ErrorKind::usage, "--max-size must be at least 1");
  return entry->enumeration(max_size);
}

std::vector<std::uint64_t> enum_counts_of(InputEnumeration& inputs, int max_size) {
  std::vector<std::uint64_t> counts(static_cast<std::size_t>(max_size) + 1, 0);
  try {
    for (int n = 1; n <= max_size; ++n)
      counts[static_cast<std::size_t>(n)] = inputs.terms(n);
  } catch (const gen::EnumerationLimitReached& e) {
    throw AdsemError(ErrorKind::usage, std::string(e.what()) + "; ask for a smaller --max-size");
  }
  return counts;
}

// The selected properties that can check one input; a named one that cannot is a usage error.
std::vector<const PropertyDef*> enum_selected(const Registry& registry,
                                              const EnumerationOptions& options,
                                              const std::string& calculus) {
  CampaignOptions campaign;
  campaign.calculi = {calculus};
  campaign.properties = options.properties;
  campaign.mutant = options.mutant;
  std::vector<const PropertyDef*> out;
  for (const PropertyDef* p : select_properties(registry, campaign)) {
    if (p->check_input) {
      out.push_back(p);
    } else if (!options.properties.empty()) {
      throw AdsemError(ErrorKind::usage,
                       "property '" + p->name +
                           "' does not take part in enumeration (it has no check of one given "
                           "input; docs/enumeration.md lists the ones that do)");
    }
  }
  if (out.empty())
    throw AdsemError(ErrorKind::usage,
                     "no property of '" + calculus + "' takes part in enumeration");
  return out;
}

// One check, with the outcomes that are not verdicts made discards as a campaign makes them
// (rapidcheck_adapter.cpp): IEEE overflow; any other exception is an error.
TrialResult enum_run_check(const PropertyDef& p, const PropertyContext& context,
                           const std::any& input) {
  try {
    return p.check_input(context, input);
  } catch (const model::Overflow&) {
    return TrialResult::discard(discards::overflow);
  } catch (const AdsemError& e) {
    return TrialResult::error(e.diagnostic().render());
  } catch (const std::exception& e) {
    return TrialResult::error(std::string("exception: ") + e.what());
  }
}

void enum_record(EnumerationRow& row, const TrialResult& r, const EnumeratedInput& in) {
  switch (r.kind) {
  case TrialResult::Kind::pass:
    ++row.checked;
    ++row.passed;
    return;
  case TrialResult::Kind::discard:
    ++row.discards[r.reason];
    return;
  case TrialResult::Kind::fail:
  case TrialResult::Kind::error:
    ++row.checked;
    ++(r.kind == TrialResult::Kind::fail ? row.failed : row.errors);
    if (!row.first)
      row.first = EnumerationCounterexample{in.size, in.text(), r.reason,
                                            r.kind == TrialResult::Kind::error};
    return;
  }
}

} // namespace

std::vector<std::uint64_t> enumeration_counts(const Registry& registry, const std::string& calculus,
                                              int max_size) {
  auto inputs = enum_inputs_of(registry, calculus, max_size);
  return enum_counts_of(*inputs, max_size);
}

EnumerationResult run_enumeration(const Registry& registry, const EnumerationOptions& options) {
  const auto started = EnumClock::now();
  auto inputs = enum_inputs_of(registry, options.calculus, options.max_size);
  EnumerationResult result;
  result.calculus = registry.find(options.calculus)->id;
  result.mutant = options.mutant;
  result.description = inputs->describe();
  result.max_size = options.max_size;
  result.points = inputs->points();
  const std::vector<const PropertyDef*> chosen = enum_selected(registry, options, result.calculus);
  result.terms_by_size = enum_counts_of(*inputs, options.max_size);
  std::uint64_t total = 0;
  for (const std::uint64_t n : result.terms_by_size)
    total = gen::add_saturating(total, gen::mul_saturating(n, inputs->points()));
  if (total > options.max_inputs)
    throw AdsemError(
        ErrorKind::usage,
        "sizes up to " + std::to_string(options.max_size) + " give " +
            (total == gen::enum_count_saturated ? "more than 2^64" : std::to_string(total)) +
            " inputs, over the bound of " + std::to_string(options.max_inputs) +
            " (--max-inputs); ask for a smaller --max-size");
  for (const PropertyDef* p : chosen) {
    EnumerationRow row;
    row.property = p->name;
    row.kind = p->kind;
    result.rows.push_back(std::move(row));
  }
  const PropertyContext context{options.mutant, options.overrides};
  const auto out_of_time = [&] {
    return options.seconds > 0 &&
           std::chrono::duration<double>(EnumClock::now() - started).count() > options.seconds;
  };
  auto last_progress = EnumClock::now();
  for (int n = 1; n <= options.max_size && result.stopped_by.empty(); ++n) {
    const std::uint64_t terms = result.terms_by_size[static_cast<std::size_t>(n)];
    std::vector<bool> running(chosen.size());
    for (std::size_t i = 0; i < chosen.size(); ++i)
      running[i] = !result.rows[i].first; // a property with a counterexample stops at its size
    for (std::uint64_t t = 0; t < terms && result.stopped_by.empty(); ++t) {
      if (options.stop_requested && options.stop_requested->load()) {
        result.stopped_by = "interrupted";
        break;
      }
      if ((t & 63U) == 0 && out_of_time()) {
        result.stopped_by = "time";
        break;
      }
      for (int point = 0; point < inputs->points(); ++point) {
        const EnumeratedInput in = inputs->input(n, t, point);
        for (std::size_t i = 0; i < chosen.size(); ++i)
          if (running[i])
            enum_record(result.rows[i], enum_run_check(*chosen[i], context, in.input), in);
      }
      if (options.on_progress && EnumClock::now() - last_progress > std::chrono::seconds(1)) {
        last_progress = EnumClock::now();
        options.on_progress(n, t + 1, terms);
      }
    }
    if (result.stopped_by.empty()) {
      result.completed_size = n;
      if (options.on_progress) options.on_progress(n, terms, terms);
    }
  }
  result.complete = result.completed_size == options.max_size;
  result.seconds = std::chrono::duration<double>(EnumClock::now() - started).count();
  return result;
}

} // namespace adsem::props
