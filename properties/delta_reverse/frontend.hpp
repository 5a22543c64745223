#pragma once
// delta-reverse as the CLI and the campaign engine see it (properties/core/calculus.hpp): type,
// eval (the machine of semantics/delta_reverse), reduce (the same with the rule trace), denote
// (the shared model) and grad (the paper's translations and wrappers; default R, Fig. 11/15).
#include "properties/core/calculus.hpp"
#include "semantics/delta_reverse/wrappers.hpp"
#include "syntax/delta_reverse/typecheck.hpp"

namespace adsem::delta_reverse {

// Parse and type-check a closed term (AdsemError with line:column).
Typed parse_closed(const std::string& source);
// A closed function of reals to T (S = Real, a product of Reals, or curried Real -> ... -> T) as
// a program over a tuple of reals; inputs = the number of reals.
struct RealProgram {
  Program program;
  std::size_t inputs = 0;
};
RealProgram real_program(const Typed& f);
// The point of type S (first-order) holding xs at its real slots (leaves 0, sums inl).
Value point_of(const Type& s, const std::vector<double>& xs);

class Frontend final : public props::Frontend {
public:
  std::string type_of(const std::string& source) const override;
  props::EvalResult eval(const std::string& source,
                         const props::EvalOptions& options) const override;
  props::DenoteResult denote(const std::string& source,
                             const std::optional<std::vector<double>>& at) const override;
  // Mechanisms: R (default: Fig. 15 wrapper, eval with a map), R-array (§7.3), R-fig11,
  // R-fig12 (Fig. 11's wrapper with Fig. 12's implementation: right to left, literals bound),
  // R-seeded, R-overloading (Fig. 15's wrapper with e run by the overloading interpreter, §8),
  // F (forward plan, Fig. 4), R1 (reverse #1, Fig. 6), R2 (reverse #2, Fig. 8).
  props::GradResult grad(const std::string& source, const std::vector<double>& at,
                         const std::string& mechanism,
                         const props::EvalOptions& options) const override;
  std::vector<std::string> mechanisms() const override {
    return {"R", "R-array", "R-fig11", "R-fig12", "R-seeded", "R-overloading", "F", "R1", "R2"};
  }
};

} // namespace adsem::delta_reverse
