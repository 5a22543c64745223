#include "syntax/delta_reverse/signature.hpp"

namespace adsem::delta_reverse {

Type bool_type() {
  static const Type t = sum_type(int_type(), int_type());
  return t;
}

const std::vector<PrimSignature>& prim_signatures() {
  static const std::vector<PrimSignature> table = [] {
    const Type r = real_type(), z = int_type();
    const Type r2r = arrow_type(product_type(r, r), r);
    const Type r1r = arrow_type(r, r);
    const Type z2z = arrow_type(product_type(z, z), z);
    return std::vector<PrimSignature>{
        {"addR", {"add"}, r2r},
        {"subR", {"sub"}, r2r},
        {"mulR", {"mul"}, r2r},
        {"divR", {"div"}, r2r},
        {"negR", {"neg"}, r1r},
        {"sin", {}, r1r},
        {"cos", {}, r1r},
        {"exp", {}, r1r},
        {"log", {}, r1r},
        {"sqrt", {}, r1r},
        {"tanh", {}, r1r},
        {"fromInt", {}, arrow_type(z, r)},
        {"ltR", {"less"}, arrow_type(product_type(r, r), bool_type())},
        {"addZ", {}, z2z},
        {"subZ", {}, z2z},
        {"mulZ", {}, z2z},
        {"eqZ", {}, arrow_type(product_type(z, z), bool_type())},
        {"ltZ", {}, arrow_type(product_type(z, z), bool_type())},
    };
  }();
  return table;
}

std::optional<std::string> canonical_prim(const std::string& name) {
  for (const PrimSignature& s : prim_signatures()) {
    if (s.name == name) return s.name;
    for (const std::string& a : s.aliases)
      if (a == name) return s.name;
  }
  return std::nullopt;
}

Type prim_type(const std::string& name) {
  for (const PrimSignature& s : prim_signatures())
    if (s.name == name) return s.type;
  return nullptr;
}

} // namespace adsem::delta_reverse
