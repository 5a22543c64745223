#include "properties/core/corpus.hpp"

#include <algorithm>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "properties/core/campaign.hpp"
#include "properties/core/fnv1a.hpp"
#include "properties/core/replay_token.hpp"
#include "properties/core/user_rules.hpp"
#include "reports/text_file.hpp"
#include "syntax/core/diagnostic.hpp"

namespace adsem::props {
namespace {

std::string property_suffix(const std::string& full_name) {
  const auto slash = full_name.find('/');
  return slash == std::string::npos ? full_name : full_name.substr(slash + 1);
}

reports::CorpusOutcome stale(const std::filesystem::path& file, std::string message,
                             const reports::CounterexampleRecord* record = nullptr) {
  reports::CorpusOutcome outcome;
  outcome.file = file.string();
  outcome.status = "stale";
  outcome.message = std::move(message);
  if (record) {
    outcome.property = record->property;
    outcome.mutant = record->mutant;
  }
  return outcome;
}

// Why this adsem cannot replay a record at all: its property or mutant is not in the registry.
std::optional<std::string> missing_name(const Registry& registry,
                                        const reports::CounterexampleRecord& record) {
  if (!registry.find_property(record.property))
    return fmt::format("property {} no longer exists", record.property);
  if (!record.mutant.empty() && !registry.find_mutant(record.mutant))
    return fmt::format("mutant {} no longer exists", record.mutant);
  return std::nullopt;
}

// The entry's input, re-checked by the calculus's own parser and type checker.
std::optional<std::string> input_problem(const Registry& registry,
                                         const reports::CounterexampleRecord& record) {
  if (record.source.empty()) return std::nullopt; // the property's input is not one term
  const CalculusEntry* calculus = registry.find(record.calculus);
  if (!calculus || !calculus->frontend) return std::nullopt;
  try {
    const std::string type = calculus->frontend->type_of(record.source);
    if (!record.type.empty() && type != record.type)
      return fmt::format("its input now has type {}, not {}", type, record.type);
  } catch (const AdsemError& e) {
    return fmt::format("its input no longer type-checks: {}", e.diagnostic().render());
  }
  return std::nullopt;
}

} // namespace

std::filesystem::path save_to_corpus(const std::filesystem::path& corpus,
                                     const reports::CounterexampleRecord& record) {
  const std::filesystem::path dir =
      corpus / (record.calculus.empty() ? "unknown" : record.calculus);
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec)
    throw AdsemError(ErrorKind::io,
                     fmt::format("cannot create corpus folder {}: {}", dir.string(), ec.message()));
  const std::filesystem::path file =
      dir /
      fmt::format("{}-{:016x}.json", property_suffix(record.property), fnv1a(record.replay_token));
  const nlohmann::json j = {{"adsem_corpus", corpus_format_version},
                            {"record", reports::to_json(record)}};
  reports::write_file_atomically(file, reports::dump_json(j, 2) + "\n");
  return file;
}

CorpusContents load_corpus(const std::filesystem::path& corpus) {
  CorpusContents contents;
  std::error_code ec;
  if (!std::filesystem::is_directory(corpus, ec)) return contents;
  std::vector<std::filesystem::path> files;
  for (auto it = std::filesystem::recursive_directory_iterator(corpus, ec);
       !ec && it != std::filesystem::recursive_directory_iterator(); it.increment(ec))
    if (it->is_regular_file() && it->path().extension() == ".json") files.push_back(it->path());
  if (ec)
    throw AdsemError(ErrorKind::io, fmt::format("cannot read corpus folder {}: {}", corpus.string(),
                                                ec.message()));
  std::ranges::sort(files);
  for (const auto& file : files) {
    try {
      const auto j = nlohmann::json::parse(reports::read_text_file(file));
      if (!j.is_object() || !j.contains("adsem_corpus") || !j.contains("record")) {
        contents.unreadable.push_back(stale(file, "not an adsem corpus entry"));
        continue;
      }
      const auto& version = j.at("adsem_corpus");
      if (!version.is_number_integer() || version.get<int>() != corpus_format_version) {
        contents.unreadable.push_back(
            stale(file, fmt::format("corpus format version {} (this adsem reads {})",
                                    version.dump(), corpus_format_version)));
        continue;
      }
      contents.entries.push_back({file, reports::record_from_json(j.at("record"))});
    } catch (const nlohmann::json::exception& e) {
      contents.unreadable.push_back(stale(file, fmt::format("not valid JSON: {}", e.what())));
    } catch (const AdsemError& e) {
      contents.unreadable.push_back(stale(file, e.diagnostic().message));
    }
  }
  return contents;
}

CorpusContents load_corpus(const std::filesystem::path& corpus, const Registry& registry) {
  CorpusContents contents = load_corpus(corpus);
  std::vector<CorpusEntry> known;
  for (CorpusEntry& entry : contents.entries) {
    if (const auto missing = missing_name(registry, entry.record))
      contents.unreadable.push_back(stale(entry.file, *missing, &entry.record));
    else
      known.push_back(std::move(entry));
  }
  contents.entries = std::move(known);
  return contents;
}

CorpusReplay replay_corpus_entry(const Registry& registry, const CorpusEntry& entry,
                                 const std::string& command_name,
                                 const std::shared_ptr<const UserRules>& user_rules) {
  const auto& record = entry.record;
  ReplayToken token;
  try {
    token = decode_replay_token(record.replay_token);
  } catch (const AdsemError& e) {
    return {stale(entry.file, "stale replay token: " + e.diagnostic().message, &record), {}};
  }
  if (token.property != record.property)
    return {stale(entry.file,
                  fmt::format("its replay token is for {}, the record for {}", token.property,
                              record.property),
                  &record),
            {}};
  if (!registry.find_property(token.property))
    return {stale(entry.file, fmt::format("property {} no longer exists", token.property), &record),
            {}};
  if (!token.mutant.empty() && !registry.find_mutant(token.mutant))
    return {stale(entry.file, fmt::format("mutant {} no longer exists", token.mutant), &record),
            {}};
  if (token.rules != rules_ref(user_rules.get()))
    return {
        stale(entry.file,
              fmt::format("its replay token was recorded with rule file {} and this "
                          "campaign runs with {}",
                          token.rules.empty() ? "none"
                                              : token.rules.file + " (" + token.rules.hash + ")",
                          user_rules ? user_rules->file + " (" + user_rules->hash + ")" : "none"),
              &record),
        {}};
  if (const auto problem = input_problem(registry, record))
    return {stale(entry.file, *problem, &record), {}};

  const ReplayOutcome replayed = replay(registry, token, command_name, user_rules);
  reports::CorpusOutcome outcome{entry.file.string(), record.property, record.mutant, "", ""};
  if (!replayed.reproduced) {
    outcome.status = "fixed";
    outcome.message = "passes now (" + record.term + ")";
    return {outcome, {}};
  }
  if (replayed.record->term != record.term)
    return {stale(entry.file,
                  fmt::format("its token now draws another input ({} instead of {}): generators "
                              "changed; delete the entry or re-find the bug",
                              replayed.record->term, record.term),
                  &record),
            {}};
  outcome.status = "reproduced";
  outcome.message = "still fails: " + replayed.record->message;
  return {outcome, replayed.record};
}

} // namespace adsem::props
