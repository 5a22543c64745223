// perturbative's rule book: each rule of Manzyuk's Fig. 3, the constant rules of spec §4.5, each
// clause of Fig. 4's T_x and the derivative macro D of spec §2.7 once, under its name, with its
// citation, the node forms it can fire on, its side condition and its result. Listing, traces, rule
// coverage and `adsem calculi --json` read this table; mutants patch it
// (properties/perturbative/mutants.cpp).
#include "semantics/perturbative/rules.hpp"

#include <cmath>

#include "semantics/core/primitives.hpp"
#include "semantics/perturbative/substitution.hpp"
#include "semantics/perturbative/templates.hpp"
#include "semantics/perturbative/transform.hpp"
#include "syntax/perturbative/printer.hpp"

namespace adsem::perturbative {

namespace {

// ---- the results of Fig. 3 and spec §4.5 ----

// (β) (λx.s) N → s[N/x]
Term beta(Engine&, const Reduction::Redex& r, const RuleInfo&) {
  const Simple& l = *r.node.operand;
  return substitute(*l.operand, l.name, r.node.argument);
}

// (×1) π_k(ι_k s) → s
Term times1(Engine&, const Reduction::Redex& r, const RuleInfo&) {
  return single(r.node.operand->operand);
}

// (×2) π_k(ι_l s) → 0. Fig. 5 prints ": σ" for both cases; the result type is σ_k (spec §12.2,
// L264-267).
Term times2(Engine&, const Reduction::Redex& r, const RuleInfo&) {
  return zero(r.node.type);
}

// (T) T(λx.s) → λx.T_x s (x : Tσ now)
Term push(Engine& engine, const Reduction::Redex& r, const RuleInfo&) {
  const Simple& l = *r.node.operand;
  return lam(l.name, tangent_type(l.binder_type),
             transform(engine, l.name, l.binder_type, single(l.operand)));
}

// (δ) p N → numeral(p(v)), N a numeric value in p's domain (otherwise stuck, spec §7)
bool delta_applies(const Engine&, const Reduction::Redex& r) {
  const Simple& p = *r.node.operand;
  if (p.kind != Kind::primitive) return false;
  const Primitive& prim = primitives().at(p.name);
  const auto v = numeric_argument(r.node.argument, prim.arity());
  return v && prim.in_domain(*v);
}
Term delta(Engine&, const Reduction::Redex& r, const RuleInfo&) {
  const Simple& p = *r.node.operand;
  const Primitive& prim = primitives().at(p.name);
  const std::vector<double> v = *numeric_argument(r.node.argument, prim.arity());
  const double out = prim.apply1<double>(v);
  if (!std::isfinite(out)) // no numeral denotes it; campaigns discard it as "non-finite"
    throw AdsemError(ErrorKind::domain,
                     "non-finite result of " + p.name + " at " + print_number(v.front()) +
                         (v.size() > 1 ? ", " + print_number(v.back()) : "") +
                         ": the value is not finite (overflow) and no numeral denotes it");
  return numeral(out);
}

// (δT) T p → τ_p, p a constant with a template (otherwise T p is stuck)
bool has_template(const Engine&, const Reduction::Redex& r) {
  const Simple& p = *r.node.operand;
  return p.kind == Kind::primitive && template_sources().contains(p.name);
}
Term delta_t(Engine&, const Reduction::Redex& r, const RuleInfo&) {
  return template_of(r.node.operand->name);
}

// The numeral under s's linear context L built from λy. and ι_k (spec §4.5 ν), or null.
const Simple* linear_numeral(const Simple& s) {
  const Simple* at = &s;
  while (at->kind == Kind::lam || at->kind == Kind::inj)
    at = at->operand.get();
  return at->kind == Kind::numeral ? at : nullptr;
}

// L1 = L2 for two summands that both end in a numeral: the same formers and types, in order,
// modulo α (seed 004, L141: terms are identified up to α). A context of λy. and ι_k ending in a
// numeral has no variable occurrence, so its binder names never matter: λx.1 + λy.1 is
// λx.1 + λx.1 ≡ λx.(1 + 1) (L165-185) and merges to λx.2. (Compared in place: building each
// context's text was a twentieth of an adequacy trial.)
bool same_linear_context(const Simple& a, const Simple& b) {
  const Simple* p = &a;
  const Simple* q = &b;
  while (p->kind == Kind::lam || p->kind == Kind::inj) {
    if (q->kind != p->kind) return false;
    const bool same = p->kind == Kind::lam ? same_type(p->binder_type, q->binder_type)
                                           : p->index == q->index && same_type(p->type, q->type);
    if (!same) return false;
    p = p->operand.get();
    q = q->operand.get();
  }
  return q->kind == Kind::numeral;
}

// Rebuild s's linear context around the numeral r.
Term refill(const Simple& s, double r) {
  if (s.kind == Kind::numeral) return numeral(r);
  return with_operand(s, refill(*s.operand, r));
}

// (ν) L[r1] + L[r2] → L[r1 + r2]: the first mergeable pair of summands (i < j), or nullopt.
std::optional<std::pair<std::size_t, std::size_t>> mergeable(const Term& m) {
  for (std::size_t i = 0; i < m.items.size(); ++i) {
    if (!linear_numeral(*m.items[i])) continue;
    for (std::size_t j = i + 1; j < m.items.size(); ++j)
      if (same_linear_context(*m.items[i], *m.items[j])) return std::pair{i, j};
  }
  return std::nullopt;
}
bool has_mergeable(const Engine&, const Merge::Redex& r) {
  return r.bag.items.size() > 1 && mergeable(r.bag).has_value();
}
Term nu(Engine&, const Merge::Redex& r, const RuleInfo&) {
  const Term& m = r.bag;
  const auto [i, j] = *mergeable(m);
  const double total = linear_numeral(*m.items[i])->value + linear_numeral(*m.items[j])->value;
  Term out = zero(m.type);
  for (std::size_t k = 0; k < m.items.size(); ++k) {
    if (k == j) continue;
    if (k == i)
      out = sum(out, refill(*m.items[i], total));
    else
      out.items.push_back(m.items[k]);
  }
  return out;
}

// ---- the clauses of Fig. 4 (the subterms' T_x given in the redex) ----

Term pair_of_parts(const Term& tx, const std::function<Term(const Term&)>& former) {
  return pair(former(proj(1, tx)), former(proj(2, tx)));
}

bool is_x(const Engine&, const Tx::Redex& r) {
  return r.node.name == r.x;
}
bool is_not_x(const Engine&, const Tx::Redex& r) {
  return r.node.name != r.x;
}
// T_x x = x (x now has type Tσ)
Term tx_x(Engine&, const Tx::Redex& r, const RuleInfo&) {
  return var(r.node.name, r.tangent_sigma);
}
// T_x y = ι2 y = ⟨0, y⟩ (y ≠ x: every other variable is a constant; spec §4.3)
Term tx_y(Engine&, const Tx::Redex& r, const RuleInfo&) {
  const Simple& y = r.node;
  return inj(2, tangent_type(y.type), var(y.name, y.type));
}
// T_x (λy.s) = ⟨λy.π1(T_x s), λy.π2(T_x s)⟩ (Prop 3.9, L112-114)
Term tx_lambda(Engine&, const Tx::Redex& r, const RuleInfo&) {
  const Simple& l = r.node;
  return pair_of_parts(*r.tx_operand,
                       [&](const Term& part) { return lam(l.name, l.binder_type, part); });
}
// T_x (s N) = (T_x s) ⬦ (T_x N) (eq. (3), Lemma 5.3)
Term tx_app(Engine&, const Tx::Redex& r, const RuleInfo&) {
  return diamond(*r.tx_operand, *r.tx_argument);
}
// T_x (ι_k s) = ⟨ι_k(π1(T_x s)), ι_k(π2(T_x s))⟩
Term tx_inj(Engine&, const Tx::Redex& r, const RuleInfo&) {
  const Simple& i = r.node;
  return pair_of_parts(*r.tx_operand, [&](const Term& part) { return inj(i.index, i.type, part); });
}
// T_x (T s) = ⟨T(π1(T_x s)), T(π2(T_x s))⟩ (𝒯 is linear, Thm 3.10)
Term tx_push(Engine&, const Tx::Redex& r, const RuleInfo&) {
  return pair_of_parts(*r.tx_operand, [](const Term& part) { return push(part); });
}
// T_x (π_k s) = ⟨π_k(π1(T_x s)), π_k(π2(T_x s))⟩
Term tx_proj(Engine&, const Tx::Redex& r, const RuleInfo&) {
  const int k = r.node.index;
  return pair_of_parts(*r.tx_operand, [&](const Term& part) { return proj(k, part); });
}
// [OURS] T_x c = ι2 c for numerals and primitives (spec §12.7)
Term tx_const(Engine&, const Tx::Redex& r, const RuleInfo&) {
  const Simple& c = r.node;
  return inj(2, tangent_type(c.type), single(make_shared_node<const Simple>(c)));
}

// ---- the book ----

using F = Kind;
using RuleKind::reduction, RuleKind::transformation;

std::string cite(std::string_view where) {
  return "Manzyuk, A Simply Typed λ-Calculus of Forward Automatic Differentiation, " +
         std::string(where);
}
constexpr std::string_view F3 = "Fig. 3 (seed 004 lines 188-189, 206)",
                           F4 = "Fig. 4 (seed 004 lines 211-218)",
                           constants = "not in the paper: the constant rules of spec §4.5, "
                                       "needed for numeric programs";

// Side conditions on the operand's form.
template <Kind kind> bool operand_is(const Engine&, const Reduction::Redex& r) {
  return r.node.operand->kind == kind;
}
bool same_index(const Engine&, const Reduction::Redex& r) {
  return r.node.operand->kind == F::inj && r.node.operand->index == r.node.index;
}
bool other_index(const Engine&, const Reduction::Redex& r) {
  return r.node.operand->kind == F::inj && r.node.operand->index != r.node.index;
}

// D(f, v, a) = π1 (T f (v, a)): the tangent in the first slot of Tσ = (tangent, primal)
Term derivative_macro(Engine&, const Macro::Redex& r, const RuleInfo&) {
  return proj(1, app(perturbative::push(r.f), pair(r.tangent, r.point)));
}

constexpr std::string_view additive =
    "the traversal: T_x is additive (transform.cpp visits every summand and builds the sum of "
    "their T_x), so this equation takes no step of its own";

std::vector<Rules::Entry> paper_entries() {
  using Red = Reduction;
  return {
      // Fig. 3: the reduction rules (the contextual closure is the strategy's, spec §4.7)
      rule_entry<Red>(rule_info("beta", cite(F3), reduction, "(λx. s) N →β s[N/x]"), {F::app},
                      operand_is<F::lam>, beta),
      rule_entry<Red>(rule_info("times1", cite(F3), reduction, "π_k(ι_k s) →× s"), {F::proj},
                      same_index, times1),
      rule_entry<Red>(
          rule_info("times2",
                    cite("Fig. 3 (seed 004 lines 188-189, 206; the type σ_k of Fig. 5's "
                         "erratum, spec §12.2)"),
                    reduction, "π_k(ι_l s) →× 0 : σ_k (k ≠ l)"),
          {F::proj}, other_index, times2),
      rule_entry<Red>(rule_info("T", cite(F3), reduction, "T(λx. s) →T λx. T_x s"), {F::push},
                      operand_is<F::lam>, push),
      // spec §4.5: constants
      rule_entry<Red>(rule_info("delta", std::string(constants), reduction,
                                "p N → numeral(p(v)) when N is a numeric value v in p's domain"),
                      {F::app}, delta_applies, delta),
      rule_entry<Red>(rule_info("delta-T", std::string(constants), reduction,
                                "T p → τ_p, the pushforward template of p (spec §7)"),
                      {F::push}, has_template, delta_t),
      rule_entry<Merge>(rule_info("nu", std::string(constants), reduction,
                                  "L[r1] + L[r2] → L[r1 + r2], L built from λy. and ι_k"),
                        {}, has_mergeable, nu),
      // Fig. 4: T_x, one clause per former (after the α-renaming of L189-190, L220)
      rule_entry<Tx>(rule_info("Tx-x", cite(F4), transformation, "T_x x = x"), {F::var}, is_x,
                     tx_x),
      rule_entry<Tx>(rule_info("Tx-y", cite(F4), transformation, "T_x y = ι2 y (y ≠ x)"), {F::var},
                     is_not_x, tx_y),
      rule_entry<Tx>(rule_info("Tx-0", cite(F4), transformation, "T_x 0 = 0", additive), {}, {},
                     {}),
      rule_entry<Tx>(rule_info("Tx-lambda", cite(F4), transformation,
                               "T_x(λy. s) = ⟨λy. π1(T_x s), λy. π2(T_x s)⟩"),
                     {F::lam}, {}, tx_lambda),
      rule_entry<Tx>(
          rule_info("Tx-sum", cite(F4), transformation, "T_x(s + N) = T_x s + T_x N", additive), {},
          {}, {}),
      rule_entry<Tx>(
          rule_info("Tx-app", cite(F4), transformation,
                    "T_x(s N) = (T_x s) ⬦ (T_x N), M ⬦ N = ⟨(π1 M)(π2 N) + π1((T(π2 M)) N), "
                    "(π2 M)(π2 N)⟩"),
          {F::app}, {}, tx_app),
      rule_entry<Tx>(rule_info("Tx-inj", cite(F4), transformation,
                               "T_x(ι_k s) = ⟨ι_k(π1(T_x s)), ι_k(π2(T_x s))⟩"),
                     {F::inj}, {}, tx_inj),
      rule_entry<Tx>(
          rule_info("Tx-T", cite(F4), transformation, "T_x(T s) = ⟨T(π1(T_x s)), T(π2(T_x s))⟩"),
          {F::push}, {}, tx_push),
      rule_entry<Tx>(rule_info("Tx-proj", cite(F4), transformation,
                               "T_x(π_k s) = ⟨π_k(π1(T_x s)), π_k(π2(T_x s))⟩"),
                     {F::proj}, {}, tx_proj),
      rule_entry<Tx>(
          rule_info("Tx-const",
                    "not in the paper: Fig. 4 extended to numerals and primitives (spec §4.2, "
                    "§12.7)",
                    transformation, "T_x c = ι2 c for a numeral or primitive c"),
          {F::numeral, F::primitive}, {}, tx_const),
      // the derivative D the paper writes informally (L46), as the macro of spec §2.7
      rule_entry<Macro>(rule_info("D",
                                  cite("the derivative D (seed 004 line 46), written as the "
                                       "macro of spec §2.7"),
                                  transformation, "D(f, v, a) = π1 (T f (v, a))"),
                        {}, {}, derivative_macro),
  };
}

} // namespace

std::optional<std::vector<double>> numeric_argument(const Term& n, std::size_t arity) {
  std::vector<double> v(arity, 0.0);
  for (const SimpleP& s : n.items) {
    if (arity == 1 && s->kind == Kind::numeral) {
      v[0] += s->value;
    } else if (arity == 2 && s->kind == Kind::inj && s->operand->kind == Kind::numeral) {
      v[static_cast<std::size_t>(s->index - 1)] += s->operand->value;
    } else {
      return std::nullopt;
    }
  }
  return v;
}

Term derivative(Engine& engine, const Term& f, const Term& tangent, const Term& point) {
  const Macro::Redex redex{f, tangent, point};
  const Rule<Macro>* macro = engine.select<Macro>(redex);
  if (!macro) throw AdsemError(ErrorKind::usage, "the rule book has no derivative macro D");
  engine.record(macro->info);
  return macro->result(engine, redex, macro->info);
}

const RulesPtr& paper_rules() {
  static const RulesPtr book = std::make_shared<const Rules>(paper_entries());
  return book;
}

RulesPtr patch_paper_rules(const RulesPatch& patch) {
  return std::make_shared<const Rules>(paper_rules()->patched(patch));
}

} // namespace adsem::perturbative
