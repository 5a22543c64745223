#pragma once
// Instances C[σ(LHS)] of a simple-diff user rule: what check-rule's trials (rule_adapter.cpp) and
// the targeted trials of a `--rules` campaign (trial.hpp) are drawn from. Draws with RapidCheck.
#include <map>
#include <optional>
#include <string>

#include "generators/simple_diff/terms.hpp"
#include "properties/core/user_rules.hpp"
#include "properties/simple_diff/rule_pattern.hpp"

namespace adsem::simple_diff {

// The hole of a context (never a user name: the rule parser reserves it).
inline const std::string hole_name = "hole'";

// σ: each metavariable of p a random term of its type over what it may see at `hole` (trace
// terms only when `trace_only`); `assignment` lists them ("M := ..., N := ...").
std::map<std::string, Term> draw_sigma(const Pattern& p, const Occurrence& hole,
                                       std::string& assignment, bool trace_only = false);

// A property's input Γ = {x : T} ⊢ C[σ(LHS)] : U drawn as `options` asks (result type, x's
// type, trace terms only, ...), for one of the file's rules chosen at random; nullopt when no
// rule fits (`trace_only` and no rule between trace terms).
std::optional<gen::OpenTerm> draw_rule_instance(const props::UserRules& user,
                                                const gen::TermOptions& options);

} // namespace adsem::simple_diff
