// The pullback language's typing rules (seed 000, Fig. 2, L180-187; spec §3.1) as an enumeration
// grammar; enumeration.hpp lists the finite choices.
#include "generators/pullback/enumeration.hpp"

#include "semantics/pullback/primitive_table.hpp"

namespace adsem::pullback::gen {

namespace {

using EnumProd = adsem::gen::EnumProduction<EnumSort, Term>;
using EnumKids = std::vector<Term>;

const Type t_real = real_type();
const Type t_pair = prod(real_type(), real_type());
const Type t_fun = arrow(real_type(), real_type());
const Type t_dual = dual(real_type());
const Type t_one_form = one_form(real_type());

// The premise Γ ⊢ _ : a of a rule whose conclusion has sort `at` (not linear, any head).
EnumSort at_type(const EnumSort& at, Type a) {
  EnumSort s = at;
  s.type = std::move(a);
  s.linear.clear();
  s.summand = false;
  return s;
}
// The premise Γ, y<depth+1> : b ⊢ _ : a under a binder.
EnumSort under_binder(const EnumSort& at, const Type& b, Type a) {
  EnumSort s = at_type(at, std::move(a));
  s.gamma.emplace_back("y" + std::to_string(at.depth + 1), b);
  s.depth = at.depth + 1;
  return s;
}
std::string binder(const EnumSort& at) {
  return "y" + std::to_string(at.depth + 1);
}

// (sum) S + P, the left summand not a sum (a sum flattens: each is listed once)
void sum_production(const EnumSort& s, std::vector<EnumProd>& out) {
  EnumSort left = s, right = s;
  left.summand = true;
  right.summand = false;
  out.push_back({"sum", 1, {left, right}, [](const EnumKids& k) { return sum({k[0], k[1]}); }});
}

// Γ, x:R ⊢ S : R with x ∈ lin(S) (spec §2.4): x, 0, S₁ + S₂, (𝒥sin·S) P with x ∉ FV(P)
void linear_productions(const EnumSort& s, std::vector<EnumProd>& out) {
  const std::string x = s.linear;
  out.push_back({"var", 1, {}, [x](const EnumKids&) { return var(x, t_real); }});
  out.push_back({"zero", 1, {}, [](const EnumKids&) { return zero(t_real); }});
  if (!s.summand) sum_production(s, out);
  EnumSort point = at_type(s, t_real); // P: Γ without x
  std::erase_if(point.gamma, [&x](const auto& entry) { return entry.first == x; });
  EnumSort direction = s; // may be a sum, even where s is a left summand
  direction.summand = false;
  out.push_back({"jac-app", 2, {direction, point}, [](const EnumKids& k) {
                   return app(make_jac("sin", k[0]), k[1]);
                 }});
}

void real_productions(const EnumSort& s, std::vector<EnumProd>& out) {
  for (const double r : {1.0, -2.0})
    out.push_back({"num", 1, {}, [r](const EnumKids&) { return num(r); }});
  out.push_back(
      {"sin", 1, {at_type(s, t_real)}, [](const EnumKids& k) { return make_prim("sin", k[0]); }});
  out.push_back(
      {"mult", 1, {at_type(s, t_pair)}, [](const EnumKids& k) { return make_prim("mult", k[0]); }});
  for (const int i : {1, 2})
    out.push_back(
        {"proj", 1, {at_type(s, t_pair)}, [i](const EnumKids& k) { return proj(i, k[0]); }});
  if (!s.summand) sum_production(s, out);
}

// g : R² → R² (seed 000, Ex. 3.1, L177), the primitive whose Jacobian is square and asymmetric
void pair_productions(const EnumSort& s, std::vector<EnumProd>& out) {
  out.push_back({"pair", 1, {at_type(s, t_real), at_type(s, t_real)}, [](const EnumKids& k) {
                   return pair(k[0], k[1]);
                 }});
  out.push_back(
      {"g", 1, {at_type(s, t_pair)}, [](const EnumKids& k) { return make_prim("g", k[0]); }});
}

// let y = N in M of a source body, N at R or R × R (Ex. 3.7's straight-line programs share so)
void let_productions(const EnumSort& s, std::vector<EnumProd>& out) {
  for (const Type& b : {t_real, t_pair})
    out.push_back({"let",
                   1,
                   {at_type(s, b), under_binder(s, b, s.type)},
                   [y = binder(s), b](const EnumKids& k) { return let(y, b, k[0], k[1]); }});
}

void dual_productions(const EnumSort& s, std::vector<EnumProd>& out) {
  out.push_back({"covec", 1, {}, [](const EnumKids&) { return covec({1.0}, t_real); }});
  out.push_back({"zero", 1, {}, [](const EnumKids&) { return zero(t_dual); }});
  if (!s.summand) sum_production(s, out);
  // (dual) (λx:R. S)*·C, x ∈ lin(S), C : R*
  EnumSort body = under_binder(s, t_real, t_real);
  body.linear = binder(s);
  out.push_back({"dual", 1, {body, at_type(s, t_dual)}, [x = binder(s)](const EnumKids& k) {
                   return dualmap(x, t_real, k[0], k[1]);
                 }});
}

void arrow_productions(const EnumSort& s, std::vector<EnumProd>& out) {
  const Type& a = s.type;
  out.push_back({"lam",
                 1,
                 {under_binder(s, a->left, a->right)},
                 [y = binder(s), t = a->left](const EnumKids& k) { return lam(y, t, k[0]); }});
  if (same_type(a, t_fun) && !s.source)
    out.push_back(
        {"jac", 1, {at_type(s, t_real)}, [](const EnumKids& k) { return make_jac("sin", k[0]); }});
  if (same_type(a, t_one_form)) // (pb) (Ω λx:R. P)·S : Ω R for P : R, S : Ω R
    out.push_back({"pullback",
                   1,
                   {under_binder(s, t_real, t_real), at_type(s, t_one_form)},
                   [x = binder(s)](const EnumKids& k) { return pullback(x, t_real, k[0], k[1]); }});
}

} // namespace

const std::vector<Type>& enum_types() {
  static const std::vector<Type> types = {t_real, t_pair, t_fun, t_dual, t_one_form};
  return types;
}

const std::vector<EnumSort>& enum_closed_sorts() {
  static const std::vector<EnumSort> sorts = {at_type({}, t_real), at_type({}, t_dual)};
  return sorts;
}

EnumSort enum_body_sort(const Type& sigma, const Type& tau) {
  EnumSort s = at_type({}, tau);
  s.gamma.emplace_back("y1", sigma);
  s.depth = 1;
  s.source = true;
  return s;
}

std::string EnumGrammar::key(const EnumSort& s) const {
  return adsem::gen::typed_sort_key(s.gamma, s.type, s.depth,
                                    [](const Type& t) { return type_text(t); }) +
         '|' + s.linear + (s.summand ? "|+" : "|") + (s.source ? "s" : "");
}

std::vector<EnumProd> EnumGrammar::productions(const EnumSort& s) const {
  std::vector<EnumProd> out;
  if (!s.linear.empty()) {
    linear_productions(s, out);
    return out;
  }
  const Type& a = s.type;
  for (const auto& [x, t] : s.gamma) // (var)
    if (same_type(t, a))
      out.push_back({"var", 1, {}, [x = x, t = t](const EnumKids&) { return var(x, t); }});
  if (same_type(a, t_real)) real_productions(s, out);
  if (same_type(a, t_pair)) pair_productions(s, out);
  if (s.source && (same_type(a, t_real) || same_type(a, t_pair))) let_productions(s, out);
  if (same_type(a, t_dual)) dual_productions(s, out);
  if (is_arrow(a)) arrow_productions(s, out);
  for (const Type& u : enum_types()) // (app) S P for S : u = σ ⇒ a
    if (is_arrow(u) && same_type(u->right, a))
      out.push_back({"app", 1, {at_type(s, u), at_type(s, u->left)}, [](const EnumKids& k) {
                       return app(k[0], k[1]);
                     }});
  return out;
}

} // namespace adsem::pullback::gen
