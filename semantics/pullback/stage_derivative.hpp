#pragma once
// DF(x)·v for the body F = λx.P of a pullback, ⟦(Ω λx.P)·S⟧ = x ↦ v ↦ ⟦S⟧(F x)(DF(x)·v) (seed
// 000 §4.2, L448-458), without perturbing what P does not read. [perf] Rule 8 (seed 000 Fig. 3
// L240) makes P a stage ⟨x, Q⟩ whose tuple x holds every earlier intermediate, and Q reads one or
// two of them by projection paths (atoms, spec §2.5 ID-1): model::directional_derivative perturbed
// the whole tuple and extracted the whole result, so each stage of a probe cost the length of the
// series. Q sees x only through its paths, so the items it does not read may stay unperturbed,
// and the tangent of the x that ⟨x, Q⟩ passes through is v itself, D(x ↦ x)·v = v: the model's
// extract(perturb(x, v)) rebuilt the whole tuple at every stage to give v again, up to the sign of
// a zero (perturb drops ε·(−0)) and a function item wrapped once more per stage (the same
// function, its calls drawing more tags). Q's tangent, the errors, work units and depth, and the
// tags drawn are model::directional_derivative's.
#include <cstddef>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "semantics/core/environment.hpp"
#include "semantics/core/tags.hpp"
#include "semantics/core/value.hpp"
#include "syntax/pullback/ast.hpp"

namespace adsem::pullback {

struct DenoteContext;

// The projection paths through which a body reads its bound variable, as a trie over item
// indices; `whole`: a path ends here, so the whole subtree is read.
struct StageReads {
  bool whole = false;
  std::vector<std::pair<std::size_t, StageReads>> items = {};
};

struct StageShape {
  std::string x;
  bool passes_through = false; // P = ⟨x, Q⟩
  Term reader = {};            // Q, or P itself when it does not pass x through
  StageReads reads = {};       // of x in `reader`
};

// The shape of λx.P, or null when x occurs in P other than as ⟨x, Q⟩'s first item or as the root
// of a projection path (then only the whole perturbation is model::directional_derivative's).
std::shared_ptr<const StageShape> stage_shape(const Term& body, const std::string& x);

// DF(x)·v for F = ⟦λx.P⟧ in env, P of that shape; model::directional_derivative(F, point, v,
// context.diff) from the same work, with v itself as a passed-through x's tangent.
model::Value<double> stage_derivative(const StageShape& shape, const model::Env<double>& env,
                                      const model::Value<double>& point,
                                      const model::Value<double>& v, const DenoteContext& context);

} // namespace adsem::pullback
