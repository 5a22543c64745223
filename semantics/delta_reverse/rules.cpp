// delta-reverse's rule book: each clause of the translations of Krawiec et al. (Figs. 3, 5, 7,
// 9), each rule of the interpretation of Deltas (Fig. 10, §7.3) and the wrapper's run and
// read-back (Figs. 11, 15, §11) once, under its paper name, with its citation, the node kinds it
// can fire on and its result. Listing, rule coverage and `adsem calculi --json` read this table;
// mutants patch it (properties/delta_reverse/mutants.cpp).
#include "semantics/delta_reverse/rules.hpp"

#include "semantics/delta_reverse/delta_eval.hpp"
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
  const auto add = [&](std::string_view construct, std::string summary, Form form, Result result) {
    out.emplace_back(entry<R>(rule_info(t + "[" + std::string(construct) + "]", cite(h.where),
                                   transformation, std::move(summary)),
                              {form}, std::move(result)));
  };
  add("x", t + "{x} = x", Form::var, hom_unchanged);
  add("k", t + "{k} = k (leaf literals are unaffected)", Form::integer, hom_unchanged);
  add("λ", t + "{λ(x:A). e} = λ(x:" + t + "{A}). " + t + "{e}", Form::lam, hom_lam);
  add("app", t + "{e1 e2} = " + t + "{e1} " + t + "{e2}", Form::app, hom_app);
  add("let", t + "{let x = e1 in e2} = let x = " + t + "{e1} in " + t + "{e2}", Form::let, hom_let);
  add("pair", t + "{(e1, e2)} = (" + t + "{e1}, " + t + "{e2})", Form::pair, hom_pair);
  add("fst", t + "{fst e} = fst " + t + "{e}", Form::fst, hom_fst);
  add("snd", t + "{snd e} = snd " + t + "{e}", Form::snd, hom_snd);
  add("inl", t + "{inl e} = inl " + t + "{e}", Form::inl, hom_inl);
  add("inr", t + "{inr e} = inr " + t + "{e}", Form::inr, hom_inr);
  add("case", t + "{case e0 of inl x1 -> e1 | inr x2 -> e2} = case " + t + "{e0} of ...",
      Form::case_, hom_case);
  add("r", t + "{r} = (r, " + std::string(h.zero) + ")", Form::real, hom_dual_real);
  add("op",
      t + "{op} = λp. (op x, " + std::string(h.algebra) +
          ") from op's partial derivatives (Fig. 14); leaf primitives unchanged",
      Form::prim, op_clause());
}

void monadic(std::vector<Rules::Entry>& out) {
  using namespace clauses;
  constexpr std::string_view where = "Fig. 9 (seed 001 L438-487)";
  const auto add = [&](std::string_view construct, std::string summary, Form form, Result result) {
    out.emplace_back(entry<Drev>(rule_info("Drev[" + std::string(construct) + "]", cite(where),
                                      transformation, std::move(summary)),
                                 {form}, std::move(result)));
  };
  add("x", "Drev{x} = pure x", Form::var, drev_pure);
  add("k", "Drev{k} = pure k", Form::integer, drev_pure);
  add("λ", "Drev{λx. e} = pure (λx. Drev{e})", Form::lam, drev_lam);
  add("app", "Drev{e1 e2} = do { f <- Drev{e1}; x <- Drev{e2}; f x }", Form::app, drev_app);
  add("let", "Drev{let x = e1 in e2} = do { x <- Drev{e1}; Drev{e2} }", Form::let, drev_let);
  add("pair", "Drev{(e1, e2)} = do { x <- Drev{e1}; y <- Drev{e2}; pure (x, y) }", Form::pair,
      drev_pair);
  add("fst", "Drev{fst e} = do { x <- Drev{e}; pure (fst x) }", Form::fst, drev_unary);
  add("snd", "Drev{snd e} = do { x <- Drev{e}; pure (snd x) }", Form::snd, drev_unary);
  add("inl", "Drev{inl e} = do { x <- Drev{e}; pure (inl x) }", Form::inl, drev_unary);
  add("inr", "Drev{inr e} = do { x <- Drev{e}; pure (inr x) }", Form::inr, drev_unary);
  add("case",
      "Drev{case e0 of inl x1 -> e1 | inr x2 -> e2} = do { x <- Drev{e0}; case x of inl x1 -> "
      "Drev{e1} | inr x2 -> Drev{e2} }",
      Form::case_, drev_case);
  add("r", "Drev{r} = pure (r, Zero)", Form::real, drev_real);
  add("op",
      "Drev{op} = pure (λp. do { d <- deltaLet (Add_j (Scale (∂_j op x) u_j)); pure (op x, Var "
      "d) }) (Fig. 14); leaf primitives: pure (λz. pure (op z))",
      Form::prim, op_clause());
}

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
      rule_info("eval-Scale", f10, evaluation, "eval x (Scale y u) m = eval (x × y) u m"), {DK::scale},
      eval_scale, Step::Eval_Scale));
  out.emplace_back(entry<DeltaEval>(
      rule_info("eval-Add", f10, evaluation, "eval x (Add u1 u2) m = eval x u2 (eval x u1 m)"),
      {DK::add}, eval_add, Step::Eval_Add));
  out.emplace_back(entry<DeltaEval>(
      rule_info("eval-Var", f10, evaluation, "eval x (Var id) m = addDelta id x m (m[id] += x)"),
      {DK::var}, eval_var, Step::Eval_Var));
  out.emplace_back(entry<DeltaEval>(
      rule_info("eval-Let", f10, evaluation,
           "eval x (Let id u1 u2) m = let m2 = eval x u2 m in case lookup id m2 of Nothing -> m2; "
           "Just x' -> eval x' u1 (delete id m2); steps eval-Let-Nothing, eval-Let-Just"),
      {DK::let}, eval_let));
  out.emplace_back(entry<RunDelta>(
      rule_info("runDelta", cite("Fig. 10 (seed 001 L540-571)"), evaluation,
           "runDelta: foldl wrap d bs = Let id1 rhs1 (... (Let idk rhsk d)), the newest binding "
           "innermost; one step runDelta-wrap per binding"),
      {W::whole}, delta_rules::run_delta));
  // Fig. 11 / Fig. 15: R{e}'s run in one runDelta (spec §11 item 6)
  out.emplace_back(entry<RunProgram>(
      rule_info("R{e}", cite("Fig. 11 (seed 001 L554) and Fig. 15 (L913); spec §11 item 6"), evaluation,
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
      rule_info("lookup[+]", s11, evaluation,
           "lookup_{S+T} (m, inl/inr a) keeps the input's tag (zero_S from the input, L358-362)"),
      {TK::sum}, lookup_sum));
  return out;
}

// Where the paper (or the spec, where the paper fixes no rule) states each step of the cost model.
std::string_view step_citation(Step step) {
  switch (step) {
  case Step::E_Comp:
  case Step::E_Delta:
    return "spec §4.2 (target evaluation; seed 001 L429-432, L489-495)";
  case Step::M_Pure:
  case Step::M_Bind:
  case Step::M_DeltaLet:
    return "Fig. 10 (seed 001 L494-537)";
  case Step::RunDelta_Wrap:
    return "Fig. 10 (seed 001 L540-571)";
  case Step::Eval_Zero:
  case Step::Eval_Scale:
  case Step::Eval_Add:
  case Step::Eval_Var:
  case Step::Eval_Let_Nothing:
  case Step::Eval_Let_Just:
    return "Fig. 10 (seed 001 L501-522)";
  case Step::Sweep_Zero:
  case Step::Sweep_Scale:
  case Step::Sweep_Add:
  case Step::Sweep_Var:
  case Step::Sweep_Skip:
  case Step::Sweep_Binding:
    return "§7.3 (seed 001 L585-597)";
  case Step::Eval2_Zero:
  case Step::Eval2_OneHot:
  case Step::Eval2_Scale:
  case Step::Eval2_Add:
    return "Fig. 8 (seed 001 L392-401)";
  case Step::Dense_Zero:
  case Step::Dense_Oplus:
  case Step::Dense_Otimes:
    return "Fig. 5 and spec §4.3 (the polytypic operations on δS = R^a)";
  default:
    return "spec §4.1 (source evaluation, big-step call-by-value left to right; seed 001 L603, "
           "L456-470)";
  }
}

} // namespace

std::vector<RuleInfo> listed_rules() {
  std::vector<RuleInfo> out = paper_rules()->infos();
  for (const Step step : all_steps()) {
    const std::string_view name = step_name(step);
    if (paper_rules()->position(name)) continue; // an entry that is one step
    out.push_back(rule_info(std::string(name), cite(step_citation(step)), evaluation,
                       "a step of the machine's cost model (ledger.hpp)"));
  }
  return out;
}

const RulesPtr& paper_rules() {
  static const RulesPtr book = std::make_shared<const Rules>(paper_entries());
  return book;
}

RulesPtr patch_paper_rules(const RulesPatch& patch) {
  return std::make_shared<const Rules>(paper_rules()->patched(patch));
}

} // namespace adsem::delta_reverse
