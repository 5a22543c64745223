#include "semantics/perturbative/transform.hpp"

#include "semantics/perturbative/substitution.hpp"
#include "syntax/core/depth_guard.hpp"

namespace adsem::perturbative {

namespace {

Bag pair_of_parts(const Bag& tx, const std::function<Bag(const Bag&)>& former) {
  return pair(former(proj(1, tx)), former(proj(2, tx)));
}

class Transform {
public:
  Transform(std::string x, Type sigma, const TxRules& rules, WorkBudget* work)
      : x_(std::move(x)), tsigma_(tangent_type(std::move(sigma))), rules_(rules), work_(work) {}

  Bag bag(const Bag& m) { // T_x 0 = 0; T_x (s + N) = T_x s + T_x N
    Bag out = zero(tangent_type(m.type));
    for (const SimpleP& s : m.items) {
      const Bag part = simple(*s);
      out.items.insert(out.items.end(), part.items.begin(), part.items.end());
    }
    return out;
  }

  Bag simple(const Simple& s) {
    Bag out = clause(s);
    // each summand of a clause's output is a node built here (the 2^k / 3^k growth, spec §9.6)
    if (work_) work_->spend(1 + static_cast<long>(out.items.size()), "building T_x");
    return out;
  }

private:
  Bag clause(const Simple& s) {
    const DepthGuard guard(budget_);
    switch (s.form) {
    case Form::var:
      return s.name == x_ ? rules_.var_self(s, tsigma_) : rules_.var_other(s);
    case Form::numeral:
    case Form::primitive:
      return rules_.constant(s);
    case Form::lam: {
      if (s.name == x_) { // α-rename the binder away from x (L189-190, L220)
        std::set<std::string> avoid;
        free_variables(*s.operand, avoid);
        avoid.insert(x_);
        const std::string y2 = fresh_name(s.name, avoid);
        const Bag renamed =
            lam(y2, s.binder_type, substitute(*s.operand, s.name, var(y2, s.binder_type)));
        return clause(*renamed.items.front());
      }
      return rules_.lam(s, simple(*s.operand));
    }
    case Form::app:
      return rules_.app(simple(*s.operand), bag(s.argument));
    case Form::inj:
      return rules_.inj(s, simple(*s.operand));
    case Form::push:
      return rules_.push(s, simple(*s.operand));
    case Form::proj:
      return rules_.proj(s, simple(*s.operand));
    }
    return zero(tangent_type(s.type));
  }

  std::string x_;
  Type tsigma_;
  const TxRules& rules_;
  WorkBudget* work_;
  DepthBudget budget_{DepthBudget::default_limit, 0, ErrorKind::eval};
};

} // namespace

Bag diamond(const Bag& m, const Bag& n) {
  const Bag f_tangent = proj(1, m), f = proj(2, m);
  const Bag tangent = sum(app(f_tangent, proj(2, n)), proj(1, app(push(f), n)));
  return pair(tangent, app(f, proj(2, n)));
}

TxRules paper_tx_rules() {
  TxRules r;
  r.var_self = [](const Simple& x, const Type& tsigma) { return var(x.name, tsigma); };
  r.var_other = [](const Simple& y) { return inj(2, tangent_type(y.type), var(y.name, y.type)); };
  r.lam = [](const Simple& l, const Bag& tx_body) {
    return pair_of_parts(tx_body,
                         [&](const Bag& part) { return lam(l.name, l.binder_type, part); });
  };
  r.app = [](const Bag& tx_op, const Bag& tx_arg) { return diamond(tx_op, tx_arg); };
  r.inj = [](const Simple& i, const Bag& tx) {
    return pair_of_parts(tx, [&](const Bag& part) { return inj(i.index, i.type, part); });
  };
  r.push = [](const Simple&, const Bag& tx) {
    return pair_of_parts(tx, [](const Bag& part) { return push(part); });
  };
  r.proj = [](const Simple& p, const Bag& tx) {
    return pair_of_parts(tx, [&](const Bag& part) { return proj(p.index, part); });
  };
  r.constant = [](const Simple& c) {
    return inj(2, tangent_type(c.type), single(std::make_shared<const Simple>(c)));
  };
  return r;
}

Bag transform(const std::string& x, const Type& sigma, const Bag& m, const TxRules& rules,
              WorkBudget* work) {
  return Transform(x, sigma, rules, work).bag(m);
}

} // namespace adsem::perturbative
