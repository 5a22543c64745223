#include "properties/core/memory.hpp"

#include <cctype>
#include <cstdio>
#include <limits>

#include <fmt/format.h>
#include <malloc.h>
#include <unistd.h>

#include "syntax/core/diagnostic.hpp"

// jemalloc's control interface, present only when the executable links jemalloc (a weak
// reference: null otherwise, so no jemalloc header or library is needed to build).
extern "C" int mallctl(const char* name, void* oldp, std::size_t* oldlenp, void* newp,
                       std::size_t newlen) __attribute__((weak));

namespace adsem::props {

void release_free_memory() {
  ::malloc_trim(0);
  // "arena.4096.purge": MALLCTL_ARENAS_ALL (4096) purges the unused dirty pages of every arena
  if (mallctl != nullptr) mallctl("arena.4096.purge", nullptr, nullptr, nullptr, 0);
}

std::size_t resident_bytes(pid_t pid) {
  const std::string path = pid == 0 ? "/proc/self/statm" : fmt::format("/proc/{}/statm", pid);
  // stdio rather than a stream: this runs in a watcher thread every few milliseconds.
  std::FILE* file = std::fopen(path.c_str(), "r");
  if (!file) return 0;
  unsigned long long size_pages = 0, resident_pages = 0;
  const int read = std::fscanf(file, "%llu %llu", &size_pages, &resident_pages);
  std::fclose(file);
  if (read != 2) return 0;
  // Not a function-local static: the signal watcher thread calls this while campaign threads
  // fork, and a fork during a static's first initialisation would leave it locked in the child.
  const long page = ::sysconf(_SC_PAGESIZE);
  return static_cast<std::size_t>(resident_pages) *
         static_cast<std::size_t>(page > 0 ? page : 4096);
}

bool reset_peak_resident() {
  std::FILE* file = std::fopen("/proc/self/clear_refs", "w");
  if (!file) return false;
  const bool written = std::fputs("5", file) >= 0;
  return std::fclose(file) == 0 && written;
}

std::size_t peak_resident_bytes() {
  std::FILE* file = std::fopen("/proc/self/status", "r");
  if (!file) return 0;
  char line[256];
  unsigned long long kib = 0;
  while (std::fgets(line, sizeof line, file))
    if (std::sscanf(line, "VmHWM: %llu kB", &kib) == 1) break;
  std::fclose(file);
  return static_cast<std::size_t>(kib) * 1024;
}

std::size_t parse_memory_size(const std::string& text, const std::string& option) {
  const auto bad = [&] {
    return AdsemError(ErrorKind::usage,
                      fmt::format("{} expects a size such as 4G, 512M or 100K, or 0 for no "
                                  "ceiling (got '{}')",
                                  option, text));
  };
  std::size_t digits = 0;
  while (digits < text.size() && std::isdigit(static_cast<unsigned char>(text[digits])))
    ++digits;
  if (digits == 0 || digits > 15) throw bad(); // 15 digits: no overflow before the unit
  std::string unit = text.substr(digits);
  if (unit.size() == 2 && std::tolower(static_cast<unsigned char>(unit[1])) == 'b') unit.pop_back();
  int shift = 0;
  if (unit.size() > 1) throw bad();
  if (!unit.empty()) {
    switch (std::tolower(static_cast<unsigned char>(unit[0]))) {
    case 'k':
      shift = 10;
      break;
    case 'm':
      shift = 20;
      break;
    case 'g':
      shift = 30;
      break;
    case 't':
      shift = 40;
      break;
    default:
      throw bad();
    }
  }
  const unsigned long long number = std::stoull(text.substr(0, digits));
  if (number > (std::numeric_limits<std::size_t>::max() >> shift)) throw bad();
  return static_cast<std::size_t>(number) << shift;
}

std::string format_bytes(std::size_t bytes) {
  constexpr std::size_t kib = std::size_t{1} << 10, mib = kib << 10, gib = mib << 10;
  if (bytes >= gib && bytes % gib == 0) return fmt::format("{} GiB", bytes / gib);
  if (bytes >= mib && bytes % mib == 0) return fmt::format("{} MiB", bytes / mib);
  if (bytes >= mib) return fmt::format("{:.1f} MiB", static_cast<double>(bytes) / mib);
  return fmt::format("{:.1f} KiB", static_cast<double>(bytes) / kib);
}

} // namespace adsem::props
