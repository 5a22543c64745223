// pullback's rule book: each reduction rule of Mak and Ong's §3.4 and Fig. 3, and each extension
// of spec §4.6 [X], once, under the name traces print, with its citation, the node kinds it can
// fire on, its side condition and its result. Listing, traces, rule coverage and `adsem calculi
// --json` read this table; mutants patch it (properties/pullback/mutants.cpp).
#include "semantics/pullback/rules.hpp"

#include "semantics/pullback/combine.hpp"
#include "semantics/pullback/conquer.hpp"
#include "semantics/pullback/contexts.hpp"
#include "semantics/pullback/let_series.hpp"
#include "syntax/pullback/substitution.hpp"

namespace adsem::pullback {

namespace {

using K = Kind;
using RuleKind::reduction, RuleKind::transformation;

std::string cite(std::string_view where) {
  return "Mak & Ong, A Differential-form Pullback Programming Language for Higher-order "
         "Reverse-mode Automatic Differentiation, " +
         std::string(where);
}
std::string extension(std::string_view why) {
  return "not in the paper: " + std::string(why);
}
constexpr std::string_view S34 = "§3.4 (seed 000 lines 363-365)",
                           F3 = "Fig. 3 (seed 000 lines 240-248)";

// Side conditions of Combine, on the redex's node t.
template <class F> Rule<Combine>::Match on_node(F f) {
  return [f](const Machine&, const Combine::Redex& r) { return f(r.node); };
}
Kind operand(const Term& t, std::size_t i) {
  return t->kids[i]->kind;
}
// [perf] The entry with the kinds of Combine::operand at which its side condition can hold
// (each condition below tests that operand's kind first): the book's index then skips it
// elsewhere without the call. Most failed attempts are projections of a projection or a variable
// (rule 6's substitutions of a pair for a tangent variable leave chains π(π(…)) that fail one
// after the other as the search moves up).
Rule<Combine> on_operands(std::vector<Kind> kinds, Rule<Combine> rule) {
  rule.operands = std::move(kinds);
  return rule;
}
bool is_numeral_or_zero(const Term& t) {
  return is_numeral_tuple(t) || t->kind == K::zero;
}

// Side conditions of rows 9-20, on the redex with its premises.
using Row = Pullback::Redex;
template <class F> Rule<Pullback>::Match on_row(F f) {
  return [f](const Machine&, const Row& r) { return f(r); };
}
bool mentions_y(const Row& r, const Term& t) {
  return occurs_free(r.y, t);
}
bool y_atom(const Row& r, std::size_t i) {
  return is_y_atom(r.e->kids[i], r.y);
}
// ⟨A₁, A₂⟩ or A₁ + A₂ with A_i a y-atom and the other free of y
bool y_atom_beside_constant(const Row& r, std::size_t i) {
  return y_atom(r, i) && !mentions_y(r, r.e->kids[1 - i]);
}
bool y_in_dual_lambda(const Row& r) {
  return r.e->name != r.y && mentions_y(r, r.e->kids[0]);
}

std::vector<Book::Entry> paper_entries() {
  using C = Combine;
  using P = Pullback;
  using namespace rules;
  const std::vector<Kind> pair_kind = {K::pair};
  return {
      // §3.4: the combine redexes (spec §4.6)
      on_operands({K::lam},
                  rule_entry<C>(rule_info("1", cite(S34), reduction, "(λx.S) V → S[V/x]"), {K::app},
                                on_node([](const Term& t) { return operand(t, 0) == K::lam; }),
                                rule_1)),
      on_operands({K::pair},
                  rule_entry<C>(rule_info("2", cite(S34), reduction, "π_i⟨V₁,V₂⟩ → V_i"), {K::proj},
                                on_node([](const Term& t) { return operand(t, 0) == K::pair; }),
                                rule_2)),
      on_operands(
          {K::num, K::pair, K::zero},
          rule_entry<C>(
              rule_info("3", cite(S34), reduction, "f̲(r̲) → the numeral tuple of f(r)"), {K::prim},
              on_node([](const Term& t) { return is_numeral_or_zero(t->kids[0]); }), rule_3)),
      on_operands({K::jac},
                  rule_entry<C>(rule_info("4", cite(S34), reduction, "(𝒥f̲·r̲) r̲' → 𝒥(f)(r')·r"),
                                {K::app}, on_node([](const Term& t) {
                                  const Term& f = t->kids[0];
                                  return f->kind == K::jac && is_numeral_or_zero(f->kids[0]) &&
                                         is_numeral_or_zero(t->kids[1]);
                                }),
                                rule_4)),
      on_operands(
          {K::covec},
          rule_entry<C>(rule_info("5", cite(S34), reduction, "(λv.(𝒥f̲·v) r̲)*·r̲'* → ((𝒥f(r))ᵀ r')*"),
                        {K::dualmap}, on_node(is_vjp_redex), transpose(Adjoint{}))),
      on_operands(
          {K::covec},
          rule_entry<C>(
              rule_info("5+",
                        extension("spec §4.6 [X], the general numeric transpose Example 3.9 needs "
                                  "(seed 000 lines 385-387)"),
                        reduction, "(λv.B)*·c* → (Bᵀc)* for B ∈ Lin_v"),
              {K::dualmap}, on_node(is_linear_transpose_redex), transpose(Adjoint{}))),
      on_operands({K::dualmap},
                  rule_entry<C>(rule_info("6", cite(S34), reduction,
                                          "(λv₁.V₁)*·((λv₂.V₂)*·V₃) → (λv₁.V₂[V₁/v₂])*·V₃"),
                                {K::dualmap}, on_node([](const Term& t) {
                                  return operand(t, 1) == K::dualmap &&
                                         operand(t, 0) != K::zero; // Z6 first
                                }),
                                rule_6)),
      // Fig. 3 "Let Series" (spec §4.3), on a final let body
      rule_entry<LetSeries>(
          rule_info("7", cite("Fig. 3 (seed 000 lines 236-240)"), reduction,
                    "(Ω λy.let x = E in x)·ω → (Ω λy.E)·ω"),
          {K::let},
          [](const Machine&, const PullbackBody::Redex& r) {
            const Term& body = r.node->kids[0];
            return r.final && body->kids[1]->kind == K::var && body->kids[1]->name == body->name;
          },
          rule_7),
      rule_entry<LetSeries>(
          rule_info("8", cite("Fig. 3 (seed 000 lines 236-240)"), reduction,
                    "(Ω λy.let x = E in L)·ω → (Ω λy.⟨y,E⟩)·((Ω λw.L[w.1/y][w.2/x])·ω)"),
          {K::let}, [](const Machine&, const PullbackBody::Redex& r) { return r.final; },
          rule_8(stage_slots)),
      // Fig. 3: the pullback along an elementary term E, ((Ω λy.E)·ω) V (spec §4.4)
      rule_entry<P>(rule_info("9", cite(F3), reduction, "y ∉ FV(E): → 0"), {},
                    on_row([](const Row& r) { return !mentions_y(r, r.body); }), row_9),
      rule_entry<P>(rule_info("10a", cite(F3), reduction, "E = c + y_q: → (λv.v_q)*·(ω(c + V_q))"),
                    {K::sum}, on_row([](const Row& r) {
                      return r.e->kids.size() == 2 &&
                             (y_atom_beside_constant(r, 0) || y_atom_beside_constant(r, 1));
                    }),
                    row_10a),
      rule_entry<P>(
          rule_info("10b", cite(F3), reduction, "E = y_p + y_q: → (λv.v_p + v_q)*·(ω(V_p + V_q))"),
          {K::sum}, on_row([](const Row& r) {
            return r.e->kids.size() == 2 && y_atom(r, 0) && y_atom(r, 1);
          }),
          row_10b),
      rule_entry<P>(rule_info("11", cite(F3), reduction, "E = y: → (λv.v)*·(ω V)"), {K::var},
                    on_row([](const Row& r) { return r.e->name == r.y; }), row_11),
      rule_entry<P>(rule_info("12", cite(F3), reduction, "E = y_p, p ≠ ε: → (λv.v_p)*·(ω V_p)"),
                    {K::proj}, on_row([](const Row& r) { return is_y_atom(r.e, r.y); }), row_12),
      rule_entry<P>(
          rule_info("13a", cite(F3), reduction, "E = ⟨y_p, c⟩: → (λv.⟨v_p, 0⟩)*·(ω⟨V_p, c⟩)"),
          pair_kind, on_row([](const Row& r) { return !r.stage && y_atom_beside_constant(r, 0); }),
          row_13a),
      rule_entry<P>(
          rule_info("13b", cite(F3), reduction, "E = ⟨c, y_q⟩: → (λv.⟨0, v_q⟩)*·(ω⟨c, V_q⟩)"),
          pair_kind, on_row([](const Row& r) { return !r.stage && y_atom_beside_constant(r, 1); }),
          row_13b),
      rule_entry<P>(
          rule_info("13c", cite(F3), reduction, "E = ⟨y_p, y_q⟩: → (λv.⟨v_p, v_q⟩)*·(ω⟨V_p, V_q⟩)"),
          pair_kind, on_row([](const Row& r) { return !r.stage && y_atom(r, 0) && y_atom(r, 1); }),
          row_13c),
      rule_entry<P>(rule_info("14", cite(F3), reduction, "E = 𝒥f̲·y_p: → (λv.𝒥f̲·v_p)*·(ω(𝒥f̲·V_p))"),
                    {K::jac}, on_row([](const Row& r) { return y_atom(r, 0); }), row_14),
      rule_entry<P>(
          rule_info("15", cite(F3), reduction, "E = f̲(y_p): → (λv.(𝒥f̲·v_p) V_p)*·(ω(f̲(V_p)))"),
          {K::prim}, on_row([](const Row& r) { return y_atom(r, 0); }), row_15),
      rule_entry<P>(
          rule_info("16a", cite(F3), reduction,
                    "E = (λx.L)*·y_p, y ∉ FV(λx.L): → (λv.(λx.L)*·v_p)*·(ω((λx.L)*·V_p))"),
          {K::dualmap}, on_row([](const Row& r) { return !y_in_dual_lambda(r) && y_atom(r, 1); }),
          row_16a),
      rule_entry<P>(
          rule_info("16b", cite(F3), reduction,
                    "E = (λx.L)*·c, S := JAC(y, L, V): → (λv.(λx.S)*·c)*·(ω((λx.L[V/y])*·c))"),
          {K::dualmap}, on_row([](const Row& r) {
            return r.premise.has_value() && !mentions_y(r, r.e->kids[1]);
          }),
          row_16b),
      rule_entry<P>(rule_info("16c", cite(F3), reduction,
                              "E = (λx.L)*·y_p, S := JAC(y, L, V): → (λv.(λx.L[V/y])*·v_p + "
                              "(λx.S)*·V_p)*·(ω((λx.L[V/y])*·V_p))"),
                    {K::dualmap},
                    on_row([](const Row& r) { return r.premise.has_value() && y_atom(r, 1); }),
                    row_16c),
      rule_entry<P>(
          rule_info("17", cite("Fig. 3 (seed 000 lines 245, 305; spec §4.4, ID-11)"), reduction,
                    "E = (Ω λx.L)·a: E unfolded at a fresh point b into λb.L', then row 18"),
          {K::pullback}, on_row([](const Row& r) { return r.premise.has_value(); }), row_17),
      rule_entry<P>(rule_info("18", cite(F3), reduction,
                              "E = λx.L, S := JAC(y, L, V): → (λv.λx.S)*·(ω(λx.L[V/y])) (D-curry)"),
                    {K::lam}, on_row([](const Row& r) { return r.premise.has_value(); }), row_18),
      rule_entry<P>(
          rule_info("19a", cite(F3), reduction, "E = y_p c: → (λv.v_p c)*·(ω(V_p c)) (D-eval)"),
          {K::app}, on_row([](const Row& r) { return y_atom_beside_constant(r, 0); }), row_19a),
      rule_entry<P>(rule_info("19b", cite(F3), reduction,
                              "E = y_p y_q, V_p = λz.P', S' := JAC(z, P', V_q): → (λv.v_p V_q + "
                              "S'[v_q/v'])*·(ω(V_p V_q))"),
                    {K::app}, on_row([](const Row& r) {
                      return r.premise.has_value() && (*r.premise)->kind != K::zero;
                    }),
                    row_19b),
      rule_entry<P>(
          rule_info("19c", cite(F3), reduction,
                    "E = y_p y_q, V_p = λz.P', JAC(z, P', V_q) → 0: → (λv.v_p V_q)*·(ω(V_p V_q))"),
          {K::app}, on_row([](const Row& r) {
            return r.premise.has_value() && (*r.premise)->kind == K::zero;
          }),
          row_19c),
      rule_entry<P>(rule_info("20a", cite("Fig. 3 (seed 000 line 248)"), reduction,
                              "B = ⟨y,E⟩, S := JAC1(y, E, V): → (λv.⟨v,S⟩)*·(ω⟨V,E[V/y]⟩)"),
                    pair_kind,
                    on_row([](const Row& r) { return r.stage && r.premise.has_value(); }), row_20a),
      rule_entry<P>(rule_info("20b", cite("Fig. 3 (seed 000 line 248)"), reduction,
                              "B = ⟨y,E⟩, y ∉ FV(E): → (λv.⟨v,0⟩)*·(ω⟨V,E⟩)"),
                    pair_kind, on_row([](const Row& r) { return r.stage && !mentions_y(r, r.e); }),
                    row_20b),
      // §3.2: A-normalisation as one macro step (spec §4.2)
      rule_entry<Anf>(
          rule_info("A*", cite("§3.2 (seed 000 lines 205-219) and App. B (lines 745-783)"),
                    transformation, "(Ω λy.P)·S → (Ω λy.ANF(P))·S while P is not final"),
          {}, [](const Machine&, const PullbackBody::Redex& r) { return !r.final; }, a_star),
      // spec §4.6 [X]: the extensions
      rule_entry<C>(rule_info("let", extension("spec §4.6 [ID], the β-redex reading of let"),
                              reduction, "let x = V in N → N[V/x]"),
                    {K::let}, {}, let_beta),
      [] {
        auto n1_entry = rule_entry<C>(
            rule_info("N1", extension("spec §4.6 [X] numeral folding (seed 000 line 741 prints 6)"),
                      reduction, "r̲₁ + r̲₂ → (r₁+r₂)"),
            {K::sum}, on_node(sums_numerals), n1);
        n1_entry.extra = fuse_numerals;
        return Book::Entry(std::move(n1_entry));
      }(),
      rule_entry<C>(rule_info("N2", extension("spec §4.6 [X] numeral folding"), reduction,
                              "⟨V₁,V₂⟩ + ⟨V₃,V₄⟩ → ⟨V₁+V₃, V₂+V₄⟩"),
                    {K::sum}, on_node(sums_pairs), n2),
      rule_entry<C>(rule_info("N3", extension("spec §4.6 [X] numeral folding"), reduction,
                              "r̲₁* + r̲₂* → (r₁+r₂)* (same type)"),
                    {K::sum}, on_node(sums_covectors), n3),
      on_operands({K::zero},
                  rule_entry<C>(rule_info("Z1", extension("spec §4.6 [X], the ≡ of §2.3 oriented"),
                                          reduction, "0 V → 0"),
                                {K::app},
                                on_node([](const Term& t) { return operand(t, 0) == K::zero; }),
                                zero_of_type)),
      on_operands({K::zero},
                  rule_entry<C>(rule_info("Z2", extension("spec §4.6 [X], the ≡ of §2.3 oriented"),
                                          reduction, "π_i(0) → 0"),
                                {K::proj},
                                on_node([](const Term& t) { return operand(t, 0) == K::zero; }),
                                zero_of_type)),
      on_operands({K::zero},
                  rule_entry<C>(rule_info("Z3", extension("spec §4.6 [X], the ≡ of §2.3 oriented"),
                                          reduction, "⟨0,0⟩ → 0"),
                                {K::pair}, on_node([](const Term& t) {
                                  return operand(t, 0) == K::zero && operand(t, 1) == K::zero;
                                }),
                                zero_of_type)),
      on_operands({K::zero},
                  rule_entry<C>(rule_info("Z4", extension("spec §4.6 [X], the ≡ of §2.3 oriented"),
                                          reduction, "𝒥f̲·0 → 0"),
                                {K::jac},
                                on_node([](const Term& t) { return operand(t, 0) == K::zero; }),
                                z4)),
      on_operands({K::zero},
                  rule_entry<C>(rule_info("Z5", extension("spec §4.6 [X], the ≡ of §2.3 oriented"),
                                          reduction, "(λx.V)*·0 → 0"),
                                {K::dualmap},
                                on_node([](const Term& t) { return operand(t, 1) == K::zero; }),
                                zero_covector)),
      rule_entry<C>(rule_info("Z6", extension("spec §4.6 [X], the ≡ of §2.3 oriented"), reduction,
                              "(λx.0)*·V → 0"),
                    {K::dualmap}, on_node([](const Term& t) {
                      return operand(t, 0) == K::zero && operand(t, 1) != K::zero; // Z5 first
                    }),
                    zero_covector),
      rule_entry<C>(rule_info("Z7", extension("spec §4.6 [X], the ≡ of §2.3 oriented"), reduction,
                              "0 + V ≡ V ≡ V + 0: flatten nested sums, drop zeros"),
                    {K::sum}, on_node([](const Term& t) { return !is_flat_sum(t); }), z7),
      on_operands(
          {K::sum},
          rule_entry<C>(rule_info("Sigma1", extension("spec §4.6 [X], the ≡ of §2.3 oriented"),
                                  reduction, "(V₁+V₂) V → V₁ V + V₂ V"),
                        {K::app}, on_node([](const Term& t) { return operand(t, 0) == K::sum; }),
                        sigma1)),
      on_operands(
          {K::sum},
          rule_entry<C>(rule_info("Sigma2", extension("spec §4.6 [X], the ≡ of §2.3 oriented"),
                                  reduction, "π_i(V₁+V₂) → π_i V₁ + π_i V₂"),
                        {K::proj}, on_node([](const Term& t) { return operand(t, 0) == K::sum; }),
                        sigma2)),
      on_operands(
          {K::sum},
          rule_entry<C>(rule_info("Sigma3", extension("spec §4.6 [X], the ≡ of §2.3 oriented"),
                                  reduction, "(λx.V)*·(V₁+V₂) → (λx.V)*·V₁ + (λx.V)*·V₂"),
                        {K::dualmap}, on_node([](const Term& t) {
                          return operand(t, 1) == K::sum && operand(t, 0) != K::zero; // Z6 first
                        }),
                        sigma3)),
  };
}

} // namespace

const BookPtr& paper_rules() {
  static const BookPtr book = [] {
    std::vector<Book::Entry> entries = context_entries(); // §3.4 defines C before the redexes
    for (Book::Entry& rule : paper_entries())
      entries.push_back(std::move(rule));
    return std::make_shared<const Book>(std::move(entries));
  }();
  return book;
}

BookPtr patch_paper_rules(const BookPatch& patch) {
  return std::make_shared<const Book>(paper_rules()->patched(patch));
}

std::vector<std::string> rule_names() {
  std::vector<std::string> names;
  for (const RuleInfo& rule : paper_rules()->infos())
    if (rule.unfireable.empty()) names.push_back(rule.name);
  return names;
}

const std::vector<std::string>& rare_rule_names() {
  static const std::vector<std::string> names = {
      "4", "13a", "16b", "16c", "17", "19b", "19c", "N2", "N3", "Sigma1", "Sigma2", "Sigma3", "Z2"};
  return names;
}

} // namespace adsem::pullback
