#include "semantics/perturbative/templates.hpp"

#include "semantics/perturbative/constants.hpp"

namespace adsem::perturbative {

const std::map<std::string, std::string>& template_sources() {
  // Tangent first (L34, L38, L94): for p = ((a', b'), (a, b)), pi1 (pi1 p) = a', pi2 (pi2 p) = b.
  static const std::map<std::string, std::string> table = {
      // linear primitives: T f = f × f (Lemma 3.7, L95)
      {"neg", "\\p:T R. (neg (pi1 p), neg (pi2 p))"},
      {"add", "\\p:T (R*R). (add (pi1 p), add (pi2 p))"},
      {"sub", "\\p:T (R*R). (sub (pi1 p), sub (pi2 p))"},
      // spec §7 table
      {"mul", "\\p:T (R*R). (mul (pi1 (pi1 p), pi2 (pi2 p)) + mul (pi2 (pi1 p), pi1 (pi2 p)), "
              "mul (pi2 p))"},
      {"sin", "\\p:T R. (pi1 p * cos (pi2 p), sin (pi2 p))"},
      {"cos", "\\p:T R. (-(pi1 p * sin (pi2 p)), cos (pi2 p))"},
      {"exp", "\\p:T R. (pi1 p * exp (pi2 p), exp (pi2 p))"},
      // [OURS] further smooth primitives of the shared table, partial ones guarded by δ
      {"div", "\\p:T (R*R). (div (pi1 (pi1 p), pi2 (pi2 p)) + neg (div (mul (pi1 (pi2 p), pi2 "
              "(pi1 p)), mul (pi2 (pi2 p), pi2 (pi2 p)))), div (pi2 p))"},
      {"log", "\\p:T R. (div (pi1 p, pi2 p), log (pi2 p))"},
      {"sqrt", "\\p:T R. (div (pi1 p, 2 * sqrt (pi2 p)), sqrt (pi2 p))"},
      {"tanh", "\\p:T R. (pi1 p * (1 + neg (tanh (pi2 p) * tanh (pi2 p))), tanh (pi2 p))"},
      {"sq", "\\p:T R. (2 * (pi1 p * pi2 p), sq (pi2 p))"},
      {"recip", "\\p:T R. (neg (div (pi1 p, pi2 p * pi2 p)), recip (pi2 p))"},
  };
  return table;
}

Term parse_template(const std::string& source) {
  return parse_term(source, constant_types());
}

const Term& template_of(const std::string& name) {
  static const std::map<std::string, Term> parsed = [] {
    std::map<std::string, Term> out;
    for (const auto& [constant, source] : template_sources())
      out.emplace(constant, parse_template(source));
    return out;
  }();
  return parsed.at(name);
}

} // namespace adsem::perturbative
