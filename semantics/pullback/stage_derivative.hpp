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

// [perf] The last point and direction whose shapes a stage derivative checked (model::perturb's
// errors, before the body runs). Rule 8 (seed 000 Fig. 3 L240) chains the stages: stage k+1 runs
// at stage k's image ⟨x, Q x⟩ along stage k's derivative ⟨v, DQ·v⟩, so its check walked stage k's
// pair again, the whole series at every stage. A value is immutable and its copies share a tuple's
// items, so the pair checked last passes again wherever its items meet the walk: they are skipped.
class CheckedShapes {
public:
  using Items = std::shared_ptr<const model::Value<double>[]>;
  // Whether a and da (tuples) hold the items of the point and direction checked last.
  bool passed(const model::Tuple<double>& a, const model::Tuple<double>& da) const {
    return a.items == point_ && da.items == direction_ && a.size == point_size_ &&
           da.size == direction_size_;
  }
  void remember(const model::Tuple<double>& a, const model::Tuple<double>& da) {
    point_ = a.items;
    direction_ = da.items;
    point_size_ = a.size;
    direction_size_ = da.size;
  }

private:
  Items point_, direction_; // held: their addresses are not reused
  std::size_t point_size_ = 0, direction_size_ = 0;
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
