// dual-numbers' rule book. Citations name the paper and what the entry is; the paper's text is
// not on this machine, so no section, figure or line number is given (docs/kit.md).
#include "semantics/dual_numbers/rules.hpp"

#include <cmath>

#include "semantics/core/primitives.hpp"
#include "syntax/core/diagnostic.hpp"

namespace adsem::dual_numbers {

namespace {

constexpr const char* paper = "Huot-Staton-Vakar, Correctness of AD via Diffeologies and "
                              "Categorical Gluing (FoSSaCS 2020)";
std::string cite(const std::string& what) {
  return std::string(paper) + ", " + what;
}

// ---- call-by-value reduction ----

// (λx.t) v → t[v/x]
bool applies_a_lambda(const Machine&, const Reduction::Redex& r) {
  return r.node.a->kind == Kind::lam;
}
Term beta_v(Machine&, const Reduction::Redex& r, const RuleInfo&) {
  const Node& l = *r.node.a;
  return substitute(l.a, l.name, r.node.b);
}

// π_i ⟨v1, v2⟩ → v_i
bool projects_a_pair(const Machine&, const Reduction::Redex& r) {
  return r.node.a->kind == Kind::pair;
}
Term pi_pair(Machine&, const Reduction::Redex& r, const RuleInfo&) {
  return r.node.index == 1 ? r.node.a->a : r.node.a->b;
}

// op(c1, ..., cn) → c, c the primitive's value (semantics/core's table: the model's own).
Rule<Reduction> delta(Op o) {
  const std::string name = op_name(o);
  return rule_entry<Reduction>(
      rule_info("delta-" + name, cite("primitive operation " + name), RuleKind::reduction,
                name + "(c...) -> the numeral of its value"),
      {Kind::op}, [o](const Machine&, const Reduction::Redex& r) { return r.node.op == o; },
      [name](Machine&, const Reduction::Redex& r, const RuleInfo&) {
        std::vector<double> args{r.node.a->value};
        if (r.node.b) args.push_back(r.node.b->value);
        const double out = primitives().at(name).apply1<double>(args);
        if (!std::isfinite(out)) throw AdsemError(ErrorKind::domain, name + " overflowed");
        return constant(out);
      });
}

// ---- the forward macro D: D(x) = x, D(c) = ⟨c, 0⟩, homomorphic on λ, application, pairs and
// projections, and on a primitive the pair of its value and its tangent by the chain rule. D t is
// taken apart into value and tangent by a β-redex (λp. ... π1 p ... π2 p) (D t), so that D's
// output stays in this fragment whatever binding form the paper writes there (docs/kit.md).

Term p1(const char* p) {
  return dual_part(1, p);
}
Term p2(const char* p) {
  return dual_part(2, p);
}

// (λp:D real. ⟨f(π1 p), f'(π1 p) · π2 p⟩) (D t)
Term unary(const Macro::Redex& r, Term value, Term derivative) {
  return app(lam("p", dual(), pair(value, op(Op::mul, derivative, p2("p")))), r.da);
}

Term d_op(Machine&, const Macro::Redex& r, const RuleInfo&) {
  switch (r.node.op) {
  case Op::add:
    return binary(r, op(Op::add, p1("p"), p1("q")), op(Op::add, p2("p"), p2("q")));
  case Op::mul:
    return binary(r, op(Op::mul, p1("p"), p1("q")),
                  op(Op::add, op(Op::mul, p1("p"), p2("q")), op(Op::mul, p2("p"), p1("q"))));
  case Op::sin:
    return unary(r, op(Op::sin, p1("p")), op(Op::cos, p1("p")));
  case Op::cos:
    return unary(r, op(Op::cos, p1("p")), op(Op::mul, constant(-1), op(Op::sin, p1("p"))));
  }
  throw AdsemError(ErrorKind::internal, "D: an unknown primitive");
}

Rule<Macro> clause(const std::string& name, Kind kind, const std::string& summary,
                   Rule<Macro>::Result result) {
  return rule_entry<Macro>(
      rule_info(name, cite("the forward macro D"), RuleKind::transformation, summary), {kind}, {},
      std::move(result));
}

std::vector<Rules::Entry> entries() {
  std::vector<Rules::Entry> out;
  out.emplace_back(rule_entry<Reduction>(
      rule_info("beta-v", cite("call-by-value beta"), RuleKind::reduction, "(\\x.t) v -> t[v/x]"),
      {Kind::app}, applies_a_lambda, beta_v));
  out.emplace_back(rule_entry<Reduction>(rule_info("pi-pair", cite("projection of a pair"),
                                                   RuleKind::reduction, "pi_i <v1, v2> -> v_i"),
                                         {Kind::proj}, projects_a_pair, pi_pair));
  for (const Op o : {Op::add, Op::mul, Op::sin, Op::cos})
    out.emplace_back(delta(o));
  out.emplace_back(
      clause("D-var", Kind::var, "D(x) = x",
             [](Machine&, const Macro::Redex& r, const RuleInfo&) { return var(r.node.name); }));
  out.emplace_back(clause("D-const", Kind::constant, "D(c) = <c, 0>",
                          [](Machine&, const Macro::Redex& r, const RuleInfo&) {
                            return pair(constant(r.node.value), constant(0));
                          }));
  for (const auto& [o, rule] : {std::pair{Op::add, "D(t + s) = <x + y, x' + y'>"},
                                std::pair{Op::mul, "D(t * s) = <x * y, x * y' + x' * y>"},
                                std::pair{Op::sin, "D(sin t) = <sin x, cos x * x'>"},
                                std::pair{Op::cos, "D(cos t) = <cos x, -1 * sin x * x'>"}}) {
    Rule<Macro> entry = clause("D-" + op_name(o), Kind::op,
                               std::string(rule) + " (D t = <x, x'>, D s = <y, y'>)", d_op);
    entry.match = [o](const Machine&, const Macro::Redex& r) { return r.node.op == o; };
    out.emplace_back(std::move(entry));
  }
  out.emplace_back(clause("D-lam", Kind::lam, "D(\\x:T. t) = \\x:D T. D t",
                          [](Machine&, const Macro::Redex& r, const RuleInfo&) {
                            return lam(r.node.name, d_type(r.node.binder_type), r.da);
                          }));
  out.emplace_back(
      clause("D-app", Kind::app, "D(t s) = (D t) (D s)",
             [](Machine&, const Macro::Redex& r, const RuleInfo&) { return app(r.da, r.db); }));
  out.emplace_back(
      clause("D-pair", Kind::pair, "D(<t, s>) = <D t, D s>",
             [](Machine&, const Macro::Redex& r, const RuleInfo&) { return pair(r.da, r.db); }));
  out.emplace_back(clause(
      "D-proj", Kind::proj, "D(pi_i t) = pi_i (D t)",
      [](Machine&, const Macro::Redex& r, const RuleInfo&) { return proj(r.node.index, r.da); }));
  return out;
}

} // namespace

const Type& dual() {
  static const Type t = product(real_type(), real_type()); // D(real), immutable
  return t;
}
Term dual_part(int index, const char* p) {
  return proj(index, var(p));
}
Term binary(const Macro::Redex& r, Term value, Term tangent) {
  return app(app(lam("p", dual(), lam("q", dual(), pair(value, tangent))), r.da), r.db);
}

const RulesPtr& paper_rules() {
  static const RulesPtr book = std::make_shared<const Rules>(entries()); // immutable once built
  return book;
}

Type d_type(const Type& t) {
  switch (t->kind) {
  case TypeKind::real:
    return dual();
  case TypeKind::product:
    return product(d_type(t->left), d_type(t->right));
  case TypeKind::arrow:
    return arrow(d_type(t->left), d_type(t->right));
  }
  return t;
}

} // namespace adsem::dual_numbers
