#include "semantics/perturbative/transform.hpp"

#include <iterator>

#include "semantics/perturbative/substitution.hpp"
#include "syntax/core/depth_guard.hpp"

namespace adsem::perturbative {

namespace {

[[noreturn]] void no_clause(const Simple& s) {
  throw AdsemError(ErrorKind::internal, "no clause of T_x (Fig. 4) applies to a term of form " +
                                            std::to_string(static_cast<int>(s.kind)));
}

class Transform {
public:
  Transform(Engine& engine, std::string x, Type sigma)
      : engine_(engine), x_(std::move(x)), tsigma_(tangent_type(std::move(sigma))) {}

  Term bag(const Term& m) { // T_x 0 = 0; T_x (s + N) = T_x s + T_x N
    Term out = zero(tangent_type(m.type));
    for (const SimpleP& s : m.items) {
      Term part = simple(*s);
      out.items.insert(out.items.end(), std::make_move_iterator(part.items.begin()),
                       std::make_move_iterator(part.items.end()));
    }
    return out;
  }

  Term simple(const Simple& s) {
    Term out = clause(s);
    // each summand of a clause's output is a node built here (the 2^k / 3^k growth, spec §9.6)
    if (WorkBudget* work = engine_.work())
      work->spend(1 + static_cast<long>(out.items.size()), "building T_x");
    return out;
  }

private:
  // The subterms' T_x first (the clause's premises), then the clause the book picks.
  Term clause(const Simple& s) {
    const DepthGuard guard(budget_);
    switch (s.kind) {
    case Kind::var:
    case Kind::numeral:
    case Kind::primitive:
      return fire(s, nullptr, nullptr);
    case Kind::lam:
      if (s.name == x_) { // α-rename the binder away from x (L189-190, L220)
        std::set<std::string> avoid;
        free_variables(*s.operand, avoid);
        avoid.insert(x_);
        const std::string y2 = fresh_name(s.name, avoid);
        const Term renamed =
            lam(y2, s.binder_type, substitute(*s.operand, s.name, var(y2, s.binder_type)));
        return clause(*renamed.items.front());
      }
      [[fallthrough]];
    case Kind::inj:
    case Kind::push:
    case Kind::proj: {
      const Term operand = simple(*s.operand);
      return fire(s, &operand, nullptr);
    }
    case Kind::app: {
      const Term operand = simple(*s.operand);
      const Term argument = bag(s.argument);
      return fire(s, &operand, &argument);
    }
    }
    no_clause(s);
  }

  Term fire(const Simple& s, const Term* operand, const Term* argument) {
    const Tx::Redex redex{s, x_, tsigma_, operand, argument};
    const Rule<Tx>* rule = engine_.select<Tx>(redex);
    if (!rule) no_clause(s);
    return engine_.fire(*rule, redex);
  }

  Engine& engine_;
  std::string x_;
  Type tsigma_;
  DepthBudget budget_{DepthBudget::default_limit, 0, ErrorKind::eval};
};

} // namespace

Term diamond(const Term& m, const Term& n) {
  const Term f_tangent = proj(1, m), f = proj(2, m);
  const Argument primal_n(proj(2, n)); // one π2 N for the 2|M| applications that take it
  const Term tangent = sum(app(f_tangent, primal_n), proj(1, app(push(f), n)));
  return pair(tangent, app(f, primal_n));
}

Term transform(Engine& engine, const std::string& x, const Type& sigma, const Term& m) {
  return Transform(engine, x, sigma).bag(m);
}

Term transform(const Rules& book, const std::string& x, const Type& sigma, const Term& m,
               WorkBudget* work) {
  Engine engine(book, work);
  return transform(engine, x, sigma, m);
}

Term tx_clause(const Rules& book, const std::string& x, const Type& sigma, const Simple& s,
               const Term* tx_operand, const Term* tx_argument) {
  Engine engine(book);
  const Type tsigma = tangent_type(sigma);
  const Tx::Redex redex{s, x, tsigma, tx_operand, tx_argument};
  const Rule<Tx>* rule = engine.select<Tx>(redex);
  if (!rule) no_clause(s);
  return engine.fire(*rule, redex);
}

} // namespace adsem::perturbative
