#pragma once
// Whole-file reads and crash-safe writes for report files. Errors are AdsemError(ErrorKind::io)
// naming the path.
#include <filesystem>
#include <string>
#include <string_view>

namespace adsem::reports {

// Writes `contents` to "<path>.tmp" and renames it over `path`, so a reader (or a CI step after
// an interrupted campaign) sees either the old file or the complete new one, never half of it.
void write_file_atomically(const std::filesystem::path& path, std::string_view contents);

std::string read_text_file(const std::filesystem::path& path);

} // namespace adsem::reports
