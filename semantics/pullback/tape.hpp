#pragma once
// A classical tape-based (Wengert list) reverse mode for straight-line first-order bodies (seed
// 000 §2.1 L61-125: forward sweep recording each intermediate value x_k, then the reverse sweep of
// adjoints β_k; spec §6 P22). Independent of the calculus's rules and of the model: it reads the
// body's syntax once, records scalar nodes with their local partials (from the primitive's own
// Jacobian 𝒥(f), as a textbook tape does), and accumulates adjoints backwards.
#include <string>
#include <vector>

#include "syntax/pullback/ast.hpp"

namespace adsem::pullback {

struct TapeResult {
  std::vector<double> value;               // P[V/y], flattened
  std::vector<double> gradient;            // cᵀ 𝒥(λy.P)(V)
  long primitive_evaluations = 0;          // forward evaluations of primitives (each once)
  std::vector<std::vector<double>> stages; // the value of each let binding / primitive, in order
};

// body : τ with y : σ free (σ, τ Euclidean); only atoms, numerals, pairs, projections,
// primitives, sums, zero and let. AdsemError(eval) on anything else.
TapeResult tape_reverse(const Term& body, const std::string& y, const Type& sigma,
                        const std::vector<double>& point, const std::vector<double>& cotangent);
bool is_straight_line(const Term& body);

} // namespace adsem::pullback
