#include "properties/perturbative/register.hpp"

#include "properties/perturbative/complexity_families.hpp"
#include "properties/perturbative/enumeration.hpp"
#include "properties/perturbative/frontend.hpp"
#include "properties/perturbative/mutants.hpp"
#include "properties/perturbative/properties.hpp"
#include "properties/perturbative/rule_adapter.hpp"
#include "semantics/perturbative/rules.hpp"

namespace adsem::props {

void register_perturbative(Registry& registry) {
  CalculusEntry entry;
  entry.id = "perturbative";
  entry.aliases = {"manzyuk"};
  entry.paper = "Manzyuk, A Simply Typed λ-Calculus of Forward Automatic Differentiation";
  entry.summary = "simply typed λ-calculus with products, bags and the pushforward operator T; "
                  "forward AD by the rewrite T(λx.s) → λx.T_x s";
  entry.frontend = std::make_shared<const perturbative::Frontend>();
  entry.complexity_families = perturbative::complexity_families;
  entry.properties = perturbative::properties();
  entry.mutants = perturbative::mutants();
  // The construct tags of gen::tags_of, and every rule of the rule book.
  entry.constructs = {"T", "nested-T", "lambda", "higher-order", "pair", "sum"};
  use_rule_table(entry, perturbative::paper_rules()->infos());
  entry.rule_adapter = std::make_shared<const perturbative::RuleAdapter>(); // user rules
  entry.enumeration = perturbative::enumeration;
  registry.add(std::move(entry));
}

} // namespace adsem::props
