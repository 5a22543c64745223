#pragma once
// Shared helpers for the simple-diff tests.
#include <gtest/gtest.h>

#include <string>

#include "semantics/simple_diff/run.hpp"
#include "syntax/simple_diff/printer.hpp"

namespace adsem::simple_diff::test {

inline Options mode(DiffMode diff, long fuel = 5'000'000) {
  Options o;
  o.diff = diff;
  o.fuel = fuel;
  return o;
}

inline Value run(const std::string& source, DiffMode diff = DiffMode::linear,
                 long fuel = 5'000'000) {
  return evaluate(check_source(source).term, mode(diff, fuel)).value;
}

inline std::vector<double> reals(const std::string& source, DiffMode diff = DiffMode::linear) {
  return flatten(run(source, diff));
}

// The error kind a program stops with (or nullopt when it has a value).
inline std::optional<ErrorKind> failure(const std::string& source, DiffMode diff = DiffMode::linear,
                                        long fuel = 5'000'000) {
  try {
    run(source, diff, fuel);
    return std::nullopt;
  } catch (const AdsemError& e) {
    return e.diagnostic().kind;
  }
}

inline std::string canonical(const Term& m) {
  PrintOptions po;
  po.sugar = false;
  po.canonical = true;
  return print(m, po);
}

} // namespace adsem::simple_diff::test
