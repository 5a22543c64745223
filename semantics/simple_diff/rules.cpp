#include "semantics/simple_diff/rules.hpp"

#include <stdexcept>

namespace adsem::simple_diff {

namespace {
constexpr std::string_view F2 = "Fig. 2", F3 = "Fig. 3", F4 = "Fig. 4", F5 = "Fig. 5",
                           F6 = "Fig. 6", F8 = "Fig. 8";
constexpr std::string_view L2 = "seed 003 lines 316-362", L3 = "seed 003 lines 364-382",
                           L4 = "seed 003 lines 384-398", L6 = "seed 003 lines 400-436",
                           L8 = "seed 003 lines 914-954";
} // namespace

const std::vector<RuleInfo>& all_rules() {
  static const std::vector<RuleInfo> rules = {
      {Rule::O_val, "O-val", F2, L2, "φ|ρ ⊢ V ⇒ ρ(V)"},
      {Rule::O_add, "O-add", F2, L2, "V + W ⇒ r + s"},
      {Rule::O_op, "O-op", F2, L2, "op(V) ⇒ ev(op, ρ(V)); stuck outside the domain"},
      {Rule::O_let, "O-let", F2, L2, "let x:T = V in N ⇒ N evaluated in ρ[x ↦ ρ(V)]"},
      {Rule::O_fst, "O-fst", F2, L2, "fst(V) ⇒ first component"},
      {Rule::O_snd, "O-snd", F2, L2, "snd(V) ⇒ second component"},
      {Rule::O_ift, "O-ift", F2, L2, "if true then M else N ⇒ value of M"},
      {Rule::O_iff, "O-iff", F2, L2, "if false then M else N ⇒ value of N"},
      {Rule::O_letrec, "O-letrec", F2,
       "seed 003 lines 219, 384, 930 (missing from the transcript; reconstructed, spec §11.2)",
       "letrec f(x:T):U = M in N ⇒ N evaluated in φ[f ↦ clo_φ(f(x:T):U.M)]"},
      {Rule::O_call, "O-call", F2, L2,
       "f(V) ⇒ body evaluated in φ'[f ↦ φ(f)] | {x ↦ ρ(V)}, φ(f) = clo_φ'(...)"},
      {Rule::O_rd, "O-rd", F2, "seed 003 lines 219, 351-354 (garbled; spec §11.2)",
       "W.rd_V(x:T.N) ⇒ value of the trace W.R_V(x:T.C) where N ⇝ C"},
      {Rule::O_pred, "O-pred", F2, L2, "pred(V) ⇒ bev(pred, ρ(V)); stuck where undefined"},
      {Rule::O_bval, "O-bval", F2, "spec §4.2 (implicit)", "true ⇒ true, false ⇒ false"},
      {Rule::O_ctx, "O-ctx", F3, L3, "E[R] ⇒ W via R ⇒ V and E[z] ⇒ W in ρ[z ↦ V]"},
      {Rule::O_ctxb, "O-ctxb", F3, L3, "E[R_bool] ⇒ W via R_bool ⇒ b and E[b] ⇒ W"},
      {Rule::S_val, "S-val", F4, L4, "V ⇝ V (open, not ρ(V))"},
      {Rule::S_add, "S-add", F4, L4, "V + W ⇝ V + W"},
      {Rule::S_op, "S-op", F4, L4, "op(V) ⇝ op(V) (no call to ev)"},
      {Rule::S_fst, "S-fst", F4, L4, "fst(V) ⇝ fst(V)"},
      {Rule::S_snd, "S-snd", F4, L4, "snd(V) ⇝ snd(V)"},
      {Rule::S_let, "S-let", F4, L4, "let x:T = V in N ⇝ let x:T = V in C"},
      {Rule::S_ift, "S-ift", F4, L4, "if true then M else N ⇝ trace of M"},
      {Rule::S_iff, "S-iff", F4, L4, "if false then M else N ⇝ trace of N"},
      {Rule::S_letrec, "S-letrec", F4, L4, "letrec ... in N ⇝ trace of N in φ[f ↦ clo]"},
      {Rule::S_call, "S-call", F4, "seed 003 line 389 (closure env φ' meant; spec §11.3)",
       "f(V) ⇝ let x:T = V in C, the body traced in φ'[f ↦ φ(f)] | {x ↦ ρ(V)}"},
      {Rule::S_rd, "S-rd", F4, L4, "W.rd_V(x:T.N) ⇝ W.R_V(x:T.C), V and W kept open"},
      {Rule::S_ctx, "S-ctx", F5, L4, "E[R] ⇝ let z:T_V = C in D with C ⇒ V"},
      {Rule::S_ctxb, "S-ctxb", F5, L4, "E[R_bool] ⇝ C via R_bool ⇒ b"},
      {Rule::R_var, "R-var", F6, "seed 003 line 425 (single-variable form; spec §11.1)",
       "W.R_V(x:T.y) = W if y ≡ x, 0_T otherwise"},
      {Rule::R_const, "R-const", F6, L6, "W.R_V(x:T.r) = 0_T"},
      {Rule::R_add, "R-add", F6, L6, "W.R_V(x:T.D+E) = W.R_V(x:T.D) +_T W.R_V(x:T.E)"},
      {Rule::R_op, "R-op", F6, L6,
       "W.R_V(x:T.op(D)) = let x:T = V in let y:S = W.op_r(D) in y.R_V(x:T.D)"},
      {Rule::R_let, "R-let", F6, L6,
       "W.R_V(x:T.let y:S = D in E) = let x = V in let y = D in W.R_V(x.E) +_T "
       "(let ȳ = W.R_y(y:S.E) in ȳ.R_V(x.D))"},
      {Rule::R_unit, "R-unit", F6, L6, "W.R_V(x:T.*) = 0_T"},
      {Rule::R_pair, "R-pair", F6, L6,
       "W.R_V(x:T.<M,N>) = let <y, z> = W in y.R_V(x.M) +_T z.R_V(x.N)"},
      {Rule::R_fst, "R-fst", F6, L6,
       "W.R_V(x:T.fst(D)) = let x = V in let y = D in <W, 0_S>.R_V(x.D)"},
      {Rule::R_snd, "R-snd", F6, L6,
       "W.R_V(x:T.snd(D)) = let x = V in let y = D in <0_U, W>.R_V(x.D)"},
      {Rule::L_letrec, "L-letrec", F8, L8, "letrec_n f ... in N ⇒ N in φ[f ↦ clo_{n,φ}]"},
      {Rule::L_call, "L-call", F8, L8, "f(V) with φ(f) = clo_{n+1,φ'}: body in φ'[f ↦ clo_{n,φ'}]"},
      {Rule::L_sletrec, "L-sletrec", F8, L8, "symbolic letrec_n"},
      {Rule::L_scall, "L-scall", F8,
       "seed 003 line 930 (the let x:T = V wrapper restored; spec §11.4)",
       "f(V) ⇝ let x:T = V in C with φ(f) = clo_{n+1,φ'}"},
      {Rule::R_fast, "R-fast", "spec §9 P-1(b)", "not in the paper (toolkit proposal)",
       "linear-size W.R_V(x:T.C): A-normal form, then one backward pass"},
  };
  return rules;
}

const RuleInfo& rule_info(Rule rule) {
  const auto& rules = all_rules(); // listed in the order of the enumeration
  const auto i = static_cast<std::size_t>(rule);
  if (i >= rules.size() || rules[i].rule != rule) throw std::logic_error("rule_info: bad table");
  return rules[i];
}

std::string_view rule_name(Rule rule) {
  return rule_info(rule).name;
}

std::optional<Rule> rule_by_name(std::string_view name) {
  for (const RuleInfo& info : all_rules())
    if (info.name == name) return info.rule;
  return std::nullopt;
}

} // namespace adsem::simple_diff
