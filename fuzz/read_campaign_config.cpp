// libFuzzer: the adsem.toml reader (cli/campaign_config.hpp, CLI11's TOML parser underneath),
// against an empty registry (so property sections are checked and rejected too).
#include "cli/campaign_config.hpp"
#include "fuzz/fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const adsem::props::Registry registry;
  return adsem::fuzz::run_text(data, size, [](const std::string& text) {
    (void)adsem::cli::read_campaign_config(adsem::fuzz::scratch_file(text, "adsem.toml"), registry);
  });
}
