// Embedding into linear-negation (Brunel, Mazza, Pagani, seed 002; surface syntax spec §2.7, read
// in source mode by grad): `let x = t in u` (sugar for the explicit substitution u[x := t]), pairs
// (t, u), λ with typed binders, application by juxtaposition, primitives called f(t1, t2). The
// source language has no projections: fst e is the pair pattern `let (pa, pb) = e in pa` (the
// paper's let-pair destructor). grad takes the curried \x0:R. \x1:R. ... and runs D (Table 3).
#include "properties/cross/embedding.hpp"

namespace adsem::cross {
namespace {

class LinearNegationPrinter final : public SurfacePrinter {
  std::string primitive(const std::string& name,
                        const std::vector<std::string>& args) const override {
    return applied_to_tuple(name, args, "", "");
  }
  // The names pa, pb cannot capture: the pattern's body is the bare variable.
  std::string project(int component, const std::string& e) const override {
    return "(let (pa, pb) = " + e + " in " + (component == 1 ? "pa" : "pb") + ")";
  }
};

} // namespace

std::string embed_linear_negation(const Program& p, const EmbedOptions&) {
  return LinearNegationPrinter().program(p);
}

} // namespace adsem::cross
