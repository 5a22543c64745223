// The adsem executable: the process guard (signals, memory ceiling) and the built-in registry
// around cli::run.
#include <iostream>

#include <unistd.h>

#include "cli/app.hpp"
#include "cli/builtin_registry.hpp"
#include "cli/process_guard.hpp"

// jemalloc's options for this executable (read once at its start; without jemalloc, unused).
// The 160-byte size class, where simple-diff's term node falls with its shared count, in
// one-page slabs: in its default five-page slabs, freed slabs were not reused before jemalloc
// purged them, so each reuse was a page fault (literal-equals-linear, 1,000 trials: about 0.9
// million page faults against 38 thousand, and a third of its CPU time in the kernel).
extern "C" const char* const malloc_conf = "slab_sizes:129-160:1";

int main(int argc, char** argv) {
  // First: it blocks SIGINT/SIGTERM before any other thread or child exists.
  adsem::cli::ProcessGuard guard;
  const std::vector<std::string> args(argv, argv + argc);
  const adsem::props::Registry registry = adsem::cli::builtin_registry();
  const adsem::cli::Io io{std::cout, std::cerr, isatty(STDERR_FILENO) == 1, &guard.stop_requested(),
                          &guard,    &std::cin};
  return adsem::cli::run(args, registry, io);
}
