// The work a reduction step of linear-negation does on the complexity families (seed 002 Cor. 16:
// W normalised under a strategy of spec §4.7): per family and n, the steps, the copy volume of
// rule (9), the CPU seconds of one run and a hash of the whole trace (with --trace), so that a
// change of the reducer's representation can be checked to leave every term of every step as it
// was, and timed (docs/performance.md, linear-negation).
//
//   bench_linear_negation_step_work FAMILY N [bp|lo|random] [--trace]
//   FAMILY: sharing-chain | nested-closures | wide-sum | nested-primitives | rnn
#include <cstdint>
#include <cstdio>
#include <ctime>
#include <string>
#include <vector>

#include "semantics/linear_negation/families.hpp"
#include "semantics/linear_negation/program.hpp"
#include "semantics/linear_negation/transform.hpp"
#include "syntax/linear_negation/printer.hpp"

namespace ln = adsem::linear_negation;

namespace {

std::string source(const std::string& family, int n) {
  if (family == "sharing-chain") return ln::family::square_chain(n);
  if (family == "nested-closures") return ln::family::square_chain_higher_order(n);
  if (family == "wide-sum") return ln::family::sum_chain(n);
  if (family == "nested-primitives") return ln::family::nested_chain(n);
  std::vector<double> list;
  for (int i = 0; i < n; ++i)
    list.push_back(0.1 * (i % 7) - 0.3);
  return ln::family::rnn(list);
}

double cpu_seconds() {
  return static_cast<double>(std::clock()) / CLOCKS_PER_SEC;
}

} // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: %s FAMILY N [bp|lo|random] [--trace]\n", argv[0]);
    return 2;
  }
  const std::string family = argv[1];
  const std::string strategy = argc > 3 ? argv[3] : "bp";
  const bool trace = argc > 4 && std::string(argv[4]) == "--trace";
  const ln::RealFunction f =
      ln::real_function(ln::parse_elaborated(source(family, std::stoi(argv[2])), ln::Mode::source));
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
