// delta-reverse's typing rules (seed 001, Fig. 1, App. A.1; §10.2) as an enumeration grammar;
// enumeration.hpp lists the finite choices.
#include "generators/delta_reverse/enumeration.hpp"

namespace adsem::delta_reverse::gen {

namespace {

using EnumProd = adsem::gen::EnumProduction<EnumSort, Term>;
using EnumKids = std::vector<Term>;

EnumSort at_type(const EnumSort& at, Type a) {
  EnumSort s = at;
  s.type = std::move(a);
  return s;
}

// at, with y : t innermost in Γ, one binder deeper
EnumSort under_binder(const EnumSort& at, const std::string& y, Type t, Type a) {
  EnumSort s = at_type(at, std::move(a));
  s.gamma.emplace_back(y, std::move(t));
  s.depth = at.depth + 1;
  return s;
}

// The introduction forms and primitives of the sort's type.
void introductions(const EnumSort& s, const std::string& y, std::vector<EnumProd>& out) {
  const Type& a = s.type;
  switch (a->kind) {
  case TypeNode::Kind::real: {
    for (const double r : {1.0, -2.0})
      out.push_back({"real", 1, {}, [r](const EnumKids&) { return real(r); }});
    for (const char* op : {"addR", "mulR"}) // op (a, b): app, op, pair
      out.push_back(
          {op, 3, {at_type(s, real_type()), at_type(s, real_type())}, [op](const EnumKids& k) {
             return call(op, k[0], k[1]);
           }});
    for (const char* op : {"sin", "log"}) // op a: app, op
      out.push_back(
          {op, 2, {at_type(s, real_type())}, [op](const EnumKids& k) { return call(op, k[0]); }});
    out.push_back({"fromInt", 2, {at_type(s, int_type())}, [](const EnumKids& k) {
                     return call("fromInt", k[0]);
                   }});
    return;
  }
  case TypeNode::Kind::integer:
    for (const std::int64_t n : {0, 1})
      out.push_back({"integer", 1, {}, [n](const EnumKids&) { return integer(n); }});
    return;
  case TypeNode::Kind::product:
    out.push_back({"pair", 1, {at_type(s, a->left), at_type(s, a->right)}, [](const EnumKids& k) {
                     return pair(k[0], k[1]);
                   }});
    return;
  case TypeNode::Kind::sum:
    out.push_back({"inl", 1, {at_type(s, a->left)}, [other = a->right](const EnumKids& k) {
                     return inl(other, k[0]);
                   }});
    out.push_back({"inr", 1, {at_type(s, a->right)}, [other = a->left](const EnumKids& k) {
                     return inr(other, k[0]);
                   }});
    return;
  case TypeNode::Kind::arrow:
    out.push_back(
        {"lam", 1, {under_binder(s, y, a->left, a->right)}, [y, t = a->left](const EnumKids& k) {
           return lam(y, t, k[0]);
         }});
    return;
  case TypeNode::Kind::vector: // build[A] (n, f): app, build, pair
    out.push_back(
        {"build",
         3,
         {at_type(s, int_type()), at_type(s, arrow_type(int_type(), a->left))},
         [e = a->left](const EnumKids& k) { return app(build_op(e), pair(k[0], k[1])); }});
    return;
  default:
    return;
  }
}

// The eliminations and binders at any type: let, application, fst/snd, case, index.
void eliminations(const EnumSort& s, const std::string& y, std::vector<EnumProd>& out) {
  const Type& a = s.type;
  for (const Type& t : enum_types()) {
    out.push_back({"let", 1, {at_type(s, t), under_binder(s, y, t, a)}, [y](const EnumKids& k) {
                     return let(y, k[0], k[1]);
                   }});
    for (const Type& u : enum_types()) {
      if (u->kind == TypeNode::Kind::arrow && same_type(u->left, t) && same_type(u->right, a))
        out.push_back({"app", 1, {at_type(s, u), at_type(s, t)}, [](const EnumKids& k) {
                         return app(k[0], k[1]);
                       }});
      if (u->kind == TypeNode::Kind::product && same_type(u->left, a) && same_type(u->right, t))
        out.push_back({"fst", 1, {at_type(s, u)}, [](const EnumKids& k) { return fst(k[0]); }});
      if (u->kind == TypeNode::Kind::product && same_type(u->right, a) && same_type(u->left, t))
        out.push_back({"snd", 1, {at_type(s, u)}, [](const EnumKids& k) { return snd(k[0]); }});
    }
  }
  for (const Type& u : enum_types()) {
    if (u->kind == TypeNode::Kind::sum) // case e0 of inl y -> e1 | inr y -> e2
      out.push_back(
          {"case",
           1,
           {at_type(s, u), under_binder(s, y, u->left, a), under_binder(s, y, u->right, a)},
           [y](const EnumKids& k) { return case_of(k[0], y, k[1], y, k[2]); }});
    if (u->kind == TypeNode::Kind::vector && same_type(u->left, a)) // index[A] (v, i)
      out.push_back({"index", 3, {at_type(s, u), at_type(s, int_type())}, [a](const EnumKids& k) {
                       return app(index_op(a), pair(k[0], k[1]));
                     }});
  }
}

} // namespace

const std::vector<Type>& enum_types() {
  static const std::vector<Type> types = {real_type(),
                                          int_type(),
                                          product_type(real_type(), real_type()),
                                          sum_type(real_type(), real_type()),
                                          arrow_type(real_type(), real_type()),
                                          arrow_type(int_type(), real_type()),
                                          vector_type(real_type())};
  return types;
}

EnumSort enum_body_sort() {
  EnumSort s;
  s.gamma = {{"x", real_type()}};
  s.type = real_type();
  return s;
}

std::string EnumGrammar::key(const EnumSort& s) const {
  return adsem::gen::typed_sort_key(s.gamma, s.type, s.depth,
                                    [](const Type& t) { return print_type(t); });
}

std::vector<EnumProd> EnumGrammar::productions(const EnumSort& s) const {
  std::vector<EnumProd> out;
  const std::string y = "y" + std::to_string(s.depth + 1);
  for (const auto& [x, t] : s.gamma) // (T-Var)
    if (same_type(t, s.type))
      out.push_back({"var", 1, {}, [x = x](const EnumKids&) { return var(x); }});
  introductions(s, y, out);
  eliminations(s, y, out);
  return out;
}

} // namespace adsem::delta_reverse::gen
