#include "properties/pullback/register.hpp"

#include "properties/pullback/complexity_families.hpp"
#include "properties/pullback/enumeration.hpp"
#include "properties/pullback/frontend.hpp"
#include "properties/pullback/mutants.hpp"
#include "properties/pullback/properties.hpp"
#include "properties/pullback/rule_adapter.hpp"
#include "semantics/pullback/rules.hpp"

namespace adsem::props {

void register_pullback(Registry& registry) {
  CalculusEntry entry;
  entry.id = "pullback";
  entry.aliases = {"mak-ong"};
  entry.paper = "Mak and Ong, A Differential-form Pullback Programming Language for "
                "Higher-order Reverse-mode Automatic Differentiation";
  entry.summary = "STLC with dual types σ*, Jacobians 𝒥f·S, dual maps (λx.S)*·S, pullbacks "
                  "(Ω λx.P)·S; reverse-mode AD by reducing pullbacks of 1-forms";
  entry.frontend = std::make_shared<const pullback::Frontend>();
  entry.properties = pullback::properties();
  entry.mutants = pullback::mutants();
  entry.complexity_families = pullback::complexity_families;
  // The construct tags of the generators, and every rule of the rule book.
  entry.constructs = {"covector", "dual-map",          "higher-order", "jacobian",
                      "let",      "partial-primitive", "sum",          "zero"};
  use_rule_table(entry, pullback::paper_rules()->infos());
  entry.rule_adapter = std::make_shared<const pullback::RuleAdapter>();
  entry.enumeration = pullback::enumeration;
  registry.add(std::move(entry));
}

} // namespace adsem::props
