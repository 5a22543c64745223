#include "properties/linear_negation/enumeration.hpp"

#include <fmt/format.h>

#include "generators/linear_negation/enumeration.hpp"
#include "semantics/linear_negation/program.hpp"
#include "syntax/linear_negation/printer.hpp"

namespace adsem::linear_negation {

namespace {

class ClosedTerms final : public props::GrammarInputs<gen::EnumGrammar> {
public:
  using GrammarInputs::GrammarInputs;

  std::vector<std::string> describe() const override {
    std::vector<std::string> types;
    for (const Type& t : gen::enum_types())
      types.push_back(print_type(t));
    return {"closed terms |- t : R and |- t : R * R by the typing rules of seed 002 Table 1 "
            "(spec §3.2)",
            fmt::format("numerals 1, -2 (0 by (zero)); binder types {}; R -o R^2 applied at R * R",
                        fmt::join(types, ", ")),
            "primitives sin, log, mul ((mul) and (mul') linear); sums at R and R * R",
            fmt::format("S_rand at seeds {}", fmt::join(enumeration_seeds(), ", "))};
  }
  // The terms at R first, then those at R × R.
  std::uint64_t terms(int size) override {
    std::uint64_t n = 0;
    for (const gen::EnumSort& s : gen::enum_closed_sorts())
      n = adsem::gen::add_saturating(n, terms_.count(s, size));
    return n;
  }
  int points() const override { return 1; } // closed terms; the seeds are run by each check
  props::EnumeratedInput input(int size, std::uint64_t term, int) override {
    for (const gen::EnumSort& s : gen::enum_closed_sorts()) {
      const std::uint64_t n = terms_.count(s, size);
      if (term >= n) {
        term -= n;
        continue;
      }
      const Term t = terms_.nth(s, size, term);
      // binders named apart by depth may repeat in siblings: renamed apart for the reducer
      Typed typed{with_unique_binders(t), s.type};
      auto text = [t, a = s.type] { return print(t) + " : " + print_type(a); };
      return {std::move(typed), std::move(text), size};
    }
    throw std::out_of_range("enumeration index past the count of its size");
  }
};

} // namespace

const std::vector<std::uint64_t>& enumeration_seeds() {
  static const std::vector<std::uint64_t> seeds = {1, 2};
  return seeds;
}

std::unique_ptr<props::InputEnumeration> enumeration(int max_size) {
  return std::make_unique<ClosedTerms>(max_size);
}

} // namespace adsem::linear_negation
