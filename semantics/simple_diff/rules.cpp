// simple-diff's rule book: each rule of Abadi and Plotkin's Section 3 once, under its paper name,
// with its citation, the node kinds it can fire on, its side condition and its result. Listing,
// traces, rule coverage and `adsem calculi --json` read this table; mutants patch it
// (properties/simple_diff/mutants.cpp).
#include "semantics/simple_diff/rules.hpp"

#include <type_traits>

#include "semantics/simple_diff/eval.hpp"
#include "semantics/simple_diff/symbolic_diff.hpp"
#include "semantics/simple_diff/symbolic_eval.hpp"

namespace adsem::simple_diff {

namespace {

using K = Kind;
using RuleKind::context, RuleKind::evaluation, RuleKind::transformation;

std::string cite(std::string_view where) {
  return "Abadi & Plotkin, A Simple Differentiable Programming Language, " + std::string(where);
}
constexpr std::string_view F2 = "Fig. 2 (seed 003 lines 316-362)",
                           F3 = "Fig. 3 (seed 003 lines 364-382)",
                           F4 = "Fig. 4 (seed 003 lines 384-398)",
                           F5 = "Fig. 5 (seed 003 lines 384-398)",
                           F6 = "Fig. 6 (seed 003 lines 400-436)",
                           F8 = "Fig. 8 (seed 003 lines 914-954)";

// Side conditions.
bool guard_true(const Machine&, const auto& r) {
  return r.guard;
}
bool guard_false(const Machine&, const auto& r) {
  return !r.guard;
}
bool unlimited(const Machine&, const auto& r) {
  return !r.term->limit();
}
bool limited(const Machine&, const auto& r) {
  return r.term->limit().has_value();
}
// φ(f) = clo_φ'(...)
bool calls_closure(const Machine&, const auto& r) {
  return r.callee && !r.callee->limit;
}
// φ(f) = clo_{n+1,φ'}(...) (Fig. 8: no rule for clo_0)
bool calls_approximant(const Machine&, const auto& r) {
  return r.callee && r.callee->limit && *r.callee->limit > 0;
}
bool linear_mode(const Machine& m, const TraceDerivative::Redex&) {
  return m.options().diff == DiffMode::linear;
}

// A Fig. 6 clause for C of `kind`: its entry, with the derivatives it takes of C's children in
// the order its result takes them (Derivative::Extra), tied to that result.
template <class Result>
Rule<Derivative> clause(RuleInfo info, Kind kind, Result result,
                        std::vector<Derivative::Premise> premises) {
  Rule<Derivative> out = rule_entry<Derivative>(std::move(info), {kind}, {}, result);
  out.extra.premises = std::move(premises);
  out.extra.result_type = &out.result.target_type();
  if constexpr (std::is_pointer_v<Result>) out.extra.result_function = result;
  return out;
}

constexpr std::string_view compositional =
    "the compositional reading (spec §4.6): the evaluator derives a redex's premises by "
    "evaluating its evaluation-position subterms left to right, so this rule takes no step of "
    "its own";

std::vector<Rules::Entry> paper_entries() {
  using namespace rules;
  using O = Ordinary;
  using B = Boolean;
  using S = Symbolic;
  using P = Derivative::Premise;
  const std::vector<Kind> values = {K::var, K::constant, K::unit, K::pair};
  return {
      // Fig. 2: ordinary evaluation φ | ρ ⊢ M ⇒ V (the evaluator presents only values to O-val)
      rule_entry<O>(rule_info("O-val", cite(F2), evaluation, "φ|ρ ⊢ V ⇒ ρ(V)"), values, {}, o_val),
      rule_entry<O>(rule_info("O-add", cite(F2), evaluation, "V + W ⇒ r + s"), {K::add}, {}, o_add),
      rule_entry<O>(
          rule_info("O-op", cite(F2), evaluation, "op(V) ⇒ ev(op, ρ(V)); stuck outside the domain"),
          {K::op}, {}, o_op),
      rule_entry<O>(
          rule_info("O-let", cite(F2), evaluation, "let x:T = V in N ⇒ N evaluated in ρ[x ↦ ρ(V)]"),
          {K::let}, {}, o_let),
      rule_entry<O>(rule_info("O-fst", cite(F2), evaluation, "fst(V) ⇒ first component"), {K::fst},
                    {}, o_fst),
      rule_entry<O>(rule_info("O-snd", cite(F2), evaluation, "snd(V) ⇒ second component"), {K::snd},
                    {}, o_snd),
      rule_entry<O>(rule_info("O-ift", cite(F2), evaluation, "if true then M else N ⇒ value of M"),
                    {K::if_}, guard_true<O::Redex>, o_ift),
      rule_entry<O>(rule_info("O-iff", cite(F2), evaluation, "if false then M else N ⇒ value of N"),
                    {K::if_}, guard_false<O::Redex>, o_iff),
      rule_entry<O>(
          rule_info("O-letrec",
                    cite("Fig. 2 (missing from the transcript, seed 003 lines 219, 384, 930; "
                         "reconstructed, spec §11.2)"),
                    evaluation,
                    "letrec f(x:T):U = M in N ⇒ N evaluated in φ[f ↦ clo_φ(f(x:T):U.M)]"),
          {K::letrec}, unlimited<O::Redex>, o_letrec),
      rule_entry<O>(
          rule_info("O-call", cite(F2), evaluation,
                    "f(V) ⇒ body evaluated in φ'[f ↦ φ(f)] | {x ↦ ρ(V)}, φ(f) = clo_φ'(...)"),
          {K::call}, calls_closure<O::Redex>, o_call),
      rule_entry<O>(
          rule_info("O-rd", cite("Fig. 2 (garbled, seed 003 lines 219, 351-354; spec §11.2)"),
                    evaluation, "W.rd_V(x:T.N) ⇒ value of the trace W.R_V(x:T.C) where N ⇝ C"),
          {K::rd}, {}, o_rd),
      rule_entry<B>(rule_info("O-pred", cite(F2), evaluation,
                              "pred(V) ⇒ bev(pred, ρ(V)); stuck where undefined"),
                    {K::pred}, {}, o_pred),
      rule_entry<B>(rule_info("O-bval", cite("Fig. 2 (implicit; spec §4.2)"), evaluation,
                              "true ⇒ true, false ⇒ false"),
                    {K::b_true, K::b_false}, {}, o_bval),
      // Fig. 3: evaluation contexts
      rule_entry<O>(rule_info("O-ctx", cite(F3), context,
                              "E[R] ⇒ W via R ⇒ V and E[z] ⇒ W in ρ[z ↦ V]", compositional),
                    {}, {}, {}),
      rule_entry<O>(rule_info("O-ctxb", cite(F3), context,
                              "E[R_bool] ⇒ W via R_bool ⇒ b and E[b] ⇒ W", compositional),
                    {}, {}, {}),
      // Fig. 4: symbolic evaluation φ | ρ ⊢ M ⇝ C
      rule_entry<S>(rule_info("S-val", cite(F4), evaluation, "V ⇝ V (open, not ρ(V))"), values, {},
                    s_val),
      rule_entry<S>(rule_info("S-add", cite(F4), evaluation, "V + W ⇝ V + W"), {K::add}, {}, s_add),
      rule_entry<S>(rule_info("S-op", cite(F4), evaluation, "op(V) ⇝ op(V) (no call to ev)"),
                    {K::op}, {}, s_op),
      rule_entry<S>(rule_info("S-fst", cite(F4), evaluation, "fst(V) ⇝ fst(V)"), {K::fst}, {},
                    s_fst),
      rule_entry<S>(rule_info("S-snd", cite(F4), evaluation, "snd(V) ⇝ snd(V)"), {K::snd}, {},
                    s_snd),
      rule_entry<S>(rule_info("S-let", cite(F4), evaluation, "let x:T = V in N ⇝ let x:T = V in C"),
                    {K::let}, {}, s_let),
      rule_entry<S>(rule_info("S-ift", cite(F4), evaluation, "if true then M else N ⇝ trace of M"),
                    {K::if_}, guard_true<S::Redex>, s_ift),
      rule_entry<S>(rule_info("S-iff", cite(F4), evaluation, "if false then M else N ⇝ trace of N"),
                    {K::if_}, guard_false<S::Redex>, s_iff),
      rule_entry<S>(
          rule_info("S-letrec", cite(F4), evaluation, "letrec ... in N ⇝ trace of N in φ[f ↦ clo]"),
          {K::letrec}, unlimited<S::Redex>, s_letrec),
      rule_entry<S>(
          rule_info(
              "S-call", cite("Fig. 4 (seed 003 line 389; the closure's φ' meant, spec §11.3)"),
              evaluation, "f(V) ⇝ let x:T = V in C, the body traced in φ'[f ↦ φ(f)] | {x ↦ ρ(V)}"),
          {K::call}, calls_closure<S::Redex>, s_call),
      rule_entry<S>(rule_info("S-rd", cite(F4), evaluation,
                              "W.rd_V(x:T.N) ⇝ W.R_V(x:T.C), V and W kept open"),
                    {K::rd}, {}, s_rd),
      // Fig. 5: symbolic evaluation contexts (the evaluator presents only non-values to S-ctx)
      rule_entry<SymbolicContext>(
          rule_info("S-ctx", cite(F5), context, "E[R] ⇝ let z:T_V = C in D with C ⇒ V"), {}, {},
          s_ctx),
      rule_entry<SymbolicGuard>(
          rule_info("S-ctxb", cite(F5), context, "E[R_bool] ⇝ C via R_bool ⇒ b"), {K::pred}, {},
          s_ctxb),
      // Fig. 6: symbolic differentiation W.R_V(x:T. C), one clause per trace-term former
      clause(rule_info("R-var",
                       cite("Fig. 6 (seed 003 line 425; single-variable form, spec §11.1)"),
                       transformation, "W.R_V(x:T.y) = W if y ≡ x, 0_T otherwise"),
             K::var, r_var, {}),
      clause(rule_info("R-const", cite(F6), transformation, "W.R_V(x:T.r) = 0_T"), K::constant,
             r_const, {}),
      clause(rule_info("R-add", cite(F6), transformation,
                       "W.R_V(x:T.D+E) = W.R_V(x:T.D) +_T W.R_V(x:T.E)"),
             K::add, r_add, {P::a, P::b}),
      clause(rule_info("R-op", cite(F6), transformation,
                       "W.R_V(x:T.op(D)) = let x:T = V in let y:S = W.op_r(D) in y.R_V(x:T.D)"),
             K::op, r_op(op_r_term), {P::a}),
      clause(rule_info("R-let", cite(F6), transformation,
                       "W.R_V(x:T.let y:S = D in E) = let x = V in let y = D in W.R_V(x.E) +_T "
                       "(let ȳ = W.R_y(y:S.E) in ȳ.R_V(x.D))"),
             K::let, r_let, {P::b, P::b, P::a}),
      clause(rule_info("R-unit", cite(F6), transformation, "W.R_V(x:T.*) = 0_T"), K::unit, r_unit,
             {}),
      clause(rule_info("R-pair", cite(F6), transformation,
                       "W.R_V(x:T.<M,N>) = let <y, z> = W in y.R_V(x.M) +_T z.R_V(x.N)"),
             K::pair, r_pair, {P::a, P::b}),
      clause(rule_info("R-fst", cite(F6), transformation,
                       "W.R_V(x:T.fst(D)) = let x = V in let y = D in <W, 0_S>.R_V(x.D)"),
             K::fst, r_fst, {P::a}),
      clause(rule_info("R-snd", cite(F6), transformation,
                       "W.R_V(x:T.snd(D)) = let x = V in let y = D in <0_U, W>.R_V(x.D)"),
             K::snd, r_snd, {P::a}),
      // Fig. 8: limited recursion letrec_n
      rule_entry<O>(rule_info("L-letrec", cite(F8), evaluation,
                              "letrec_n f ... in N ⇒ N in φ[f ↦ clo_{n,φ}]"),
                    {K::letrec}, limited<O::Redex>, o_letrec),
      rule_entry<O>(rule_info("L-call", cite(F8), evaluation,
                              "f(V) with φ(f) = clo_{n+1,φ'}: body in φ'[f ↦ clo_{n,φ'}]"),
                    {K::call}, calls_approximant<O::Redex>, o_call),
      rule_entry<S>(rule_info("L-sletrec", cite(F8), evaluation, "symbolic letrec_n"), {K::letrec},
                    limited<S::Redex>, s_letrec),
      rule_entry<S>(
          rule_info(
              "L-scall",
              cite("Fig. 8 (seed 003 line 930; the let x:T = V wrapper restored, spec §11.4)"),
              evaluation, "f(V) ⇝ let x:T = V in C with φ(f) = clo_{n+1,φ'}"),
          {K::call}, calls_approximant<S::Redex>, s_call),
      // spec §9 P-1(b): the linear-size differentiation of a whole trace (not in the paper)
      rule_entry<TraceDerivative>(
          rule_info(
              "R-fast", "not in the paper: the toolkit's linear-size W.R_V(x:T.C) (spec §9 P-1(b))",
              transformation, "linear-size W.R_V(x:T.C): A-normal form, then one backward pass"),
          {}, linear_mode, r_fast(op_r_term)),
  };
}

} // namespace

const RulesPtr& paper_rules() {
  static const RulesPtr book = std::make_shared<const Rules>(paper_entries());
  return book;
}

RulesPtr patch_paper_rules(const RulesPatch& patch) {
  return std::make_shared<const Rules>(paper_rules()->patched(patch));
}

} // namespace adsem::simple_diff
