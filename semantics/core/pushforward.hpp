#pragma once
// The model's own differentiation at every type: the internal pushforward 𝒯 of manzyuk spec §5.3
// (paper L121-124: 𝒯 = Λ(T(ev)∘t), elementwise f ↦ Tf), implemented exactly as the spec's
// pseudo-code:
//
//   𝒯 f (a′, a) = e := fresh_tag(); y := f(perturb(a, a′, e));
//                 (extract(y, e, TANGENT), extract(y, e, PRIMAL))
//
// with perturb / extract / swap defined by structural recursion on values, and TAG RENAMING when a
// result is a function (extract_{σ→τ}): such a result can outlive the 𝒯 call and be applied later
// to arguments that already carry e, and without renaming the two roles of e are confused (the
// JFP 2019 "tagged perturbation confusion", arXiv:1211.4892; example M15).
//
// The DiffContext's PerturbationMode selects the negative controls of manzyuk spec §5.3:
//   untagged           one ε for every derivative: D(λx. x·D(λy. x+y)(1))(1) gives 2, not 1
//   fresh_tag_no_swap  fresh tags, no renaming: M15 gives 0, not e
// Every other derivative construct of the five calculi (AP's rd, BMP's and Mak–Ong's Jacobians
// and pullbacks, Krawiec's JVP/VJP) reduces to this pushforward or to jacobian.hpp.
#include <type_traits>

#include "semantics/core/tags.hpp"
#include "semantics/core/value.hpp"

namespace adsem::model {

enum class Part { tangent, primal };

// a + ε_e·a′ (manzyuk §5.3 perturb_σ): componentwise on tuples, pointwise on functions, with NO
// renaming on inputs.
template <class C> Value<C> perturb(const Value<C>& a, const Value<C>& da, Tag e) {
  switch (a.kind()) {
  case ValueKind::real:
    if constexpr (std::is_same_v<C, double>) {
      // [perf] Both unperturbed (a point and a direction of a probe, almost always): the same
      // IEEE operations the ring operations below perform, without their temporaries. ε·da is
      // (0·d, 1·d), its tag dropped when 1·d is exactly zero; a + ε·da adds 0 + 1·d to the ε part.
      if (a.real().is_constant() && da.real().is_constant()) {
        const double d = da.real().primal();
        const double constant = d * 0.0, coefficient = d * 1.0;
        if (coefficient == 0.0) return Value<C>(Dual<C>(a.real().primal() + constant));
        return Value<C>(Dual<C>::perturbation(a.real().primal() + constant, e, 0.0 + coefficient));
      }
    }
    return Value<C>(a.real() + Dual<C>::perturbation(C(0.0), e, C(1.0)) * da.real());
  case ValueKind::unit:
  case ValueKind::integer:
    return a;
  case ValueKind::tuple: {
    if (da.items().size() != a.items().size())
      throw AdsemError(ErrorKind::eval, "model: tangent and point have different shapes");
    return Value<C>::tuple_of(
        a.items().size(), [&](std::size_t i) { return perturb(a.items()[i], da.items()[i], e); });
  }
  case ValueKind::injection:
    if (da.injection().index != a.injection().index)
      throw AdsemError(ErrorKind::eval, "model: tangent and point are different injections");
    return Value<C>::injection(a.injection().index,
                               perturb(*a.injection().payload, *da.injection().payload, e));
  case ValueKind::function: // captures the values (shared closures), never copies of their code
    return Value<C>::function(
        [g = a, dg = da, e](const Value<C>& z) { return perturb(g(z), dg(z), e); });
  }
  return a;
}

// Renames e <-> e2 everywhere in v (manzyuk §5.3 swap_σ); at function type
// swap(h) = λz. swap(h(swap(z))).
template <class C> Value<C> swap_tags(const Value<C>& v, Tag e, Tag e2) {
  switch (v.kind()) {
  case ValueKind::real:
    return Value<C>(swap_tags(v.real(), e, e2));
  case ValueKind::unit:
  case ValueKind::integer:
    return v;
  case ValueKind::tuple:
    return Value<C>::tuple_of(v.items().size(),
                              [&](std::size_t i) { return swap_tags(v.items()[i], e, e2); });
  case ValueKind::injection:
    return Value<C>::injection(v.injection().index, swap_tags(*v.injection().payload, e, e2));
  case ValueKind::function:
    return Value<C>::function(
        [h = v, e, e2](const Value<C>& z) { return swap_tags(h(swap_tags(z, e, e2)), e, e2); });
  }
  return v;
}

// The ε_e-coefficient (TANGENT) or v with ε_e := 0 (PRIMAL) (manzyuk §5.3 extract_σ). At function
// type, lazily per argument, renaming e to a fresh e2 around the call (the JFP 2019 fix) unless
// the context is a negative control.
template <class C>
Value<C> extract(const Value<C>& v, Tag e, Part part, const DiffContext& context) {
  switch (v.kind()) {
  case ValueKind::real:
    return Value<C>(part == Part::tangent ? tangent_part(v.real(), e) : primal_part(v.real(), e));
  case ValueKind::unit:
  case ValueKind::integer:
    return v;
  case ValueKind::tuple:
    return Value<C>::tuple_of(
        v.items().size(), [&](std::size_t i) { return extract(v.items()[i], e, part, context); });
  case ValueKind::injection:
    return Value<C>::injection(v.injection().index,
                               extract(*v.injection().payload, e, part, context));
  case ValueKind::function:
    if (context.renames_tags())
      return Value<C>::function([h = v, e, part, context](const Value<C>& z) {
        const Tag e2 = context.fresh_tag();
        return swap_tags(extract(h(swap_tags(z, e, e2)), e, part, context), e, e2);
      });
    return Value<C>::function(
        [h = v, e, part, context](const Value<C>& z) { return extract(h(z), e, part, context); });
  }
  return v;
}

// 𝒯 f (a′, a) = (tangent, primal) as a pair: the elementwise meaning of the term former T
// (manzyuk §5.3, paper L121-124). f is a function value; a′ has a's shape.
template <class C>
Value<C> pushforward(const Value<C>& f, const Value<C>& tangent, const Value<C>& point,
                     const DiffContext& context) {
  const Tag e = context.fresh_tag();
  const Value<C> y = f(perturb(point, tangent, e));
  return Value<C>::pair(extract(y, e, Part::tangent, context),
                        extract(y, e, Part::primal, context));
}

// 𝒯 f itself, a function from Tσ = (a′, a) to Tτ = (b′, b).
template <class C> Value<C> pushforward(const Value<C>& f, const DiffContext& context) {
  return Value<C>::function([f, context](const Value<C>& tangent_and_point) {
    return pushforward(f, tangent_and_point.first(), tangent_and_point.second(), context);
  });
}

// π1(𝒯 f (a′, a)): the directional derivative of f at a along a′, at any type. The tangent part
// alone: the primal part π2 would be extracted (a walk and a copy of y) only to be dropped.
template <class C>
Value<C> directional_derivative(const Value<C>& f, const Value<C>& point, const Value<C>& tangent,
                                const DiffContext& context) {
  const Tag e = context.fresh_tag();
  return extract(f(perturb(point, tangent, e)), e, Part::tangent, context);
}

// D(f, a) = π1(𝒯 f (1, a)) for a real a (manzyuk §8 E2).
template <class C>
Value<C> derivative(const Value<C>& f, const Value<C>& point, const DiffContext& context) {
  return directional_derivative(f, point, Value<C>(1.0), context);
}

} // namespace adsem::model
