#include "properties/delta_reverse/support.hpp"

#include <cmath>

#include <fmt/format.h>
#include <rapidcheck.h>

#include "generators/core/uniform.hpp"
#include "properties/core/discards.hpp"
#include "properties/core/sum_compare.hpp"
#include "properties/delta_reverse/mutants.hpp"
#include "properties/delta_reverse/rule_adapter.hpp"
#include "properties/delta_reverse/user_rules.hpp"
#include "semantics/core/interval_model.hpp"
#include "semantics/core/jacobian.hpp"
#include "semantics/core/model_errors.hpp"
#include "semantics/delta_reverse/denotation.hpp"
#include "semantics/delta_reverse/model_bridge.hpp"
#include "syntax/delta_reverse/printer.hpp"

namespace adsem::delta_reverse::support {

long fuel(const PropertyContext& context) {
  return context.option_int("fuel", 200'000);
}

TrialResult guarded(const std::function<TrialResult()>& body) {
  try {
    return body();
  } catch (const model::Undefined&) {
    return TrialResult::discard("undefined-point");
  } catch (const model::Undecided& e) {
    return TrialResult::discard(e.reason());
  } catch (const AdsemError& e) {
    if (e.diagnostic().kind == ErrorKind::fuel) return TrialResult::discard("fuel");
    if (e.diagnostic().kind == ErrorKind::domain) return TrialResult::discard("undefined-point");
    if (e.diagnostic().message.find("non-finite") != std::string::npos)
      return TrialResult::discard(props::discards::overflow);
    throw;
  }
}

TrialResult& on(TrialResult& r, const gen::MainExpression& m) {
  return r.on(r.shows_input() ? print(m.term) : std::string(), print_type(arrow_type(m.s, m.t)),
              static_cast<int>(size_of(m.term)), m.tags);
}
TrialResult on(TrialResult&& r, const gen::MainExpression& m) {
  return on(r, m);
}

Drawn draw(gen::Options options) {
  gen::MainExpression m = *gen::main_expression(options);
  Program p{m.term, m.s, m.t};
  const Value s = *gen::value_of(m.s);
  return {std::move(m), p, s};
}

Drawn draw(const PropertyContext& context, gen::Options options) {
  if (!props::draw_targeted(context)) return draw(std::move(options));
  const auto& targets = context.user_rules->compiled_as<CompiledRules>().targets();
  if (targets.empty()) return draw(std::move(options)); // Delta rules join every tape anyway
  const auto which = adsem::gen::uniform_below(targets.size());
  SourceInstance in = draw_source_instance(*targets[which], std::move(options));
  in.m.term = in.before;
  Program p{in.m.term, in.m.s, in.m.t};
  const Value s = *gen::value_of(in.m.s);
  return {std::move(in.m), std::move(p), s};
}

RunSetup setup_of(const PropertyContext& context) {
  RunSetup setup = setup_for(context.mutant);
  setup.rules = with_user_rules(setup.rules, context.user_rules.get());
  setup.coverage = context.rule_counter;
  return setup;
}

Value random_like(const Value& shape) {
  return *gen::tangent_like(shape);
}

Value ones_like(const Value& shape) {
  std::size_t next = 0;
  return unflatten_reals(shape, std::vector<double>(flatten_reals(shape).size(), 1.0), next);
}

Trial prepare(const Drawn& d, const PropertyContext& context) {
  return prepare(d, context, random_like);
}

Trial prepare(const Drawn& d, const PropertyContext& context, const DrawLike& like) {
  Trial t;
  t.setup = setup_of(context);
  t.fuel = fuel(context);
  t.primal = run_primal(d.program, d.s, t.fuel, context.rule_counter, *t.setup.rules).result;
  require_finite(flatten_reals(t.primal));
  t.dt = like(t.primal);
  return t;
}

Eigen::MatrixXd model_jacobian(const Program& p, const Value& s) {
  const model::Value<double> f = denote_closed<double>(p.term);
  return model::jacobian(f, to_model(s));
}

namespace {
// `magnitude` applied to x ↦ ⟦e⟧ on tagged interval duals at s; empty where the point box meets a
// boundary or a guard.
template <class Magnitude>
std::vector<double> interval_magnitude(const Program& p, const Value& s, Magnitude&& magnitude) {
  const auto fi = denote_closed<model::Interval>(p.term);
  const model::Value<model::Interval> shape = to_model_on<model::Interval>(s);
  const model::VectorFunction<model::Dual<model::Interval>> g =
      [&](std::span<const model::Dual<model::Interval>> xs) {
        return model::flatten(fi(model::unflatten(shape, xs)));
      };
  try {
    return magnitude(g);
  } catch (const model::Undecided&) {
    return {};
  } catch (const model::Undefined&) {
    return {};
  }
}
} // namespace

std::vector<double> model_jvp_magnitude(const Program& p, const Value& s, const Value& ds) {
  return interval_magnitude(p, s, [&](const auto& g) {
    return model::jvp_magnitude(g, flatten_reals(s), flatten_reals(ds));
  });
}

std::vector<double> model_vjp_magnitude(const Program& p, const Value& s, const Value& dt) {
  return interval_magnitude(p, s, [&](const auto& g) {
    return model::vjp_magnitude(g, flatten_reals(s), flatten_reals(dt));
  });
}

std::optional<std::string> uncertified(const Program& p, const Value& s,
                                       model::Enclosure* enclosure) {
  const std::vector<double> x = flatten_reals(s);
  const auto fi = denote_closed<model::Interval>(p.term);
  const model::Value<model::Interval> shape = to_model_on<model::Interval>(s);
  const model::VectorFunction<model::Dual<model::Interval>> g_box =
      [&](std::span<const model::Dual<model::Interval>> xs) {
        return model::flatten(fi(model::unflatten(shape, xs)));
      };
  model::Enclosure local;
  model::Enclosure& out = enclosure != nullptr ? *enclosure : local;
  const model::Certificate cert =
      model::certify(x, [&](const model::Box& box) { out = model::enclose(g_box, box); });
  if (cert.status == model::CertificateStatus::outside) return "undefined-point";
  if (cert.status == model::CertificateStatus::uncertified)
    return cert.reason.empty() ? "uncertified" : cert.reason;
  return std::nullopt;
}

void require_finite(const Eigen::MatrixXd& m) {
  if (!m.allFinite()) throw AdsemError(ErrorKind::eval, "non-finite Jacobian");
}
void require_finite(const std::vector<double>& xs) {
  for (const double x : xs)
    if (!std::isfinite(x)) throw AdsemError(ErrorKind::eval, "non-finite value");
}

Eigen::VectorXd as_vector(const std::vector<double>& xs) {
  Eigen::VectorXd v(static_cast<Eigen::Index>(xs.size()));
  for (std::size_t i = 0; i < xs.size(); ++i)
    v(static_cast<Eigen::Index>(i)) = xs[i];
  return v;
}

bool has_non_finite_coefficient(const Binds& binds) {
  for (const auto& [id, rhs] : binds) {
    std::vector<const DeltaNode*> stack = {rhs.get()};
    while (!stack.empty()) {
      const DeltaNode* at = stack.back();
      stack.pop_back();
      if (!std::isfinite(at->r)) return true;
      if (at->a) stack.push_back(at->a.get());
      if (at->b) stack.push_back(at->b.get());
    }
  }
  return false;
}

bool same_shape(const Value& a, const Value& b) {
  using VK = ValueNode::Kind;
  if (a->kind != b->kind) return false;
  switch (a->kind) {
  case VK::integer:
    return a->integer == b->integer;
  case VK::pair:
    return same_shape(a->a, b->a) && same_shape(a->b, b->b);
  case VK::inl:
  case VK::inr:
    return same_shape(a->a, b->a);
  default:
    return true;
  }
}

TrialResult compare_values(const Value& expected, const std::string& expected_label,
                           const Value& actual, const std::string& actual_label, CheckKind kind,
                           const PropertyContext& context) {
  if (!same_shape(expected, actual))
    return TrialResult::fail(fmt::format("{} = {} and {} = {} differ in their tags or leaves",
                                         expected_label, print_value(expected, nullptr),
                                         actual_label, print_value(actual, nullptr)));
  const std::vector<double> e = flatten_reals(expected), a = flatten_reals(actual);
  for (std::size_t i = 0; i < e.size(); ++i) {
    TrialResult r =
        props::compare_reals(e[i], fmt::format("{}[{}]", expected_label, i), a[i],
                             fmt::format("{}[{}]", actual_label, i), kind, context.tolerance(kind));
    if (r.kind != TrialResult::Kind::pass) return r;
  }
  return TrialResult::pass();
}

TrialResult same_result(const Value& expected, const std::string& expected_label,
                        const Value& actual, const std::string& actual_label, const Type& type,
                        const PropertyContext& context) {
  if (context.user_rules)
    return compare_values(expected, expected_label, actual, actual_label, CheckKind::exact_value,
                          context);
  if (same_bits(expected, actual)) return TrialResult::pass();
  return TrialResult::fail(fmt::format("{} {} differs from {} = {}", actual_label,
                                       print_value(actual, type), expected_label,
                                       print_value(expected, type)));
}

TrialResult compare_value_sums(const Value& expected, const std::string& expected_label,
                               const Value& actual, const std::string& actual_label, CheckKind kind,
                               const PropertyContext& context,
                               const std::function<std::vector<double>()>& magnitudes) {
  const TrialResult plain =
      compare_values(expected, expected_label, actual, actual_label, kind, context);
  if (!same_shape(expected, actual)) return plain;
  return props::unless_rounding_of_sums(plain, flatten_reals(expected), expected_label,
                                        flatten_reals(actual), actual_label, magnitudes, kind,
                                        context.tolerance(kind));
}

} // namespace adsem::delta_reverse::support
