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
// The elaborated template of a source text.
Term parse_template(const std::string& source);
// The elaborated template of the constant `name` (a key of template_sources()), parsed once per
// process: (δT) fires on every T p, and parsing was a tenth of an adequacy trial. Terms are
// immutable, so every firing may share it.
const Term& template_of(const std::string& name);

} // namespace adsem::perturbative
