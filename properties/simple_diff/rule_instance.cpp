#include "properties/simple_diff/rule_instance.hpp"

#include <algorithm>

#include <fmt/format.h>
#include <rapidcheck.h>

#include "generators/core/uniform.hpp"
#include "properties/core/rule_pattern_kit.hpp"
#include "properties/simple_diff/user_rules.hpp"
#include "semantics/simple_diff/run.hpp"
#include "syntax/simple_diff/derived.hpp"
#include "syntax/simple_diff/printer.hpp"

namespace adsem::simple_diff {

std::map<std::string, Term> draw_sigma(const Pattern& p, const Occurrence& hole,
                                       std::string& assignment, bool trace_only) {
  std::map<std::string, Term> sigma;
  for (const Metavariable& m : p.metas) {
    gen::TermOptions o;
    o.result = m.type;
    o.no_x = true;
    o.max_size = 14;
    o.trace_only = trace_only;
    if (m.outer) o.scope = hole.visible;
    o.scope.insert(o.scope.end(), m.binders.begin(), m.binders.end());
    const gen::OpenTerm term = *gen::open_term(o);
    sigma[m.name] = term.term;
    adsem::rules::add_assignment(assignment, m.name, print(term.term));
  }
  return sigma;
}

std::optional<gen::OpenTerm> draw_rule_instance(const props::UserRules& user,
                                                const gen::TermOptions& options) {
  std::vector<const Pattern*> fit;
  for (const auto& p : user.compiled_as<CompiledRules>().targets())
    if (!options.trace_only || (is_trace_term(*p->lhs) && is_trace_term(*p->rhs)))
      fit.push_back(p.get());
  if (fit.empty()) return std::nullopt;
  const Pattern& p = *fit[adsem::gen::uniform_below(fit.size())];
  // the context C: x : T ⊢ C[hole' : U] as the property asks, its x a name the rule does not use
  gen::TermOptions c = options;
  if (std::ranges::find(p.names, c.x) != p.names.end())
    c.x = adsem::rules::fresh_context_name(p.names);
  c.scope.emplace_back(hole_name, p.type);
  c.max_size = std::min(c.max_size, 24);
  gen::OpenTerm context = *gen::open_term(c);
  VarScope around = options.scope;
  if (context.has_x) around.insert(around.begin(), {context.x, context.t});
  std::vector<Occurrence> holes = occurrences(context.term, hole_name, around);
  Term term = context.term;
  if (holes.empty()) { // a context that does not mention the hole: bind it, strictly (spec P-7)
    term = mk::let(hole_name + "u", p.type, mk::var(hole_name), term);
    holes = occurrences(term, hole_name, around);
  }
  const auto which = adsem::gen::uniform_below(holes.size());
  std::string assignment;
  const auto sigma = draw_sigma(p, holes[which], assignment, options.trace_only);
  term = adsem::rules::zero_other_holes(term, holes, which, zero_of(p.type), replace_at);
  term = replace_at(term, holes[which].path, instantiate(p.lhs, sigma));
  context.scope = options.scope;
  try {
    const Typed typed = typecheck(term, primitives(), gen::gamma_of(context));
    context.term = typed.term;
    context.type = typed.type;
  } catch (const AdsemError&) {
    return std::nullopt; // an instance of a well-typed schema is well typed: not reached
  }
  return context;
}

} // namespace adsem::simple_diff
