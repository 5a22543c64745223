#include "properties/simple_diff/enumeration.hpp"

#include <fmt/format.h>

#include "generators/simple_diff/enumeration.hpp"
#include "properties/simple_diff/oracles.hpp"
#include "properties/simple_diff/trial.hpp"
#include "syntax/simple_diff/printer.hpp"

namespace adsem::simple_diff {

namespace {

class ProgramInputs final : public props::InputEnumeration {
public:
  explicit ProgramInputs(int max_size)
      : terms_(gen::EnumGrammar{}, adsem::gen::EnumerationLimits{max_size}) {}

  std::vector<std::string> describe() const override {
    std::vector<std::string> literals, types;
    for (const double r : gen::enum_literals())
      literals.push_back(print_real(r));
    for (const Type& t : gen::enum_types())
      types.push_back(print_type(t));
    std::vector<std::string> points;
    for (const double x : enumeration_points())
      points.push_back(print_real(x));
    return {"terms x : real |- M : real, by the typing rules of seed 003 Fig. 1",
            fmt::format("literals {}; types {}", fmt::join(literals, ", "), fmt::join(types, ", ")),
            "operations exp, log, mul; predicate less; letrec_2 f(y:real):real (Fig. 8)",
            fmt::format("each term at x = {}", fmt::join(points, ", "))};
  }
  std::uint64_t terms(int size) override { return terms_.count(gen::enum_program_sort(), size); }
  int points() const override { return static_cast<int>(enumeration_points().size()); }
  props::EnumeratedInput input(int size, std::uint64_t term, int point) override {
    gen::OpenTerm open{"x", real_type(), terms_.nth(gen::enum_program_sort(), size, term),
                       real_type()};
    Trial trial{std::move(open), {enumeration_points()[static_cast<std::size_t>(point)]}};
    auto text = [trial] { return oracle::describe(trial.t, trial.at); };
    return {std::move(trial), std::move(text), size};
  }

private:
  gen::TermEnumeration terms_;
};

} // namespace

const std::vector<double>& enumeration_points() {
  static const std::vector<double> points = {0.5, -1.5};
  return points;
}

std::unique_ptr<props::InputEnumeration> enumeration(int max_size) {
  return std::make_unique<ProgramInputs>(max_size);
}

} // namespace adsem::simple_diff
