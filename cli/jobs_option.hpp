#pragma once
// `--jobs N`: how many worker processes a command runs at once (docs/campaigns.md, "Using every
// core").
#include <optional>
#include <string>

#include <CLI/CLI.hpp>

namespace adsem::cli {

// The cores this process may run on (its CPU affinity mask; at least 1).
int usable_cores();

// Adds `--jobs,-j` to `cmd`, its text stored in `text`; `default_text` says what no --jobs means.
CLI::Option* add_jobs_option(CLI::App& cmd, std::optional<std::string>& text,
                             const std::string& default_text);

// The number of workers: `text` as a whole number >= 1, or `fallback` without --jobs. Throws
// AdsemError(usage) quoting the value otherwise ("0", "-2", "four", "1.5").
int parse_jobs(const std::optional<std::string>& text, int fallback);

} // namespace adsem::cli
