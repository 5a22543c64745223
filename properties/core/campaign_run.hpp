#pragma once
// The state of one running campaign, shared by the ways its chunks can run (one after the other
// in this process or one worker, or spread over --jobs worker processes): the properties'
// statistics so far, and the only writer of results.jsonl, the failure corpus and the result.
#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "properties/core/chunk_plan.hpp"
#include "reports/json_lines.hpp"

namespace adsem::props {

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
  bool reported = false;                       // its verdict is given
  std::optional<std::string> rapidcheck_error; // a chunk ended in RapidCheck's Error
};

class CampaignRun {
public:
  CampaignRun(const Registry& registry, const CampaignOptions& options);

  const CampaignOptions& options() const { return options_; }
  std::vector<PropertyRun>& runs() { return runs_; }
  // The whole-campaign time budget (none: --trials alone) and its deadline.
  std::optional<double> budget() const { return result_.time_budget_seconds; }
  Clock::time_point deadline() const { return deadline_; }
  bool stop_requested() const;

  // Marks property i as begun (progress: property_started), once.
  void begin(std::size_t i);
  // A property that still fails on a failure-corpus entry is failed at once: true when so (the
  // property is then finished and its record written).
  bool fail_on_corpus(std::size_t i);
  bool fails_on_corpus(std::size_t i) const { return corpus_failures_.contains(runs_[i].def.name); }
  // Adds one finished chunk to property i: its statistics, counterexample (streamed, saved to
  // the corpus), warnings; `seconds_in_property` is the property's running time so far.
  void add_chunk(std::size_t i, ChunkRun&& chunk, double seconds_in_property);
  // Throws AdsemError(eval) when a chunk of property i ended in a RapidCheck error.
  void throw_on_rapidcheck_error(std::size_t i) const;
  // The chunks of property i that the visit from run.next_chunk runs.
  PropertyPlan plan(std::size_t i, std::optional<int> floor, Clock::time_point visit_deadline,
                    const std::atomic<bool>* stop) const;
  // Gives property i its verdict and reports it.
  void finish(std::size_t i);
  // Every property verdict given (the unfinished ones interrupted or not-run), the calculus
  // health and rule coverage: the campaign's result.
  reports::CampaignResult take_result();

private:
  void notify(ProgressEvent::Kind kind, std::size_t i);

  const Registry& registry_;
  const CampaignOptions& options_;
  Clock::time_point started_;
  Clock::time_point deadline_;
  reports::CampaignResult result_;
  std::optional<reports::ResultsStream> stream_;
  std::map<std::string, reports::CounterexampleRecord> corpus_failures_;
  std::vector<PropertyRun> runs_;
};

} // namespace adsem::props
