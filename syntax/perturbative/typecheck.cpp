#include "syntax/perturbative/typecheck.hpp"

#include "syntax/core/depth_guard.hpp"
#include "syntax/perturbative/printer.hpp"

namespace adsem::perturbative {

namespace {

class Checker {
public:
  Checker(Context gamma, const ConstantTypes& constants)
      : gamma_(std::move(gamma)), constants_(constants) {}

  // (Zero) and (Sum): every summand has the bag's type.
  std::optional<std::string> bag(const Term& m) {
    for (const SimpleP& s : m.items) {
      if (auto e = simple(*s)) return e;
      if (!same_type(s->type, m.type))
        return "summand " + print_simple(*s) + " has type " + type_text(s->type) +
               " in a sum of type " + type_text(m.type);
    }
    return std::nullopt;
  }

  std::optional<std::string> simple(const Simple& s) {
    const DepthGuard guard(budget_);
    const auto expect = [&](const Type& derived,
                            const std::string& rule) -> std::optional<std::string> {
      if (same_type(derived, s.type)) return std::nullopt;
      return "(" + rule + ") " + print_simple(s) + ": derived type " + type_text(derived) +
             ", annotated " + type_text(s.type);
    };
    switch (s.kind) {
    case Kind::var: // (Var) Γ(x) = σ
      for (auto it = gamma_.rbegin(); it != gamma_.rend(); ++it)
        if (it->first == s.name) return expect(it->second, "Var");
      return "unbound variable " + s.name;
    case Kind::numeral:
      return expect(real_type(), "Num");
    case Kind::primitive: {
      const auto t = constants_(s.name);
      if (!t) return "unknown constant " + s.name;
      return expect(*t, "Const");
    }
    case Kind::lam: { // (Abs)
      gamma_.emplace_back(s.name, s.binder_type);
      auto e = simple(*s.operand);
      gamma_.pop_back();
      if (e) return e;
      return expect(arrow_type(s.binder_type, s.operand->type), "Abs");
    }
    case Kind::app: { // (App)
      if (auto e = simple(*s.operand)) return e;
      if (auto e = bag(s.argument)) return e;
      const Type& f = s.operand->type;
      if (!is_arrow(f)) return "(App) operator of type " + type_text(f);
      if (!same_type(f->left, s.argument->type))
        return "(App) argument of type " + type_text(s.argument->type) + " for domain " +
               type_text(f->left);
      return expect(f->right, "App");
    }
    case Kind::push: { // (Push)
      if (auto e = simple(*s.operand)) return e;
      const Type& f = s.operand->type;
      if (!is_arrow(f)) return "(Push) T of type " + type_text(f);
      return expect(arrow_type(tangent_type(f->left), tangent_type(f->right)), "Push");
    }
    case Kind::inj: { // (Inj_k)
      if (auto e = simple(*s.operand)) return e;
      if (!is_product(s.type)) return "(Inj) annotation is not a product";
      if (same_type(s.operand->type, component(s.type, s.index))) return std::nullopt;
      return "(Inj) payload " + print_simple(*s.operand) + " of type " +
             type_text(s.operand->type) + " in " + type_text(s.type);
    }
    case Kind::proj: { // (Proj_k)
      if (auto e = simple(*s.operand)) return e;
      if (!is_product(s.operand->type)) return "(Proj) of type " + type_text(s.operand->type);
      return expect(component(s.operand->type, s.index), "Proj");
    }
    }
    return "unknown node";
  }

private:
  Context gamma_;
  const ConstantTypes& constants_;
  DepthBudget budget_{DepthBudget::default_limit, 0, ErrorKind::type};
};

} // namespace

std::optional<std::string> type_error(const Term& m, const Context& gamma,
                                      const ConstantTypes& constants) {
  return Checker(gamma, constants).bag(m);
}

} // namespace adsem::perturbative
