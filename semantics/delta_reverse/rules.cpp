// delta-reverse's rule book: each clause of the translations of Krawiec et al. (Figs. 3, 5, 7,
// 9), each rule of the interpretation of Deltas (Fig. 10, §7.3, Fig. 8's eval_2), the wrapper's
// run and read-back (Figs. 11, 15, §11), and the machine's rules (source and target evaluation,
// the monad, the δS operations) once, under its paper name, with its citation, the node kinds it
// can fire on and its result. Listing, rule coverage and `adsem calculi --json` read this table;
// mutants patch it (properties/delta_reverse/mutants.cpp).
#include "semantics/delta_reverse/rules.hpp"

#include "semantics/delta_reverse/arrays.hpp"
#include "semantics/delta_reverse/delta_eval.hpp"
#include "semantics/delta_reverse/overloading.hpp"
#include "semantics/delta_reverse/source_eval.hpp"
#include "semantics/delta_reverse/translate.hpp"
#include "semantics/delta_reverse/wrappers.hpp"

namespace adsem::delta_reverse {

namespace {

using RuleKind::evaluation, RuleKind::transformation;

std::string cite(std::string_view where) {
  return "Krawiec et al., Provably Correct, Asymptotically Efficient, Higher-Order Reverse-Mode "
         "Automatic Differentiation, " +
         std::string(where);
}

template <class R>
adsem::Rule<R> entry(RuleInfo i, std::vector<typename R::Kind> kinds,
                     typename adsem::Rule<R>::Result result,
                     typename rule_extra<R>::type extra = {}) {
  adsem::Rule<R> out;
  out.info = std::move(i);
  out.kinds = std::move(kinds);
  out.result = std::move(result);
  out.extra = std::move(extra);
  return out;
}

// What distinguishes the three homomorphic translations: the name as printed, where, the
// tangent of a real literal and the tangent algebra of a primitive's clause.
struct Homomorphic {
  std::string_view name, where, zero, algebra;
};

// The clauses of Dfwd, Drev1 or Drev2, one per construct of Fig. 1, in the order of Fig. 3.
template <class R> void homomorphic(std::vector<Rules::Entry>& out, const Homomorphic& h) {
  using namespace clauses;
  const std::string t(h.name);
  const auto add = [&](std::string_view construct, std::string summary, Kind kind, Result result) {
    out.emplace_back(entry<R>(rule_info(t + "[" + std::string(construct) + "]", cite(h.where),
                                        transformation, std::move(summary)),
                              {kind}, std::move(result)));
  };
  add("x", t + "{x} = x", Kind::var, hom_unchanged);
  add("k", t + "{k} = k (leaf literals are unaffected)", Kind::integer, hom_unchanged);
  add("λ", t + "{λ(x:A). e} = λ(x:" + t + "{A}). " + t + "{e}", Kind::lam, hom_lam);
  add("app", t + "{e1 e2} = " + t + "{e1} " + t + "{e2}", Kind::app, hom_app);
  add("let", t + "{let x = e1 in e2} = let x = " + t + "{e1} in " + t + "{e2}", Kind::let, hom_let);
  add("pair", t + "{(e1, e2)} = (" + t + "{e1}, " + t + "{e2})", Kind::pair, hom_pair);
  add("fst", t + "{fst e} = fst " + t + "{e}", Kind::fst, hom_fst);
  add("snd", t + "{snd e} = snd " + t + "{e}", Kind::snd, hom_snd);
  add("inl", t + "{inl e} = inl " + t + "{e}", Kind::inl, hom_inl);
  add("inr", t + "{inr e} = inr " + t + "{e}", Kind::inr, hom_inr);
  add("case", t + "{case e0 of inl x1 -> e1 | inr x2 -> e2} = case " + t + "{e0} of ...",
      Kind::case_, hom_case);
  add("r", t + "{r} = (r, " + std::string(h.zero) + ")", Kind::real, hom_dual_real);
  add("op",
      t + "{op} = λp. (op x, " + std::string(h.algebra) +
          ") from op's partial derivatives (Fig. 14); leaf primitives unchanged",
      Kind::prim, op_clause());
}

void monadic(std::vector<Rules::Entry>& out) {
  using namespace clauses;
  constexpr std::string_view where = "Fig. 9 (seed 001 L438-487)";
  const auto add = [&](std::string_view construct, std::string summary, Kind kind, Result result) {
    out.emplace_back(entry<Drev>(rule_info("Drev[" + std::string(construct) + "]", cite(where),
                                           transformation, std::move(summary)),
                                 {kind}, std::move(result)));
  };
  add("x", "Drev{x} = pure x", Kind::var, drev_pure);
  add("k", "Drev{k} = pure k", Kind::integer, drev_pure);
  add("λ", "Drev{λx. e} = pure (λx. Drev{e})", Kind::lam, drev_lam);
  add("app", "Drev{e1 e2} = do { f <- Drev{e1}; x <- Drev{e2}; f x }", Kind::app, drev_app);
  add("let", "Drev{let x = e1 in e2} = do { x <- Drev{e1}; Drev{e2} }", Kind::let, drev_let);
  add("pair", "Drev{(e1, e2)} = do { x <- Drev{e1}; y <- Drev{e2}; pure (x, y) }", Kind::pair,
      drev_pair);
  add("fst", "Drev{fst e} = do { x <- Drev{e}; pure (fst x) }", Kind::fst, drev_unary);
  add("snd", "Drev{snd e} = do { x <- Drev{e}; pure (snd x) }", Kind::snd, drev_unary);
  add("inl", "Drev{inl e} = do { x <- Drev{e}; pure (inl x) }", Kind::inl, drev_unary);
  add("inr", "Drev{inr e} = do { x <- Drev{e}; pure (inr x) }", Kind::inr, drev_unary);
  add("case",
      "Drev{case e0 of inl x1 -> e1 | inr x2 -> e2} = do { x <- Drev{e0}; case x of inl x1 -> "
      "Drev{e1} | inr x2 -> Drev{e2} }",
      Kind::case_, drev_case);
  add("r", "Drev{r} = pure (r, Zero)", Kind::real, drev_real);
  add("op",
      "Drev{op} = pure (λp. do { d <- deltaLet (Add_j (Scale (∂_j op x) u_j)); pure (op x, Var "
      "d) }) (Fig. 14); leaf primitives: pure (λz. pure (op z))",
      Kind::prim, op_clause());
}

void machine(std::vector<Rules::Entry>& out);
void arrays(std::vector<Rules::Entry>& out);
void sum_v(std::vector<Rules::Entry>& out);

std::vector<Rules::Entry> paper_entries() {
  using namespace delta_rules;
  using namespace wrapper_rules;
  using DK = DeltaNode::Kind;
  using TK = TypeNode::Kind;
  using W = WholeRelation::Kind;
  std::vector<Rules::Entry> out;
  homomorphic<Dfwd>(out, {"Dfwd", "Fig. 3 (seed 001 L195-233)", "0", "Σ_j ∂_j op x × dx_j"});
  homomorphic<Drev1>(out, {"Drev1", "Fig. 5 (seed 001 L281-297; reconstructed, spec §4.5)", "zeroS",
                           "⊕_j ∂_j op x ⊗ dx_j"});
  homomorphic<Drev2>(
      out, {"Drev2", "Fig. 7 (seed 001 L315-333)", "Zero2", "Add2_j (Scale2 (∂_j op x) dx_j)"});
  monadic(out);
  // Fig. 10: eval on Deltas (L501-522) and runDelta (L540-571)
  const std::string f10 = cite("Fig. 10 (seed 001 L501-522)");
  out.emplace_back(entry<DeltaEval>(rule_info("eval-Zero", f10, evaluation, "eval x Zero m = m"),
                                    {DK::zero}, eval_zero, Step::Eval_Zero));
  out.emplace_back(entry<DeltaEval>(
      rule_info("eval-Scale", f10, evaluation, "eval x (Scale y u) m = eval (x × y) u m"),
      {DK::scale}, eval_scale, Step::Eval_Scale));
  out.emplace_back(entry<DeltaEval>(
      rule_info("eval-Add", f10, evaluation, "eval x (Add u1 u2) m = eval x u2 (eval x u1 m)"),
      {DK::add}, eval_add, Step::Eval_Add));
  out.emplace_back(entry<DeltaEval>(
      rule_info("eval-Var", f10, evaluation, "eval x (Var id) m = addDelta id x m (m[id] += x)"),
      {DK::var}, eval_var, Step::Eval_Var));
  out.emplace_back(entry<DeltaEval>(
      rule_info(
          "eval-Let", f10, evaluation,
          "eval x (Let id u1 u2) m = let m2 = eval x u2 m in case lookup id m2 of Nothing -> m2; "
          "Just x' -> eval x' u1 (delete id m2); steps eval-Let-Nothing, eval-Let-Just"),
      {DK::let}, eval_let));
  out.emplace_back(entry<RunDelta>(
      rule_info(
          "runDelta", cite("Fig. 10 (seed 001 L540-571)"), evaluation,
          "runDelta: foldl wrap d bs = Let id1 rhs1 (... (Let idk rhsk d)), the newest binding "
          "innermost; one step runDelta-wrap per binding"),
      {W::whole}, delta_rules::run_delta));
  // Fig. 11 / Fig. 15: R{e}'s run in one runDelta (spec §11 item 6)
  out.emplace_back(entry<RunProgram>(
      rule_info("R{e}", cite("Fig. 11 (seed 001 L554) and Fig. 15 (L913); spec §11 item 6"),
                evaluation,
                "runDelta (dv + 1) (do { g <- Drev{e}; g s0 }): Drev{e} and its application share "
                "one DeltaState"),
      {W::whole}, run_program));
  // §7.3: the array version, a backward sweep (L585-597)
  const std::string s73 = cite("§7.3 (seed 001 L585-597)");
  out.emplace_back(entry<Sweep>(rule_info("sweep-Zero", s73, evaluation, "Zero adds nothing"),
                                {DK::zero}, sweep_zero, Step::Sweep_Zero));
  out.emplace_back(
      entry<Sweep>(rule_info("sweep-Scale", s73, evaluation, "Scale y u: sweep x × y into u"),
                   {DK::scale}, sweep_scale, Step::Sweep_Scale));
  out.emplace_back(
      entry<Sweep>(rule_info("sweep-Add", s73, evaluation, "Add u1 u2: sweep x into u1, then u2"),
                   {DK::add}, sweep_add, Step::Sweep_Add));
  out.emplace_back(entry<Sweep>(rule_info("sweep-Var", s73, evaluation, "Var id: grad[id] += x"),
                                {DK::var}, sweep_var, Step::Sweep_Var));
  out.emplace_back(entry<SweepTape>(
      rule_info("sweep", s73, evaluation,
                "the bindings from the newest to the oldest, each rhs swept with its completed "
                "adjoint; steps sweep-skip (untouched id), sweep-binding"),
      {W::whole}, sweep_tape));
  // §11: lookup_S (finalMap, s0), the gradient in the shape of s (L925, L941)
  const std::string s11 = cite("§11 (seed 001 L925, L941)");
  out.emplace_back(entry<Lookup>(
      rule_info("lookup[R]", s11, evaluation, "lookup_R (m, (r, Var id)) = lookupOrZero id m"),
      {TK::real}, lookup_real));
  out.emplace_back(entry<Lookup>(rule_info("lookup[k]", s11, evaluation, "lookup_L (m, k) = k"),
                                 {TK::integer}, lookup_leaf));
  out.emplace_back(
      entry<Lookup>(rule_info("lookup[×]", s11, evaluation,
                              "lookup_{S×T} (m, (a, b)) = (lookup_S (m, a), lookup_T (m, b))"),
                    {TK::product}, lookup_product));
  out.emplace_back(entry<Lookup>(
      rule_info(
          "lookup[+]", s11, evaluation,
          "lookup_{S+T} (m, inl/inr a) keeps the input's tag (zero_S from the input, L358-362)"),
      {TK::sum}, lookup_sum));
  machine(out);
  arrays(out);
  sum_v(out);
  return out;
}

// The machine's rules (machine.cpp), one step of the cost model each, in the order of ledger.hpp.
// The paper fixes call-by-value (L603) and left-to-right order through its translation
// (L456-470); the spec names the rules (§4.1, §4.2).
void machine(std::vector<Rules::Entry>& out) {
  using namespace source_rules;
  const std::string e41 = cite("spec §4.1 (source evaluation, big-step call-by-value left to "
                               "right; seed 001 L603, L456-470)");
  const auto source = [&](Step step, std::string summary, std::vector<Kind> forms,
                          Rule<SourceEval>::Result result, Rule<SourceEval>::Match match = {},
                          const std::string& where = {}) {
    Rule<SourceEval> rule =
        entry<SourceEval>(rule_info(std::string(step_name(step)), where.empty() ? e41 : where,
                                    evaluation, std::move(summary)),
                          std::move(forms), std::move(result), {step, term_excerpt});
    rule.match = std::move(match);
    out.emplace_back(std::move(rule));
  };
  source(Step::E_Var, "ρ ⊢ x ⇓ ρ(x)", {Kind::var}, e_var);
  source(Step::E_Lam, "ρ ⊢ λx. e ⇓ clo(ρ, x, e)", {Kind::lam}, e_lam);
  source(Step::E_App,
         "e1 ⇓ f, e2 ⇓ a (function first), then δ_op(a) (E-Apply-Op) or the closure's body under "
         "its environment extended by a",
         {Kind::app}, e_app);
  source(Step::E_Let, "e1 ⇓ v, e2 under ρ[x ↦ v] ⇓ w  ⟹  let x = e1 in e2 ⇓ w", {Kind::let}, e_let);
  source(Step::E_Pair, "e1 ⇓ v1, e2 ⇓ v2 (left first)  ⟹  (e1, e2) ⇓ (v1, v2)", {Kind::pair},
         e_pair);
  source(Step::E_Fst, "e ⇓ (v1, v2)  ⟹  fst e ⇓ v1", {Kind::fst}, e_fst);
  source(Step::E_Snd, "e ⇓ (v1, v2)  ⟹  snd e ⇓ v2", {Kind::snd}, e_snd);
  source(Step::E_Inl, "e ⇓ v  ⟹  inl e ⇓ inl v", {Kind::inl}, e_inl);
  source(Step::E_Inr, "e ⇓ v  ⟹  inr e ⇓ inr v", {Kind::inr}, e_inr);
  source(Step::E_Case_Inl, "e0 ⇓ inl v, e1 under ρ[x1 ↦ v] ⇓ w  ⟹  case e0 of ... ⇓ w",
         {Kind::case_}, e_case_inl, scrutinee_inl);
  source(Step::E_Case_Inr, "e0 ⇓ inr v, e2 under ρ[x2 ↦ v] ⇓ w  ⟹  case e0 of ... ⇓ w",
         {Kind::case_}, e_case_inr, scrutinee_inr);
  source(Step::E_Real, "r ⇓ r", {Kind::real}, e_real);
  source(Step::E_Leaf, "k ⇓ k", {Kind::integer}, e_leaf);
  source(Step::E_Op, "op ⇓ op (a primitive is a function value)", {Kind::prim}, e_op);
  out.emplace_back(
      entry<Apply>(rule_info("E-Apply-Op", e41, evaluation, "op applied to a ⇓ δ_op(a), one step"),
                   {ValueNode::Kind::prim}, apply_op, {Step::E_Apply_Op, op_name}));
  const std::string e42 = cite("spec §4.2 (target evaluation; seed 001 L429-432, L489-495)");
  source(Step::E_Comp,
         "pure e, do {..}, deltaLet e, sequence e ⇓ comp(ρ, c), run later on the DeltaState",
         {Kind::pure, Kind::bind, Kind::delta_let, Kind::sequence}, e_comp, {}, e42);
  Rule<SourceEval> delta = entry<SourceEval>(
      rule_info("E-Delta", e42, evaluation,
                "a Delta, Delta2 or δS constructor term: its arguments left to right, then the "
                "value (δS: by zeroS, ⊕ or ⊗)"),
      {Kind::d_zero, Kind::d_scale, Kind::d_add, Kind::d_var, Kind::d2_zero, Kind::d2_onehot,
       Kind::d2_scale, Kind::d2_add, Kind::s_zero, Kind::s_oplus, Kind::s_otimes},
      e_delta, {Step::E_Delta});
  out.emplace_back(std::move(delta));
  // the monad (Fig. 10, L494-537)
  const std::string f10m = cite("Fig. 10 (seed 001 L494-537)");
  out.emplace_back(entry<Monad>(rule_info("M-Pure", f10m, evaluation, "pure x = \\s -> (x, s)"),
                                {Kind::pure}, m_pure, {Step::M_Pure}));
  out.emplace_back(entry<Monad>(
      rule_info("M-Bind", f10m, evaluation, "m >>= k = \\s -> case m s of (r, s') -> k r s'"),
      {Kind::bind}, m_bind, {Step::M_Bind}));
  Rule<Monad> delta_let =
      entry<Monad>(rule_info("M-DeltaLet", f10m, evaluation,
                             "deltaLet d = \\(n, bs) -> (n, (n + 1, (n, d) : bs))"),
                   {Kind::delta_let}, m_delta_let, {Step::M_DeltaLet, new_binding});
  delta_let.match = is_delta;
  out.emplace_back(std::move(delta_let));
  // the sub-steps of runDelta, eval-Let and the sweep's pass
  using namespace delta_rules;
  out.emplace_back(entry<Wrap>(rule_info("runDelta-wrap", cite("Fig. 10 (seed 001 L540-571)"),
                                         evaluation, "wrap (id, rhs) d = Let id rhs d"),
                               {WholeRelation::Kind::whole}, wrap, Step::RunDelta_Wrap));
  const std::string f10 = cite("Fig. 10 (seed 001 L501-522)");
  out.emplace_back(entry<LetLookup>(
      rule_info("eval-Let-Nothing", f10, evaluation, "case lookup id m2 of Nothing -> m2"),
      {LetLookup::Kind::nothing}, let_nothing, Step::Eval_Let_Nothing));
  out.emplace_back(
      entry<LetLookup>(rule_info("eval-Let-Just", f10, evaluation,
                                 "case lookup id m2 of Just x' -> eval x' u1 (delete id m2)"),
                       {LetLookup::Kind::just}, let_just, Step::Eval_Let_Just));
  const std::string s73 = cite("§7.3 (seed 001 L585-597)");
  out.emplace_back(entry<TapeBinding>(
      rule_info("sweep-skip", s73, evaluation, "an untouched id: skipped, not multiplied by 0"),
      {TapeBinding::Kind::skip}, tape_skip, Step::Sweep_Skip));
  out.emplace_back(entry<TapeBinding>(
      rule_info("sweep-binding", s73, evaluation,
                "a touched id: its rhs swept with the completed adjoint, the id deleted"),
      {TapeBinding::Kind::binding}, tape_binding, Step::Sweep_Binding));
  // eval_2 (Fig. 8, L392-401)
  using DK = DeltaNode::Kind;
  const std::string f8 = cite("Fig. 8 (seed 001 L392-401)");
  out.emplace_back(entry<DeltaEval2>(rule_info("eval2-Zero", f8, evaluation, "eval_2 x Zero v = v"),
                                     {DK::zero}, eval2_zero, Step::Eval2_Zero));
  out.emplace_back(entry<DeltaEval2>(
      rule_info("eval2-OneHot", f8, evaluation, "eval_2 x (OneHot i) v = updateAt i x v"),
      {DK::onehot}, eval2_onehot, Step::Eval2_OneHot));
  out.emplace_back(entry<DeltaEval2>(
      rule_info("eval2-Scale", f8, evaluation, "eval_2 x (Scale y u) v = eval_2 (x × y) u v"),
      {DK::scale}, eval2_scale, Step::Eval2_Scale));
  out.emplace_back(
      entry<DeltaEval2>(rule_info("eval2-Add", f8, evaluation,
                                  "eval_2 x (Add u1 u2) v = eval_2 x u2 (eval_2 x u1 v)"),
                        {DK::add}, eval2_add, Step::Eval2_Add));
  // the polytypic operations on δS = R^a (Drev1_S)
  const std::string f5 = cite("Fig. 5 and spec §4.3 (the polytypic operations on δS = R^a)");
  out.emplace_back(entry<DenseOp>(rule_info("oplus-zero", f5, evaluation, "zeroS = (0, ..., 0)"),
                                  {Kind::s_zero}, dense_zero, {Step::Dense_Zero}));
  out.emplace_back(entry<DenseOp>(rule_info("oplus", f5, evaluation, "v ⊕ w, componentwise"),
                                  {Kind::s_oplus}, dense_oplus, {Step::Dense_Oplus}));
  out.emplace_back(entry<DenseOp>(rule_info("otimes", f5, evaluation, "r ⊗ w, componentwise"),
                                  {Kind::s_otimes}, dense_otimes, {Step::Dense_Otimes}));
}

// The rule applying an array constant's function value (E-Apply-Index, -Build, -SumV): it fires
// on the constant `match` selects.
void array_op_application(std::vector<Rules::Entry>& out, RuleInfo info, Rule<Apply>::Match match,
                          Rule<Apply>::Result result, Step step) {
  Rule<Apply> rule = entry<Apply>(std::move(info), {ValueNode::Kind::array_op}, std::move(result),
                                  {step, source_rules::array_op_detail});
  rule.match = std::move(match);
  out.emplace_back(std::move(rule));
}

// The array extension (§10.2, L848-862): the translations' clauses for index and build and the
// machine's rules for them and for sequence (spec §4.10; the seed lost the section's figure, so
// the clauses are reconstructed from its text, semantics/delta_reverse/arrays.hpp).
void arrays(std::vector<Rules::Entry>& out) {
  using namespace clauses;
  using namespace source_rules;
  const std::string s102 = cite("§10.2 (seed 001 L848-862; the figure is lost, reconstructed in "
                                "spec §4.10)");
  const auto clause = [&]<class R>(R, const std::string& name, std::string summary,
                                   TranslationClause::Kind kind, Result result) {
    out.emplace_back(
        entry<R>(rule_info(name, s102, transformation, std::move(summary)), {kind}, result));
  };
  for (const Kind k : {Kind::index, Kind::build}) {
    const std::string op = k == Kind::index ? "index" : "build";
    const std::string at = "[" + op + "]";
    clause(Dfwd{}, "Dfwd" + at, "Dfwd{" + op + "_A} = " + op + "_{Dfwd A}", k, hom_array_op);
    clause(Drev1{}, "Drev1" + at, "Drev1{" + op + "_A} = " + op + "_{Drev1 A}", k, hom_array_op);
    clause(Drev2{}, "Drev2" + at, "Drev2{" + op + "_A} = " + op + "_{Drev2 A}", k, hom_array_op);
  }
  clause(Drev{}, "Drev[index]", "Drev{index_A} = pure (λp. pure (index_{Drev A} p))", Kind::index,
         drev_index);
  clause(Drev{}, "Drev[build]",
         "Drev{build_A} = pure (λp. sequence_{Drev A} (build_{M Drev A} p)): the elements' "
         "computations run in index order (L856)",
         Kind::build, drev_build);
  out.emplace_back(entry<SourceEval>(
      rule_info("E-Array-Op", s102, evaluation,
                "index[A] ⇓ index, build[A] ⇓ build, sumV[A] ⇓ sumV (function values, as a "
                "primitive's)"),
      {Kind::index, Kind::build, Kind::sum_v}, e_array_op, {Step::E_Array_Op, term_excerpt}));
  array_op_application(
      out,
      rule_info("E-Apply-Index", s102, evaluation,
                "index applied to (v, i) ⇓ v_i, 0 ≤ i < |v| (else undefined: a domain error)"),
      applies_index, apply_index, Step::E_Apply_Index);
  array_op_application(
      out,
      rule_info("E-Apply-Build", s102, evaluation,
                "build applied to (n, f) ⇓ [f 0, ..., f (n-1)], the calls in index order, n ≥ 0 "
                "(else undefined: a domain error)"),
      applies_build, apply_build, Step::E_Apply_Build);
  Rule<Monad> run = entry<Monad>(
      rule_info("M-Sequence", s102, evaluation,
                "sequence [m_0, ..., m_(n-1)] = do { x_0 <- m_0; ...; pure [x_0, ...] }: the "
                "computations run on the DeltaState in index order (L856)"),
      {Kind::sequence}, m_sequence, {Step::M_Sequence});
  run.match = is_vector;
  out.emplace_back(std::move(run));
}

// sumV : Vector R → R, a reduction over a vector: an extension spec §9.12 suggests ("there is no
// fold or recursion, so reductions over vectors need a primitive, e.g. sumV : Vector R → R, with a
// Fig. 14 rule whose rhs has O(n) nodes"), not a rule of the paper (arrays.hpp).
void sum_v(std::vector<Rules::Entry>& out) {
  using namespace clauses;
  using namespace source_rules;
  const std::string s912 = cite("spec §9.12 (an extension the spec suggests, not the paper's; "
                                "partials 1 as Fig. 9's +R, L479-481, Fig. 14 for n summands)");
  const auto clause = [&]<class R>(R, const std::string& name, std::string summary, Result result) {
    out.emplace_back(
        entry<R>(rule_info(name, s912, transformation, std::move(summary)), {Kind::sum_v}, result));
  };
  clause(Dfwd{}, "Dfwd[sumV]", "Dfwd{sumV} = sumV[R × R]: (Σ x_i, Σ dx_i)", hom_array_op);
  clause(Drev1{}, "Drev1[sumV]", "Drev1{sumV} = sumV[R × δS]: (Σ x_i, ⊕_i dx_i)", hom_array_op);
  clause(Drev2{}, "Drev2[sumV]", "Drev2{sumV} = sumV[R × Delta2]: (Σ x_i, Add2_i dx_i)",
         hom_array_op);
  clause(Drev{}, "Drev[sumV]",
         "Drev{sumV} = pure (λv. let p = sumV[R × Delta] v in do { d <- deltaLet (snd p); pure "
         "(fst p, Var d) }): one binding whose rhs Add_i u_i has O(n) nodes",
         drev_sum_v);
  array_op_application(
      out,
      rule_info("E-Apply-SumV", s912, evaluation,
                "sumV[A] applied to [v_0, ..., v_(n-1)] ⇓ (...(v_0 + v_1) + ...) + v_(n-1), + "
                "componentwise on A (addR, Add, Add2, ⊕), 0_A for n = 0"),
      applies_sum_v, apply_sum_v, Step::E_Apply_SumV);
}

} // namespace

const RulesPtr& paper_rules() {
  static const RulesPtr book = std::make_shared<const Rules>(paper_entries());
  return book;
}

RulesPatch fig12_implementation() {
  const auto clause = [](clauses::Result result, std::string summary) {
    return [result = std::move(result), summary = std::move(summary)](Rule<Drev> r) {
      r.result = result;
      r.info.summary = summary;
      return r;
    };
  };
  RulesPatch p;
  p.replace<Drev>("Drev[app]", clause(clauses::drev_app_argument_first,
                                      "Drev{e1 e2} = do { x <- Drev{e2}; f <- Drev{e1}; f x } "
                                      "(Fig. 12's implementation: the argument first)"));
  p.replace<Drev>("Drev[pair]", clause(clauses::drev_pair_right_first,
                                       "Drev{(e1, e2)} = do { y <- Drev{e2}; x <- Drev{e1}; pure "
                                       "(x, y) } (Fig. 12's implementation: right to left)"));
  p.replace<Drev>("Drev[r]", clause(clauses::drev_real_allocating,
                                    "Drev{r} = do { d <- deltaLet Zero; pure (r, Var d) } (Fig. "
                                    "12's from_float, L674, L707)"));
  return p;
}

RulesPatch overloading_implementation(const RulesPtr& base) {
  RulesPatch p;
  p.name = "overloading";
  p.replace<SourceEval>("E-Real", [](adsem::Rule<SourceEval> r) {
    r.result = e_real_dual;
    r.info.summary = "r ⇓ (r, Zero) (overloading, §8 L629-641: Drev{r} = pure (r, Zero), no "
                     "binding)";
    return r;
  });
  p.replace<Apply>("E-Apply-Op", [base](adsem::Rule<Apply> r) {
    r.result = [base](Machine& m, const Apply::Redex& redex, const RuleInfo&) {
      return apply_op_recording(*base, m, redex);
    };
    r.info.summary = "op applied to dual numbers: deltaLet (Add_j (Scale (∂_j op x) u_j)), then "
                     "(op x, Var d) (overloading, §8 L629-641: Drev{op}'s body, Fig. 9, Fig. 14)";
    return r;
  });
  p.replace<Apply>("E-Apply-SumV", [](adsem::Rule<Apply> r) {
    r.result = [](Machine& m, const Apply::Redex& redex, const RuleInfo&) {
      return apply_sum_v_recording(m, redex);
    };
    r.info.summary = "sumV applied to dual numbers: deltaLet (Add_i u_i), then (Σ x_i, Var d) "
                     "(overloading: Drev{sumV}'s body; spec §9.12, an extension)";
    return r;
  });
  return p;
}

RulesPtr patch_paper_rules(const RulesPatch& patch) {
  return std::make_shared<const Rules>(paper_rules()->patched(patch));
}

} // namespace adsem::delta_reverse
