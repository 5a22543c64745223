// libFuzzer: `adsem replay TOKEN`'s decoder (properties/core/replay_token.hpp). A token it
// accepts must encode and decode again to the same token.
#include "fuzz/fuzz_support.hpp"
#include "properties/core/replay_token.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace adsem::props;
  return adsem::fuzz::run_text(data, size, [](const std::string& text) {
    const std::string once = encode_replay_token(decode_replay_token(text));
    const std::string twice = encode_replay_token(decode_replay_token(once));
    adsem::fuzz::require(once == twice, "encode(decode(t)) is not a fixed point", once, twice);
  });
}
