#include "properties/delta_reverse/enumeration.hpp"

#include <fmt/format.h>

#include "generators/delta_reverse/enumeration.hpp"
#include "properties/delta_reverse/properties.hpp"
#include "syntax/delta_reverse/printer.hpp"

namespace adsem::delta_reverse {

namespace {

using support::Drawn;

class ProgramInputs final : public props::InputEnumeration {
public:
  explicit ProgramInputs(int max_size)
      : bodies_(gen::EnumGrammar{}, adsem::gen::EnumerationLimits{max_size}) {}

  std::vector<std::string> describe() const override {
    std::vector<std::string> types, points;
    for (const Type& t : gen::enum_types())
      types.push_back(print_type(t));
    for (const double x : enumeration_points())
      points.push_back(print_real(x));
    return {"programs \\(x : Real). e : Real -> Real, e by the typing rules of seed 001 Fig. 1 "
            "and §10.2",
            fmt::format("literals 1.0, -2.0, 0, 1; types {}", fmt::join(types, ", ")),
            "primitives addR, mulR, sin, log, fromInt; build[Real], index[Real]",
            fmt::format("each program at x = {}", fmt::join(points, ", "))};
  }
  // A program of size n is λx. e with e of size n - 1.
  std::uint64_t terms(int size) override {
    return size < 2 ? 0 : bodies_.count(gen::enum_body_sort(), size - 1);
  }
  int points() const override { return static_cast<int>(enumeration_points().size()); }
  props::EnumeratedInput input(int size, std::uint64_t term, int point) override {
    const Term e = lam("x", real_type(), bodies_.nth(gen::enum_body_sort(), size - 1, term));
    const double x = enumeration_points()[static_cast<std::size_t>(point)];
    gen::MainExpression m{e, real_type(), real_type(), gen::tags_of(e)};
    Drawn d{m, Program{e, real_type(), real_type()}, v_real(x)};
    auto text = [e, x] { return print(e) + "  at " + print_real(x); };
    return {std::move(d), std::move(text), size};
  }

private:
  gen::TermEnumeration bodies_;
};

const Drawn& drawn(const std::any& input) {
  return std::any_cast<const Drawn&>(input);
}

} // namespace

const std::vector<double>& enumeration_points() {
  static const std::vector<double> points = {0.5, -1.5};
  return points;
}

std::unique_ptr<props::InputEnumeration> enumeration(int max_size) {
  return std::make_unique<ProgramInputs>(max_size);
}

void take_part_in_enumeration(std::vector<props::PropertyDef>& properties) {
  using props::PropertyContext;
  using Check = std::function<props::TrialResult(const PropertyContext&, const std::any&)>;
  std::vector<std::pair<std::string, Check>> checks = {
      {"adequacy",
       [](const PropertyContext& c, const std::any& in) { return adequacy_at(drawn(in), c); }},
      {"translation-typing",
       [](const PropertyContext& c, const std::any& in) {
         const Drawn& d = drawn(in);
         return support::on(
             translations_typed(d.m.term, {}, arrow_type(d.m.s, d.m.t), support::setup_of(c)), d.m);
       }},
      {"forward-correctness",
       [](const PropertyContext& c, const std::any& in) {
         return forward_correctness_at(drawn(in), v_real(1.0), c);
       }},
      {"reverse-correctness",
       [](const PropertyContext& c, const std::any& in) {
         return reverse_correctness_at(drawn(in), v_real(1.0), c);
       }},
  };
  for (auto& [name, check] : program_checks())
    checks.emplace_back(name, [check](const PropertyContext& c, const std::any& in) {
      return check(drawn(in), c);
    });
  for (props::PropertyDef& p : properties)
    for (const auto& [name, check] : checks)
      if (p.name == "delta-reverse/" + name) p.check_input = check;
}

} // namespace adsem::delta_reverse
