// perturbative's typing rules (seed 004, Fig. 2, L165-185; constants spec §7) as an enumeration
// grammar; enumeration.hpp lists the finite choices.
#include "generators/perturbative/enumeration.hpp"

#include "syntax/perturbative/printer.hpp"

namespace adsem::perturbative::gen {

namespace {

using EnumProd = adsem::gen::EnumProduction<EnumSort, Term>;
using EnumKids = std::vector<Term>;

Type pair_type() {
  return product_type(real_type(), real_type());
}
Type function_type() {
  return arrow_type(real_type(), real_type());
}

EnumSort at_type(const EnumSort& at, Type a) {
  EnumSort s = at;
  s.type = std::move(a);
  return s;
}

void real_productions(const EnumSort& s, std::vector<EnumProd>& out) {
  for (const double r : {1.0, -2.0})
    out.push_back({"numeral", 1, {}, [r](const EnumKids&) { return numeral(r); }});
  out.push_back({"sin", 2, {at_type(s, real_type())}, [](const EnumKids& k) {
                   return app(primitive("sin", function_type()), k[0]);
                 }});
  out.push_back({"mul", 2, {at_type(s, pair_type())}, [](const EnumKids& k) {
                   return app(primitive("mul", arrow_type(pair_type(), real_type())), k[0]);
                 }});
  out.push_back(
      {"sum", 1, {at_type(s, real_type()), at_type(s, real_type())}, [](const EnumKids& k) {
         return sum(k[0], k[1]);
       }});
}

} // namespace

const std::vector<Type>& enum_types() {
  static const std::vector<Type> types = {real_type(), pair_type(), function_type()};
  return types;
}

EnumSort enum_closed_real_sort() {
  EnumSort s;
  s.type = real_type();
  return s;
}

EnumSort enum_function_body_sort() {
  EnumSort s;
  s.gamma.emplace_back(enum_function_binder, real_type());
  s.type = real_type();
  s.depth = 1;
  return s;
}

std::string EnumGrammar::key(const EnumSort& s) const {
  return adsem::gen::typed_sort_key(s.gamma, s.type, s.depth,
                                    [](const Type& t) { return print_type(t); });
}

std::vector<EnumProd> EnumGrammar::productions(const EnumSort& s) const {
  std::vector<EnumProd> out;
  const Type& a = s.type;
  for (const auto& [x, t] : s.gamma) // (var)
    if (same_type(t, a))
      out.push_back({"var", 1, {}, [x = x, t = t](const EnumKids&) { return var(x, t); }});
  if (same_type(a, real_type())) real_productions(s, out);
  if (same_type(a, pair_type())) {
    out.push_back(
        {"pair", 3, {at_type(s, real_type()), at_type(s, real_type())}, [](const EnumKids& k) {
           return pair(k[0], k[1]);
         }});
    // (T f) N : T R for f : R → R and N : T R = R × R
    out.push_back(
        {"T", 2, {at_type(s, function_type()), at_type(s, pair_type())}, [](const EnumKids& k) {
           return app(push(k[0]), k[1]);
         }});
  }
  if (is_arrow(a)) {
    const std::string y = "y" + std::to_string(s.depth + 1);
    EnumSort body = at_type(s, a->right);
    body.gamma.emplace_back(y, a->left);
    body.depth = s.depth + 1;
    out.push_back(
        {"lam", 1, {body}, [y, t = a->left](const EnumKids& k) { return lam(y, t, k[0]); }});
  }
  for (const Type& u : enum_types()) {
    if (is_arrow(u) && same_type(u->right, a)) // M N
      out.push_back({"app", 1, {at_type(s, u), at_type(s, u->left)}, [](const EnumKids& k) {
                       return app(k[0], k[1]);
                     }});
    if (is_product(u) && (same_type(u->left, a) || same_type(u->right, a)))
      for (const int index : {1, 2})
        if (same_type(index == 1 ? u->left : u->right, a))
          out.push_back({"proj", 1, {at_type(s, u)}, [index](const EnumKids& k) {
                           return proj(index, k[0]);
                         }});
  }
  return out;
}

} // namespace adsem::perturbative::gen
