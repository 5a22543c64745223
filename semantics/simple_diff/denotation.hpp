#pragma once
// The denotational semantics of simple-diff (seed 003 Section 5, lines 736-900; spec §5.3-5.4)
// in the shared numeric model (semantics/core): [[T]] is R^|T| shaped as a model::Value<C>
// (real, unit, pairs as 2-tuples), a term denotes a partial function of its free variables.
//
//  - primitives come from the shared table (Primitive::apply<Dual<C>>, partial on open domains);
//    op_r^k is J^T w of op_r^(k-1), computed with the model's own duals (jacobian.hpp vjp_dual);
//  - if B then M else N is defined only off the boundary of B's guard (Primitive::holds throws
//    model::Undefined at equality, model::Undecided on a straddling box);
//  - letrec is the least fixed point, approached by bounded unfolding: more unfoldings than the
//    budget is ⊥ with reason fuel (AdsemError(ErrorKind::fuel)), i.e. "unknown";
//  - W.rd_V(x:T. N) is J_V([[x:T. N]])^T W, by the model's differentiation with a fresh tag per
//    column (nested rd keeps outer perturbations: no perturbation confusion).
// The denotation never calls the calculus's own eval, symbolic evaluation or rd.
//
// C is double (values and exact derivatives) or model::Interval (enclosures over a box).
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "semantics/core/model_errors.hpp"
#include "semantics/core/tags.hpp"
#include "semantics/core/value.hpp"
#include "syntax/simple_diff/ast.hpp"

namespace adsem::simple_diff::denotation {

template <class C> using MValue = model::Value<C>;
template <class C> using MEnv = std::vector<std::pair<std::string, MValue<C>>>;

// The reason of the model::Undefined thrown at a call of the approximant f^(0) = ⊥ of letrec_n
// (seed 003 Fig. 8, Lemma 6.5; spec §4.8, P-10): definite in the limited language.
inline constexpr std::string_view approximant_bottom = "approximant";

// The global budgets below are "unknown" (⊥ fuel), unlike approximant_bottom.
struct Budget {
  long unfoldings = 20'000; // letrec unfoldings (calls) before ⊥(fuel)
  long steps = 2'000'000;   // term nodes visited before ⊥(fuel)
  int depth = 3'000;        // nesting of the walk (calls inside calls) before ⊥(fuel)
};

// [[M]]ρ for a type-checked M whose free variables ρ binds.
template <class C>
MValue<C> denote(const Term& m, const MEnv<C>& rho, const model::DiffContext& context,
                 const Budget& budget = {});

// denote, except that the approximant f^(0) = ⊥ met on the walk (an rd body's included) is
// returned as the message of its model::Undefined (reason approximant_bottom), not thrown:
// adequacy trials meet it often. Every other ⊥ and error still throws.
//
// decided_everywhere: the walk met no predicate and no primitive with a domain (spec §5.4). Its
// path then depends on no value, and nothing on it is partial in the point: over any box it
// visits the same nodes and is defined exactly where it is at the point (the interval
// certificate of such a walk is certified at the first box, or outside with the same ⊥).
template <class C> struct Denoted {
  MValue<C> value;
  std::optional<std::string> bottom;
  bool decided_everywhere = false;
  // denote_or_failure only: the ⊥ of a partial primitive (outside its domain, on a guard's
  // boundary) or the box straddling it, met by the walk and not thrown.
  std::optional<model::DomainFailure> failure;
};
template <class C>
Denoted<C> denote_unless_bottom(const Term& m, const MEnv<C>& rho,
                                const model::DiffContext& context, const Budget& budget = {});
// denote_unless_bottom, except that the ⊥ of a partial primitive met on the walk (where the
// primitive reports it without a throw) is returned in `failure` rather than thrown: the interval
// certificate meets a straddled guard often (spec §5.4). Every other error still throws.
template <class C>
Denoted<C> denote_or_failure(const Term& m, const MEnv<C>& rho, const model::DiffContext& context,
                             const Budget& budget = {});

// Flattening (Lemma 5.1, depth first, left first) and its inverse at a type.
template <class C> std::vector<model::Dual<C>> flatten_value(const MValue<C>& v);
template <class C> MValue<C> unflatten_value(const Type& t, std::span<const model::Dual<C>> xs);

// [[x:T. N]] as a model function R^|T| -> R^|U| (N type-checked with x:T free, plus ρ).
template <class C>
std::function<std::vector<model::Dual<C>>(std::span<const model::Dual<C>>)>
as_function(const std::string& x, const Type& t, const Term& body, const MEnv<C>& rho,
            const model::DiffContext& context, const Budget& budget = {});

// "<1, <(), 2>>" for a double value (tag-free parts).
std::string print(const MValue<double>& v);

} // namespace adsem::simple_diff::denotation
