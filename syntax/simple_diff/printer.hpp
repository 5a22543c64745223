#pragma once
// Printer for the surface syntax of spec §2.6. Its output re-parses to an alpha-equivalent
// term. By default it shows the user's forms (infix, grad, fd, tuple let, zero, plus); the
// `core` style prints the expansion, and `canonical` renames binders v0, v1, ... in binder
// order (spec §2.6, for golden traces).
#include <string>

#include "syntax/simple_diff/ast.hpp"

namespace adsem::simple_diff {

struct PrintOptions {
  bool sugar = true;      // print derived forms as the user wrote them
  bool canonical = false; // rename bound variables v0, v1, ... (and functions g0, g1, ...)
};

std::string print(const Term& m, const PrintOptions& options = {});
// Shortest decimal that reads back as the same double ("0.5", "1e-07", "-3").
std::string print_real(double r);

} // namespace adsem::simple_diff
