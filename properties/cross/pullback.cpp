// Embedding into pullback (Mak & Ong, seed 000; ASCII surface syntax spec §2.7, ID-4): typed
// `let x : T = M in K` (ID-7), pairs <M, N>, postfix projections (M).1 / (M).2, λ with typed
// binders, application by juxtaposition, primitives on tuples `mul(<M, N>)`. grad takes the curried
// \x0:R. \x1:R. ... and reduces the pullback of the 1-form Omega[1] (rules 1-20).
#include "properties/cross/embedding.hpp"

namespace adsem::cross {
namespace {

class PullbackPrinter final : public SurfacePrinter {
  std::string primitive(const std::string& name,
                        const std::vector<std::string>& args) const override {
    return applied_to_tuple(name, args, "<", ">");
  }
  std::string pair(const std::string& a, const std::string& b) const override {
    return "<" + a + ", " + b + ">";
  }
  std::string project(int component, const std::string& e) const override {
    return "(" + e + ")." + std::to_string(component);
  }
  std::string let(const std::string& x, const Type& t, const std::string& bound,
                  const std::string& body) const override {
    return "(let " + x + " : " + type(t) + " = " + bound + " in " + body + ")";
  }
};

} // namespace

std::string embed_pullback(const Program& p, const EmbedOptions&) {
  return PullbackPrinter().program(p);
}

} // namespace adsem::cross
