// Seed 002's §6 efficiency remark (L632-644; spec §6 P25) measured: on the RNN unrolled n times,
// S_bp copies D(L) by (9) n times and reduces every copy; the strategy that first normalises the
// abstractions the explicit substitutions share (contents_first.hpp) reduces D(L) once, k steps,
// and then runs S_bp. The paper expects a saving of about k·(n-1) steps, linear in n; both
// strategies must reach the same normal form (the gradient, read back).
//
//   bench_linear_negation_normalise_before_copy [N ...]   (default 1 2 4 8 16 32 64)
#include <charconv>
#include <cstdio>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "semantics/linear_negation/contents_first.hpp"
#include "semantics/linear_negation/families.hpp"
#include "semantics/linear_negation/program.hpp"
#include "semantics/linear_negation/transform.hpp"
#include "syntax/linear_negation/printer.hpp"

namespace ln = adsem::linear_negation;

int main(int argc, char** argv) {
  std::vector<int> sizes;
  for (int i = 1; i < argc; ++i) {
    const std::string_view text = argv[i];
    int n = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), n);
    if (error != std::errc{} || end != text.data() + text.size() || n < 1) {
      std::fprintf(stderr, "usage: %s [N ...] (whole numbers >= 1)\n", argv[0]);
      return 2;
    }
    sizes.push_back(n);
  }
  if (sizes.empty()) sizes = {1, 2, 4, 8, 16, 32, 64};
  std::printf("%6s %12s %10s %10s %10s %12s %10s %14s  %s\n", "n", "copy-first", "contents", "k",
              "then-S_bp", "normal-first", "saving", "saving/(n-1)", "same normal form");
  for (const int n : sizes) {
    const ln::RealFunction f = ln::real_function(
        ln::parse_elaborated(ln::family::rnn(ln::family::rnn_inputs(n)), ln::Mode::source));
    const ln::Wrapper w =
        ln::gradient_wrapper(f.body, f.inputs, std::vector<double>(f.inputs.size(), 0.3));
    ln::RunOptions o;
    o.fuel = 50'000'000;
    o.free_types = w.free_types;
    const ln::Run copy_first = ln::normalise(w.term, o);
    const ln::ContentsFirst contents = ln::normalise_contents_first(w.term, o);
    const ln::Run then = ln::normalise(contents.term, o);
    const long normal_first = contents.steps + then.steps;
    const long saving = copy_first.steps - normal_first;
    const bool same =
        ln::read_back(copy_first.result, w.backprop) == ln::read_back(then.result, w.backprop);
    std::printf("%6d %12ld %10ld %10ld %10ld %12ld %10ld %14s  %s\n", n, copy_first.steps,
                contents.contents, contents.steps, then.steps, normal_first, saving,
                n > 1 ? fmt::format("{:.2f}", static_cast<double>(saving) / (n - 1)).c_str() : "-",
                same ? "yes" : "NO");
  }
}
