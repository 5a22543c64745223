#include "cli/jobs_option.hpp"

#include <charconv>

#include <fmt/format.h>
#include <sched.h>

#include "syntax/core/diagnostic.hpp"

namespace adsem::cli {

int usable_cores() {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (::sched_getaffinity(0, sizeof set, &set) != 0) return 1;
  return std::max(1, CPU_COUNT(&set));
}

CLI::Option* add_jobs_option(CLI::App& cmd, std::optional<std::string>& text,
                             const std::string& default_text) {
  return cmd.add_option(
      "--jobs,-j", text,
      fmt::format("Worker processes at once, a whole number >= 1 (default: {})", default_text));
}

int parse_jobs(const std::optional<std::string>& text, int fallback) {
  if (!text) return fallback;
  int jobs = 0;
  const char* const end = text->data() + text->size();
  const auto [stop, ec] = std::from_chars(text->data(), end, jobs);
  if (text->empty() || ec != std::errc{} || stop != end || jobs < 1)
    throw AdsemError(ErrorKind::usage,
                     fmt::format("--jobs expects a whole number of worker processes >= 1 (got "
                                 "'{}')",
                                 *text));
  return jobs;
}

} // namespace adsem::cli
