#include "cli/campaign_config.hpp"

#include <cmath>
#include <sstream>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "cli/seed_option.hpp"
#include "properties/core/option_keys.hpp"
#include "reports/text_file.hpp"
#include "syntax/core/diagnostic.hpp"

namespace adsem::cli {
namespace {

std::string unquote(std::string text) {
  if (text.size() >= 2 && (text.front() == '"' || text.front() == '\'') &&
      text.back() == text.front())
    return text.substr(1, text.size() - 2);
  return text;
}

std::string trim(const std::string& text) {
  const auto first = text.find_first_not_of(" \t\r");
  if (first == std::string::npos) return "";
  return text.substr(first, text.find_last_not_of(" \t\r") - first + 1);
}

// CLI11's reader does not keep line numbers; find the line of `key` inside `[section]` so that
// errors point at it (1-based; 0 when not found).
int line_of(const std::string& text, const std::string& section, const std::string& key) {
  std::istringstream in(text);
  std::string line, current = "default";
  for (int number = 1; std::getline(in, line); ++number) {
    const std::string t = trim(line);
    if (t.size() >= 2 && t.front() == '[' && t.back() == ']') {
      current = unquote(trim(t.substr(1, t.size() - 2)));
      if (key.empty() && current == section) return number;
      continue;
    }
    if (current != section || key.empty()) continue;
    const auto eq = t.find('=');
    if (eq != std::string::npos && unquote(trim(t.substr(0, eq))) == key) return number;
  }
  return 0;
}

struct Reader {
  const std::filesystem::path& file;
  const std::string& text;

  [[noreturn]] void fail(const std::string& section, const std::string& key,
                         const std::string& message) const {
    const int line = line_of(text, section, key);
    const std::string where =
        key.empty() ? fmt::format("[{}]", section) : fmt::format("[{}] {}", section, key);
    throw AdsemError(ErrorKind::parse,
                     fmt::format("{}{}: {}: {}", file.string(),
                                 line ? fmt::format(":{}", line) : "", where, message));
  }
  std::string single(const std::string& section, const CLI::ConfigItem& item) const {
    if (item.inputs.size() != 1) fail(section, item.name, "expected one value, not a list");
    return item.inputs.front();
  }
  template <class T> T number(const std::string& section, const CLI::ConfigItem& item) const {
    const std::string value = single(section, item);
    T parsed{};
    if (!CLI::detail::lexical_conversion<T, T>({value}, parsed))
      fail(section, item.name, fmt::format("'{}' is not a number", value));
    return parsed;
  }
  std::uint64_t seed(const std::string& section, const CLI::ConfigItem& item) const {
    const std::string value = single(section, item);
    const auto parsed = parse_seed(value);
    if (!parsed)
      fail(section, item.name,
           fmt::format("expected a whole number in [0, 2^64) as seed, got '{}'", value));
    return *parsed;
  }
  int positive(const std::string& section, const CLI::ConfigItem& item) const {
    const long long value = number<long long>(section, item);
    if (value < 1 || value > 1'000'000'000)
      fail(section, item.name, fmt::format("expected a positive whole number, got {}", value));
    return static_cast<int>(value);
  }
  double fraction(const std::string& section, const CLI::ConfigItem& item) const {
    const double value = number<double>(section, item);
    if (!(value >= 0.0 && value <= 1.0))
      fail(section, item.name, fmt::format("expected a fraction in [0, 1], got {}", value));
    return value;
  }
  bool boolean(const std::string& section, const CLI::ConfigItem& item) const {
    const std::string value = single(section, item);
    if (value == "true") return true;
    if (value == "false") return false;
    fail(section, item.name, fmt::format("expected true or false, got '{}'", value));
  }
  std::vector<std::string> settings(const std::string& section, const CLI::ConfigItem& item) const {
    for (const std::string& s : item.inputs) {
      const auto eq = s.find('=');
      if (eq == std::string::npos || eq == 0)
        fail(section, item.name, fmt::format("expected KEY=VALUE strings, got '{}'", s));
      // An unknown key would be ignored by every property: a typo must not pass silently.
      if (const std::string unknown = props::unknown_option_key_message(s.substr(0, eq));
          !unknown.empty())
        fail(section, item.name, fmt::format("'{}': {}", s, unknown));
    }
    return item.inputs;
  }
};

props::Overrides to_overrides(const std::vector<std::string>& settings) {
  props::Overrides overrides;
  for (const std::string& s : settings) {
    const auto eq = s.find('=');
    overrides[s.substr(0, eq)] = s.substr(eq + 1);
  }
  return overrides;
}

} // namespace

CampaignConfig read_campaign_config(const std::filesystem::path& file,
                                    const props::Registry& registry) {
  const std::string text = reports::read_text_file(file);
  std::istringstream in(text);
  const std::vector<CLI::ConfigItem> items = CLI::ConfigTOML().from_config(in);
  const Reader reader{file, text};
  CampaignConfig config;
  for (const CLI::ConfigItem& item : items) {
    if (item.name == "--" || item.name == "++") continue; // CLI11's section markers
    std::string section;
    for (const std::string& parent : item.parents)
      section += (section.empty() ? "" : ".") + parent;
    section = unquote(section);
    const std::string& key = item.name;
    if (section.empty() || section == "default") {
      reader.fail("default", key, "put settings under [campaign], [health] or [\"<calc>/<prop>\"]");
    } else if (section == "campaign") {
      if (key == "time") {
        const double t = reader.number<double>(section, item);
        if (!std::isfinite(t) || !(t > 0)) reader.fail(section, key, "expected seconds > 0");
        config.time_seconds = t;
      } else if (key == "trials") {
        config.trials = reader.positive(section, item);
      } else if (key == "seed") {
        config.seed = reader.seed(section, item);
      } else if (key == "max_size") {
        config.max_size = reader.positive(section, item);
      } else if (key == "report") {
        config.report_dir = reader.single(section, item);
      } else if (key == "corpus") {
        config.corpus_dir = reader.single(section, item);
      } else if (key == "set") {
        config.settings = reader.settings(section, item);
      } else if (key == "strict_health") {
        config.strict_health = reader.boolean(section, item);
      } else {
        reader.fail(section, key,
                    "unknown key (known: time, trials, seed, max_size, report, corpus, set, "
                    "strict_health)");
      }
    } else if (section == "health") {
      if (key == "max_discard_fraction")
        config.health.max_discard_fraction = reader.fraction(section, item);
      else if (key == "min_tag_fraction")
        config.health.min_tag_fraction = reader.fraction(section, item);
      else if (key == "max_seconds_per_trial")
        config.health.max_seconds_per_trial = reader.number<double>(section, item);
      else if (key == "min_trials")
        config.health.min_trials = reader.positive(section, item);
      else
        reader.fail(section, key,
                    "unknown key (known: max_discard_fraction, min_tag_fraction, "
                    "max_seconds_per_trial, min_trials)");
    } else {
      if (!registry.find_property(section))
        reader.fail(section, "",
                    "no such property (sections are [campaign], [health] or a full property "
                    "name such as [\"simple-diff/adequacy\"]; see `adsem calculi`)");
      props::PropertyConfig& property = config.properties[section];
      if (key == "trials")
        property.trials = reader.positive(section, item);
      else if (key == "max_size")
        property.max_size = reader.positive(section, item);
      else if (key == "set")
        property.overrides = to_overrides(reader.settings(section, item));
      else
        reader.fail(section, key, "unknown key (known: trials, max_size, set)");
    }
  }
  return config;
}

} // namespace adsem::cli
