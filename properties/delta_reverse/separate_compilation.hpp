#pragma once
#include "properties/core/property.hpp"

namespace adsem::delta_reverse {

// §7.5 (L623-627; spec §6 P19): a helper translated once links into any client.
props::PropertyDef separate_compilation();

} // namespace adsem::delta_reverse
