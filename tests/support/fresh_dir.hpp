#pragma once
// An empty scratch folder below the system's temporary folder, unique to this process.
#include <filesystem>
#include <string>

#include <unistd.h>

namespace adsem::testing {

// A path below the system's temporary folder, unique to this process, where nothing is (two test
// programs, or two checkouts' test runs, never share one).
inline std::filesystem::path scratch_path(const std::string& name) {
  const auto path = std::filesystem::temp_directory_path() /
                    ("adsem-test-" + name + "-" + std::to_string(::getpid()));
  std::filesystem::remove_all(path);
  return path;
}

inline std::filesystem::path fresh_dir(const std::string& name) {
  const auto dir = scratch_path(name);
  std::filesystem::create_directories(dir);
  return dir;
}

} // namespace adsem::testing
