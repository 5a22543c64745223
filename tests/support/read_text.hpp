#pragma once
// A whole file as text ("" when it cannot be read), for tests that look at logs and reports.
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

namespace adsem::testing {

inline std::string read_text(const std::filesystem::path& file) {
  std::ifstream in(file);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

} // namespace adsem::testing
