#include "properties/pullback/enumeration.hpp"

#include <any>
#include <functional>
#include <string>
#include <utility>

#include "generators/pullback/enumeration.hpp"
#include "properties/pullback/bodies.hpp"
#include "syntax/pullback/printer.hpp"

namespace adsem::pullback {

namespace {

class ClosedTerms final : public props::InputEnumeration {
public:
  explicit ClosedTerms(int max_size)
      : terms_(gen::EnumGrammar{}, adsem::gen::EnumerationLimits{max_size}) {}

  std::vector<std::string> describe() const override {
    return {"closed terms |- M : R and |- M : R^* by the typing rules of seed 000 Fig. 2 "
            "(L180-187)",
            "numerals 1, -2; covector [1]^*; primitives sin, mult; J sin; types R, R * R, "
            "R -> R, R^*, Omega R",
            "zero at R^*, sums at R and R^*, pairs, projections, lambda, application, dual maps "
            "(\\x:R. S)^* @ C with x linear in S, pullbacks (Omega \\x:R. P) @ S"};
  }
  std::uint64_t terms(int size) override {
    std::uint64_t n = 0;
    for (const gen::EnumSort& s : gen::enum_closed_sorts())
      n = adsem::gen::add_saturating(n, terms_.count(s, size));
    return n;
  }
  int points() const override { return 1; } // closed terms: no point
  props::EnumeratedInput input(int size, std::uint64_t term, int) override {
    for (const gen::EnumSort& s : gen::enum_closed_sorts()) {
      const std::uint64_t here = terms_.count(s, size);
      if (term >= here) {
        term -= here;
        continue;
      }
      Term m = terms_.nth(s, size, term);
      auto text = [m] { return print(m); };
      return {std::move(m), std::move(text), size};
    }
    return {}; // term is below terms(size): not reached
  }

private:
  gen::TermEnumeration terms_;
};

const Term& term(const std::any& input) {
  return std::any_cast<const Term&>(input);
}

} // namespace

std::unique_ptr<props::InputEnumeration> enumeration(int max_size) {
  return std::make_unique<ClosedTerms>(max_size);
}

void take_part_in_enumeration(std::vector<props::PropertyDef>& properties) {
  using props::PropertyContext;
  using props::TrialResult;
  using Check = std::function<TrialResult(const PropertyContext&, const std::any&)>;
  const auto of_term = [](TrialResult (*check)(const Term&, const PropertyContext&)) -> Check {
    return [check](const PropertyContext& c, const std::any& in) { return check(term(in), c); };
  };
  // the probes from the fixed seed
  const auto seeded =
      [](TrialResult (*check)(const Term&, std::uint64_t, const PropertyContext&)) -> Check {
    return [check](const PropertyContext& c, const std::any& in) {
      return check(term(in), enumeration_probe_seed, c);
    };
  };
  const std::vector<std::pair<std::string, Check>> checks = {
      {"round-trip",
       [](const PropertyContext&, const std::any& in) { return bodies::round_trip_of(term(in)); }},
      {"adequacy",
       [](const PropertyContext& c, const std::any& in) {
         return bodies::adequacy_of(
             term(in), [] { return enumeration_probe_seed; }, c);
       }},
      {"subject-reduction", of_term(bodies::subject_reduction_of)},
      {"strong-normalisation", of_term(bodies::strong_normalisation_of)},
      {"unique-decomposition", of_term(bodies::unique_decomposition_of)},
      {"soundness-of-steps", seeded(bodies::soundness_of_steps_of)},
      {"translation", seeded(bodies::translation_of)},
      {"simulation", seeded(bodies::simulation_of)},
      {"dot-product-test", seeded(bodies::dot_product_of)},
      {"jacobian-bodies", seeded(bodies::jacobian_bodies_of)},
  };
  for (props::PropertyDef& p : properties)
    for (const auto& [name, check] : checks)
      if (p.name == "pullback/" + name) p.check_input = check;
}

} // namespace adsem::pullback
