#include "properties/linear_negation/register.hpp"

#include "properties/linear_negation/complexity_families.hpp"
#include "properties/linear_negation/enumeration.hpp"
#include "properties/linear_negation/frontend.hpp"
#include "properties/linear_negation/mutants.hpp"
#include "properties/linear_negation/properties.hpp"
#include "properties/linear_negation/rule_adapter.hpp"
#include "semantics/linear_negation/relations.hpp"

namespace adsem::props {

void register_linear_negation(Registry& registry) {
  CalculusEntry entry;
  entry.id = "linear-negation";
  entry.aliases = {"bmp"};
  entry.paper = "Brunel, Mazza and Pagani, Backpropagation in the Simply Typed Lambda-calculus "
                "with Linear Negation";
  entry.summary = "linear substitution calculus with linear negation R^⊥d; reverse-mode AD by "
                  "the compositional transformation D of Table 3 and βℓ-reduction";
  entry.frontend = std::make_shared<const linear_negation::Frontend>();
  entry.properties = linear_negation::properties();
  entry.mutants = linear_negation::mutants();
  entry.complexity_families = linear_negation::complexity_families;
  // The construct tags of the generators, and every rule of the rule book (Table 2's rules and
  // Table 3b's clauses of D).
  entry.constructs = {"higher-order", "let-pair", "partial-primitive",
                      "primitive",    "sharing",  "sum"};
  use_rule_table(entry, linear_negation::paper_rules()->infos());
  entry.rule_adapter = std::make_shared<const linear_negation::RuleAdapter>();
  entry.enumeration = linear_negation::enumeration;
  registry.add(std::move(entry));
}

} // namespace adsem::props
