#include "semantics/delta_reverse/variant.hpp"

#include "syntax/core/diagnostic.hpp"

namespace adsem::delta_reverse {

std::vector<std::string> mutant_names() {
  return {mutant::eval_overwrites,         mutant::eval_allocation_order,
          mutant::case_loses_sum_tag,      mutant::partials_swapped,
          mutant::literal_get_order,       mutant::literal_fig14_dy,
          mutant::literal_outside_rundelta};
}

Variant variant_for(const std::string& m) {
  Variant v;
  if (m.empty()) return v;
  if (m == mutant::eval_overwrites)
    v.eval_overwrites = true;
  else if (m == mutant::eval_allocation_order)
    v.eval_allocation_order = true;
  else if (m == mutant::case_loses_sum_tag)
    v.case_loses_sum_tag = true;
  else if (m == mutant::partials_swapped)
    v.partials_swapped = true;
  else if (m == mutant::literal_get_order)
    v.literal_get_newest_outermost = true;
  else if (m == mutant::literal_fig14_dy)
    v.literal_fig14_pure_dy = true;
  else if (m == mutant::literal_outside_rundelta)
    v.literal_drev_outside_rundelta = true;
  else if (m.rfind("delta-reverse/", 0) == 0)
    throw AdsemError(ErrorKind::usage, "unknown mutant '" + m + "'");
  return v; // another calculus's mutant: the paper's rules here
}

} // namespace adsem::delta_reverse
