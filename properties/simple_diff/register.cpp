#include "properties/simple_diff/register.hpp"

#include "properties/simple_diff/complexity_families.hpp"
#include "properties/simple_diff/enumeration.hpp"
#include "properties/simple_diff/frontend.hpp"
#include "properties/simple_diff/mutants.hpp"
#include "properties/simple_diff/properties.hpp"
#include "properties/simple_diff/rule_adapter.hpp"
#include "semantics/simple_diff/rules.hpp"

namespace adsem::props {

void register_simple_diff(Registry& registry) {
  CalculusEntry entry;
  entry.id = "simple-diff";
  entry.aliases = {"abadi-plotkin"};
  entry.paper = "Abadi and Plotkin, A Simple Differentiable Programming Language";
  entry.summary = "first-order language over reals with partial predicates, recursion and "
                  "reverse-mode rd by tracing and symbolic differentiation";
  entry.frontend = std::make_shared<const simple_diff::Frontend>();
  entry.properties = simple_diff::properties();
  entry.complexity_families = simple_diff::complexity_families;
  entry.enumeration = simple_diff::enumeration;
  entry.mutants = simple_diff::mutants();
  // The construct tags of gen::construct_tags, and every rule of the rule book.
  entry.constructs = {"rd", "nested-rd", "letrec", "if", "call", "pair", "let", "partial-prim"};
  use_rule_table(entry, simple_diff::paper_rules()->infos());
  entry.rule_adapter = std::make_shared<const simple_diff::RuleAdapter>();
  registry.add(std::move(entry));
}

} // namespace adsem::props
