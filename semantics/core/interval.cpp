#include "semantics/core/interval.hpp"

#include <cstdio>

namespace adsem::model {

std::string to_string(const Interval& x) {
  char buffer[80];
  std::snprintf(buffer, sizeof buffer, "[%.17g, %.17g]", x.lower(), x.upper());
  return buffer;
}

} // namespace adsem::model
