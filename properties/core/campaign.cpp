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
#include "properties/core/discards.hpp"
#include "properties/core/isolation.hpp"
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
  std::string error; // RapidCheck's description of an Error
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

// How one property's chunks are cut and run, wherever they run (in-process, or in the worker
// process of an isolated campaign).
struct PropertyPlan {
  const PropertyDef& def;
  const PropertyContext& context;
  const CampaignOptions& options;
  std::optional<int> trials; // per property (config or campaign); none: until the time share
  int max_size = 0;
  double share = 0.0; // seconds of wall clock for this property
  Clock::time_point started;
  const std::atomic<bool>* stop = nullptr;
};

// Runs the property's chunks in order: with --trials chunks 0..K-1 of chunk_size (the last one
// partial), else until the time share is used; shard I/N takes the chunks k with k % N == I.
// `run_one` runs a chunk; the loop ends after a chunk that ends in a failure or an error.
void for_each_chunk(const PropertyPlan& plan,
                    const std::function<ChunkRun(const ChunkSpec&, int chunk)>& run_one) {
  const CampaignOptions& options = plan.options;
  int passed = 0;
  for (int chunk = 0;; ++chunk) {
    if (plan.stop && plan.stop->load()) break;
    int chunk_trials = options.chunk_size;
    if (plan.trials) {
      const int start = chunk * options.chunk_size;
      if (start >= *plan.trials) break;
      chunk_trials = std::min(options.chunk_size, *plan.trials - start);
    }
    if (std::chrono::duration<double>(Clock::now() - plan.started).count() >= plan.share) break;
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
                         chunk_trials,
                         passed,
                         options.command_name};
    const ChunkRun run = run_one(spec, chunk);
    passed += run.delta.passed;
    if (run.end == ChunkRun::End::failure || run.end == ChunkRun::End::error) break;
  }
}

// The whole property in one forked worker process (isolation.hpp): one fork per property, not
// per chunk (a fork and its copy-on-write faults cost more than a chunk of fast trials). The
// worker streams JSON lines: {"e":"chunk",...} when a chunk begins, {"e":"start"} per trial
// (the heartbeat the per-trial timeout watches), {"e":"input",...} when the body reports its
// input, {"e":"case",...} per finished case, and {"e":"done",...} with the chunk's statistics
// and counterexample. `on_chunk` gets every finished chunk as it arrives. A worker that dies or
// hangs becomes one more chunk, ending in a "crash" or "timeout" record that holds the last
// reported input; the cases it finished in that chunk are counted.
void run_property_isolated(const PropertyPlan& plan,
                           const std::function<void(ChunkRun&&)>& on_chunk) {
  const auto worker = [&](int fd) {
    PropertyContext context = plan.context;
    context.on_input = [fd](const std::string& term, const std::string& source) {
      write_line(fd, reports::dump_json({{"e", "input"}, {"term", term}, {"source", source}}));
    };
    PropertyPlan worker_plan = plan;
    worker_plan.stop = nullptr; // the parent's flag does not reach a forked copy; it kills us
    for_each_chunk(worker_plan, [&](const ChunkSpec& spec, int chunk) {
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
    return 0;
  };

  // The chunk the worker is in, and what it finished of it, should it die.
  std::optional<int> chunk;
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
      chunk.reset();
      on_chunk(std::move(run));
    }
  };
  const ChildOutcome outcome =
      run_in_child(worker, plan.options.trial_timeout_seconds, on_line, plan.stop);
  if (!chunk) return; // the worker finished every chunk it began (or began none)
  if (outcome.end == ChildOutcome::End::stopped) {
    // SIGINT/SIGTERM: the worker was killed mid-chunk on purpose, which is no crash. Its finished
    // passes and discards count; a failing case it was still shrinking is dropped (no record
    // without RapidCheck's reproduce path; the next campaign finds it again from the seed).
    ChunkRun run;
    run.delta = partial;
    run.delta.trials -= partial.failed + partial.errors;
    run.delta.failed = run.delta.errors = 0;
    on_chunk(std::move(run));
    return;
  }

  ChunkRun run;
  run.end = ChunkRun::End::failure;
  run.delta = partial;
  ++run.delta.trials; // the trial that crashed or hung
  ++run.delta.failed;
  const std::uint64_t seed = chunk_seed(plan.options.seed, plan.def.name, *chunk);
  TrialResult t = TrialResult::fail("");
  if (input_current) {
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
  switch (outcome.end) {
  case ChildOutcome::End::timed_out:
    record.outcome = "timeout";
    record.message = fmt::format("trial {} of the chunk ran longer than the per-trial timeout "
                                 "of {} s; killed",
                                 std::max(started, 1), plan.options.trial_timeout_seconds);
    break;
  case ChildOutcome::End::signalled:
    record.outcome = "crash";
    record.message = fmt::format("trial {} of the chunk killed the process with {}",
                                 std::max(started, 1), signal_name(outcome.code));
    break;
  case ChildOutcome::End::stopped: // handled above
  case ChildOutcome::End::exited:
    record.outcome = "crash";
    record.message = fmt::format("the trial process exited with status {} during trial {} of "
                                 "the chunk",
                                 outcome.code, std::max(started, 1));
    break;
  }
  run.record = std::move(record);
  on_chunk(std::move(run));
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
    CorpusContents corpus = load_corpus(*options.corpus_dir);
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

  const auto budget = result.time_budget_seconds;
  const auto stop_requested = [&] {
    return options.stop_requested && options.stop_requested->load();
  };

  for (std::size_t i = 0; i < selected.size(); ++i) {
    const PropertyDef& def = *selected[i];
    reports::PropertySummary summary;
    summary.calculus = def.calculus;
    summary.name = def.name;
    summary.kind = def.kind;
    summary.citation = def.citation;

    // Fair share of what is left of the wall-clock budget (unbounded without one).
    const double elapsed = std::chrono::duration<double>(Clock::now() - started).count();
    const double share =
        budget ? std::max(0.0, (*budget - elapsed) / static_cast<double>(selected.size() - i))
               : std::numeric_limits<double>::infinity();
    // A config file's per-property settings replace the campaign-wide ones for this property.
    const auto config_it = options.property_config.find(def.name);
    const PropertyConfig config =
        config_it == options.property_config.end() ? PropertyConfig{} : config_it->second;
    const std::optional<int> trials = config.trials ? config.trials : options.trials;
    const int max_size = config.max_size.value_or(options.max_size.value_or(def.default_max_size));
    PropertyContext context = campaign_context;
    context.rule_counter = std::make_shared<RuleCounter>();
    for (const auto& [key, value] : config.overrides)
      context.overrides[key] = value;
    const auto property_started = Clock::now();
    const auto seconds_in_property = [&] {
      return std::chrono::duration<double>(Clock::now() - property_started).count();
    };

    const auto notify = [&](ProgressEvent::Kind kind) {
      if (options.on_progress)
        options.on_progress(ProgressEvent{kind, summary, static_cast<int>(i),
                                          static_cast<int>(selected.size()),
                                          static_cast<int>(result.counterexamples.size())});
    };
    notify(ProgressEvent::Kind::property_started);

    if (const auto failure = corpus_failures.find(def.name); failure != corpus_failures.end()) {
      summary.trials = 1;
      summary.failed = 1;
      summary.status = "failed";
      summary.seconds_to_first_failure = 0.0;
      summary.warnings.push_back("failed on a failure-corpus entry before any random trial");
      if (stream) stream->write(failure->second);
      result.counterexamples.push_back(failure->second);
      result.properties.push_back(summary);
      notify(ProgressEvent::Kind::property_finished);
      if (stream) stream->write(summary);
      continue;
    }

    bool gave_up = false;
    std::optional<std::string> rapidcheck_error;
    // What the engine does with each finished chunk, wherever it ran.
    const auto on_chunk = [&](ChunkRun&& run) {
      const std::string status = summary.status;
      reports::merge_property(summary, run.delta);
      summary.status = status;                 // decided below, when the property is done
      summary.seconds = seconds_in_property(); // so progress shows the rate while running
      notify(ProgressEvent::Kind::chunk_finished);
      if (run.end == ChunkRun::End::failure && run.record) {
        auto record = std::move(*run.record);
        summary.seconds_to_first_failure = seconds_in_property();
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
      if (run.end == ChunkRun::End::gave_up) gave_up = true;
      if (run.end == ChunkRun::End::error) rapidcheck_error = run.error;
    };
    const PropertyPlan plan{def,      context, options,          trials,
                            max_size, share,   property_started, options.stop_requested};
    if (options.isolate) {
      run_property_isolated(plan, on_chunk);
    } else {
      for_each_chunk(plan, [&](const ChunkSpec& spec, int) {
        ChunkRun run = run_chunk(spec);
        ChunkRun seen; // what the loop needs: how the chunk ended and its passes
        seen.end = run.end;
        seen.delta.passed = run.delta.passed;
        on_chunk(std::move(run));
        return seen;
      });
    }
    if (rapidcheck_error)
      throw AdsemError(ErrorKind::eval,
                       fmt::format("{}: RapidCheck error: {}", def.name, *rapidcheck_error));

    summary.seconds = seconds_in_property();
    if (summary.failed + summary.errors > 0)
      summary.status = "failed";
    else if (stop_requested())
      summary.status = "interrupted"; // its budget was not used up: no verdict
    else if (summary.trials == 0)
      summary.status = "no-trials";
    else if (gave_up)
      summary.status = "gave-up";
    else
      summary.status = "passed";
    if (gave_up)
      summary.warnings.push_back(
          "health: RapidCheck gave up on a chunk: more than 20 discards per pass");
    for (std::string& warning : property_health(summary, def.expected_tags, options.health))
      summary.warnings.push_back(std::move(warning));
    result.properties.push_back(summary);
    notify(ProgressEvent::Kind::property_finished);
    if (stream) stream->write(summary);
    if (stop_requested()) break;
  }

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
