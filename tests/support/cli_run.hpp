#pragma once
// Runs the adsem command line in-process on a registry, capturing stdout, stderr and the exit code.
#include <sstream>
#include <string>
#include <vector>

#include "cli/app.hpp"

namespace adsem::testing {

struct CliRun {
  int code;
  std::string out;
  std::string err;
};

// args without the program name ("mutants", "toy", ...).
inline CliRun run_cli(const props::Registry& registry, std::vector<std::string> args) {
  args.insert(args.begin(), "adsem");
  std::ostringstream out, err;
  const int code = cli::run(args, registry, cli::Io{out, err});
  return {code, out.str(), err.str()};
}

} // namespace adsem::testing
