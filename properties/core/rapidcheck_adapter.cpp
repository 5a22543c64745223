#include "properties/core/rapidcheck_adapter.hpp"

#include <ctime>
#include <tuple>
#include <unordered_map>

#include <rapidcheck.h>
#include <rapidcheck/detail/Property.h>
#include <rapidcheck/detail/TestListener.h>

#include "properties/core/counterexample_record.hpp"
#include "properties/core/discards.hpp"
#include "semantics/core/overflow.hpp"
#include "syntax/core/diagnostic.hpp"

namespace adsem::props {
namespace {

// Runs a property body and converts its TrialResult into RapidCheck's case result, remembering
// the TrialResult of the most recent run. RapidCheck runs the final minimal case last
// (Testing.cpp: "here we actually run it"), so after a failure `last` describes the shrunk
// counterexample.
struct TrialRunner {
  // The input a body reported last (PropertyContext::report_input): a body that throws before it
  // builds its TrialResult still gets its term into the error record.
  struct Reported {
    std::string term, source;
    PropertyContext::InputText lazy; // reported lazily and not printed yet
    void clear() { *this = {}; }
    void materialise() {
      if (!lazy) return;
      std::tie(term, source) = lazy();
      lazy = nullptr;
    }
  };

  TrialRunner(const PropertyDef& d, const PropertyContext& c)
      : def(d), context(std::make_shared<PropertyContext>(c)) {
    context->on_input = [outer = c.on_input, reported = reported](const std::string& term,
                                                                  const std::string& source) {
      *reported = {term, source, nullptr};
      if (outer) outer(term, source);
    };
    // With an outer listener (an isolated worker) lazy reports print at once (the default path
    // of report_input_lazily); in process the thunk waits for a body that throws.
    if (!c.on_input)
      context->on_lazy_input = [reported = reported](PropertyContext::InputText text) {
        *reported = {"", "", std::move(text)};
      };
  }

  const PropertyDef& def;
  std::shared_ptr<Reported> reported = std::make_shared<Reported>();
  std::shared_ptr<PropertyContext> context;
  std::shared_ptr<TrialResult> last = std::make_shared<TrialResult>();
  std::function<void()> on_trial_start = {}; // isolation: a heartbeat per trial

  rc::detail::Property property() const {
    return rc::detail::toProperty([def = &def, context = context, last = last, reported = reported,
                                   on_start = on_trial_start]() {
      if (on_start) on_start();
      reported->clear();
      TrialResult result;
      if (context->rule_counter) context->rule_counter->fired.clear();
      try {
        result = def->body(*context);
      } catch (const rc::GenerationFailure&) {
        throw; // RapidCheck turns these into discards
      } catch (const rc::detail::CaseResult& rc_result) {
        // A body that used RC_DISCARD / RC_PRE / RC_ASSERT directly.
        using Type = rc::detail::CaseResult::Type;
        result = rc_result.type == Type::Discard   ? TrialResult::discard(rc_result.description)
                 : rc_result.type == Type::Failure ? TrialResult::fail(rc_result.description)
                                                   : TrialResult::pass();
      } catch (const model::Overflow&) {
        // IEEE overflow is no verdict in any property, guarded or not (docs/model.md).
        result = TrialResult::discard(discards::overflow);
      } catch (const AdsemError& e) {
        result = TrialResult::error(e.diagnostic().render());
      } catch (const std::exception& e) {
        result = TrialResult::error(std::string("exception: ") + e.what());
      }
      if (result.kind == TrialResult::Kind::error && result.term.empty()) {
        reported->materialise();
        result.term = reported->term;
        result.source = reported->source;
      }
      // moved, not copied: the counter is cleared before the next trial
      if (context->rule_counter && result.rules_fired.empty())
        result.rules_fired = std::move(context->rule_counter->fired);
      *last = std::move(result);
      // Returned, not thrown: RapidCheck's adapter reports a returned CaseResult as it reports a
      // thrown one (PropertyAdapter::operator()), and a discard is common enough that unwinding
      // for each one showed in profiles. The success text is the one RapidCheck gives a body
      // returning void.
      using Type = rc::detail::CaseResult::Type;
      switch (last->kind) {
      case TrialResult::Kind::pass:
        break;
      case TrialResult::Kind::discard:
        return rc::detail::CaseResult(Type::Discard, last->reason);
      case TrialResult::Kind::fail:
      case TrialResult::Kind::error:
        return rc::detail::CaseResult(Type::Failure, last->reason);
      }
      return rc::detail::CaseResult(Type::Success, "no exceptions thrown");
    });
  }
};

// Counts every generated case (not shrink attempts) into the property's summary.
class StatisticsListener final : public rc::detail::TestListener {
public:
  StatisticsListener(reports::PropertySummary& summary, const std::shared_ptr<TrialResult>& last,
                     std::function<void(const TrialResult&)> on_case = {})
      : summary_(summary), last_(last), on_case_(std::move(on_case)) {}

  void onTestCaseFinished(const rc::detail::CaseDescription&) override {
    const TrialResult& t = *last_;
    if (on_case_) on_case_(t);
    ++summary_.trials;
    switch (t.kind) {
    case TrialResult::Kind::pass:
      ++summary_.passed;
      break;
    case TrialResult::Kind::discard:
      ++summary_.discarded;
      ++summary_.discard_reasons[t.reason.empty() ? "unspecified" : t.reason];
      break;
    case TrialResult::Kind::fail:
      ++summary_.failed;
      break;
    case TrialResult::Kind::error:
      ++summary_.errors;
      break;
    }
    ++summary_.size_histogram[t.size];
    for (const auto& tag : t.tags)
      ++summary_.tags[tag];
    for (const auto& [rule, times] : t.rules_fired)
      summary_.rules_fired[rule] += times;
  }
  void onShrinkTried(const rc::detail::CaseDescription&, bool) override {}
  void onTestFinished(const rc::detail::TestMetadata&, const rc::detail::TestResult&) override {}

private:
  reports::PropertySummary& summary_;
  std::shared_ptr<TrialResult> last_;
  std::function<void(const TrialResult&)> on_case_;
};

// The values in the order they were drawn, each in its calculus's surface syntax (the
// generators' showValue overloads); RapidCheck's C++ type names would only add noise.
std::string drawn_values_text(const rc::detail::Example& example) {
  std::string out;
  for (const auto& entry : example)
    out += (out.empty() ? "" : "; ") + entry.second;
  return out;
}

rc::detail::TestParams params_for(std::uint64_t seed, int trials, int max_size) {
  rc::detail::TestParams params;
  params.seed = seed;
  params.maxSuccess = trials;
  params.maxSize = max_size;
  // Discards are counted and reported, never passes; a chunk gives up after 20 per success.
  params.maxDiscardRatio = 20;
  return params;
}

} // namespace

ChunkRun run_chunk(const ChunkSpec& spec, std::function<void()> on_trial_start,
                   std::function<void(const TrialResult&)> on_case) {
  TrialRunner runner{spec.def, spec.context};
  runner.on_trial_start = std::move(on_trial_start);
  ChunkRun run;
  StatisticsListener listener(run.delta, runner.last, std::move(on_case));
  const rc::detail::TestMetadata metadata{spec.def.name, spec.def.summary};
  const auto outcome = rc::detail::checkProperty(
      runner.property(), metadata, params_for(spec.token.seed, spec.trials, spec.token.max_size),
      listener, {});
  if (outcome.is<rc::detail::FailureResult>()) {
    const auto& failure = outcome.get<rc::detail::FailureResult>();
    ReplayToken token = spec.token;
    token.reproduce = failure.reproduce;
    auto record = make_record(spec.def, *runner.last, token,
                              spec.passed_before + failure.numSuccess, spec.command_name);
    if (record.message.empty()) record.message = failure.description;
    // A body that threw before naming its input: fall back on the values RapidCheck drew
    // (shown through rc::Show / showValue overloads of the generated types).
    if (record.term.empty()) record.term = drawn_values_text(failure.counterExample);
    run.end = ChunkRun::End::failure;
    run.record = std::move(record);
  } else if (outcome.is<rc::detail::GaveUpResult>()) {
    run.end = ChunkRun::End::gave_up;
  } else if (outcome.is<rc::detail::Error>()) {
    run.end = ChunkRun::End::error;
    run.error = outcome.get<rc::detail::Error>().description;
  }
  return run;
}

namespace {

// The CPU time of each trial of a chunk, read at each trial's start (process CPU time: a replay
// runs in this process, on one thread).
struct TrialCpuClock {
  int trials = 0;
  int slowest_trial = 0;
  double slowest_seconds = 0.0;
  std::clock_t last = 0;
  void start() {
    const std::clock_t now = std::clock();
    if (trials > 0) {
      const double seconds = static_cast<double>(now - last) / CLOCKS_PER_SEC;
      if (seconds >= slowest_seconds) {
        slowest_seconds = seconds;
        slowest_trial = trials;
      }
    }
    last = now;
    ++trials;
  }
};

} // namespace

TokenRun run_token(const PropertyDef& def, const PropertyContext& context,
                   const ReplayToken& token) {
  TrialRunner runner{def, context};
  reports::PropertySummary ignored;
  StatisticsListener listener(ignored, runner.last);
  const rc::detail::TestMetadata metadata{def.name, def.summary};
  // A crash/timeout record re-runs its whole chunk from the seed (ReplayToken::chunk_trials).
  const bool whole_chunk = token.chunk_trials > 0;
  TokenRun run;
  const auto clock = std::make_shared<TrialCpuClock>();
  if (whole_chunk) runner.on_trial_start = [clock] { clock->start(); };
  using ReproduceMap = std::unordered_map<std::string, rc::detail::Reproduce>;
  const auto outcome = rc::detail::checkProperty(
      runner.property(), metadata,
      params_for(token.seed, whole_chunk ? token.chunk_trials : 1, token.max_size), listener,
      whole_chunk ? ReproduceMap{} : ReproduceMap{{def.name, token.reproduce}});
  if (whole_chunk) {
    clock->start(); // ends the last trial
    run.trials = clock->trials - 1;
    run.slowest_trial = clock->slowest_trial;
    run.slowest_cpu_seconds = clock->slowest_seconds;
  }
  if (outcome.is<rc::detail::FailureResult>()) run.failure = *runner.last;
  if (outcome.is<rc::detail::Error>()) run.error = outcome.get<rc::detail::Error>().description;
  return run;
}

} // namespace adsem::props
