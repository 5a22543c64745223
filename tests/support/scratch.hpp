#pragma once
// Scratch files and folders for tests, below the system's temporary folder, removed when the test
// is done.
#include <filesystem>
#include <string>
#include <system_error>
#include <utility>

#include <unistd.h>

namespace adsem::testing {

// Owns a path below the system's temporary folder, unique to this process (two test programs, or
// two checkouts' test runs, never share one), and removes whatever is there, file or folder, when
// it goes (also when the test fails or throws). It reads as the path it owns; a temporary cannot
// be read as one, since it would be removed before the path is used.
class Scratch {
public:
  Scratch(const Scratch&) = delete;
  Scratch& operator=(const Scratch&) = delete;
  Scratch(Scratch&& other) noexcept : path_(std::exchange(other.path_, {})) {}
  Scratch& operator=(Scratch&&) = delete;
  ~Scratch() {
    std::error_code ignored;
    if (!path_.empty()) std::filesystem::remove_all(path_, ignored);
  }

  const std::filesystem::path& path() const& { return path_; }
  std::string string() const& { return path_.string(); }
  operator const std::filesystem::path&() const& { return path_; }
  std::filesystem::path operator/(const std::filesystem::path& child) const& {
    return path_ / child;
  }

  const std::filesystem::path& path() && = delete;
  std::string string() && = delete;
  operator const std::filesystem::path&() && = delete;
  std::filesystem::path operator/(const std::filesystem::path& child) && = delete;

  // Nothing is at the path yet (whatever an earlier run left there is removed).
  static Scratch absent(const std::string& name) {
    Scratch s(std::filesystem::temp_directory_path() /
              ("adsem-test-" + name + "-" + std::to_string(::getpid())));
    std::filesystem::remove_all(s.path_);
    return s;
  }

private:
  explicit Scratch(std::filesystem::path path) : path_(std::move(path)) {}
  std::filesystem::path path_;
};

// A path where nothing is yet, for a file or a folder the code under test makes.
inline Scratch scratch_path(const std::string& name) {
  return Scratch::absent(name);
}

// An empty folder.
inline Scratch fresh_dir(const std::string& name) {
  auto dir = Scratch::absent(name);
  std::filesystem::create_directories(dir.path());
  return dir;
}

} // namespace adsem::testing
