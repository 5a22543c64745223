#pragma once
// The cheap-gradient constant ω of Griewank and Walther (Evaluating Derivatives, 2nd ed., §4.5,
// §4.6): the arithmetic work of a derivative evaluation over that of the primal, which forward
// mode keeps at ω ≤ 5/2 and reverse mode at ω ≤ 4. A calculus states which entries of its rule
// book are primitive operations and how many operations one firing performs; the weighted
// firings of a run are its arithmetic work (`adsem complexity`, docs/performance.md "The
// cheap-gradient constant ω").
//
// The weighting, the same in every calculus: one arithmetic operation on reals weighs 1 —
// Griewank–Walther's additions (weight 1) and multiplications (π = 1), and a nonlinear
// elementary function ψ (sin, tanh, exp, …) with ν = 1 as well, because one book entry fires for
// every primitive (simple-diff's O-op applies mul and sin alike) and the firing counts cannot
// tell them apart. Memory moves (Griewank–Walther's μ) weigh 0 here: substitution, projection,
// environment and tape steps are what each paper's own step measure counts, reported beside ω.
// An entry absent from a table weighs 0.
#include <string>
#include <vector>

namespace adsem::props {

// The mode a mechanism implements, which fixes the bound ω is compared with.
enum class AdMode { forward, reverse };
const char* to_string(AdMode mode);
// Griewank–Walther's bound on ω: 2.5 for forward (tangent) mode, 4 for reverse (gradient) mode.
double cheap_gradient_bound(AdMode mode);

struct OperationWeight {
  std::string entry;     // the rule book's entry name, e.g. "O-op"
  double weight = 1;     // arithmetic operations per firing
  std::string operation; // what one firing computes, e.g. "ev(op, V): one primitive"
};

struct OperationWeights {
  std::vector<OperationWeight> entries;

  bool empty() const { return entries.empty(); }
  // Σ weight × firings over the table's entries; `firings` maps entry names to firing counts
  // (a run's rule_counts or a RuleCounter's map).
  template <class Firings> double weigh(const Firings& firings) const {
    double sum = 0;
    for (const OperationWeight& w : entries)
      if (const auto it = firings.find(w.entry); it != firings.end())
        sum += w.weight * static_cast<double>(it->second);
    return sum;
  }
};

} // namespace adsem::props
