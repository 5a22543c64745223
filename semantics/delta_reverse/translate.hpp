#pragma once
// The paper's translations, each a named transformation (spec §4.4-4.7):
//   Dfwd   forward dual numbers              (Fig. 3, L195-233)       R ↦ R × δR
//   Drev1  reverse #1, dense tangents δS     (Fig. 5, L281-297) [reconstructed]  R ↦ R × δS
//   Drev2  reverse #2, Delta2 trees          (Fig. 7, L315-333)       R ↦ R × Delta2
//   Drev   final monadic reverse translation (Fig. 9, L438-487)       R ↦ R × Delta, A→B ↦ Drev A →
//   M Drev B
// Real primitives are translated from their table entry (derivative_rules.hpp, Fig. 14). Helper
// names are fresh (spec §9.7). The input must be a source term (no target forms: no R{R{e}},
// spec §9.14); otherwise AdsemError(usage).
#include "semantics/delta_reverse/variant.hpp"
#include "syntax/delta_reverse/ast.hpp"

namespace adsem::delta_reverse {

enum class Translation { dfwd, drev1, drev2, drev };
const char* translation_name(Translation t); // "Dfwd", "Drev1", "Drev2", "Drev"

// The type translation (spec §3.3). For Drev of a term, the term has type M (drev type).
Type translate_type(Translation t, const Type& a);
// The term translation.
Term translate(Translation t, const Term& e, const Variant& variant = {});
// The type the translation of a term of type A has: M Drev{A} for Drev, X{A} otherwise.
Type translated_term_type(Translation t, const Type& a);

} // namespace adsem::delta_reverse
