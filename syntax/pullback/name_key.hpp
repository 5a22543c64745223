#pragma once
// A binder name's two entries in the binder facts (ast.hpp NodeFacts), read in one pass.
#include <cstddef>
#include <cstdint>
#include <string_view>

namespace adsem::pullback {

struct NameKey {
  std::uint64_t bit = 0;   // name_bit(name)
  std::int64_t number = 0; // name_number(name)
};

// [perf] name_bit and name_number at once: rule 8's stage walk (seed 000 Fig. 3 L240) and the
// facts of every binder ask both of the same name, and two calls read it three times (the
// hash, the digits backwards, the digits again). Same FNV-1a and the same fresh-name shape
// "stem_n" (n ≤ 18 digits) as ast.cpp.
[[gnu::always_inline]] inline NameKey name_key(std::string_view name) {
  std::uint64_t h = 0xcbf29ce484222325ULL;
  std::uint64_t n = 0; // the value of the trailing run of digits (wraps past 18 digits: unused)
  std::size_t run = 0; // its length
  for (const char c : name) {
    h = (h ^ static_cast<unsigned char>(c)) * 0x100000001b3ULL;
    if (c >= '0' && c <= '9') {
      n = n * 10 + static_cast<std::uint64_t>(c - '0');
      ++run;
    } else {
      n = 0;
      run = 0;
    }
  }
  const std::size_t i = name.size() - run; // the first digit of the run
  const bool numbered = run > 0 && run <= 18 && i >= 2 && name[i - 1] == '_';
  return {std::uint64_t{1} << (h >> 58), numbered ? static_cast<std::int64_t>(n) : -1};
}

} // namespace adsem::pullback
