// adsem-kit: the adsem command line with a sixth calculus built outside the tree. The registry is
// a value: the built-in calculi, then dual-numbers, handed to cli::run (docs/kit.md).
#include <iostream>

#include <unistd.h>

#include "cli/app.hpp"
#include "cli/builtin_registry.hpp"
#include "cli/process_guard.hpp"
#include "properties/dual_numbers/register.hpp"

int main(int argc, char** argv) {
  adsem::cli::ProcessGuard guard; // first: it blocks SIGINT/SIGTERM before any other thread
  const std::vector<std::string> args(argv, argv + argc);
  adsem::props::Registry registry = adsem::cli::builtin_registry();
  adsem::dual_numbers::register_dual_numbers(registry);
  const adsem::cli::Io io{std::cout, std::cerr, isatty(STDERR_FILENO) == 1, &guard.stop_requested(),
                          &guard,    &std::cin};
  return adsem::cli::run(args, registry, io);
}
