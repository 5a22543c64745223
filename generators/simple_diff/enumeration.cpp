// The typing rules of simple-diff (seed 003, Fig. 1, lines 152-183) as an enumeration grammar;
// enumeration.hpp lists the finite choices.
#include "generators/simple_diff/enumeration.hpp"

#include "syntax/simple_diff/printer.hpp"

namespace adsem::simple_diff::gen {

namespace {

using EnumProd = adsem::gen::EnumProduction<EnumSort, Term>;
using EnumKids = std::vector<Term>;

EnumSort enum_term_sort(const EnumSort& at, Type a) {
  EnumSort s = at;
  s.boolean = false;
  s.type = std::move(a);
  return s;
}

// at, with y : t innermost in Γ, one binder deeper
EnumSort enum_under_binder(const EnumSort& at, const std::string& y, Type t, Type a) {
  EnumSort s = enum_term_sort(at, std::move(a));
  s.gamma.emplace_back(y, std::move(t));
  s.depth = at.depth + 1;
  return s;
}

void enum_real_productions(const EnumSort& s, std::vector<EnumProd>& out) {
  const Type real = real_type(), pair = product_type(real, real);
  for (const double r : enum_literals())
    out.push_back({"constant", 1, {}, [r](const EnumKids&) { return mk::constant(r); }});
  // (T-add), (T-op): M + N, op(M) for op : real -> real or real × real -> real
  out.push_back(
      {"add", 1, {enum_term_sort(s, real), enum_term_sort(s, real)}, [](const EnumKids& k) {
         return mk::add(k[0], k[1]);
       }});
  for (const char* op : {"exp", "log"})
    out.push_back(
        {op, 1, {enum_term_sort(s, real)}, [op](const EnumKids& k) { return mk::op(op, k[0]); }});
  out.push_back(
      {"mul", 1, {enum_term_sort(s, pair)}, [](const EnumKids& k) { return mk::op("mul", k[0]); }});
}

// (T-fst), (T-snd) at A: M : A × B for every B with A × B in the universe
void enum_projection_productions(const EnumSort& s, std::vector<EnumProd>& out) {
  for (const Type& b : enum_types()) {
    const Type ab = product_type(s.type, b), ba = product_type(b, s.type);
    for (const Type& u : enum_types()) {
      if (same_type(u, ab))
        out.push_back({"fst", 1, {enum_term_sort(s, ab)}, [ab](const EnumKids& k) {
                         return mk::fst_ann(k[0], ab);
                       }});
      if (same_type(u, ba))
        out.push_back({"snd", 1, {enum_term_sort(s, ba)}, [ba](const EnumKids& k) {
                         return mk::snd_ann(k[0], ba);
                       }});
    }
  }
}

// (T-let), (T-if), (T-letrec), (T-call), (T-rd) at A
void enum_binding_productions(const EnumSort& s, std::vector<EnumProd>& out) {
  const std::string y = "y" + std::to_string(s.depth + 1);
  for (const Type& t : enum_types())
    out.push_back({"let",
                   1,
                   {enum_term_sort(s, t), enum_under_binder(s, y, t, s.type)},
                   [y, t](const EnumKids& k) { return mk::let(y, t, k[0], k[1]); }});
  EnumSort guard = s;
  guard.boolean = true;
  guard.type = nullptr;
  out.push_back(
      {"if", 1, {guard, s, s}, [](const EnumKids& k) { return mk::if_(k[0], k[1], k[2]); }});
  // letrec_2 f(y:real):real = M in N: M sees only y and Φ[f] (FV(M) ⊆ {y}), N sees Γ and Φ[f]
  const Type real = real_type();
  const std::string f = "f" + std::to_string(s.depth + 1);
  EnumSort body = enum_under_binder(s, y, real, real);
  body.gamma = {{y, real}};
  body.phi.push_back({f, real, real});
  EnumSort scope = s;
  scope.phi.push_back({f, real, real});
  scope.depth = s.depth + 1;
  out.push_back({"letrec", 1, {body, scope}, [f, y, real](const EnumKids& k) {
                   return mk::letrec(f, y, real, real, k[0], k[1], 2);
                 }});
  for (const EnumFunction& g : s.phi)
    if (same_type(g.result, s.type))
      out.push_back({"call", 1, {enum_term_sort(s, g.param)}, [name = g.name](const EnumKids& k) {
                       return mk::call(name, k[0]);
                     }});
  // W.rd_V(y:A. N) : A with N : U and W : U
  for (const Type& u : enum_types())
    out.push_back(
        {"rd",
         1,
         {enum_term_sort(s, u), enum_term_sort(s, s.type), enum_under_binder(s, y, s.type, u)},
         [y, t = s.type](const EnumKids& k) { return mk::rd(k[0], k[1], y, t, k[2]); }});
}

} // namespace

const std::vector<double>& enum_literals() {
  static const std::vector<double> literals = {0.0, 1.0, -2.0};
  return literals;
}

const std::vector<Type>& enum_types() {
  static const std::vector<Type> types = {real_type(), unit_type(),
                                          product_type(real_type(), real_type())};
  return types;
}

EnumSort enum_program_sort() {
  EnumSort s;
  s.gamma = {{"x", real_type()}};
  s.type = real_type();
  return s;
}

std::string EnumGrammar::key(const EnumSort& s) const {
  std::string k = s.boolean ? "B" : print_type(s.type);
  k += '|';
  for (const auto& [x, t] : s.gamma)
    k += x + ':' + print_type(t) + ',';
  k += '|';
  for (const EnumFunction& f : s.phi)
    k += f.name + ':' + print_type(f.param) + "->" + print_type(f.result) + ',';
  return k + '|' + std::to_string(s.depth);
}

std::vector<EnumProd> EnumGrammar::productions(const EnumSort& s) const {
  std::vector<EnumProd> out;
  if (s.boolean) { // B ::= pred(M) | true | false
    out.push_back({"true", 1, {}, [](const EnumKids&) { return mk::b_true(); }});
    out.push_back({"false", 1, {}, [](const EnumKids&) { return mk::b_false(); }});
    out.push_back({"less",
                   1,
                   {enum_term_sort(s, product_type(real_type(), real_type()))},
                   [](const EnumKids& k) { return mk::pred("less", k[0]); }});
    return out;
  }
  for (const auto& [x, t] : s.gamma) // (T-var)
    if (same_type(t, s.type))
      out.push_back({"var", 1, {}, [x = x](const EnumKids&) { return mk::var(x); }});
  if (s.type->is_real()) enum_real_productions(s, out);
  if (s.type->is_unit()) out.push_back({"unit", 1, {}, [](const EnumKids&) { return mk::unit(); }});
  if (s.type->is_product())
    out.push_back({"pair",
                   1,
                   {enum_term_sort(s, s.type->left), enum_term_sort(s, s.type->right)},
                   [ab = s.type](const EnumKids& k) { return mk::pair_ann(k[0], k[1], ab); }});
  enum_projection_productions(s, out);
  enum_binding_productions(s, out);
  return out;
}

} // namespace adsem::simple_diff::gen
