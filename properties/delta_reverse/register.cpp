#include "properties/delta_reverse/register.hpp"

#include "properties/delta_reverse/complexity_families.hpp"
#include "properties/delta_reverse/enumeration.hpp"
#include "properties/delta_reverse/frontend.hpp"
#include "properties/delta_reverse/mutants.hpp"
#include "properties/delta_reverse/properties.hpp"
#include "properties/delta_reverse/rule_adapter.hpp"
#include "semantics/delta_reverse/rules.hpp"

namespace adsem::props {

void register_delta_reverse(Registry& registry) {
  CalculusEntry entry;
  entry.id = "delta-reverse";
  entry.aliases = {"krawiec"};
  entry.paper = "Krawiec et al., Provably Correct, Asymptotically Efficient, Higher-Order "
                "Reverse-Mode Automatic Differentiation";
  entry.summary = "higher-order CBV λ-calculus with products, sums and leaves; forward dual "
                  "numbers (Dfwd), reverse #1/#2 and the monadic Delta translation Drev with "
                  "deltaLet, runDelta and eval (map and array)";
  entry.frontend = std::make_shared<const delta_reverse::Frontend>();
  entry.properties = delta_reverse::properties();
  entry.mutants = delta_reverse::mutants();
  entry.complexity_families = delta_reverse::complexity_families;
  // The construct tags of the generators; the rules are the book's entries (every step of the
  // machine's cost model is one): the wrappers' ledgers and the book's strategies count them into
  // the campaign's counter (RunSetup::coverage).
  entry.constructs = {"array", "branch-on-real", "case",     "helper", "higher-order",
                      "let",   "shared-let",     "sum-input"};
  use_rule_table(entry, delta_reverse::paper_rules()->infos());
  entry.rule_adapter = std::make_shared<const delta_reverse::RuleAdapter>();
  entry.enumeration = delta_reverse::enumeration;
  registry.add(std::move(entry));
}

} // namespace adsem::props
