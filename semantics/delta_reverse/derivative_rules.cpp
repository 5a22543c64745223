#include "semantics/delta_reverse/derivative_rules.hpp"

#include <map>
#include <mutex>

#include "syntax/delta_reverse/parser.hpp"
#include "syntax/delta_reverse/typecheck.hpp"

namespace adsem::delta_reverse {

const std::vector<DerivativeRule>& derivative_rules() {
  // Fig. 3/9 (+R, ×R), §10.1 L820-822 (sin, cos), spec §7.3 (the others, derived with Fig. 14).
  static const std::vector<DerivativeRule> table = {
      {"addR", 2, {"1.0", "1.0"}},
      {"subR", 2, {"1.0", "-1.0"}},
      {"mulR", 2, {"x2", "x1"}},
      {"divR", 2, {"1.0 / x2", "negR (x1 / (x2 * x2))"}},
      {"negR", 1, {"-1.0"}},
      {"sin", 1, {"cos x1"}},
      {"cos", 1, {"negR (sin x1)"}},
      {"exp", 1, {"exp x1"}},
      {"log", 1, {"1.0 / x1"}},
      {"sqrt", 1, {"0.5 / sqrt x1"}},
      {"tanh", 1, {"1.0 - tanh x1 * tanh x1"}},
  };
  return table;
}

const DerivativeRule* find_derivative_rule(const std::string& name) {
  for (const DerivativeRule& r : derivative_rules())
    if (r.name == name) return &r;
  return nullptr;
}

Term partial_term(const DerivativeRule& rule, std::size_t j) {
  static std::mutex mutex;
  // keyed by what the parse depends on (the arity and the text), so an entry built beside the
  // table (a patched clause's) never reads another entry's partial
  static std::map<std::pair<std::size_t, std::string>, Term> cache;
  const std::lock_guard lock(mutex);
  const auto key = std::make_pair(rule.arity, rule.partials.at(j));
  if (const auto it = cache.find(key); it != cache.end()) return it->second;
  Context gamma;
  for (std::size_t i = 1; i <= rule.arity; ++i)
    gamma.emplace_back("x" + std::to_string(i), real_type());
  const Typed typed = typecheck(parse_term(rule.partials.at(j)), gamma);
  if (typed.type->kind != TypeNode::Kind::real)
    throw AdsemError(ErrorKind::type, "partial derivative of " + rule.name + " is not Real");
  cache.emplace(key, typed.term);
  return typed.term;
}

bool partial_is_one(const DerivativeRule& rule, std::size_t j) {
  const Term t = partial_term(rule, j);
  return t->kind == Kind::real && t->real == 1.0;
}

} // namespace adsem::delta_reverse
