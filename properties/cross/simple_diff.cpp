// Embedding into simple-diff (Abadi & Plotkin, seed 003, Fig. 1; surface syntax spec §2.6):
// typed let `let y:T = M in N`, pairs <M, N>, fst(M) / snd(M), operations applied to a tuple
// `mul(<M, N>)`. The language has no λ, so only first-order programs embed. grad takes the binder
// form (x:T. N): one input is (x0:real. N); several inputs arrive as one right-nested tuple
// xs : real * (real * ...) unpacked by lets, whose gradient flattens left to right.
#include "properties/cross/embedding.hpp"

#include "syntax/core/diagnostic.hpp"

namespace adsem::cross {
namespace {

class SimpleDiffPrinter final : public SurfacePrinter {
  std::string function(const Program& p, const std::string& body) const override {
    if (p.inputs.size() == 1) return "(" + p.inputs[0] + ":real. " + body + ")";
    std::string tuple_type = "real";
    for (std::size_t i = 1; i < p.inputs.size(); ++i)
      tuple_type = "real * " + (i == 1 ? tuple_type : "(" + tuple_type + ")");
    std::string unpack;
    std::string rest = "xs";
    for (std::size_t i = 0; i < p.inputs.size(); ++i) {
      const bool last = i + 1 == p.inputs.size();
      unpack += "let " + p.inputs[i] + ":real = " + (last ? rest : "fst(" + rest + ")") + " in ";
      rest = "snd(" + rest + ")";
    }
    return "(xs:" + tuple_type + ". " + unpack + body + ")";
  }
  std::string type(const Type& t) const override { return type_text(t, "real"); }
  std::string primitive(const std::string& name,
                        const std::vector<std::string>& args) const override {
    return applied_to_tuple(name, args, "<", ">");
  }
  std::string pair(const std::string& a, const std::string& b) const override {
    return "<" + a + ", " + b + ">";
  }
  std::string project(int component, const std::string& e) const override {
    return (component == 1 ? "fst(" : "snd(") + e + ")";
  }
  std::string let(const std::string& x, const Type& t, const std::string& bound,
                  const std::string& body) const override {
    return "(let " + x + ":" + type(t) + " = " + bound + " in " + body + ")";
  }
  std::string lambda(const std::string&, const Type&, const std::string&) const override {
    throw AdsemError(ErrorKind::usage, "simple-diff has no λ: higher-order programs do not embed");
  }
};

} // namespace

std::string embed_simple_diff(const Program& p, const EmbedOptions&) {
  return SimpleDiffPrinter().program(p);
}

} // namespace adsem::cross
