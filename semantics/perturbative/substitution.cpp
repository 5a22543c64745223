#include "semantics/perturbative/substitution.hpp"

namespace adsem::perturbative {

namespace {

class Substitution {
public:
  Substitution(std::string x, Bag p)
      : x_(std::move(x)), p_(std::move(p)), fv_p_(free_variables(p_)) {}

  Bag bag(const Bag& m) {
    Bag out = zero(m.type);
    for (const SimpleP& s : m.items)
      out = sum(out, simple(s));
    return out;
  }

  Bag simple(const SimpleP& sp) {
    const DepthGuard guard(budget_);
    const Simple& s = *sp;
    switch (s.form) {
    case Form::var: // y[P/x] = P if y = x, y otherwise
      return s.name == x_ ? p_ : single(sp);
    case Form::numeral:
    case Form::primitive:
      return single(sp);
    case Form::lam: { // (λy.s)[P/x] = λy.(s[P/x]), y ≠ x, y ∉ FV(P) by α-conversion
      if (s.name == x_) return single(sp);
      std::set<std::string> fv_body;
      free_variables(*s.operand, fv_body);
      if (!fv_body.count(x_)) return single(sp);
      if (fv_p_.count(s.name)) {
        std::set<std::string> avoid = fv_p_;
        avoid.insert(fv_body.begin(), fv_body.end());
        avoid.insert(x_);
        const std::string y2 = fresh_name(s.name, avoid);
        const Bag renamed = substitute(*s.operand, s.name, var(y2, s.binder_type));
        return lam(y2, s.binder_type, bag(renamed));
      }
      return lam(s.name, s.binder_type, simple(s.operand));
    }
    case Form::app: // (s N)[P/x] = (s[P/x]) (N[P/x])
      return app(simple(s.operand), bag(s.argument));
    case Form::push:
    case Form::inj:
    case Form::proj:
      return with_operand(s, simple(s.operand));
    }
    return single(sp);
  }

private:
  std::string x_;
  Bag p_;
  std::set<std::string> fv_p_;
  DepthBudget budget_{DepthBudget::default_limit, 0, ErrorKind::eval};
};

} // namespace

std::string fresh_name(std::string base, const std::set<std::string>& avoid) {
  while (avoid.count(base))
    base += "'";
  return base;
}

Bag substitute(const Bag& m, const std::string& x, const Bag& p) {
  return Substitution(x, p).bag(m);
}
Bag substitute(const Simple& s, const std::string& x, const Bag& p) {
  return Substitution(x, p).simple(std::make_shared<const Simple>(s));
}

} // namespace adsem::perturbative
