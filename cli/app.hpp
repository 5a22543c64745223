#pragma once
// The adsem command line (design.md "The CLI contract"). `run` is the whole program minus
// process set-up, so tests drive it in-process with their own registry.
#include <atomic>
#include <iosfwd>
#include <string>
#include <vector>

#include "properties/core/calculus.hpp"

namespace adsem::cli {

class ProcessGuard;

struct Io {
  std::ostream& out;
  std::ostream& err;
  bool err_is_terminal = false; // live progress line instead of plain log lines
  const std::atomic<bool>* stop_requested = nullptr; // SIGINT / SIGTERM
  // The executable's signal and memory watcher (main.cpp); in-process callers (tests) have none.
  ProcessGuard* guard = nullptr;
  // Standard input, read where a term file is `-`; in-process callers without one get a usage
  // error there.
  std::istream* in = nullptr;
};

// args[0] is the program name. Returns the exit code: 0 ok / all properties held; 1 a
// counterexample, a type, evaluation, domain or fuel error; 2 usage, parse or I/O error;
// 3 an internal error (a bug of adsem); 4 a resource error (the memory ceiling); 130 a command
// interrupted by a signal (a campaign's reports are written and marked incomplete).
int run(const std::vector<std::string>& args, const props::Registry& registry, const Io& io);

} // namespace adsem::cli
