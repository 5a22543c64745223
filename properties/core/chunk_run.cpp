#include "properties/core/chunk_run.hpp"

namespace adsem::props {

const char* end_name(ChunkRun::End end) {
  switch (end) {
  case ChunkRun::End::failure:
    return "failure";
  case ChunkRun::End::gave_up:
    return "gave-up";
  case ChunkRun::End::error:
    return "error";
  case ChunkRun::End::success:
    break;
  }
  return "success";
}

ChunkRun::End end_from_name(const std::string& name) {
  if (name == "failure") return ChunkRun::End::failure;
  if (name == "gave-up") return ChunkRun::End::gave_up;
  if (name == "error") return ChunkRun::End::error;
  return ChunkRun::End::success;
}

} // namespace adsem::props
