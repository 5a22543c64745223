// Embedding into delta-reverse (Krawiec et al., seed 001; surface syntax spec §2.2): the tuple
// binder \(x0 : Real, x1 : Real). e, `let x = e in e`, pairs, fst / snd, λ with typed binders,
// application by juxtaposition, the paper's primitive names on pairs (addR, subR, mulR, divR,
// negR; sin, cos, exp, log, sqrt, tanh). Real literals always carry a '.' (3 would be an Int).
// grad differentiates with R (Fig. 9-11, 15) and F (Fig. 3).
#include "properties/cross/embedding.hpp"

#include <map>

#include "properties/cross/mutants.hpp"

namespace adsem::cross {
namespace {

class DeltaReversePrinter final : public SurfacePrinter {
public:
  explicit DeltaReversePrinter(bool sub_reversed) : sub_reversed_(sub_reversed) {}

private:
  std::string function(const Program& p, const std::string& body) const override {
    std::string binders;
    for (const auto& x : p.inputs)
      binders += (binders.empty() ? "" : ", ") + x + " : Real";
    return "\\(" + binders + "). " + body;
  }
  std::string type(const Type& t) const override { return type_text(t, "Real"); }
  std::string literal(double value) const override {
    std::string text = literal_text(value);
    if (text.find_first_of(".e") == std::string::npos) text += ".0";
    return value < 0 ? "(" + text + ")" : text;
  }
  std::string primitive(const std::string& name,
                        const std::vector<std::string>& args) const override {
    static const std::map<std::string, std::string> paper_names = {
        {"add", "addR"}, {"sub", "subR"}, {"mul", "mulR"}, {"div", "divR"}, {"neg", "negR"}};
    const auto it = paper_names.find(name);
    const std::string op = it == paper_names.end() ? name : it->second;
    if (sub_reversed_ && name == "sub") return juxtaposed(op, {args[1], args[0]});
    return juxtaposed(op, args);
  }
  std::string project(int component, const std::string& e) const override {
    return (component == 1 ? "(fst " : "(snd ") + e + ")";
  }
  std::string lambda(const std::string& x, const Type& t, const std::string& body) const override {
    return "(\\(" + x + " : " + type(t) + "). " + body + ")";
  }

  bool sub_reversed_; // the mutant cross/delta-reverse-sub-reversed: subR (b, a) for sub(a, b)
};

} // namespace

std::string embed_delta_reverse(const Program& p, const EmbedOptions& options) {
  return DeltaReversePrinter(options.mutant == sub_reversed_mutant).program(p);
}

} // namespace adsem::cross
