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
  using Check = std::function<props::TrialResult(const PropertyContext&, const std::any&)>;
  const std::vector<std::pair<std::string, Check>> checks = {
      {"round-trip",
       [](const PropertyContext&, const std::any& in) { return bodies::round_trip_of(term(in)); }},
      {"adequacy",
       [](const PropertyContext& c, const std::any& in) {
         return bodies::adequacy_of(
             term(in), [] { return enumeration_probe_seed; }, c);
       }},
      {"subject-reduction",
       [](const PropertyContext& c, const std::any& in) {
         return bodies::subject_reduction_of(term(in), c);
       }},
      {"strong-normalisation",
       [](const PropertyContext& c, const std::any& in) {
         return bodies::strong_normalisation_of(term(in), c);
       }},
      {"unique-decomposition",
       [](const PropertyContext& c, const std::any& in) {
         return bodies::unique_decomposition_of(term(in), c);
       }},
      {"soundness-of-steps",
       [](const PropertyContext& c, const std::any& in) {
         return bodies::soundness_of_steps_of(term(in), enumeration_probe_seed, c);
       }},
      {"translation",
       [](const PropertyContext& c, const std::any& in) {
         return bodies::translation_of(term(in), enumeration_probe_seed, c);
       }},
      {"simulation",
       [](const PropertyContext& c, const std::any& in) {
         return bodies::simulation_of(term(in), enumeration_probe_seed, c);
       }},
  };
  for (props::PropertyDef& p : properties)
    for (const auto& [name, check] : checks)
      if (p.name == "pullback/" + name) p.check_input = check;
}

} // namespace adsem::pullback
