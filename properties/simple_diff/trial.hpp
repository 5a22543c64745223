#pragma once
// What every simple-diff property body shares: a drawn open term with its point, the report of
// a trial (term, type, size, construct tags), discard reasons, and running a closed term.
#include <any>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "generators/simple_diff/terms.hpp"
#include "properties/core/property.hpp"
#include "properties/simple_diff/oracles.hpp"
#include "properties/simple_diff/rule_instance.hpp"
#include "semantics/simple_diff/run.hpp"
#include "syntax/simple_diff/printer.hpp"

namespace adsem::simple_diff {

// Γ = {x : T} ⊢ M : U and a point X for x.
struct Trial {
  gen::OpenTerm t;
  std::vector<double> at;

  // Only a reported trial (TrialResult::shows_input) prints its term.
  props::TrialResult done(props::TrialResult r) const {
    r.on(r.shows_input() ? oracle::describe(t, at) : std::string(), print_type(t.type),
         static_cast<int>(term_size(*t.term)), gen::construct_tags(t.term));
    return r;
  }
  void report(const props::PropertyContext& context) const {
    context.report_input_lazily([t = t, at = at] {
      return std::pair{oracle::describe(t, at), std::string()};
    });
  }
};

// The drawn input is reported to the context first, so that a trial that throws, crashes or hangs
// before it builds its TrialResult still names its term in the counterexample. Under `--rules`,
// a share of the trials (props::draw_targeted) is an instance C[σ(LHS)] of one of the file's
// rules, of the type `options` asks for (rule_instance.hpp); without user rules nothing more is
// drawn.
inline Trial draw(const props::PropertyContext& context, const gen::TermOptions& options = {}) {
  std::optional<gen::OpenTerm> targeted;
  if (props::draw_targeted(context)) targeted = draw_rule_instance(*context.user_rules, options);
  gen::OpenTerm t = targeted ? std::move(*targeted) : *gen::open_term(options);
  std::vector<double> at = *gen::point(type_size(*t.t));
  Trial trial{std::move(t), std::move(at)};
  trial.report(context);
  return trial;
}

inline std::string discard_reason(ErrorKind kind) {
  return kind == ErrorKind::fuel ? "fuel" : kind == ErrorKind::domain ? "undefined-point" : "error";
}

// A closed term's flattened value by the operational semantics; on failure nullopt, with
// `unknown` set when it ran out of fuel (as opposed to a definite "no value").
inline std::optional<std::vector<double>> closed(const Term& m, const Options& options,
                                                 bool& unknown) {
  try {
    const Typed typed = typecheck(m, primitives());
    return flatten(evaluate(typed.term, options).value);
  } catch (const AdsemError& e) {
    if (is_unknown(e)) unknown = true;
    return std::nullopt;
  }
}

// The input of the properties that check one term at one point: draw's default term.
inline Trial draw_term(const props::PropertyContext& context) {
  return draw(context);
}

// A property "simple-diff/<name>" whose check takes one drawn input: the random body is
// check(draw(context), context), and the same check is its PropertyDef::check_input, for
// bounded-exhaustive enumeration (properties/simple_diff/enumeration.hpp gives it Trials).
using TrialCheck = props::TrialResult (*)(const Trial&, const props::PropertyContext&);
using TrialDraw = Trial (*)(const props::PropertyContext&);
inline props::PropertyDef def(std::string name, std::string kind, std::string summary,
                              std::string citation, TrialDraw drawer, TrialCheck check) {
  props::PropertyDef p{"simple-diff",
                       "simple-diff/" + std::move(name),
                       std::move(kind),
                       std::move(summary),
                       std::move(citation),
                       [drawer, check](const props::PropertyContext& context) {
                         return check(drawer(context), context);
                       },
                       50};
  p.check_input = [check](const props::PropertyContext& context, const std::any& input) {
    return check(std::any_cast<const Trial&>(input), context);
  };
  return p;
}

// A property "simple-diff/<name>".
inline props::PropertyDef
def(std::string name, std::string kind, std::string summary, std::string citation,
    std::function<props::TrialResult(const props::PropertyContext&)> body) {
  return props::PropertyDef{"simple-diff",
                            "simple-diff/" + std::move(name),
                            std::move(kind),
                            std::move(summary),
                            std::move(citation),
                            std::move(body),
                            50};
}

// The properties of evaluation contexts (context_properties.cpp) and of the equations of
// Sections 2 and 4 (equation_properties.cpp).
std::vector<props::PropertyDef> context_properties();
std::vector<props::PropertyDef> equation_properties();

} // namespace adsem::simple_diff
