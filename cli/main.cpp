// The adsem executable: the process guard (signals, memory ceiling) and the built-in registry
// around cli::run.
#include <iostream>

#include <unistd.h>

#include "cli/app.hpp"
#include "cli/builtin_registry.hpp"
#include "cli/process_guard.hpp"

int main(int argc, char** argv) {
  // First: it blocks SIGINT/SIGTERM before any other thread or child exists.
  adsem::cli::ProcessGuard guard;
  const std::vector<std::string> args(argv, argv + argc);
  const adsem::props::Registry registry = adsem::cli::builtin_registry();
  const adsem::cli::Io io{std::cout, std::cerr, isatty(STDERR_FILENO) == 1, &guard.stop_requested(),
                          &guard,    &std::cin};
  return adsem::cli::run(args, registry, io);
}
