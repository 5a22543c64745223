#include "cli/builtin_registry.hpp"

#include "properties/cross/register.hpp"
#include "properties/delta_reverse/register.hpp"
#include "properties/linear_negation/register.hpp"
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
  props::register_linear_negation(registry);
  props::register_delta_reverse(registry);
  props::register_pullback(registry);
  props::register_cross(registry); // after the five: it drives their front ends
  return registry;
}

} // namespace adsem::cli
