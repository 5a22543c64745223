#include "properties/cross/mutants.hpp"

namespace adsem::cross {
namespace {

struct Forwarded {
  std::string calculus;
  std::string mutant; // the calculus's own mutant, without the "<calc>/" prefix
  std::string bug_class;
  std::string summary;
};

// One AD bug per calculus that changes first-order gradients (each is one of that calculus's
// shipped mutants; see its docs/calculi page). Pullback's forwarded bug is its rule-8 mutant: its
// combine-drops-summand needs a sum of covectors in rule 5+, which first-order programs no
// longer form since the gradient query pulls back along the function's own λ (seed 000
// Ex. 3.9), so only pullback's own properties (and rarely the higher-order cross property)
// reach it.
const std::vector<Forwarded>& forwarded() {
  static const std::vector<Forwarded> all = {
      {"simple-diff", "product-rule-drops-term", "wrong-derivative-rule",
       "simple-diff's rd drops one term of the product rule"},
      {"perturbative", "sin-derivative-is-sin", "wrong-derivative-rule",
       "perturbative's pushforward template of sin uses sin for cos"},
      {"linear-negation", "d-mul-drops-product-term", "wrong-derivative-rule",
       "linear-negation's D(t * u) drops one product term (Table 3)"},
      {"delta-reverse", "eval-overwrites-on-fan-out", "overwrite-not-accumulate",
       "delta-reverse's eval overwrites a shared variable's cotangent instead of adding to it"},
      {"pullback", "let-series-split-loses-binding", "lost-binding",
       "pullback's rule 8 reads the stage tuple of a let series in the wrong order"},
  };
  return all;
}

std::string forwarded_name(const Forwarded& f) {
  return "cross/via-" + f.calculus + "-" + f.mutant;
}

} // namespace

std::optional<std::pair<std::string, std::string>> forwarded_mutant(const std::string& mutant) {
  for (const auto& f : forwarded())
    if (forwarded_name(f) == mutant) return std::pair{f.calculus, f.calculus + "/" + f.mutant};
  return std::nullopt;
}

std::vector<props::MutantDef> cross_mutants() {
  std::vector<props::MutantDef> out = {
      {"cross",
       sub_reversed_mutant,
       "wrong-embedding",
       "the delta-reverse embedding prints sub(a, b) as subR (b, a)",
       {"cross/gradient-agreement"}},
      {"cross",
       gradient_reversed_mutant,
       "wrong-component",
       "the pullback gradient is read back with the inputs in reverse order",
       {"cross/gradient-agreement"}},
  };
  for (const auto& f : forwarded())
    out.push_back(
        {"cross", forwarded_name(f), f.bug_class, f.summary, {"cross/gradient-agreement"}});
  return out;
}

} // namespace adsem::cross
