#include "properties/core/shard.hpp"

#include <fmt/format.h>

#include "syntax/core/diagnostic.hpp"

namespace adsem::props {

Shard parse_shard(const std::string& text) {
  const auto slash = text.find('/');
  try {
    if (slash != std::string::npos) {
      std::size_t used_i = 0, used_n = 0;
      const int index = std::stoi(text.substr(0, slash), &used_i);
      const int count = std::stoi(text.substr(slash + 1), &used_n);
      if (used_i == slash && used_n == text.size() - slash - 1 && count >= 1 && index >= 0 &&
          index < count)
        return Shard{index, count};
    }
  } catch (const std::exception&) {
  }
  throw AdsemError(ErrorKind::usage,
                   fmt::format("--shard expects I/N with 0 <= I < N (got '{}')", text));
}

int shard_chunk_from(const Shard& shard, int chunk) {
  while (!in_shard(shard, chunk))
    ++chunk;
  return chunk;
}

} // namespace adsem::props
