#include "cli/builtin_registry.hpp"

#include "properties/model/register.hpp"
#include "properties/perturbative/register.hpp"
#include "properties/pullback/register.hpp"
#include "properties/simple_diff/register.hpp"

namespace adsem::cli {

props::Registry builtin_registry() {
  props::Registry registry;
  props::register_model(registry);
  props::register_simple_diff(registry);
  props::register_perturbative(registry);
  props::register_pullback(registry);
  return registry;
}

} // namespace adsem::cli
