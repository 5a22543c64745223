// The adsem executable: signal handling and the built-in registry around cli::run.
#include <atomic>
#include <csignal>
#include <iostream>
#include <unistd.h>

#include "cli/app.hpp"
#include "cli/builtin_registry.hpp"

namespace {
// The one piece of process-global state: a signal handler can only reach a global. The campaign
// engine polls it between chunks, so SIGINT/SIGTERM end the campaign with its reports written.
std::atomic<bool> stop_requested{false};

// The first SIGINT/SIGTERM asks for a clean stop; a second one ends the process at once (a long
// single step, e.g. one size of `adsem complexity`, does not poll the flag).
extern "C" void request_stop(int signal) {
  if (stop_requested.exchange(true)) {
    std::signal(signal, SIG_DFL);
    std::raise(signal);
  }
}
} // namespace

int main(int argc, char** argv) {
  std::signal(SIGINT, request_stop);
  std::signal(SIGTERM, request_stop);
  const std::vector<std::string> args(argv, argv + argc);
  const adsem::props::Registry registry = adsem::cli::builtin_registry();
  const adsem::cli::Io io{std::cout, std::cerr, isatty(STDERR_FILENO) == 1, &stop_requested};
  return adsem::cli::run(args, registry, io);
}
