#include "properties/perturbative/enumeration.hpp"

#include "generators/perturbative/enumeration.hpp"
#include "syntax/perturbative/printer.hpp"

namespace adsem::perturbative {

namespace {

// The closed terms ⊢ M : R of a size first, then the closed functions λy1:R. M of that size
// (bodies y1 : R ⊢ M : R one node smaller).
class ClosedTermsAndFunctions final : public props::GrammarInputs<gen::EnumGrammar> {
public:
  using GrammarInputs::GrammarInputs;

  std::vector<std::string> describe() const override {
    return {"closed terms |- M : R by the typing rules of seed 004 Fig. 2 (L165-185)",
            "closed functions \\y1:R. M with y1 : R |- M : R (the T_x properties take T_y1 M; "
            "ad-vs-finite-differences takes D(f, 1, 0.5))",
            "numerals 1, -2; constants sin, mul; types R, R * R, R -> R",
            "sums at R, pairs, projections, lambda, application, (T f) N at R * R"};
  }
  std::uint64_t terms(int size) override {
    return adsem::gen::add_saturating(terms_.count(gen::enum_closed_real_sort(), size),
                                      functions(size));
  }
  int points() const override { return 1; } // closed terms: no point
  props::EnumeratedInput input(int size, std::uint64_t term, int) override {
    const std::uint64_t closed = terms_.count(gen::enum_closed_real_sort(), size);
    if (term < closed) {
      Term m = terms_.nth(gen::enum_closed_real_sort(), size, term);
      auto text = [m] { return print(m); };
      return {std::move(m), std::move(text), size};
    }
    Opened body{gen::enum_function_binder, real_type(),
                terms_.nth(gen::enum_function_body_sort(), size - 1, term - closed)};
    EnumeratedFunction f{lam(body.x, body.sigma, body.m), body};
    auto text = [m = f.f] { return print(m); };
    return {std::move(f), std::move(text), size};
  }

private:
  // λy1:R. M adds one node to its body
  std::uint64_t functions(int size) {
    return size < 2 ? 0 : terms_.count(gen::enum_function_body_sort(), size - 1);
  }
};

} // namespace

EnumeratedCheck of_closed_term(TermCheck check) {
  return [check = std::move(check)](const props::PropertyContext& c, const std::any& in) {
    // the functions are the T_x properties' inputs: checking them here too would double the
    // run's time (docs/enumeration.md)
    if (std::any_cast<EnumeratedFunction>(&in) != nullptr)
      return props::TrialResult::discard("function");
    return check(std::any_cast<const Term&>(in), c);
  };
}

EnumeratedCheck of_opened_function(
    std::function<props::TrialResult(const Opened&, const props::PropertyContext&)> check) {
  return [check = std::move(check)](const props::PropertyContext& c, const std::any& in) {
    const auto* f = std::any_cast<EnumeratedFunction>(&in);
    if (f == nullptr) return props::TrialResult::discard("not-a-function");
    return check(f->body, c);
  };
}

std::unique_ptr<props::InputEnumeration> enumeration(int max_size) {
  return std::make_unique<ClosedTermsAndFunctions>(max_size);
}

} // namespace adsem::perturbative
