#include "semantics/linear_negation/equivalence.hpp"

#include "semantics/linear_negation/reduction.hpp"

namespace adsem::linear_negation {

std::vector<EquivStep> equivalence_steps(const Term& t, Names& names, const Rules& book) {
  EquivalenceSteps steps(names);
  std::vector<EquivStep> out;
  for_each_subterm(t, [&](const Term& sub, const Plug& plug) {
    const Equivalence::Redex redex{sub};
    for (const Rule<Equivalence>* rule : book.candidates<Equivalence>(sub->kind)) {
      if (rule->match && !rule->match(steps, redex)) continue;
      for (const Term& result : rule->result(steps, redex, rule->info))
        out.push_back({rule->info.name, plug(result)});
    }
    return true;
  });
  return out;
}

} // namespace adsem::linear_negation
