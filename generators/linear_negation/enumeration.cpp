// linear-negation's typing rules (seed 002, Table 1, L308-316; spec §3.2) as an enumeration
// grammar; enumeration.hpp lists the finite choices.
#include "generators/linear_negation/enumeration.hpp"

#include "syntax/linear_negation/printer.hpp"

namespace adsem::linear_negation::gen {

namespace {

using EnumProd = adsem::gen::EnumProduction<EnumSort, Term>;
using EnumKids = std::vector<Term>;

// (the names differ from terms.cpp's, with which a unity build puts this file)
Type enum_real() {
  return real_type();
}

EnumSort at(const EnumSort& s, Type a, std::string linear) {
  EnumSort out = s;
  out.type = std::move(a);
  out.linear = std::move(linear);
  return out;
}
EnumSort nonlinear(const EnumSort& s, Type a) {
  return at(s, std::move(a), "");
}
EnumSort same_judgment(const EnumSort& s, Type a) {
  return at(s, std::move(a), s.linear);
}
// s with the binders' names and types added (the next names by depth).
EnumSort under(const EnumSort& s, const std::vector<std::pair<std::string, Type>>& binders) {
  EnumSort out = s;
  for (const auto& b : binders)
    out.gamma.push_back(b);
  out.depth += static_cast<int>(binders.size());
  return out;
}
std::string name(const EnumSort& s, const char* stem, int k = 1) {
  return stem + std::to_string(s.depth + k);
}
// The types of binders and premises: a source program's are Λ(F)'s (spec §3.5).
const std::vector<Type>& binder_types(const EnumSort& s) {
  return s.source ? enum_source_types() : enum_types();
}

// (let), (let-pair) and (let-lin): in both kinds of judgment, the body in the conclusion's.
void substitutions(const EnumSort& s, std::vector<EnumProd>& out) {
  for (const Type& b : binder_types(s)) { // (let) t[x^{!B} := u]
    const std::string x = name(s, "y");
    out.push_back({"let", 1, {under(s, {{x, b}}), nonlinear(s, b)}, [x, b](const EnumKids& k) {
                     return let(exp_binder(x, b), k[0], k[1]);
                   }});
    if (!is_product(b)) continue; // (let-pair) t[⟨x^{!B1}, y^{!B2}⟩ := u]
    const std::string y1 = name(s, "y"), y2 = name(s, "y", 2);
    out.push_back({"let-pair",
                   1,
                   {under(s, {{y1, b->left}, {y2, b->right}}), nonlinear(s, b)},
                   [y1, y2, b](const EnumKids& k) {
                     return let_pair(exp_binder(y1, b->left), exp_binder(y2, b->right), k[0], k[1]);
                   }});
  }
  if (is_euclidean(s.type) &&
      !s.source) { // (let-lin) t[w^R := u], t linear in w, u in the conclusion's
    const std::string w = name(s, "w");
    EnumSort body = at(s, s.type, w);
    body.depth += 1;
    out.push_back({"let-lin", 1, {body, same_judgment(s, enum_real())}, [w](const EnumKids& k) {
                     return let(lin_binder(w), k[0], k[1]);
                   }});
  }
}

// Euclidean types: (pair), (sum) and (app-lin) in both kinds of judgment.
void euclidean_productions(const EnumSort& s, std::vector<EnumProd>& out) {
  const Type& a = s.type;
  if (is_product(a))
    out.push_back(
        {"pair", 1, {same_judgment(s, a->left), same_judgment(s, a->right)}, [](const EnumKids& k) {
           return pair(k[0], k[1]);
         }});
  if (!s.source || is_real(a)) // a source sum at R only (spec §3.5)
    out.push_back({"sum", 1, {same_judgment(s, a), same_judgment(s, a)}, [](const EnumKids& k) {
                     return add(k[0], k[1]);
                   }});
  if (s.source) return;
  // (app-lin) t u : R^d with t : R^⊥d, u in the conclusion's judgment
  out.push_back({"app-lin",
                 1,
                 {nonlinear(s, neg_type(euclidean_dim(a))), same_judgment(s, enum_real())},
                 [](const EnumKids& k) { return app(k[0], k[1]); }});
}

// Γ ⊢_z t : A (A Euclidean): (ax-lin), (zero), (mul), (mul') and the shared rules.
std::vector<EnumProd> linear_productions(const EnumSort& s) {
  std::vector<EnumProd> out;
  if (is_real(s.type)) {
    out.push_back({"ax-lin", 1, {}, [z = s.linear](const EnumKids&) { return var(z); }});
    out.push_back({"zero", 1, {}, [](const EnumKids&) { return num(0); }});
    out.push_back({"mul",
                   1,
                   {nonlinear(s, enum_real()), same_judgment(s, enum_real())},
                   [](const EnumKids& k) { return mul(k[0], k[1]); }});
    out.push_back({"mul'",
                   1,
                   {same_judgment(s, enum_real()), nonlinear(s, enum_real())},
                   [](const EnumKids& k) { return mul(k[0], k[1]); }});
  }
  euclidean_productions(s, out);
  substitutions(s, out);
  return out;
}

void real_productions(const EnumSort& s, std::vector<EnumProd>& out) {
  for (const double r : {1.0, -2.0}) // (num)
    out.push_back({"num", 1, {}, [r](const EnumKids&) { return num(r); }});
  for (const char* f : {"sin", "log"}) // (prim)
    out.push_back(
        {f, 1, {nonlinear(s, enum_real())}, [f](const EnumKids& k) { return prim(f, {k[0]}); }});
  out.push_back(
      {"mul", 1, {nonlinear(s, enum_real()), nonlinear(s, enum_real())}, [](const EnumKids& k) {
         return mul(k[0], k[1]);
       }});
}

} // namespace

const std::vector<Type>& enum_types() {
  static const std::vector<Type> types = {enum_real(), product_type(enum_real(), enum_real()),
                                          arrow_type(enum_real(), enum_real()), neg_type(1)};
  return types;
}

const std::vector<EnumSort>& enum_closed_sorts() {
  static const std::vector<EnumSort> sorts = [] {
    std::vector<EnumSort> out(2);
    out[0].type = enum_real();
    out[1].type = product_type(enum_real(), enum_real());
    return out;
  }();
  return sorts;
}

const std::vector<Type>& enum_source_types() {
  static const std::vector<Type> types = {enum_real(), product_type(enum_real(), enum_real()),
                                          arrow_type(enum_real(), enum_real())};
  return types;
}

EnumSort enum_source_sort(int inputs) {
  EnumSort s;
  for (int i = 1; i <= inputs; ++i)
    s.gamma.emplace_back("x" + std::to_string(i), enum_real());
  s.type = enum_real();
  s.source = true;
  return s;
}

std::string EnumGrammar::key(const EnumSort& s) const {
  return adsem::gen::typed_sort_key(s.gamma, s.type, s.depth,
                                    [](const Type& t) { return print_type(t); }) +
         '|' + s.linear + (s.source ? "|source" : "");
}

std::vector<EnumProd> EnumGrammar::productions(const EnumSort& s) const {
  if (!s.linear.empty()) return linear_productions(s);
  std::vector<EnumProd> out;
  const Type& a = s.type;
  for (const auto& [x, t] : s.gamma) // (ax)
    if (same_type(t, a)) out.push_back({"ax", 1, {}, [x = x](const EnumKids&) { return var(x); }});
  if (is_real(a)) real_productions(s, out);
  if (is_euclidean(a)) euclidean_productions(s, out);
  if (is_arrow(a)) { // (λ)
    const std::string y = name(s, "y");
    out.push_back({"lam",
                   1,
                   {under(nonlinear(s, a->right), {{y, a->left}})},
                   [y, b = a->left](const EnumKids& k) { return lam(exp_binder(y, b), k[0]); }});
  }
  if (is_neg(a)) { // (λ-lin) λz^R. t : R^⊥d with Γ ⊢_z t : R^d
    const std::string z = name(s, "a");
    EnumSort body = at(s, euclidean(a->dim), z);
    body.depth += 1;
    out.push_back(
        {"lam-lin", 1, {body}, [z](const EnumKids& k) { return lam(lin_binder(z), k[0]); }});
  }
  for (const Type& u : binder_types(s)) // (app) t u : A with t : B → A
    if (is_arrow(u) && same_type(u->right, a))
      out.push_back({"app", 1, {nonlinear(s, u), nonlinear(s, u->left)}, [](const EnumKids& k) {
                       return app(k[0], k[1]);
                     }});
  substitutions(s, out);
  return out;
}

} // namespace adsem::linear_negation::gen
