#pragma once
// Runs the adsem CLI in-process on a registry and captures its exit code, stdout and stderr.
#include <sstream>
#include <string>
#include <vector>

#include "cli/app.hpp"

namespace adsem::testing {

struct CliRun {
  int code = 0;
  std::string out;
  std::string err;
};

// args without the program name, e.g. {"cross", "--trials", "5"}; `in` is standard input.
inline CliRun run_cli(const props::Registry& registry, std::vector<std::string> args,
                      std::istream* in = nullptr) {
  args.insert(args.begin(), "adsem");
  std::ostringstream out, err;
  const int code = cli::run(args, registry, cli::Io{out, err, false, nullptr, nullptr, in});
  return {code, out.str(), err.str()};
}

} // namespace adsem::testing
