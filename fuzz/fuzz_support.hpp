#pragma once
// Shared by the libFuzzer targets (docs/reliability.md, "Fuzzing"). The contract every target
// checks: bad input is answered with AdsemError (any kind); anything else that escapes (another
// exception, a sanitizer report, a crash, a hang past -timeout) is a finding.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include <unistd.h>

#include "fuzz/stack_worker.hpp"
#include "syntax/core/diagnostic.hpp"

namespace adsem::fuzz {

// Runs `body` on the input as text, on the worker thread (stack_worker.hpp); an AdsemError is a
// correct answer to bad input.
template <class Body>
int run_text(const std::uint8_t* data, std::size_t size, Body&& body, StackWrap wrap = nullptr) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    run_on_worker([&] { body(text); }, wrap);
  } catch (const AdsemError&) {
  }
  return 0;
}

// A violated invariant (e.g. the printer's output does not re-parse to the same term): print
// both sides and abort, so libFuzzer saves the input.
inline void require(bool ok, const char* what, const std::string& a, const std::string& b) {
  if (ok) return;
  std::fprintf(stderr, "fuzz invariant violated: %s\n--- first:\n%s\n--- second:\n%s\n", what,
               a.c_str(), b.c_str());
  std::abort();
}

// The printer round trip: p1 = print(parse(text)) must parse again, and print to p1 (the printed
// form is a fixed point; the parser may desugar, so text itself need not come back).
template <class Parse, class Print>
void check_round_trip(const std::string& text, Parse&& parse, Print&& print) {
  const std::string p1 = print(parse(text));
  std::string p2;
  try {
    p2 = print(parse(p1));
  } catch (const AdsemError& e) {
    require(false, "the printed term does not parse", p1, e.diagnostic().render());
  }
  require(p1 == p2, "print(parse(print(parse(s)))) != print(parse(s))", p1, p2);
}

// Fuel for the evaluating targets: enough for the examples, small enough that one input takes
// milliseconds.
inline constexpr long fuel = 20'000;

// The file readers take paths: the input is written to a scratch file of this process (removed by
// the next call; the folder lives under the system's temp dir).
inline std::filesystem::path scratch_file(const std::string& text, const std::string& name) {
  static const std::filesystem::path dir = [] {
    auto d = std::filesystem::temp_directory_path() / ("adsem-fuzz-" + std::to_string(::getpid()));
    std::filesystem::create_directories(d);
    return d;
  }();
  const auto file = dir / name;
  std::ofstream(file, std::ios::binary | std::ios::trunc) << text;
  return file;
}

} // namespace adsem::fuzz
