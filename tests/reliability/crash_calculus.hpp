#pragma once
// A toy calculus whose properties crash or hang (crash isolation): its own registry,
// so the shared toy calculus of tests/campaign keeps its counts. Inputs n in 0..9; n > 5 is bad.
#include <csignal>
#include <cstdlib>

#include <rapidcheck.h>

#include "../campaign/toy_calculus.hpp"

namespace adsem::testing {

inline props::PropertyDef crash_property(std::string suffix, std::string summary, bool report_input,
                                         void (*bad)()) {
  return props::PropertyDef{"crashy",
                            "crashy/" + suffix,
                            "toy",
                            std::move(summary),
                            "",
                            [report_input, bad](const props::PropertyContext& context) {
                              const int n = *rc::gen::inRange(0, 10);
                              const std::string term = "n = " + std::to_string(n);
                              if (report_input) context.report_input(term, std::to_string(n));
                              if (n > 5) bad();
                              return props::TrialResult::pass().on(term, "int", n);
                            },
                            100};
}

inline void segfault() {
  std::raise(SIGSEGV);
}
inline void do_abort() {
  std::abort();
}
inline void hang() {
  volatile bool forever = true;
  while (forever) {
  }
}
inline void nothing() {}

inline props::Registry crash_registry() {
  props::CalculusEntry crashy;
  crashy.id = "crashy";
  crashy.paper = "none (crash isolation self-test)";
  crashy.properties = {
      crash_property("segfault", "raises SIGSEGV when n > 5", true, segfault),
      crash_property("abort", "aborts when n > 5", true, do_abort),
      crash_property("hang", "loops forever when n > 5", true, hang),
      crash_property("silent-segfault", "raises SIGSEGV without reporting its input", false,
                     segfault),
      crash_property("fine", "always holds", true, nothing),
  };
  props::Registry registry = toy_registry();
  registry.add(std::move(crashy));
  return registry;
}

} // namespace adsem::testing
