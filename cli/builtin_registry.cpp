#include "cli/builtin_registry.hpp"

#include "properties/model/register.hpp"

namespace adsem::cli {

props::Registry builtin_registry() {
  props::Registry registry;
  props::register_model(registry);
  return registry;
}

} // namespace adsem::cli
