#include "properties/core/parallel_campaign.hpp"

#include <algorithm>
#include <map>

#include "properties/core/worker_pool.hpp"

namespace adsem::props {
namespace {

constexpr std::chrono::milliseconds poll_interval{50};

// Consecutive chunks of one property that one worker runs: [first, end).
struct Batch {
  std::size_t property = 0;
  int first = 0, end = 0;
  bool started = false, ended = false;
};

// A chunk as it came back, with the first chunk of its batch (its record counted the passes
// from there on).
struct Returned {
  ChunkRun run;
  int batch_first = 0;
};

struct PropertyWork {
  std::vector<std::size_t> batches;
  std::optional<int> lowest_end; // the lowest chunk that failed or ended in an error
  std::vector<Returned> returned;
  double seconds = 0.0; // its workers' time
};

// How many chunks a batch takes: a property's chunks split evenly over the workers (a worker's
// fork costs about as much as a chunk of fast trials, so fewer, longer batches scale better; the
// properties after it keep the workers busy), and at most 40 chunks (1000 trials), so that a
// failure in an early chunk cancels little.
int batch_chunks(std::size_t chunks, int jobs) {
  const auto workers = static_cast<std::size_t>(jobs);
  return static_cast<int>(std::clamp<std::size_t>((chunks + workers - 1) / workers, 1, 40));
}

// The passes of the chunks before `chunk`, among those returned.
int passes_before(const std::vector<Returned>& returned, int chunk) {
  int passes = 0;
  for (const Returned& r : returned)
    if (r.run.chunk < chunk) passes += r.run.delta.passed;
  return passes;
}

} // namespace

void run_trials_in_parallel(CampaignRun& campaign, int jobs) {
  auto& runs = campaign.runs();
  const CampaignOptions& options = campaign.options();
  std::vector<Batch> batches;
  std::vector<PropertyWork> work(runs.size());
  for (std::size_t i = 0; i < runs.size(); ++i) {
    if (campaign.fails_on_corpus(i)) continue; // failed before any chunk
    const PropertyPlan plan = campaign.plan(i, std::nullopt, Clock::time_point::max(), nullptr);
    std::vector<int> chunks;
    for (int k = 0; trials_of_chunk(plan, k); ++k)
      if (in_shard(options.shard, k)) chunks.push_back(k);
    const auto per_batch = static_cast<std::size_t>(batch_chunks(chunks.size(), jobs));
    for (std::size_t b = 0; b < chunks.size(); b += per_batch) {
      const std::size_t last = std::min(b + per_batch, chunks.size()) - 1;
      work[i].batches.push_back(batches.size());
      batches.push_back(Batch{i, chunks[b], chunks[last] + 1});
    }
  }

  // Done: every batch that can still count has ended.
  const auto done = [&](std::size_t i) {
    return std::ranges::all_of(work[i].batches, [&](std::size_t b) {
      return batches[b].ended || (work[i].lowest_end && batches[b].first > *work[i].lowest_end);
    });
  };
  // Adds what property i's workers returned, in chunk order up to its lowest failure, and gives
  // its verdict (interrupted when a stop came first).
  const auto conclude = [&](std::size_t i) {
    PropertyRun& run = runs[i];
    PropertyWork& w = work[i];
    const bool complete = done(i);
    const bool started =
        std::ranges::any_of(w.batches, [&](std::size_t b) { return batches[b].started; });
    if (!started && !complete) return; // not run: take_result says so
    campaign.begin(i);
    if (campaign.fail_on_corpus(i)) {
      campaign.finish(i);
      return;
    }
    std::ranges::stable_sort(w.returned, {}, [](const Returned& r) { return r.run.chunk; });
    for (Returned& r : w.returned) {
      if (w.lowest_end && r.run.chunk > *w.lowest_end) continue; // cancelled: not counted
      if (r.run.record) r.run.record->trials_before += passes_before(w.returned, r.batch_first);
      campaign.add_chunk(i, std::move(r.run), w.seconds);
    }
    campaign.throw_on_rapidcheck_error(i);
    run.finished = complete;
    run.summary.seconds = w.seconds;
    campaign.finish(i);
  };

  WorkerPool pool(options.stop_requested);
  std::size_t next_batch = 0, next_verdict = 0;
  for (;;) {
    while (!campaign.stop_requested() && pool.running() < static_cast<std::size_t>(jobs) &&
           next_batch < batches.size()) {
      Batch& batch = batches[next_batch];
      const PropertyWork& w = work[batch.property];
      if (!w.lowest_end || batch.first <= *w.lowest_end) {
        PropertyPlan plan =
            campaign.plan(batch.property, std::nullopt, Clock::time_point::max(), nullptr);
        plan.first_chunk = batch.first;
        plan.end_chunk = batch.end;
        plan.passed_before = plan.tested_before = 0;
        batch.started = true;
        pool.start(next_batch, plan);
      }
      ++next_batch;
    }
    while (next_verdict < runs.size() && done(next_verdict))
      conclude(next_verdict++);
    if (next_verdict == runs.size() || (pool.running() == 0 && campaign.stop_requested())) break;
    for (VisitEvent& event : pool.wait(poll_interval)) {
      Batch& batch = batches[event.task];
      PropertyWork& w = work[batch.property];
      if (!event.chunk) {
        batch.ended = !event.error && (event.end.finished || event.end.next_chunk >= batch.end);
        w.seconds += event.seconds;
        if (event.error) std::rethrow_exception(event.error);
        continue;
      }
      const int chunk = event.chunk->chunk;
      if (ends_property(event.chunk->end) && (!w.lowest_end || chunk < *w.lowest_end)) {
        w.lowest_end = chunk;
        for (const std::size_t b : w.batches)
          if (batches[b].first > chunk) pool.cancel(b);
      }
      w.returned.push_back(Returned{std::move(*event.chunk), batch.first});
    }
  }
  while (next_verdict < runs.size()) // interrupted: what came back counts, with no verdict
    conclude(next_verdict++);
}

void run_budget_in_parallel(CampaignRun& campaign, int jobs) {
  auto& runs = campaign.runs();
  const CampaignOptions& options = campaign.options();
  const Clock::time_point deadline = campaign.deadline();
  struct Visit {
    std::size_t property = 0;
    Clock::time_point started, deadline;
    double seconds_before = 0.0;
  };
  std::map<std::size_t, Visit> visits; // by task
  const auto seconds_in = [](const Visit& v) {
    return v.seconds_before + std::chrono::duration<double>(Clock::now() - v.started).count();
  };

  WorkerPool pool(options.stop_requested);
  std::size_t tasks = 0;
  for (int round = 1; round <= 2 && !campaign.stop_requested(); ++round) {
    std::size_t next = 0;
    for (;;) {
      while (!campaign.stop_requested() && pool.running() < static_cast<std::size_t>(jobs) &&
             next < runs.size()) {
        const std::size_t i = next++;
        PropertyRun& run = runs[i];
        if (run.reported) continue;
        campaign.begin(i);
        if (campaign.fail_on_corpus(i)) {
          campaign.finish(i);
          continue;
        }
        const auto now = Clock::now();
        Clock::time_point visit_deadline = deadline;
        if (round == 2) {
          // A fair part of the worker-seconds left, among the properties not yet visited.
          const double left = std::chrono::duration<double>(deadline - now).count();
          double worker_seconds = left * jobs;
          for (const auto& [task, v] : visits)
            worker_seconds -=
                std::max(0.0, std::chrono::duration<double>(v.deadline - now).count());
          const auto waiting =
              std::count_if(runs.begin() + static_cast<std::ptrdiff_t>(i), runs.end(),
                            [](const PropertyRun& r) { return !r.reported; });
          const double share = std::max(0.0, worker_seconds / static_cast<double>(waiting));
          visit_deadline = std::min(after(now, share), deadline);
        }
        if (now >= visit_deadline) { // no chunk would start: spare the fork
          if (round == 2) campaign.finish(i);
          continue;
        }
        const std::optional<int> floor = round == 1 ? std::optional<int>(run.floor) : std::nullopt;
        visits[tasks] = Visit{i, now, visit_deadline, run.summary.seconds};
        pool.start(tasks++, campaign.plan(i, floor, visit_deadline, nullptr));
      }
      if (pool.running() == 0 && (next == runs.size() || campaign.stop_requested())) break;
      for (VisitEvent& event : pool.wait(poll_interval)) {
        const Visit visit = visits.at(event.task);
        if (event.chunk) {
          campaign.add_chunk(visit.property, std::move(*event.chunk), seconds_in(visit));
          continue;
        }
        visits.erase(event.task);
        if (event.error) std::rethrow_exception(event.error);
        PropertyRun& run = runs[visit.property];
        run.summary.seconds = visit.seconds_before + event.seconds;
        run.next_chunk = event.end.next_chunk;
        run.finished = event.end.finished;
        campaign.throw_on_rapidcheck_error(visit.property);
        if (round == 2 || run.finished) campaign.finish(visit.property);
      }
    }
  }
}

} // namespace adsem::props
