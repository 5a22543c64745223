#pragma once
// An empty scratch folder below the system's temporary folder, unique to this process.
#include <filesystem>
#include <string>

#include <unistd.h>

namespace adsem::testing {

inline std::filesystem::path fresh_dir(const std::string& name) {
  const auto dir = std::filesystem::temp_directory_path() /
                   ("adsem-test-" + name + "-" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir;
}

} // namespace adsem::testing
