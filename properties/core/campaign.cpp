#include "properties/core/campaign.hpp"

#include <algorithm>
#include <chrono>
#include <ctime>
#include <limits>
#include <tuple>
#include <unordered_map>

#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <rapidcheck.h>
#include <rapidcheck/detail/Property.h>
#include <rapidcheck/detail/TestListener.h>

#include "properties/core/corpus.hpp"
#include "properties/core/counterexample_trace.hpp"
#include "properties/core/discards.hpp"
#include "properties/core/isolation.hpp"
#include "properties/core/memory.hpp"
#include "reports/json_lines.hpp"
#include "reports/merge.hpp"
#include "semantics/core/overflow.hpp"
#include "syntax/core/diagnostic.hpp"

namespace adsem::props {
namespace {

using Clock = std::chrono::steady_clock;

// Deterministic mixing (std::hash is not stable across implementations).
std::uint64_t splitmix64(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

std::uint64_t fnv1a(const std::string& text) {
  std::uint64_t h = 0xcbf29ce484222325ULL;
  for (const unsigned char c : text)
    h = (h ^ c) * 0x100000001b3ULL;
  return h;
}

// The seed of chunk k of a property: a function of the campaign seed, the property's name and k
// only, so shards (which take every N-th chunk) and reruns see the same cases.
std::uint64_t chunk_seed(std::uint64_t campaign_seed, const std::string& property, int chunk) {
  return splitmix64(splitmix64(campaign_seed ^ fnv1a(property)) +
                    static_cast<std::uint64_t>(chunk));
}

std::string iso8601_now() {
  const std::time_t now = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&now, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

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
      if (context->rule_counter && result.rules_fired.empty())
        result.rules_fired.insert(context->rule_counter->fired.begin(),
                                  context->rule_counter->fired.end());
      *last = std::move(result);
      using Type = rc::detail::CaseResult::Type;
      switch (last->kind) {
      case TrialResult::Kind::pass:
        return;
      case TrialResult::Kind::discard:
        throw rc::detail::CaseResult(Type::Discard, last->reason);
      case TrialResult::Kind::fail:
      case TrialResult::Kind::error:
        throw rc::detail::CaseResult(Type::Failure, last->reason);
      }
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

std::string shell_quote(const std::string& text) {
  std::string out = "'";
  for (const char c : text)
    out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

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
  r.replay_command = command_name + " replay " + shell_quote(r.replay_token);
  return r;
}

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

bool matches_property(const PropertyDef& def, const std::string& wanted) {
  if (def.name == wanted) return true;
  // "<calc>/<suffix>" with an alias or the bare property name within selected calculi.
  const auto slash = def.name.find('/');
  return slash != std::string::npos && def.name.substr(slash + 1) == wanted;
}

// One chunk of one property: what the engine needs to go on.
struct ChunkSpec {
  const PropertyDef& def;
  const PropertyContext& context;
  ReplayToken token; // seed and max_size of the chunk; reproduce filled on failure
  int trials = 0;
  int passed_before = 0; // passes of the property in earlier chunks
  const std::string& command_name;
};

struct ChunkRun {
  enum class End { success, failure, gave_up, error };
  End end = End::success;
  reports::PropertySummary delta; // this chunk's statistics
  std::optional<reports::CounterexampleRecord> record;
  std::string error;                  // RapidCheck's description of an Error
  std::optional<std::string> warning; // for the property's summary (e.g. a resource discard)
};

ChunkRun run_chunk(const ChunkSpec& spec, std::function<void()> on_trial_start = {},
                   std::function<void(const TrialResult&)> on_case = {}) {
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

const char* end_name(ChunkRun::End end) {
  switch (end) {
  case ChunkRun::End::failure:
    return "failure";
  case ChunkRun::End::gave_up:
    return "gave-up";
  case ChunkRun::End::error:
    return "error";
  case ChunkRun::End::success:
    break;
  }
  return "success";
}

ChunkRun::End end_from_name(const std::string& name) {
  if (name == "failure") return ChunkRun::End::failure;
  if (name == "gave-up") return ChunkRun::End::gave_up;
  if (name == "error") return ChunkRun::End::error;
  return ChunkRun::End::success;
}

// How one visit to a property cuts and runs its chunks, wherever they run (in-process, or in the
// worker process of an isolated campaign). A property is visited once with --trials alone, twice
// under a time budget (run_campaign: first up to its floor of trials, then for its share).
struct PropertyPlan {
  const PropertyDef& def;
  const PropertyContext& context;
  const CampaignOptions& options;
  std::optional<int> trials; // per property (config or campaign); none: until the deadline
  int max_size = 0;
  int first_chunk = 0;        // where this visit starts (earlier visits ran the chunks before)
  int passed_before = 0;      // passes of the property in earlier visits
  int tested_before = 0;      // its non-discarded trials in earlier visits
  std::optional<int> floor;   // stop once this many non-discarded trials ran (the first visit)
  Clock::time_point deadline; // no chunk starts at or after this
  const std::atomic<bool>* stop = nullptr;
};

// Where a visit stopped: the chunk the next visit starts at, and whether the property is done
// (a failure or error ended it, or --trials has no chunk left).
struct VisitEnd {
  int next_chunk = 0;
  bool finished = false;
};

// The trials of chunk k, or none when --trials (or the property's config) has no chunk k.
std::optional<int> trials_of_chunk(const PropertyPlan& plan, int chunk) {
  const int size = plan.options.chunk_size;
  if (!plan.trials) return size;
  const int start = chunk * size;
  if (start >= *plan.trials) return std::nullopt;
  return std::min(size, *plan.trials - start);
}

// Runs the property's chunks in order from plan.first_chunk: with --trials up to chunk K-1 (the
// last one partial), until the deadline, and on the first visit until the floor is reached;
// shard I/N takes the chunks k with k % N == I. `run_one` runs a chunk; the visit ends after a
// chunk that ends in a failure or an error, and on the first visit after one that gave up (a
// property that discards nearly everything gets its share of the budget, not all of it).
VisitEnd for_each_chunk(const PropertyPlan& plan,
                        const std::function<ChunkRun(const ChunkSpec&, int chunk)>& run_one) {
  const CampaignOptions& options = plan.options;
  int passed = plan.passed_before;
  int tested = plan.tested_before;
  for (int chunk = plan.first_chunk;; ++chunk) {
    if (plan.stop && plan.stop->load()) return {chunk, false};
    const std::optional<int> chunk_trials = trials_of_chunk(plan, chunk);
    if (!chunk_trials) return {chunk, true};
    if (plan.floor && tested >= *plan.floor) return {chunk, false};
    if (Clock::now() >= plan.deadline) return {chunk, false};
    if (chunk % options.shard.count != options.shard.index) continue;
    const std::uint64_t seed = chunk_seed(options.seed, plan.def.name, chunk);
    const ChunkSpec spec{plan.def,
                         plan.context,
                         ReplayToken{plan.def.calculus,
                                     plan.def.name,
                                     options.mutant,
                                     plan.context.overrides,
                                     seed,
                                     plan.max_size,
                                     {}},
                         *chunk_trials,
                         passed,
                         options.command_name};
    const ChunkRun run = run_one(spec, chunk);
    passed += run.delta.passed;
    tested += run.delta.trials - run.delta.discarded;
    if (run.end == ChunkRun::End::failure || run.end == ChunkRun::End::error)
      return {chunk + 1, true};
    if (run.end == ChunkRun::End::gave_up && plan.floor) return {chunk + 1, false};
  }
}

// The first chunk at or after `chunk` that belongs to the shard.
int shard_chunk_from(const Shard& shard, int chunk) {
  while (chunk % shard.count != shard.index)
    ++chunk;
  return chunk;
}

// The whole property in one forked worker process (isolation.hpp): one fork per property, not
// per chunk (a fork and its copy-on-write faults cost more than a chunk of fast trials). The
// worker streams JSON lines: {"e":"chunk",...} when a chunk begins, {"e":"start"} per trial
// (the heartbeat the per-trial timeout watches), {"e":"input",...} when the body reports its
// input, {"e":"case",...} per finished case, and {"e":"done",...} with the chunk's statistics
// and counterexample, and {"e":"end",...} with where the visit stopped once it is over.
// `on_chunk` gets every finished chunk as it arrives. A worker that dies or hangs before its
// "end" line becomes one more chunk, ending in a "crash" or "timeout" record that holds the last
// reported input; the cases it finished in that chunk are counted. That holds also when it dies
// before it announces a chunk (a timeout shorter than the fork takes, a crash between chunks):
// the record then names the chunk it was about to run. A worker killed at the memory ceiling
// (CampaignOptions::max_resident_bytes) ends its chunk with a "resource" discard and asks for a
// new worker from the next chunk (`restart`).
struct WorkerEnd {
  VisitEnd visit; // with `restart`, visit.next_chunk is where the new worker begins
  bool restart = false;
};

WorkerEnd run_worker(const PropertyPlan& plan, const std::function<void(ChunkRun&&)>& on_chunk) {
  const auto worker = [&](int fd) {
    PropertyContext context = plan.context;
    context.on_input = [fd](const std::string& term, const std::string& source) {
      write_line(fd, reports::dump_json({{"e", "input"}, {"term", term}, {"source", source}}));
    };
    PropertyPlan worker_plan = plan;
    worker_plan.stop = nullptr; // the parent's flag does not reach a forked copy; it kills us
    const VisitEnd end = for_each_chunk(worker_plan, [&](const ChunkSpec& spec, int chunk) {
      write_line(fd, reports::dump_json({{"e", "chunk"},
                                         {"chunk", chunk},
                                         {"trials", spec.trials},
                                         {"passed_before", spec.passed_before}}));
      const ChunkSpec child_spec{spec.def,           context,          spec.token, spec.trials,
                                 spec.passed_before, spec.command_name};
      ChunkRun run = run_chunk(
          child_spec, [fd] { write_line(fd, R"({"e":"start"})"); },
          [fd](const TrialResult& t) {
            write_line(
                fd, reports::dump_json(
                        {{"e", "case"}, {"kind", static_cast<int>(t.kind)}, {"reason", t.reason}}));
          });
      nlohmann::json done = {{"e", "done"},
                             {"end", end_name(run.end)},
                             {"delta", reports::to_json(run.delta)},
                             {"error", run.error}};
      if (run.record) done["record"] = reports::to_json(*run.record);
      write_line(fd, reports::dump_json(done));
      return run;
    });
    write_line(fd, reports::dump_json(
                       {{"e", "end"}, {"next_chunk", end.next_chunk}, {"finished", end.finished}}));
    return 0;
  };

  // The chunk the worker is in, and what it finished of it, should it die.
  std::optional<int> chunk;
  int next_chunk = plan.first_chunk; // after the last finished one
  int passed_in_visit = 0;           // passes of the chunks finished so far
  std::optional<VisitEnd> ended;     // the worker's "end" line
  int chunk_trials = 0, passed_before = 0;
  reports::PropertySummary partial;
  std::string term, source;
  bool input_current = false; // the last input was reported after the last trial start
  int started = 0;
  const auto on_line = [&](const std::string& line) {
    const auto j = nlohmann::json::parse(line, nullptr, false);
    if (j.is_discarded() || !j.contains("e")) return;
    const std::string e = j.at("e");
    if (e == "chunk") {
      chunk = j.value("chunk", 0);
      chunk_trials = j.value("trials", 0);
      passed_before = j.value("passed_before", 0);
      partial = {};
      started = 0;
      input_current = false;
    } else if (e == "start") {
      ++started;
      input_current = false;
    } else if (e == "input") {
      term = j.value("term", "");
      source = j.value("source", "");
      input_current = true;
    } else if (e == "case") {
      ++partial.trials;
      switch (static_cast<TrialResult::Kind>(j.value("kind", 0))) {
      case TrialResult::Kind::pass:
        ++partial.passed;
        break;
      case TrialResult::Kind::discard:
        ++partial.discarded;
        ++partial.discard_reasons[j.value("reason", "unspecified")];
        break;
      case TrialResult::Kind::fail:
        ++partial.failed;
        break;
      case TrialResult::Kind::error:
        ++partial.errors;
        break;
      }
    } else if (e == "done") {
      ChunkRun run;
      run.end = end_from_name(j.value("end", ""));
      run.delta = reports::summary_from_json(j.at("delta"));
      run.error = j.value("error", "");
      if (j.contains("record")) run.record = reports::record_from_json(j.at("record"));
      if (chunk) next_chunk = *chunk + 1;
      passed_in_visit += run.delta.passed;
      chunk.reset();
      on_chunk(std::move(run));
    } else if (e == "end") {
      ended = VisitEnd{j.value("next_chunk", next_chunk), j.value("finished", false)};
    }
  };
  const ChildOutcome outcome = run_in_child(worker, plan.options.trial_timeout_seconds, on_line,
                                            plan.stop, plan.options.max_resident_bytes);
  if (ended && !chunk) return {*ended}; // the worker finished its visit
  if (!chunk && outcome.end == ChildOutcome::End::over_memory) {
    // Killed between two chunks (memory a calculus kept from earlier trials): no trial was
    // running; a new worker goes on with the next chunk. One that finished no chunk would only
    // be killed again: its next chunk is skipped.
    const bool progress = next_chunk > plan.first_chunk;
    ChunkRun run;
    if (!progress) {
      run.delta.trials = run.delta.discarded = run.delta.discard_reasons["resource"] = 1;
      ++next_chunk;
    }
    run.warning = fmt::format("resource: the worker went over the memory ceiling of {} ({} "
                              "resident) between chunks; a new one went on from chunk {}",
                              format_bytes(plan.options.max_resident_bytes),
                              format_bytes(outcome.resident_bytes), next_chunk);
    on_chunk(std::move(run));
    return {{next_chunk, false}, true};
  }
  if (outcome.end == ChildOutcome::End::stopped) {
    // SIGINT/SIGTERM: the worker was killed mid-chunk on purpose, which is no crash. Its finished
    // passes and discards count; a failing case it was still shrinking is dropped (no record
    // without RapidCheck's reproduce path; the next campaign finds it again from the seed).
    ChunkRun run;
    run.delta = partial;
    run.delta.trials -= partial.failed + partial.errors;
    run.delta.failed = run.delta.errors = 0;
    if (chunk) on_chunk(std::move(run));
    return {{chunk.value_or(next_chunk), false}};
  }
  const bool failure_seen = partial.failed + partial.errors > 0;
  if (outcome.end == ChildOutcome::End::over_memory && !failure_seen) {
    // The trial the ceiling stopped has no verdict: a counted "resource" discard, never a pass
    // or a failure. The rest of its chunk is skipped (RapidCheck cannot resume mid-chunk).
    ChunkRun run;
    run.delta = partial;
    ++run.delta.trials;
    ++run.delta.discarded;
    ++run.delta.discard_reasons["resource"];
    const int trial = std::max(started, 1);
    run.warning = fmt::format("resource: trial {} of chunk {} went over the memory ceiling of {} "
                              "({} resident) and was killed; the chunk's other {} trials were "
                              "skipped",
                              trial, *chunk, format_bytes(plan.options.max_resident_bytes),
                              format_bytes(outcome.resident_bytes),
                              std::max(0, chunk_trials - partial.trials - 1));
    on_chunk(std::move(run));
    return {{*chunk + 1, false}, true};
  }
  // Died outside a chunk: charge the chunk it was about to run (or, past the last one, a whole
  // chunk's worth of trials for the replay token).
  const bool between_chunks = !chunk;
  if (between_chunks) {
    chunk = shard_chunk_from(plan.options.shard, next_chunk);
    chunk_trials = trials_of_chunk(plan, *chunk).value_or(plan.options.chunk_size);
    passed_before = plan.passed_before + passed_in_visit;
  }

  ChunkRun run;
  run.end = ChunkRun::End::failure;
  run.delta = partial;
  if (!failure_seen) {
    ++run.delta.trials; // the trial that crashed or hung
    ++run.delta.failed;
  }
  const std::uint64_t seed = chunk_seed(plan.options.seed, plan.def.name, *chunk);
  TrialResult t = TrialResult::fail("");
  if (input_current && !failure_seen) { // while shrinking, the input is a shrink attempt's
    t.term = term;
    t.source = source;
  } else {
    t.term = fmt::format("(input not reported by the property; replay the chunk: seed {}, "
                         "{} trials, max size {})",
                         seed, chunk_trials, plan.max_size);
  }
  ReplayToken token{plan.def.calculus,
                    plan.def.name,
                    plan.options.mutant,
                    plan.context.overrides,
                    seed,
                    plan.max_size,
                    {}};
  token.chunk_trials = chunk_trials;
  auto record =
      make_record(plan.def, t, token, passed_before + partial.passed, plan.options.command_name);
  const std::string when = between_chunks
                               ? fmt::format("before it began chunk {}", *chunk)
                               : fmt::format("during trial {} of the chunk", std::max(started, 1));
  switch (outcome.end) {
  case ChildOutcome::End::timed_out:
    record.outcome = "timeout";
    if (between_chunks) {
      record.message = fmt::format("the trial process sent nothing for the per-trial timeout "
                                   "of {} s {}; killed",
                                   plan.options.trial_timeout_seconds, when);
      break;
    }
    record.message = fmt::format("trial {} of the chunk ran longer than the per-trial timeout "
                                 "of {} s; killed",
                                 std::max(started, 1), plan.options.trial_timeout_seconds);
    break;
  case ChildOutcome::End::signalled:
    record.outcome = "crash";
    record.message =
        between_chunks
            ? fmt::format("the trial process was killed by {} {}", signal_name(outcome.code), when)
            : fmt::format("trial {} of the chunk killed the process with {}", std::max(started, 1),
                          signal_name(outcome.code));
    break;
  case ChildOutcome::End::over_memory: // a failing case was being shrunk
    record.outcome = "fail";
    record.message = fmt::format("a trial of the chunk failed, and shrinking it went over the "
                                 "memory ceiling of {} ({} resident); the worker was killed "
                                 "before the failing input was named: replay the chunk",
                                 format_bytes(plan.options.max_resident_bytes),
                                 format_bytes(outcome.resident_bytes));
    break;
  case ChildOutcome::End::stopped: // handled above
  case ChildOutcome::End::exited:
    record.outcome = "crash";
    record.message = fmt::format("the trial process exited with status {} {}", outcome.code, when);
    break;
  }
  run.record = std::move(record);
  on_chunk(std::move(run));
  return {{*chunk + 1, true}};
}

// A visit of the property in worker processes: one, or one more after each worker the memory
// ceiling killed, each going on from where the last one stopped.
VisitEnd run_property_isolated(const PropertyPlan& plan,
                               const std::function<void(ChunkRun&&)>& on_chunk) {
  PropertyPlan rest = plan;
  const auto counting = [&](ChunkRun&& run) {
    rest.passed_before += run.delta.passed;
    rest.tested_before += run.delta.trials - run.delta.discarded;
    on_chunk(std::move(run));
  };
  for (;;) {
    const PropertyPlan visit = rest; // `counting` moves `rest` on while the worker runs
    const WorkerEnd end = run_worker(visit, counting);
    if (!end.restart) return end.visit;
    rest.first_chunk = end.visit.next_chunk;
  }
}

// `seconds` after `from`, saturating (a budget of 1e300 s means no deadline, not an overflow).
Clock::time_point after(Clock::time_point from, double seconds) {
  const double room = std::chrono::duration<double>(Clock::time_point::max() - from).count();
  if (seconds >= room) return Clock::time_point::max();
  return from + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(seconds));
}

// The non-discarded trials a property needs in this run not to be untested: health.min_trials,
// or a shard's part of it (its part of the chunks under --trials, 1/N of it under a time budget),
// so that shards which each reach their part reach min_trials together (`adsem merge` judges the
// sums against min_trials itself).
int untested_floor(int min_trials, const Shard& shard, std::optional<int> trials, int chunk_size) {
  if (shard.count == 1) return min_trials;
  if (!trials) return (min_trials + shard.count - 1) / shard.count;
  long assigned = 0;
  for (int chunk = shard.index; static_cast<long>(chunk) * chunk_size < *trials;
       chunk += shard.count)
    assigned += std::min<long>(chunk_size, *trials - static_cast<long>(chunk) * chunk_size);
  const long total = *trials;
  return static_cast<int>((min_trials * assigned + total - 1) / total);
}

// One property's progress across the rounds of a campaign.
struct PropertyRun {
  PropertyRun(const PropertyDef& d, PropertyContext c) : def(d), context(std::move(c)) {}
  const PropertyDef& def;
  PropertyContext context;
  std::optional<int> trials;
  int max_size = 0;
  int floor = 0; // untested below this many non-discarded trials (untested_floor)
  reports::PropertySummary summary = {};
  int next_chunk = 0;
  bool visited = false;  // it began (progress was told)
  bool finished = false; // a failure ended it, or it ran all its --trials
  bool gave_up = false;
  bool reported = false; // its verdict is given
};

std::string untested_warning(const PropertyRun& run, int tested, bool budgeted,
                             const CampaignOptions& options) {
  const std::string why =
      run.gave_up    ? "; RapidCheck gave up: more than 20 discards per pass"
      : run.finished ? "; --trials (or the config file) asks for fewer"
      : budgeted     ? "; the time budget ran out first (docs/campaigns.md says what a campaign "
                       "needs)"
                     : "";
  const std::string shard = options.shard.count == 1 ? "" : " (this shard's part of it)";
  return fmt::format(
      "untested: {} non-discarded trial(s), fewer than the {} that health.min_trials "
      "= {} requires{}{}",
      tested, run.floor, options.health.min_trials, shard, why);
}

} // namespace

Shard parse_shard(const std::string& text) {
  const auto slash = text.find('/');
  try {
    if (slash != std::string::npos) {
      std::size_t used_i = 0, used_n = 0;
      const int index = std::stoi(text.substr(0, slash), &used_i);
      const int count = std::stoi(text.substr(slash + 1), &used_n);
      if (used_i == slash && used_n == text.size() - slash - 1 && count >= 1 && index >= 0 &&
          index < count)
        return Shard{index, count};
    }
  } catch (const std::exception&) {
  }
  throw AdsemError(ErrorKind::usage,
                   fmt::format("--shard expects I/N with 0 <= I < N (got '{}')", text));
}

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
  return selected;
}

reports::CampaignResult run_campaign(const Registry& registry, const CampaignOptions& options) {
  const auto selected = select_properties(registry, options);
  const auto started = Clock::now();

  reports::CampaignResult result;
  result.adsem_version = ADSEM_VERSION_STRING;
  result.seed = options.seed;
  result.trials_per_property = options.trials;
  result.min_trials = options.health.min_trials;
  result.time_budget_seconds = options.time_seconds;
  if (!options.trials && !options.time_seconds)
    result.time_budget_seconds = default_campaign_seconds;
  result.shard = fmt::format("{}/{}", options.shard.index, options.shard.count);
  result.mutant = options.mutant;
  result.started_at = iso8601_now();

  const PropertyContext campaign_context{options.mutant, options.overrides};
  for (const CheckKind kind : all_check_kinds)
    result.tolerances[std::string(to_string(kind))] = campaign_context.tolerance(kind);

  std::optional<reports::ResultsStream> stream;
  if (options.stream_dir) {
    stream.emplace(*options.stream_dir);
    stream->write_campaign_start(result);
  }

  // The corpus first: entries of the selected properties under the same mutant, partitioned
  // over shards like chunks are. A property that still fails on an entry is failed at once.
  std::map<std::string, reports::CounterexampleRecord> corpus_failures;
  if (options.corpus_dir) {
    CorpusContents corpus = load_corpus(*options.corpus_dir, registry);
    if (options.shard.index == 0)
      for (auto& unreadable : corpus.unreadable)
        result.corpus.push_back(std::move(unreadable));
    int k = 0;
    for (const CorpusEntry& entry : corpus.entries) {
      const bool wanted = entry.record.mutant == options.mutant &&
                          std::ranges::any_of(selected, [&](const PropertyDef* def) {
                            return def->name == entry.record.property;
                          });
      if (!wanted || k++ % options.shard.count != options.shard.index) continue;
      CorpusReplay replayed = replay_corpus_entry(registry, entry, options.command_name);
      if (replayed.record && !corpus_failures.contains(entry.record.property))
        corpus_failures.emplace(entry.record.property, std::move(*replayed.record));
      result.corpus.push_back(std::move(replayed.outcome));
    }
  }

  // The budget is shared in two rounds (docs/campaigns.md, "How a time budget is shared"): the
  // first gives every property, in order, the trials below which it would be untested; the
  // second shares what is left fairly, each property taking its part of the rest. With --trials
  // alone there is one round and each property runs all its trials.
  const auto budget = result.time_budget_seconds;
  const Clock::time_point deadline = budget ? after(started, *budget) : Clock::time_point::max();
  const auto stop_requested = [&] {
    return options.stop_requested && options.stop_requested->load();
  };

  std::vector<PropertyRun> runs;
  runs.reserve(selected.size());
  for (const PropertyDef* def : selected) {
    // A config file's per-property settings replace the campaign-wide ones for this property.
    const auto config_it = options.property_config.find(def->name);
    const PropertyConfig config =
        config_it == options.property_config.end() ? PropertyConfig{} : config_it->second;
    PropertyRun run{*def, campaign_context};
    run.trials = config.trials ? config.trials : options.trials;
    run.max_size = config.max_size.value_or(options.max_size.value_or(def->default_max_size));
    run.context.rule_counter = std::make_shared<RuleCounter>();
    for (const auto& [key, value] : config.overrides)
      run.context.overrides[key] = value;
    run.floor =
        untested_floor(options.health.min_trials, options.shard, run.trials, options.chunk_size);
    run.summary.calculus = def->calculus;
    run.summary.name = def->name;
    run.summary.kind = def->kind;
    run.summary.citation = def->citation;
    runs.push_back(std::move(run));
  }

  const auto notify = [&](ProgressEvent::Kind kind, std::size_t i) {
    if (options.on_progress)
      options.on_progress(ProgressEvent{kind, runs[i].summary, static_cast<int>(i),
                                        static_cast<int>(runs.size()),
                                        static_cast<int>(result.counterexamples.size())});
  };

  // Runs property i from where it stopped until `visit_deadline` (and, on the first round of a
  // budget, until it has `floor` non-discarded trials).
  const auto visit = [&](std::size_t i, std::optional<int> floor,
                         Clock::time_point visit_deadline) {
    PropertyRun& run = runs[i];
    if (run.finished) return;
    if (!run.visited) notify(ProgressEvent::Kind::property_started, i);
    run.visited = true;
    reports::PropertySummary& summary = run.summary;

    if (const auto failure = corpus_failures.find(run.def.name); failure != corpus_failures.end()) {
      summary.trials = 1;
      summary.failed = 1;
      summary.seconds_to_first_failure = 0.0;
      summary.warnings.push_back("failed on a failure-corpus entry before any random trial");
      if (stream) stream->write(failure->second);
      result.counterexamples.push_back(failure->second);
      run.finished = true;
      return;
    }
    if (Clock::now() >= visit_deadline) return; // no chunk would start: spare the fork

    const auto visit_started = Clock::now();
    const double seconds_before = summary.seconds;
    const auto seconds_in_property = [&] {
      return seconds_before + std::chrono::duration<double>(Clock::now() - visit_started).count();
    };
    std::optional<std::string> rapidcheck_error;
    // What the engine does with each finished chunk, wherever it ran.
    const auto on_chunk = [&](ChunkRun&& chunk) {
      const std::string status = summary.status;
      reports::merge_property(summary, chunk.delta);
      summary.status = status;                 // decided in `finish`, when the property is done
      summary.seconds = seconds_in_property(); // so progress shows the rate while running
      notify(ProgressEvent::Kind::chunk_finished, i);
      if (chunk.end == ChunkRun::End::failure && chunk.record) {
        auto record = std::move(*chunk.record);
        summary.seconds_to_first_failure = seconds_in_property();
        fill_counterexample_trace(registry, record);
        if (stream) stream->write(record);
        // Crash/timeout records stay out of the failure corpus: the corpus is replayed
        // in-process at the start of every campaign, where a crash would end it.
        if (options.corpus_dir && record.outcome != "crash" && record.outcome != "timeout") {
          try {
            save_to_corpus(*options.corpus_dir, record);
          } catch (const AdsemError& e) {
            result.warnings.push_back("corpus: " + e.diagnostic().message);
          }
        }
        result.counterexamples.push_back(std::move(record));
      }
      if (chunk.warning) summary.warnings.push_back(std::move(*chunk.warning));
      if (chunk.end == ChunkRun::End::gave_up) run.gave_up = true;
      if (chunk.end == ChunkRun::End::error) rapidcheck_error = chunk.error;
    };
    const PropertyPlan plan{run.def,
                            run.context,
                            options,
                            run.trials,
                            run.max_size,
                            run.next_chunk,
                            summary.passed,
                            summary.trials - summary.discarded,
                            floor,
                            visit_deadline,
                            options.stop_requested};
    VisitEnd end;
    if (options.isolate) {
      end = run_property_isolated(plan, on_chunk);
    } else {
      end = for_each_chunk(plan, [&](const ChunkSpec& spec, int) {
        ChunkRun chunk = run_chunk(spec);
        ChunkRun seen; // what the loop needs: how the chunk ended and its counts
        seen.end = chunk.end;
        seen.delta.passed = chunk.delta.passed;
        seen.delta.trials = chunk.delta.trials;
        seen.delta.discarded = chunk.delta.discarded;
        on_chunk(std::move(chunk));
        return seen;
      });
    }
    if (rapidcheck_error)
      throw AdsemError(ErrorKind::eval,
                       fmt::format("{}: RapidCheck error: {}", run.def.name, *rapidcheck_error));
    run.next_chunk = end.next_chunk;
    run.finished = end.finished;
    summary.seconds = seconds_in_property();
  };

  // Gives property i its verdict and reports it.
  const auto finish = [&](std::size_t i) {
    PropertyRun& run = runs[i];
    reports::PropertySummary& summary = run.summary;
    const int tested = summary.trials - summary.discarded;
    if (summary.failed + summary.errors > 0) {
      summary.status = "failed";
    } else if (!run.finished && stop_requested()) {
      // Its budget was not used up: no verdict.
      summary.status = run.visited ? "interrupted" : "not-run";
    } else if (tested < run.floor) {
      summary.status = "untested";
      summary.warnings.push_back(untested_warning(run, tested, budget.has_value(), options));
    } else if (summary.trials == 0) {
      summary.status = "not-in-shard"; // --trials gave this shard none of its chunks
    } else {
      summary.status = run.gave_up ? "gave-up" : "passed";
    }
    if (run.gave_up)
      summary.warnings.push_back(
          "health: RapidCheck gave up on a chunk: more than 20 discards per pass");
    for (std::string& warning : property_health(summary, run.def.expected_tags, options.health))
      summary.warnings.push_back(std::move(warning));
    run.reported = true;
    if (run.visited) notify(ProgressEvent::Kind::property_finished, i);
    if (stream) stream->write(summary);
  };

  for (std::size_t i = 0; i < runs.size() && !stop_requested(); ++i) {
    visit(i, budget ? std::optional<int>(runs[i].floor) : std::nullopt, deadline);
    if (!budget || runs[i].finished) finish(i);
  }
  for (std::size_t i = 0; i < runs.size() && budget && !stop_requested(); ++i) {
    if (runs[i].reported) continue;
    // A fair part of what is left of the budget, among the properties not yet done.
    const auto waiting = std::count_if(runs.begin() + static_cast<std::ptrdiff_t>(i), runs.end(),
                                       [](const PropertyRun& r) { return !r.reported; });
    const double left = std::chrono::duration<double>(deadline - Clock::now()).count();
    const double share = std::max(0.0, left / static_cast<double>(waiting));
    visit(i, std::nullopt, std::min(after(Clock::now(), share), deadline));
    finish(i);
  }
  for (std::size_t i = 0; i < runs.size(); ++i) // interrupted: the rest have no verdict
    if (!runs[i].reported) finish(i);
  for (PropertyRun& run : runs)
    result.properties.push_back(std::move(run.summary));

  for (const CalculusEntry& entry : registry.calculi()) {
    const bool ran = std::ranges::any_of(result.properties, [&](const reports::PropertySummary& s) {
      return s.calculus == entry.id;
    });
    if (!ran) continue;
    for (std::string& warning :
         calculus_health(entry.id, entry.constructs, result.properties, options.health))
      result.warnings.push_back(std::move(warning));
    if (entry.rules.empty()) continue;
    auto& coverage = result.rule_coverage[entry.id];
    for (const std::string& rule : entry.rules)
      coverage[rule] = 0;
    for (const auto& s : result.properties)
      if (s.calculus == entry.id)
        for (const auto& [rule, times] : s.rules_fired)
          coverage[rule] += times;
  }

  result.complete = !stop_requested();
  result.elapsed_seconds = std::chrono::duration<double>(Clock::now() - started).count();
  return result;
}

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
  TrialRunner runner{*def, context};
  reports::PropertySummary ignored;
  StatisticsListener listener(ignored, runner.last);
  const rc::detail::TestMetadata metadata{def->name, def->summary};
  // A crash/timeout record re-runs its whole chunk from the seed (ReplayToken::chunk_trials).
  const bool whole_chunk = token.chunk_trials > 0;
  using ReproduceMap = std::unordered_map<std::string, rc::detail::Reproduce>;
  const auto outcome = rc::detail::checkProperty(
      runner.property(), metadata,
      params_for(token.seed, whole_chunk ? token.chunk_trials : 1, token.max_size), listener,
      whole_chunk ? ReproduceMap{} : ReproduceMap{{def->name, token.reproduce}});

  ReplayOutcome replayed;
  if (outcome.is<rc::detail::FailureResult>()) {
    replayed.reproduced = true;
    replayed.record = make_record(*def, *runner.last, token, 0, command_name);
    replayed.message = fmt::format("{}: counterexample reproduced", def->name);
  } else if (outcome.is<rc::detail::Error>()) {
    replayed.message = fmt::format("{}: the recorded input no longer fails ({})", def->name,
                                   outcome.get<rc::detail::Error>().description);
  } else {
    replayed.message = fmt::format("{}: the recorded input no longer fails", def->name);
  }
  return replayed;
}

} // namespace adsem::props
