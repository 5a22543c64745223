#include "properties/model/register.hpp"

#include "properties/model/model_properties.hpp"

namespace adsem::props {

void register_model(Registry& registry) {
  CalculusEntry entry;
  entry.id = "model";
  entry.paper = "the shared numeric model (design.md, \"The numeric model\")";
  entry.summary = "Self-check of the oracles every calculus is compared against.";
  entry.properties = model_properties();
  entry.mutants = model_mutants();
  registry.add(std::move(entry));
}

} // namespace adsem::props
