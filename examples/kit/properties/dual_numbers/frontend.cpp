#include "properties/dual_numbers/frontend.hpp"

#include "properties/core/result_checks.hpp"
#include "properties/dual_numbers/user_rules.hpp"
#include "semantics/core/jacobian.hpp"
#include "semantics/dual_numbers/denote.hpp"
#include "semantics/dual_numbers/machine.hpp"
#include "syntax/dual_numbers/parser.hpp"

namespace adsem::dual_numbers {

namespace {

// The reals of a ground value (numerals and pairs of them), or none.
std::optional<std::vector<double>> reals_of(const Term& v) {
  if (v->kind == Kind::constant) return std::vector<double>{v->value};
  if (v->kind != Kind::pair) return std::nullopt;
  auto out = reals_of(v->a);
  const auto rest = reals_of(v->b);
  if (!out || !rest) return std::nullopt;
  out->insert(out->end(), rest->begin(), rest->end());
  return out;
}

bool ground(const Type& t) {
  return t->kind == TypeKind::real ||
         (t->kind == TypeKind::product && ground(t->left) && ground(t->right));
}
std::size_t dimension(const Type& t) {
  return t->kind == TypeKind::real ? 1 : dimension(t->left) + dimension(t->right);
}

// The value of ground type t whose reals are xs[next...] (with, for D's input, the tangent
// seed: 1 at input `seed`, 0 elsewhere; seed < 0: no tangent, the plain value).
Term point(const Type& t, const std::vector<double>& xs, std::size_t& next, long seed) {
  if (t->kind == TypeKind::product) {
    Term left = point(t->left, xs, next, seed);
    return pair(left, point(t->right, xs, next, seed));
  }
  const std::size_t i = next++;
  if (seed < 0) return constant(xs.at(i));
  return pair(constant(xs.at(i)), constant(static_cast<long>(i) == seed ? 1 : 0));
}

// f's domain when f : G → codomain with G ground and `at` of G's dimension.
Type ground_domain(const Type& f, const std::vector<double>& at) {
  if (f->kind != TypeKind::arrow || !ground(f->left))
    throw AdsemError(ErrorKind::usage, "--at needs a function of a ground type (reals and pairs "
                                       "of reals), not " +
                                           print_type(f));
  if (dimension(f->left) != at.size())
    throw AdsemError(ErrorKind::usage,
                     "--at needs " + std::to_string(dimension(f->left)) + " reals");
  return f->left;
}

class Frontend final : public props::Frontend {
public:
  std::string type_of(const std::string& source) const override {
    return print_type(typecheck(parse(source)));
  }

  props::EvalResult eval(const std::string& source,
                         const props::EvalOptions& options) const override {
    const Term t = parse(source);
    typecheck(t);
    Machine machine(book_for(options.mutant, options.user_rules.get()), options.fuel);
    props::EvalResult out;
    Term at = t;
    while (Term next = step(machine, at)) {
      if (options.trace) out.trace.push_back(machine.last_step()->name + ": " + print(next));
      at = std::move(next);
    }
    out.value = print(at);
    out.reals = reals_of(at);
    out.steps = machine.steps();
    return out;
  }

  props::DenoteResult denote(const std::string& source,
                             const std::optional<std::vector<double>>& at) const override {
    const Term t = parse(source);
    const Type type = typecheck(t);
    const V meaning = dual_numbers::denote(t, {});
    props::DenoteResult out;
    if (!at) {
      out.printed = props::print_model_value(meaning);
      if (ground(type)) out.value = model::flatten_primal(meaning);
      return out;
    }
    std::size_t next = 0;
    const Term x = point(ground_domain(type, *at), *at, next, -1);
    const V result = meaning(dual_numbers::denote(x, {}));
    out.printed = props::print_model_value(result);
    if (ground(type->right)) {
      out.value = model::flatten_primal(result);
      const Eigen::MatrixXd j = model::jacobian(meaning, dual_numbers::denote(x, {}));
      for (Eigen::Index r = 0; r < j.rows(); ++r)
        out.jacobian.emplace_back(j.row(r).begin(), j.row(r).end());
    }
    return out;
  }

  // (D f) applied to the point with one tangent seed per input: forward mode, one run per input.
  props::GradResult grad(const std::string& source, const std::vector<double>& at,
                         const std::string&, const props::EvalOptions& options) const override {
    const Term f = parse(source);
    const Type type = typecheck(f);
    const Type domain = ground_domain(type, at);
    if (type->right->kind != TypeKind::real)
      throw AdsemError(ErrorKind::usage,
                       "grad needs a real-valued function, not " + print_type(type));
    props::GradResult out;
    out.mechanism = "forward";
    for (std::size_t i = 0; i < at.size(); ++i) {
      Machine machine(book_for(options.mutant, options.user_rules.get()), options.fuel);
      std::size_t next = 0;
      const Term run = app(macro(machine, f), point(domain, at, next, static_cast<long>(i)));
      const Term v = evaluate(machine, run);
      out.value = v->a->value;
      out.gradient.push_back(v->b->value);
    }
    return out;
  }

  std::vector<std::string> mechanisms() const override { return {"forward"}; }
};

} // namespace

std::shared_ptr<const props::Frontend> frontend() {
  return std::make_shared<const Frontend>();
}

} // namespace adsem::dual_numbers
