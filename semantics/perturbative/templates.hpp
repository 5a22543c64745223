#pragma once
// [OURS] (spec §7): the closed pushforward template τ_p of each constant p, for the rule
// (δT) T p → τ_p. Each template is an ordinary term in surface syntax, so nested derivatives of
// primitives go through the ordinary T-rule (spec M10).
#include <map>
#include <string>

#include "syntax/perturbative/ast.hpp"

namespace adsem::perturbative {

// name -> template source text (p : T(dom p)).
const std::map<std::string, std::string>& template_sources();
// The elaborated template of a constant (parsed once per source text).
Bag parse_template(const std::string& source);

} // namespace adsem::perturbative
