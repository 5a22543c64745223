#pragma once
// Every rule of the operational semantics, under its paper name, as an enumerable entry
// (design.md "Models to learn from": rules as named entries, for traces, coverage and mutants).
//
//   Fig. 2  ordinary evaluation, values and redexes (seed 003 lines 316-362)
//   Fig. 3  ordinary evaluation, contexts             (lines 364-382)
//   Fig. 4  symbolic evaluation, values and redexes   (lines 384-398)
//   Fig. 5  symbolic evaluation, contexts             (lines 384-398)
//   Fig. 6  symbolic differentiation W.R_V(x:T. C)    (lines 400-436)
//   Fig. 8  limited recursion letrec_n                 (lines 914-954)
//   R-fast  the linear-size symbolic differentiation of spec §9 P-1(b) (not in the paper)
#include <optional>
#include <string_view>
#include <vector>

namespace adsem::simple_diff {

enum class Rule {
  // Fig. 2
  O_val,
  O_add,
  O_op,
  O_let,
  O_fst,
  O_snd,
  O_ift,
  O_iff,
  O_letrec,
  O_call,
  O_rd,
  O_pred,
  O_bval,
  // Fig. 3
  O_ctx,
  O_ctxb,
  // Fig. 4
  S_val,
  S_add,
  S_op,
  S_fst,
  S_snd,
  S_let,
  S_ift,
  S_iff,
  S_letrec,
  S_call,
  S_rd,
  // Fig. 5
  S_ctx,
  S_ctxb,
  // Fig. 6
  R_var,
  R_const,
  R_add,
  R_op,
  R_let,
  R_unit,
  R_pair,
  R_fst,
  R_snd,
  // Fig. 8
  L_letrec,
  L_call,
  L_sletrec,
  L_scall,
  // spec §9 P-1(b)
  R_fast,
};

struct RuleInfo {
  Rule rule;
  std::string_view name;     // the paper's name: "O-add", "S-ctx", "R-let", ...
  std::string_view figure;   // "Fig. 2"
  std::string_view citation; // "seed 003 lines 316-362"
  std::string_view summary;
};

const std::vector<RuleInfo>& all_rules();
const RuleInfo& rule_info(Rule rule);
std::string_view rule_name(Rule rule);
std::optional<Rule> rule_by_name(std::string_view name);

} // namespace adsem::simple_diff
