#include "semantics/perturbative/substitution.hpp"

namespace adsem::perturbative {

namespace {

class Substitution {
public:
  Substitution(std::string x, Term p)
      : x_(std::move(x)), p_(std::move(p)), fv_p_(free_variables(p_)) {}

  Term bag(const Term& m) {
    Term out = zero(m.type);
    for (const SimpleP& s : m.items)
      out = sum(out, simple(s));
    return out;
  }

  Term simple(const SimpleP& sp) {
    const DepthGuard guard(budget_);
    const Simple& s = *sp;
    switch (s.kind) {
    case Kind::var: // y[P/x] = P if y = x, y otherwise
      return s.name == x_ ? p_ : single(sp);
    case Kind::numeral:
    case Kind::primitive:
      return single(sp);
    case Kind::lam: { // (λy.s)[P/x] = λy.(s[P/x]), y ≠ x, y ∉ FV(P) by α-conversion
      if (s.name == x_) return single(sp);
      std::set<std::string> fv_body;
      free_variables(*s.operand, fv_body);
      if (!fv_body.count(x_)) return single(sp);
      if (fv_p_.count(s.name)) {
        std::set<std::string> avoid = fv_p_;
        avoid.insert(fv_body.begin(), fv_body.end());
        avoid.insert(x_);
        const std::string y2 = fresh_name(s.name, avoid);
        const Term renamed = substitute(*s.operand, s.name, var(y2, s.binder_type));
        return lam(y2, s.binder_type, bag(renamed));
      }
      return lam(s.name, s.binder_type, simple(s.operand));
    }
    case Kind::app: // (s N)[P/x] = (s[P/x]) (N[P/x])
      return app(simple(s.operand), bag(s.argument));
    case Kind::push:
    case Kind::inj:
    case Kind::proj:
      return with_operand(s, simple(s.operand));
    }
    return single(sp);
  }

private:
  std::string x_;
  Term p_;
  std::set<std::string> fv_p_;
  DepthBudget budget_{DepthBudget::default_limit, 0, ErrorKind::eval};
};

} // namespace

std::string fresh_name(std::string base, const std::set<std::string>& avoid) {
  while (avoid.count(base))
    base += "'";
  return base;
}

Term substitute(const Term& m, const std::string& x, const Term& p) {
  return Substitution(x, p).bag(m);
}
Term substitute(const Simple& s, const std::string& x, const Term& p) {
  return Substitution(x, p).simple(make_shared_node<const Simple>(s));
}

} // namespace adsem::perturbative
