#include "reports/text_file.hpp"

#include <fstream>
#include <iterator>
#include <system_error>

#include <fmt/format.h>

#include "syntax/core/diagnostic.hpp"

namespace adsem::reports {

void write_file_atomically(const std::filesystem::path& path, std::string_view contents) {
  std::filesystem::path temporary = path;
  temporary += ".tmp";
  const auto fail = [&](std::string_view what) {
    std::error_code ignored;
    std::filesystem::remove(temporary, ignored); // leave no stray .tmp behind
    throw AdsemError(ErrorKind::io, fmt::format("cannot write {}: {}", path.string(), what));
  };
  {
    std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
    if (!out) fail(fmt::format("cannot open {}", temporary.string()));
    out.write(contents.data(), static_cast<std::streamsize>(contents.size()));
    out.close();
    if (!out) fail(fmt::format("write to {} failed", temporary.string()));
  }
  std::error_code error;
  std::filesystem::rename(temporary, path, error);
  if (error) fail(error.message());
}

std::string read_text_file(const std::filesystem::path& path) {
  std::error_code ignored;
  if (std::filesystem::is_directory(path, ignored))
    throw AdsemError(ErrorKind::io,
                     fmt::format("cannot read {}: it is a directory", path.string()));
  std::ifstream in(path, std::ios::binary);
  if (!in) throw AdsemError(ErrorKind::io, fmt::format("cannot read {}", path.string()));
  std::string contents{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  if (in.bad()) throw AdsemError(ErrorKind::io, fmt::format("error reading {}", path.string()));
  return contents;
}

} // namespace adsem::reports
