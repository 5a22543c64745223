// The work a reduction step of linear-negation does on the complexity families (seed 002 Cor. 16:
// W normalised under a strategy of spec §4.7): per family and n, the steps, the copy volume of
// rule (9), the CPU seconds of one run and a hash of the whole trace (with --trace), so that a
// change of the reducer's representation can be checked to leave every term of every step as it
// was, and timed (docs/performance.md, linear-negation).
//
//   bench_linear_negation_step_work FAMILY N [bp|lo|random] [--trace]
//   FAMILY: sharing-chain | nested-closures | wide-sum | nested-primitives | rnn | let-series |
//           long-range-let
#include <charconv>
#include <cstdint>
#include <cstdio>
#include <ctime>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "semantics/linear_negation/families.hpp"
#include "semantics/linear_negation/program.hpp"
#include "semantics/linear_negation/transform.hpp"
#include "syntax/linear_negation/printer.hpp"

namespace ln = adsem::linear_negation;

namespace {

constexpr const char* usage = "usage: %s FAMILY N [bp|lo|random] [--trace]\n"
                              "  FAMILY: sharing-chain | nested-closures | wide-sum | "
                              "nested-primitives | rnn | let-series |\n"
                              "          long-range-let; N: a whole number >= 1\n";

std::optional<std::string> source(std::string_view family, int n) {
  if (family == "sharing-chain") return ln::family::square_chain(n);
  if (family == "nested-closures") return ln::family::square_chain_higher_order(n);
  if (family == "wide-sum") return ln::family::sum_chain(n);
  if (family == "nested-primitives") return ln::family::nested_chain(n);
  if (family == "rnn") return ln::family::rnn(ln::family::rnn_inputs(n));
  if (family == "let-series") return ln::family::let_series(n);
  if (family == "long-range-let") return ln::family::long_range_let(n);
  return std::nullopt;
}

double cpu_seconds() {
  return static_cast<double>(std::clock()) / CLOCKS_PER_SEC;
}

} // namespace

int main(int argc, char** argv) {
  // every argument is checked: a misspelt family or strategy must not measure another one
  const std::string_view n_text = argc > 2 ? argv[2] : "";
  int n = 0;
  const auto [end, error] = std::from_chars(n_text.data(), n_text.data() + n_text.size(), n);
  const std::string family = argc > 1 ? argv[1] : "";
  const std::string strategy = argc > 3 ? argv[3] : "bp";
  const bool trace = argc > 4 && std::string_view(argv[4]) == "--trace";
  const std::optional<std::string> text = source(family, n);
  if (argc < 3 || argc > 5 || error != std::errc{} || end != n_text.data() + n_text.size() ||
      n < 1 || !text || (strategy != "bp" && strategy != "lo" && strategy != "random") ||
      (argc == 5 && !trace)) {
    std::fprintf(stderr, usage, argv[0]);
    return 2;
  }
  const ln::RealFunction f = ln::real_function(ln::parse_elaborated(*text, ln::Mode::source));
  const ln::Wrapper w = ln::gradient_wrapper(
      f.body, f.inputs, std::vector<double>(f.inputs.size(), family == "rnn" ? 0.3 : 1.0));
  ln::RunOptions o;
  o.fuel = 50'000'000;
  o.trace = trace;
  o.strategy = strategy == "lo"       ? ln::Strategy::lo
               : strategy == "random" ? ln::Strategy::random
                                      : ln::Strategy::bp;
  o.seed = 7;
  o.free_types = w.free_types;
  const double start = cpu_seconds();
  const ln::Run run = ln::normalise(w.term, o);
  const double seconds = cpu_seconds() - start;
  std::uint64_t hash = 1469598103934665603ULL; // FNV-1a over the trace lines
  for (const std::string& line : run.trace)
    for (const char c : line + "\n") {
      hash ^= static_cast<unsigned char>(c);
      hash *= 1099511628211ULL;
    }
  std::printf("%s n=%s %s steps=%ld copy_volume=%ld cpu_s=%.3f trace_hash=%016llx normal_form=%s\n",
              family.c_str(), argv[2], strategy.c_str(), run.steps, run.copy_volume, seconds,
              static_cast<unsigned long long>(hash), ln::print(run.result).c_str());
}
