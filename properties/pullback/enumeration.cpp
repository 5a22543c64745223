#include "properties/pullback/enumeration.hpp"

#include <any>
#include <functional>
#include <string>
#include <utility>

#include "generators/pullback/enumeration.hpp"
#include "generators/pullback/terms.hpp"
#include "properties/pullback/bodies.hpp"
#include "semantics/pullback/tape.hpp"
#include "syntax/pullback/printer.hpp"

namespace adsem::pullback {

namespace {

// A gradient query of a source body at its shape's fixed point and cotangent.
gen::Query query_of(const QueryShape& shape, Term body) {
  gen::Query q;
  q.y = "y1";
  q.sigma = shape.sigma;
  q.tau = shape.tau;
  q.body = std::move(body);
  q.cotangent = shape.cotangent;
  q.omega = lam("u", shape.tau, covec(shape.cotangent, shape.tau));
  q.point = numeral_tuple(shape.sigma, shape.point);
  q.straight_line = is_straight_line(q.body);
  return q;
}

// The nodes a query adds to its body: ((Ω λy1:σ. _)·(λu:τ. [c]*)) V.
int frame_size(const QueryShape& shape) {
  return static_cast<int>(size_of(query_of(shape, num(0.0)).term())) - 1;
}

class ClosedTermsAndQueries final : public props::InputEnumeration {
public:
  explicit ClosedTermsAndQueries(int max_size)
      : terms_(gen::EnumGrammar{}, adsem::gen::EnumerationLimits{max_size}) {
    for (const QueryShape& shape : enumeration_query_shapes())
      frames_.push_back(frame_size(shape));
  }

  std::vector<std::string> describe() const override {
    return {
        "closed terms |- M : R and |- M : R^* by the typing rules of seed 000 Fig. 2 "
        "(L180-187)",
        "numerals 1, -2; covector [1]^*; primitives sin, mult, g; J sin; types R, R * R, "
        "R -> R, R^*, Omega R",
        "zero at R^*, sums at R and R^*, pairs, projections, lambda, application, dual maps "
        "(\\x:R. S)^* @ C with x linear in S, pullbacks (Omega \\x:R. P) @ S",
        "gradient queries ((Omega \\y1:s. P) @ (\\u:t. [c]^*)) V of source bodies y1:s |- P : t "
        "(s, t among R, R * R; let, no J), V = 0.5 or <0.5, -1.5>, c = 1 or (1, 1)"};
  }
  std::uint64_t terms(int size) override {
    std::uint64_t n = 0;
    for (const gen::EnumSort& s : gen::enum_closed_sorts())
      n = adsem::gen::add_saturating(n, terms_.count(s, size));
    for (std::size_t i = 0; i < frames_.size(); ++i)
      n = adsem::gen::add_saturating(n, bodies(i, size));
    return n;
  }
  int points() const override { return 1; } // closed terms and queries at their fixed point
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
    for (std::size_t i = 0; i < frames_.size(); ++i) {
      const std::uint64_t here = bodies(i, size);
      if (term >= here) {
        term -= here;
        continue;
      }
      const QueryShape& shape = enumeration_query_shapes()[i];
      gen::Query q = query_of(shape, terms_.nth(body_sort(shape), size - frames_[i], term));
      auto text = [m = q.term()] { return print(m); };
      return {std::move(q), std::move(text), size};
    }
    return {}; // term is below terms(size): not reached
  }

private:
  static gen::EnumSort body_sort(const QueryShape& shape) {
    return gen::enum_body_sort(shape.sigma, shape.tau);
  }
  // the bodies of the i-th shape whose query has this size
  std::uint64_t bodies(std::size_t i, int size) {
    const int body_size = size - frames_[i];
    if (body_size < 1) return 0;
    return terms_.count(body_sort(enumeration_query_shapes()[i]), body_size);
  }

  gen::TermEnumeration terms_;
  std::vector<int> frames_; // per shape, the nodes its query adds to the body
};

// A closed term, or a query's term (the closed-term properties check it too).
Term term(const std::any& input) {
  if (const auto* q = std::any_cast<gen::Query>(&input)) return q->term();
  return std::any_cast<const Term&>(input);
}

} // namespace

const std::vector<QueryShape>& enumeration_query_shapes() {
  static const std::vector<QueryShape> shapes = [] {
    const Type r = real_type(), r2 = prod(real_type(), real_type());
    const std::vector<double> x = {0.5}, xy = {0.5, -1.5};
    return std::vector<QueryShape>{
        {r, r, x, {1.0}}, {r, r2, x, {1.0, 1.0}}, {r2, r, xy, {1.0}}, {r2, r2, xy, {1.0, 1.0}}};
  }();
  return shapes;
}

std::unique_ptr<props::InputEnumeration> enumeration(int max_size) {
  return std::make_unique<ClosedTermsAndQueries>(max_size);
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
  // a gradient query's checks; a closed term of the other family is not one of their inputs
  using QueryCheck = std::function<TrialResult(const gen::Query&, const PropertyContext&)>;
  const auto of_query = [](QueryCheck check, bool straight_line) -> Check {
    return [check = std::move(check), straight_line](const PropertyContext& c, const std::any& in) {
      const auto* q = std::any_cast<gen::Query>(&in);
      if (q == nullptr) return TrialResult::discard("no-source-program");
      if (straight_line && !q->straight_line) return TrialResult::discard("not-straight-line");
      return check(*q, c);
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
      {"reverse-mode-first-order", of_query(bodies::reverse_mode_first_order_at, false)},
      {"reverse-mode-vs-finite-differences", of_query(bodies::reverse_mode_vs_fd_at, false)},
      {"reverse-mode-vs-intervals", of_query(bodies::reverse_mode_vs_intervals_at, false)},
      {"tape-agreement", of_query(bodies::tape_agreement_at, true)},
      {"cost-reverse-mode", of_query(bodies::cost_reverse_mode_at, true)},
      // a query's source body y1:σ ⊢ P : τ (the ANF of P, and P's gradient through it)
      {"anf-shape", of_query(bodies::anf_shape_at, false)},
      {"soundness-of-anf", of_query(
                               [](const gen::Query& q, const PropertyContext& c) {
                                 return bodies::soundness_of_anf_at(q, enumeration_probe_seed, c);
                               },
                               false)},
  };
  for (props::PropertyDef& p : properties)
    for (const auto& [name, check] : checks)
      if (p.name == "pullback/" + name) p.check_input = check;
}

} // namespace adsem::pullback
