#include "semantics/core/tolerance.hpp"

namespace adsem {

std::string_view to_string(CheckKind kind) {
  switch (kind) {
  case CheckKind::exact_value:
    return "exact-value";
  case CheckKind::derivative:
    return "derivative";
  case CheckKind::finite_difference:
    return "finite-difference";
  case CheckKind::probe:
    return "probe";
  }
  return "exact-value";
}

std::optional<CheckKind> check_kind_from_string(std::string_view name) {
  for (const CheckKind kind : all_check_kinds)
    if (to_string(kind) == name) return kind;
  return std::nullopt;
}

Tolerance default_tolerance(CheckKind kind) {
  switch (kind) {
  case CheckKind::exact_value:
    return {1e-9, 1e-12};
  case CheckKind::derivative:
    return {1e-7, 1e-10};
  case CheckKind::finite_difference:
    return {1e-5, 1e-7};
  case CheckKind::probe:
    return {1e-7, 1e-10};
  }
  return {};
}

} // namespace adsem
