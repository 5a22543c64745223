#include "properties/perturbative/enumeration.hpp"

#include "generators/perturbative/enumeration.hpp"
#include "syntax/perturbative/printer.hpp"

namespace adsem::perturbative {

namespace {

class ClosedTerms final : public props::InputEnumeration {
public:
  explicit ClosedTerms(int max_size)
      : terms_(gen::EnumGrammar{}, adsem::gen::EnumerationLimits{max_size}) {}

  std::vector<std::string> describe() const override {
    return {"closed terms |- M : R by the typing rules of seed 004 Fig. 2 (L165-185)",
            "numerals 1, -2; constants sin, mul; types R, R * R, R -> R",
            "sums at R, pairs, projections, lambda, application, (T f) N at R * R"};
  }
  std::uint64_t terms(int size) override {
    return terms_.count(gen::enum_closed_real_sort(), size);
  }
  int points() const override { return 1; } // closed terms: no point
  props::EnumeratedInput input(int size, std::uint64_t term, int) override {
    Term m = terms_.nth(gen::enum_closed_real_sort(), size, term);
    auto text = [m] { return print(m); };
    return {std::move(m), std::move(text), size};
  }

private:
  gen::TermEnumeration terms_;
};

} // namespace

std::unique_ptr<props::InputEnumeration> enumeration(int max_size) {
  return std::make_unique<ClosedTerms>(max_size);
}

} // namespace adsem::perturbative
