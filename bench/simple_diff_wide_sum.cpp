// simple-diff's wide sum sin(x) + cos(x) + tanh(x) + exp(x) + ... of n summands, as `adsem
// complexity simple-diff --family wide-sum` builds it
// (properties/simple_diff/complexity_families.cpp), differentiated by rd with R-fast (spec §9
// P-1(b)) RUNS times: the derivative side of the family, without the parser, the checker or the
// complexity runner around it. Run it with RUNS = 0 and RUNS = 1 under cachegrind or massif and
// subtract: the difference is one gradient's instructions, cache misses and bytes
// (docs/performance.md, "What is still open", simple-diff's wide sum). Link jemalloc as the adsem
// executable does: LD_PRELOAD=libjemalloc.so.2 MALLOC_CONF=slab_sizes:129-160:1.
//
//   bench_simple_diff_wide_sum N [RUNS]
#include <charconv>
#include <cstdio>
#include <ctime>
#include <string>
#include <string_view>

#include "semantics/simple_diff/run.hpp"

namespace sd = adsem::simple_diff;

namespace {

std::string wide_sum(int n) {
  static const char* const f[] = {"sin", "cos", "tanh", "exp"};
  std::string s = "sin(x)";
  for (int i = 1; i < n; ++i)
    s += std::string(" + ") + f[i % 4] + "(x)";
  return s;
}

bool read_int(std::string_view text, int& out) {
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), out);
  return error == std::errc() && end == text.data() + text.size();
}

double cpu_seconds() {
  timespec t{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
}

} // namespace

int main(int argc, char** argv) {
  int n = 0, runs = 1;
  if (argc < 2 || !read_int(argv[1], n) || n < 1 || (argc > 2 && !read_int(argv[2], runs))) {
    std::fprintf(stderr, "usage: %s N [RUNS]\n", argv[0]);
    return 2;
  }
  const sd::Term body = sd::check_source(wide_sum(n), {{"x", sd::real_type()}}).term;
  sd::Options options;
  options.fuel = 2'000'000'000;
  const double start = cpu_seconds();
  for (int i = 0; i < runs; ++i) {
    const sd::GradientOutcome out = sd::gradient("x", sd::real_type(), body, {0.3}, options);
    if (i + 1 == runs)
      std::printf("n %d value %.17g gradient %.17g steps %ld\n", n, out.value.as_real(),
                  sd::flatten(out.gradient).at(0), out.steps);
  }
  std::printf("cpu %.6f s per run\n", runs > 0 ? (cpu_seconds() - start) / runs : 0.0);
  return 0;
}
