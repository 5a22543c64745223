#include "properties/linear_negation/enumeration.hpp"

#include <sstream>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "generators/linear_negation/enumeration.hpp"
#include "generators/linear_negation/terms.hpp"
#include "semantics/linear_negation/program.hpp"
#include "syntax/linear_negation/printer.hpp"

namespace adsem::linear_negation {

namespace {

class ClosedTermsAndSources final : public props::GrammarInputs<gen::EnumGrammar> {
public:
  using GrammarInputs::GrammarInputs;

  std::vector<std::string> describe() const override {
    std::vector<std::string> types, source_types, points;
    for (const Type& t : gen::enum_types())
      types.push_back(print_type(t));
    for (const Type& t : gen::enum_source_types())
      source_types.push_back(print_type(t));
    for (const SourceShape& shape : enumeration_source_shapes())
      points.push_back(fmt::format("({})", fmt::join(shape.point, ", ")));
    return {"closed terms |- t : R and |- t : R * R by the typing rules of seed 002 Table 1 "
            "(spec §3.2)",
            fmt::format("numerals 1, -2 (0 by (zero)); binder types {}; R -o R^2 applied at R * R",
                        fmt::join(types, ", ")),
            "primitives sin, log, mul ((mul) and (mul') linear); sums at R and R * R",
            fmt::format("source programs x1 |- t : R and x1, x2 |- t : R of Lambda(F) (spec §3.5: "
                        "no linear rule; binder types {}; sums at R) at {}; size |t| + 2n",
                        fmt::join(source_types, ", "), fmt::join(points, " and ")),
            fmt::format("S_rand at seeds {}", fmt::join(enumeration_seeds(), ", "))};
  }
  // The terms at R first, then those at R × R, then the source programs by their inputs.
  std::uint64_t terms(int size) override {
    std::uint64_t n = 0;
    for (const gen::EnumSort& s : gen::enum_closed_sorts())
      n = adsem::gen::add_saturating(n, terms_.count(s, size));
    for (const SourceShape& shape : enumeration_source_shapes())
      n = adsem::gen::add_saturating(n, bodies(shape, size));
    return n;
  }
  int points() const override { return 1; } // closed terms, programs at their shape's point
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
    for (const SourceShape& shape : enumeration_source_shapes()) {
      const std::uint64_t n = bodies(shape, size);
      if (term >= n) {
        term -= n;
        continue;
      }
      gen::Source s;
      for (int i = 1; i <= shape.inputs; ++i)
        s.inputs.push_back("x" + std::to_string(i));
      s.point = shape.point;
      s.body = with_unique_binders(terms_.nth(sort(shape), size - frame(shape), term), s.context());
      auto text = [s] {
        std::ostringstream os;
        gen::showValue(s, os);
        return os.str();
      };
      return {std::move(s), std::move(text), size};
    }
    throw std::out_of_range("enumeration index past the count of its size");
  }

private:
  static gen::EnumSort sort(const SourceShape& shape) {
    return gen::enum_source_sort(shape.inputs);
  }
  // t[x1 := r1]…[xn := rn] adds an ES and a numeral per input
  static int frame(const SourceShape& shape) { return 2 * shape.inputs; }
  std::uint64_t bodies(const SourceShape& shape, int size) {
    const int body_size = size - frame(shape);
    return body_size < 1 ? 0 : terms_.count(sort(shape), body_size);
  }
};

} // namespace

const std::vector<std::uint64_t>& enumeration_seeds() {
  static const std::vector<std::uint64_t> seeds = {1, 2};
  return seeds;
}

// Points inside log's domain in every input (log x_i is defined), the two coordinates apart so
// that a gradient read from the wrong coordinate shows.
const std::vector<SourceShape>& enumeration_source_shapes() {
  static const std::vector<SourceShape> shapes = {{1, {0.5}}, {2, {0.5, 1.5}}};
  return shapes;
}

std::unique_ptr<props::InputEnumeration> enumeration(int max_size) {
  return std::make_unique<ClosedTermsAndSources>(max_size);
}

} // namespace adsem::linear_negation
