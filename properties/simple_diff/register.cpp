#include "properties/simple_diff/register.hpp"

#include "properties/simple_diff/frontend.hpp"
#include "properties/simple_diff/properties.hpp"

namespace adsem::props {

void register_simple_diff(Registry& registry) {
  CalculusEntry entry;
  entry.id = "simple-diff";
  entry.aliases = {"abadi-plotkin"};
  entry.paper = "A Simple Differentiable Programming Language (seed 003_6f3074c61828ad75.txt)";
  entry.summary = "first-order language over reals with partial predicates, recursion and "
                  "reverse-mode rd by tracing and symbolic differentiation";
  entry.frontend = std::make_shared<const simple_diff::Frontend>();
  entry.properties = simple_diff::properties();
  entry.mutants = simple_diff::mutants();
  registry.add(std::move(entry));
}

} // namespace adsem::props
