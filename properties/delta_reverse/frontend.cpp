#include "properties/delta_reverse/frontend.hpp"

#include "properties/core/result_checks.hpp"
#include "properties/delta_reverse/mutants.hpp"
#include "properties/delta_reverse/user_rules.hpp"
#include "semantics/core/jacobian.hpp"
#include "semantics/delta_reverse/denotation.hpp"
#include "semantics/delta_reverse/model_bridge.hpp"
#include "syntax/delta_reverse/parser.hpp"
#include "syntax/delta_reverse/printer.hpp"

namespace adsem::delta_reverse {

namespace {
using TK = TypeNode::Kind;

bool reals_only(const Type& t) {
  return t->kind == TK::real ||
         (t->kind == TK::product && reals_only(t->left) && reals_only(t->right));
}
std::size_t real_slots(const Type& t) {
  if (t->kind == TK::real) return 1;
  if (t->kind == TK::product || t->kind == TK::sum)
    return real_slots(t->left) + (t->kind == TK::product ? real_slots(t->right) : 0);
  return 0;
}
} // namespace

Typed parse_closed(const std::string& source) {
  return typecheck(parse_term(source));
}

Value point_of(const Type& s, const std::vector<double>& xs) {
  // Checked before unflattening, which reads xs with .at(): too few reals used to escape as
  // "internal error: vector::_M_range_check".
  const std::size_t n = real_slots(s);
  if (n != xs.size())
    throw AdsemError(ErrorKind::usage, "--at needs " + std::to_string(n) + " reals, got " +
                                           std::to_string(xs.size()));
  std::size_t next = 0;
  return unflatten_reals(zero_like(s), xs, next);
}

RealProgram real_program(const Typed& f) {
  const Type& t = f.type;
  if (t->kind == TK::arrow && first_order(t->left) && first_order(t->right))
    return {program_of(f.term, t), real_slots(t->left)};
  // curried Real -> Real -> ... -> T: \(p : Real * (Real * ...)). f (p.1) ... (p.n)
  std::size_t n = 0;
  Type r = t;
  while (r->kind == TK::arrow && r->left->kind == TK::real) {
    ++n;
    r = r->right;
  }
  if (n < 2 || !first_order(r))
    throw AdsemError(ErrorKind::type,
                     "expected a function of reals (S -> T, or curried Real -> ... -> T), got " +
                         print_type(t));
  Type s = real_type();
  for (std::size_t i = 1; i < n; ++i)
    s = product_type(real_type(), s);
  std::vector<std::string> names;
  collect_names(f.term, names);
  FreshNames fresh(names);
  const std::string p = fresh("p");
  Term body = f.term;
  Term rest = var(p);
  for (std::size_t i = 0; i < n; ++i) {
    body = app(body, i + 1 < n ? fst(rest) : rest);
    rest = snd(rest);
  }
  const Term tupled = lam(p, s, body);
  return {program_of(tupled, arrow_type(s, r)), n};
}

std::string Frontend::type_of(const std::string& source) const {
  return print_type(parse_closed(source).type);
}

props::EvalResult Frontend::eval(const std::string& source,
                                 const props::EvalOptions& options) const {
  const Typed typed = parse_closed(source);
  // the mutant's book (an unknown name is a usage error)
  // with the user rules (`--rules`)
  const RulesPtr rules = with_user_rules(setup_for(options.mutant).rules, options.user_rules.get());
  Ledger ledger;
  ledger.fuel = options.fuel;
  ledger.trace = options.trace;
  Machine m(ledger, *rules);
  Value v = m.eval(nullptr, typed.term);
  Type type = typed.type;
  std::string tape;
  if (type->kind == TK::monad) { // run a closed computation from the state (1, [])
    v = m.run(v);
    type = type->left;
    for (const auto& [id, rhs] : m.state.binds)
      tape += "; " + std::to_string(id) + " = " + print_delta(rhs);
  }
  props::EvalResult result;
  result.value = print_value(v, type) + (tape.empty() ? "" : "  -- tape" + tape.substr(1));
  if (first_order(type))
    result.reals = flatten_reals(v);
  else // the reals printed beside a <function> (the command checks result.reals)
    props::require_finite(flatten_reals(v), [](std::size_t) { return "a real of the value"; });
  result.steps = ledger.steps;
  result.trace = ledger.lines;
  return result;
}

props::DenoteResult Frontend::denote(const std::string& source,
                                     const std::optional<std::vector<double>>& at) const {
  const Typed typed = parse_closed(source);
  props::DenoteResult result;
  if (!at) {
    const model::Value<double> v = denote_closed<double>(typed.term);
    result.printed = props::print_model_value(v);
    if (first_order(typed.type)) result.value = model::flatten_primal(v);
    return result;
  }
  const RealProgram rp = real_program(typed);
  const model::Value<double> f = denote_closed<double>(rp.program.term);
  const model::Value<double> point = to_model(point_of(rp.program.s, *at));
  const model::Value<double> y = f(point);
  result.printed = props::print_model_value(y);
  result.value = model::flatten_primal(y);
  const Eigen::MatrixXd j = model::jacobian(f, point);
  for (Eigen::Index r = 0; r < j.rows(); ++r) {
    std::vector<double> row;
    for (Eigen::Index c = 0; c < j.cols(); ++c)
      row.push_back(j(r, c));
    result.jacobian.push_back(row);
  }
  return result;
}

props::GradResult Frontend::grad(const std::string& source, const std::vector<double>& at,
                                 const std::string& mechanism,
                                 const props::EvalOptions& options) const {
  const RealProgram rp = real_program(parse_closed(source));
  const Program& p = rp.program;
  if (p.t->kind != TK::real)
    throw AdsemError(ErrorKind::type, "grad needs a function to Real, got " + print_type(p.t));
  RunSetup v = setup_for(options.mutant);
  v.rules = with_user_rules(v.rules, options.user_rules.get());
  const Value s = point_of(p.s, at);
  const std::string mech = mechanism.empty() ? "R" : mechanism;
  props::GradResult result;
  result.mechanism = mech;
  Value gradient;
  Value primal;
  if (mech == "R-fig12") // Fig. 12's implementation, right to left (rules.hpp), Fig. 11's wrapper
    v.rules = std::make_shared<const Rules>(v.rules->patched(fig12_implementation()));
  if (mech == "R" || mech == "R-array" || mech == "R-fig11" || mech == "R-seeded" ||
      mech == "R-fig12") {
    const Wrapper w = mech == "R-fig11" || mech == "R-fig12" ? Wrapper::fig11
                      : mech == "R-seeded"                   ? Wrapper::seeded
                                                             : Wrapper::fig15;
    const ReverseRun run = reverse(
        p, s, v_real(1.0), w, mech == "R-array" ? EvalImpl::array : EvalImpl::map, v, options.fuel);
    gradient = run.gradient;
    primal =
        w == Wrapper::fig15 ? run_primal(p, s, options.fuel, nullptr, *v.rules).result : run.primal;
  } else if (mech == "R-overloading") { // §8 L629-641: e run directly on dual numbers
    const ReverseRun run =
        reverse_overloaded(p, s, v_real(1.0), Wrapper::fig15, EvalImpl::map, v, options.fuel);
    gradient = run.gradient;
    primal = run_primal(p, s, options.fuel, nullptr, *v.rules).result;
  } else if (mech == "F") {
    std::vector<double> g;
    for (std::size_t i = 0; i < rp.inputs; ++i) {
      std::vector<double> e(rp.inputs, 0.0);
      e[i] = 1.0;
      const ForwardRun run = forward(p, s, point_of(p.s, e), v, options.fuel);
      g.push_back(run.tangent->real);
      primal = run.primal;
    }
    result.value =
        primal ? primal->real : run_primal(p, s, options.fuel, nullptr, *v.rules).result->real;
    result.gradient = g;
    return result;
  } else if (mech == "R1") {
    const DenseRun run = reverse1(p, s, 1.0, v, options.fuel);
    gradient = run.gradient;
    primal = run.primal;
  } else if (mech == "R2") {
    const Delta2Run run = reverse2(p, s, 1.0, v, options.fuel);
    gradient = run.gradient;
    primal = run.primal;
  } else {
    throw AdsemError(ErrorKind::usage, "unknown mechanism '" + mech +
                                           "' for delta-reverse (R, R-array, R-fig11, R-fig12, "
                                           "R-seeded, R-overloading, F, R1, R2)");
  }
  result.value = primal->real;
  result.gradient = flatten_reals(gradient);
  return result;
}

} // namespace adsem::delta_reverse
