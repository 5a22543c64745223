#include "properties/dual_numbers/register.hpp"

#include "properties/dual_numbers/frontend.hpp"
#include "properties/dual_numbers/mutants.hpp"
#include "properties/dual_numbers/properties.hpp"
#include "properties/dual_numbers/rule_adapter.hpp"

namespace adsem::dual_numbers {

void register_dual_numbers(props::Registry& registry) {
  props::CalculusEntry entry;
  entry.id = "dual-numbers";
  entry.aliases = {"huot-staton-vakar"};
  entry.paper = "M. Huot, S. Staton, M. Vakar, Correctness of Automatic Differentiation via "
                "Diffeologies and Categorical Gluing (FoSSaCS 2020)";
  entry.summary = "Forward-mode dual-numbers macro D on a simply typed lambda-calculus with reals "
                  "and products (built outside the tree: examples/kit, docs/kit.md).";
  entry.frontend = frontend();
  entry.properties = properties();
  entry.mutants = props::mutant_defs(mutant_catalogue());
  entry.rule_adapter = std::make_shared<const RuleAdapter>(); // check-rule and --rules
  entry.constructs = {"var", "constant", "add", "mul", "sin", "cos", "lam", "app", "pair", "proj"};
  props::use_rule_table(entry, paper_rules()->infos());
  registry.add(std::move(entry));
}

} // namespace adsem::dual_numbers
