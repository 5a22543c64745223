// libFuzzer: the readers of a campaign's own files: a failure-corpus entry
// (properties/core/corpus.hpp: load_corpus reports a bad entry as stale, never throws for it)
// and results.jsonl (reports/json_lines.hpp: read_results_jsonl + campaign_from_results).
#include "fuzz/fuzz_support.hpp"
#include "properties/core/corpus.hpp"
#include "reports/json_lines.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  return adsem::fuzz::run_text(data, size, [](const std::string& text) {
    const auto file = adsem::fuzz::scratch_file(text, "entry.json");
    (void)adsem::props::load_corpus(file.parent_path());
    (void)adsem::reports::campaign_from_results(adsem::reports::read_results_jsonl(file));
  });
}
