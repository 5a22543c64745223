#include "properties/core/chunk_worker.hpp"

#include <algorithm>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "properties/core/chunk_seed.hpp"
#include "properties/core/counterexample_record.hpp"
#include "properties/core/isolation.hpp"
#include "properties/core/memory.hpp"
#include "properties/core/rapidcheck_adapter.hpp"
#include "reports/json_lines.hpp"

namespace adsem::props {
namespace {

// The whole property in one forked worker process (isolation.hpp): one fork per property, not
// per chunk (a fork and its copy-on-write faults cost more than a chunk of fast trials). The
// worker streams JSON lines: {"e":"chunk",...} when a chunk begins, {"e":"start"} per trial
// (the heartbeat the per-trial timeout watches), {"e":"input",...} when the body reports its
// input, {"e":"pass"} or {"e":"case",...} per finished case, and {"e":"done",...} with the chunk's
// statistics and counterexample, and {"e":"end",...} with where the visit stopped once it is over.
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

// "trial 3 of the chunk used more than ... of CPU time; killed", and so on by the cause.
std::string timeout_message(ChildOutcome::Timeout why, double seconds, const std::string& who,
                            const std::string& when) {
  switch (why) {
  case ChildOutcome::Timeout::silent:
    return fmt::format("{} sent nothing for the per-trial timeout of {} s{}; killed", who, seconds,
                       when);
  case ChildOutcome::Timeout::stuck:
    return fmt::format("{} was stuck{}: silent, then no CPU time used for the per-trial timeout "
                       "of {} s; killed",
                       who, when, seconds);
  case ChildOutcome::Timeout::cpu:
    break;
  }
  return fmt::format("{} used more than the per-trial timeout of {} s of CPU time{}; killed", who,
                     seconds, when);
}

WorkerEnd run_worker(const PropertyPlan& plan, const std::function<void(ChunkRun&&)>& on_chunk) {
  // A trial's own lines go out with ChildLines::soon (kept in the log shared with this process
  // and written in batches; a crash loses none), the chunk's with ChildLines::line.
  const auto worker = [&](ChildLines& lines) {
    PropertyContext context = plan.context;
    context.on_input = [&lines](const std::string& term, const std::string& source) {
      lines.soon(reports::dump_json({{"e", "input"}, {"term", term}, {"source", source}}));
    };
    PropertyPlan worker_plan = plan;
    worker_plan.stop = nullptr; // the parent's flag does not reach a forked copy; it kills us
    const VisitEnd end = for_each_chunk(worker_plan, [&](const ChunkSpec& spec, int chunk) {
      lines.line(reports::dump_json({{"e", "chunk"},
                                     {"chunk", chunk},
                                     {"trials", spec.trials},
                                     {"passed_before", spec.passed_before}}));
      const ChunkSpec child_spec{spec.def,           context,          spec.token, spec.trials,
                                 spec.passed_before, spec.command_name};
      ChunkRun run = run_chunk(
          child_spec, [&lines] { lines.soon(R"({"e":"start"})"); },
          [&lines](const TrialResult& t) {
            if (t.kind == TrialResult::Kind::pass) return lines.soon(R"({"e":"pass"})");
            lines.soon(reports::dump_json(
                {{"e", "case"}, {"kind", static_cast<int>(t.kind)}, {"reason", t.reason}}));
          });
      nlohmann::json done = {{"e", "done"},
                             {"end", end_name(run.end)},
                             {"delta", reports::to_json(run.delta)},
                             {"error", run.error}};
      if (run.record) done["record"] = reports::to_json(*run.record);
      lines.line(reports::dump_json(done));
      return run;
    });
    lines.line(reports::dump_json(
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
    // The two lines of every trial are compared, not parsed.
    if (line == R"({"e":"start"})") {
      ++started;
      input_current = false;
      return;
    }
    if (line == R"({"e":"pass"})") {
      ++partial.trials;
      ++partial.passed;
      return;
    }
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
      run.chunk = chunk.value_or(next_chunk);
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
    run.chunk = progress ? next_chunk - 1 : next_chunk;
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
    run.chunk = chunk.value_or(next_chunk);
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
    run.chunk = *chunk;
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
  run.chunk = *chunk;
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
                    {},
                    chunk_trials,
                    rules_ref(plan.context.user_rules.get())};
  auto record =
      make_record(plan.def, t, token, passed_before + partial.passed, plan.options.command_name);
  const std::string when = between_chunks
                               ? fmt::format("before it began chunk {}", *chunk)
                               : fmt::format("during trial {} of the chunk", std::max(started, 1));
  switch (outcome.end) {
  case ChildOutcome::End::timed_out:
    record.outcome = "timeout";
    record.message =
        timeout_message(outcome.timeout, plan.options.trial_timeout_seconds,
                        between_chunks ? "the trial process"
                                       : fmt::format("trial {} of the chunk", std::max(started, 1)),
                        between_chunks ? " " + when : "");
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

} // namespace

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

} // namespace adsem::props
