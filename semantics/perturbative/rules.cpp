#include "semantics/perturbative/rules.hpp"

#include <cmath>

#include "semantics/core/primitives.hpp"
#include "semantics/perturbative/substitution.hpp"
#include "semantics/perturbative/templates.hpp"
#include "syntax/perturbative/printer.hpp"

namespace adsem::perturbative {

namespace {

// A numeral under a linear context L built from λy. and ι_k (spec §4.5 ν): the context's key.
std::optional<std::pair<std::string, double>> linear_numeral(const Simple& s) {
  std::string key;
  const Simple* at = &s;
  while (at->form == Form::lam || at->form == Form::inj) {
    key += at->form == Form::lam ? "L" + at->name + ":" + type_text(at->binder_type)
                                 : "I" + std::to_string(at->index) + type_text(at->type);
    key += "|";
    at = at->operand.get();
  }
  if (at->form != Form::numeral) return std::nullopt;
  return std::pair{key, at->value};
}

// Rebuild s's linear context around the numeral r.
Bag refill(const Simple& s, double r) {
  if (s.form == Form::numeral) return numeral(r);
  return with_operand(s, refill(*s.operand, r));
}

} // namespace

std::optional<std::vector<double>> numeric_argument(const Bag& n, std::size_t arity) {
  std::vector<double> v(arity, 0.0);
  for (const SimpleP& s : n.items) {
    if (arity == 1 && s->form == Form::numeral) {
      v[0] += s->value;
    } else if (arity == 2 && s->form == Form::inj && s->operand->form == Form::numeral) {
      v[static_cast<std::size_t>(s->index - 1)] += s->operand->value;
    } else {
      return std::nullopt;
    }
  }
  return v;
}

const std::vector<std::string>& rule_names() {
  static const std::vector<std::string> names = {
      rule::beta, rule::times1, rule::times2, rule::push, rule::delta, rule::delta_t, rule::nu};
  return names;
}

Rules paper_rules() {
  Rules r;
  r.tx = paper_tx_rules();
  r.beta = [](const Simple& l, const Bag& n) { return substitute(*l.operand, l.name, n); };
  r.times1 = [](const Simple& i) { return single(i.operand); };
  // Fig. 5 prints ": σ" for both cases; the result type is σ_k (spec §12.2, L264-267).
  r.times2 = [](const Simple& p, const Simple&) { return zero(p.type); };
  r.push = [](const Simple& l, const TxRules& tx,
              WorkBudget* work) { // T(λx.s) → λx.T_x s (x : Tσ now)
    return lam(l.name, tangent_type(l.binder_type),
               transform(l.name, l.binder_type, single(l.operand), tx, work));
  };
  r.delta = [](const Simple& p, const Bag& n) -> std::optional<Bag> {
    const Primitive& prim = primitives().at(p.name);
    const auto v = numeric_argument(n, prim.arity());
    if (!v || !prim.in_domain(*v)) return std::nullopt; // stuck outside the domain (spec §7)
    const double out = prim.apply1<double>(*v);
    if (!std::isfinite(out)) // no numeral denotes it; campaigns discard it as "non-finite"
      throw AdsemError(ErrorKind::domain,
                       "non-finite result of " + p.name + " at " + print_number(v->front()) +
                           (v->size() > 1 ? ", " + print_number(v->back()) : "") +
                           ": the value is not finite (overflow) and no numeral denotes it");
    return numeral(out);
  };
  r.template_source = [](const std::string& name) -> std::optional<std::string> {
    const auto it = template_sources().find(name);
    if (it == template_sources().end()) return std::nullopt;
    return it->second;
  };
  r.derivative = [](const Bag& f, const Bag& tangent, const Bag& point) {
    return proj(1, app(push(f), pair(tangent, point)));
  };
  r.nu = [](const Bag& m) -> std::optional<Bag> {
    for (std::size_t i = 0; i < m.items.size(); ++i) {
      const auto a = linear_numeral(*m.items[i]);
      if (!a) continue;
      for (std::size_t j = i + 1; j < m.items.size(); ++j) {
        const auto b = linear_numeral(*m.items[j]);
        if (!b || b->first != a->first) continue;
        Bag out = zero(m.type);
        for (std::size_t k = 0; k < m.items.size(); ++k) {
          if (k == j) continue;
          if (k == i)
            out = sum(out, refill(*m.items[i], a->second + b->second));
          else
            out.items.push_back(m.items[k]);
        }
        return out;
      }
    }
    return std::nullopt;
  };
  return r;
}

std::optional<Contraction> contract(const Simple& s, const Rules& rules, WorkBudget* work) {
  switch (s.form) {
  case Form::app: {
    const Simple& f = *s.operand;
    if (f.form == Form::lam) return Contraction{rule::beta, rules.beta(f, s.argument)};
    if (f.form == Form::primitive)
      if (auto r = rules.delta(f, s.argument)) return Contraction{rule::delta, *r};
    return std::nullopt;
  }
  case Form::proj: {
    const Simple& i = *s.operand;
    if (i.form != Form::inj) return std::nullopt;
    if (i.index == s.index) return Contraction{rule::times1, rules.times1(i)};
    return Contraction{rule::times2, rules.times2(s, i)};
  }
  case Form::push: {
    const Simple& f = *s.operand;
    if (f.form == Form::lam) return Contraction{rule::push, rules.push(f, rules.tx, work)};
    if (f.form == Form::primitive)
      if (const auto source = rules.template_source(f.name))
        return Contraction{rule::delta_t, parse_template(*source)};
    return std::nullopt;
  }
  default:
    return std::nullopt;
  }
}

} // namespace adsem::perturbative
