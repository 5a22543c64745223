// The array extension's properties (§10.2, L848-862; spec §4.10): the paper's theorems on
// programs that build and index vectors inside (gen::Options::arrays), whose inputs and outputs
// stay first-order without vectors (the wrappers' types, §11). The translations of index and
// build are reconstructed (the section's figure is lost), so these check the reconstruction.
#include <fmt/format.h>

#include "properties/delta_reverse/properties.hpp"
#include "semantics/delta_reverse/translate.hpp"

namespace adsem::delta_reverse {

namespace {

using namespace support;
using props::PropertyDef;

gen::Options with_arrays() {
  gen::Options o;
  o.arrays = true;
  return o;
}

// Every translation of a program with vectors is well typed: X{Vector A} = Vector X{A} and the
// clauses of index and build (P3 on the reconstruction).
TrialResult array_translation_typing(const PropertyContext& context) {
  const Drawn d = draw(context, with_arrays());
  return on(translations_typed(d.m.term, {}, arrow_type(d.m.s, d.m.t), setup_of(context)), d.m);
}

TrialResult array_adequacy(const PropertyContext& context) {
  return adequacy_at(draw(context, with_arrays()), context);
}

TrialResult array_forward_correctness(const PropertyContext& context) {
  const Drawn d = draw(context, with_arrays());
  return forward_correctness_at(d, *gen::tangent_like(d.s), context);
}

TrialResult array_reverse_correctness(const PropertyContext& context) {
  const Drawn d = draw(context, with_arrays());
  return guarded([&] { return reverse_correctness_at(d, prepare(d, context).dt, context); });
}

PropertyDef def(std::string name, std::string kind, std::string summary, std::string citation,
                std::function<TrialResult(const PropertyContext&)> body) {
  PropertyDef p{"delta-reverse",    "delta-reverse/" + name, std::move(kind),
                std::move(summary), std::move(citation),     std::move(body)};
  p.expected_tags = {"array"};
  return p;
}

} // namespace

std::vector<PropertyDef> array_properties() {
  const std::string at = "; §10.2 L848-862, spec §4.10 (the translation of index and build "
                         "reconstructed)";
  return {
      def("array-translation-typing", "typing",
          "with vectors, Dfwd, Drev1, Drev2 and Drev preserve typing (Vector A ↦ Vector X{A})",
          "spec §6 P3" + at, array_translation_typing),
      def("array-adequacy", "adequacy",
          "with vectors, the machine's e s equals the denotation ⟦e⟧(s) bit for bit",
          "spec §6 P2; App. A.2 L1029-1049" + at, array_adequacy),
      def("array-forward-correctness", "ad-correctness",
          "with vectors, F{e}(s, ds) = J⟦e⟧(s)·ds against the model",
          "spec §6 P5; Prop. 2 L273-278" + at, array_forward_correctness),
      def("array-reverse-correctness", "ad-correctness",
          "with vectors, R{e}(s, dt) = dtᵀJ⟦e⟧(s) against the model, map and array eval",
          "spec §6 P7; Thm. 3 L727-735" + at, array_reverse_correctness),
  };
}

} // namespace adsem::delta_reverse
