// Embedding into perturbative (Manzyuk, seed 004; surface syntax of spec §2.7 as implemented in
// syntax/perturbative/parser.cpp): `let x = M in N`, pairs (M, N), pi1 / pi2, λ with typed
// binders, application by juxtaposition, constants applied to a pair `mul (M, N)`. grad takes the
// curried function \x0:R. \x1:R. ... and differentiates it with T (the D macro, spec §2.7).
#include "properties/cross/embedding.hpp"

namespace adsem::cross {
namespace {

class PerturbativePrinter final : public SurfacePrinter {
  // 0 is the zero of every type (the bags' unit, seed 004 L134-191), so the real 0 is ascribed.
  std::string literal(double value) const override {
    return value == 0 ? "(0 : R)" : SurfacePrinter::literal(value);
  }
  std::string primitive(const std::string& name,
                        const std::vector<std::string>& args) const override {
    return juxtaposed(name, args);
  }
  std::string project(int component, const std::string& e) const override {
    return "(pi" + std::to_string(component) + " " + e + ")";
  }
};

} // namespace

std::string embed_perturbative(const Program& p, const EmbedOptions&) {
  return PerturbativePrinter().program(p);
}

} // namespace adsem::cross
