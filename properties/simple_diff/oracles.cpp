#include "properties/simple_diff/oracles.hpp"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <optional>
#include <variant>

#include "properties/core/discards.hpp"
#include "properties/core/sum_compare.hpp"
#include "properties/simple_diff/user_rules.hpp"
#include "semantics/core/interval_model.hpp"
#include "semantics/core/model_errors.hpp"
#include "semantics/simple_diff/denotation.hpp"
#include "semantics/simple_diff/run.hpp"
#include "syntax/simple_diff/printer.hpp"

namespace adsem::simple_diff::oracle {

Options machine_options(const props::PropertyContext& context) {
  Options o = with_rules(Options{}, context.mutant, context.user_rules.get());
  o.fuel = context.option_int("fuel", 200'000);
  // generated terms are small: deep nesting means a mutant recursing without end
  o.max_depth = static_cast<int>(context.option_int("max-depth", 2'000));
  o.counter = context.rule_counter.get();
  return o;
}

Operational run(const Term& m, const std::string& x, const Type& t, const std::vector<double>& at,
                const Options& options) {
  Operational out;
  try {
    const Evaluation result = evaluate_unless_stuck(m, options, {{x, unflatten(t, at)}});
    if (result.stuck) { // a definite "no value" of M^(n), not unknown (is_unknown)
      out.error = result.stuck->diagnostic().kind;
      out.message = result.stuck->what();
      return out;
    }
    if (result.domain_error) { // as the thrown AdsemError is caught below
      out.error = result.domain_error->diagnostic().kind;
      out.message = result.domain_error->what();
      out.unknown = is_unknown(*result.domain_error);
      return out;
    }
    out.value = flatten(result.outcome->value);
    out.type = type_of_value(result.outcome->value);
  } catch (const AdsemError& e) {
    out.error = e.diagnostic().kind;
    out.message = e.what();
    out.unknown = is_unknown(e);
  }
  return out;
}

Options paper_rules_at_same_cost(const Options& options) {
  const auto whole_trace = [](const Rules::Entry& e) {
    return std::holds_alternative<Rule<TraceDerivative>>(e);
  };
  Options paper = options;
  paper.rules = paper_rules();
  paper.counter = nullptr; // not the campaign's rule coverage: these are not its rules
  if (std::ranges::none_of(options.rules->entries(), whole_trace)) paper.diff = DiffMode::literal;
  return paper;
}

bool runs_paper_rules(const Options& options) {
  return options.rules == paper_rules();
}

Denotation denote(const Term& m, const std::string& x, const Type& t, const std::vector<double>& at,
                  bool certify) {
  Denotation out;
  const model::DiffContext context;
  bool decided_everywhere = false;
  try {
    const std::vector<model::Dual<double>> in(at.begin(), at.end());
    const denotation::MEnv<double> rho = {
        {x, denotation::unflatten_value<double>(t, std::span<const model::Dual<double>>(in))}};
    const auto d = denotation::denote_or_failure<double>(m, rho, context);
    if (d.failure) {
      // as the primitive's model::Undefined is caught below
      const auto* undefined = std::get_if<model::Undefined>(&*d.failure);
      if (!undefined) model::throw_failure(*d.failure);
      out.status = Denotation::Status::undefined;
      out.message = undefined->what();
    } else if (d.bottom) {
      decided_everywhere = d.decided_everywhere;
      out.status = Denotation::Status::undefined;
      out.message = model::Undefined(denotation::approximant_bottom, *d.bottom).what();
    } else {
      decided_everywhere = d.decided_everywhere;
      for (const auto& v : denotation::flatten_value(d.value))
        out.value.push_back(v.primal());
    }
  } catch (const model::Undefined& e) {
    out.status = Denotation::Status::undefined;
    out.message = e.what();
  } catch (const AdsemError& e) {
    if (e.diagnostic().kind != ErrorKind::fuel) throw;
    out.status = Denotation::Status::fuel;
    out.message = e.what();
    out.uncertified = "fuel";
    return out;
  }
  if (!certify) return out;
  if (decided_everywhere) {
    // The box's walk would take the point's path and meet nothing partial: the certificate is
    // "certified" on the first box, or "outside" with the point's own ⊥ (denotation.hpp).
    out.fd_safe = out.status == Denotation::Status::defined;
    return out;
  }
  try {
    // f^(0) = ⊥ on the box is returned, not thrown (adequacy trials meet it often)
    // a primitive's ⊥ or straddled box is returned too, not thrown
    const auto on_box = [&](const model::Box& box) -> model::BoxBottom {
      const std::vector<model::Dual<model::Interval>> v = model::as_duals(box);
      const denotation::MEnv<model::Interval> rho_box = {
          {x, denotation::unflatten_value<model::Interval>(
                  t, std::span<const model::Dual<model::Interval>>(v))}};
      auto d = denotation::denote_or_failure<model::Interval>(m, rho_box, context);
      if (d.failure) {
        if (auto* undecided = std::get_if<model::Undecided>(&*d.failure))
          return std::move(*undecided);
        return std::string(std::get<model::Undefined>(*d.failure).what());
      }
      if (d.bottom) return model::Undefined(denotation::approximant_bottom, *d.bottom).what();
      return std::nullopt;
    };
    const model::Certificate c = model::certify_reported(at, on_box);
    switch (c.status) {
    case model::CertificateStatus::certified:
      out.uncertified = "";
      out.fd_safe = c.shrinks == 0;
      break;
    case model::CertificateStatus::outside:
      out.uncertified = out.status == Denotation::Status::undefined ? "" : "domain-boundary";
      break;
    case model::CertificateStatus::uncertified:
      out.uncertified = c.reason.empty() ? "branch-boundary" : c.reason;
      break;
    }
  } catch (const AdsemError& e) {
    if (e.diagnostic().kind != ErrorKind::fuel) throw;
    out.uncertified = "fuel";
  }
  return out;
}

std::vector<double> model_vjp(const Term& m, const std::string& x, const Type& t,
                              const std::vector<double>& at, const std::vector<double>& w) {
  const model::DiffContext context;
  const auto f = denotation::as_function<double>(x, t, m, {}, context);
  const std::vector<model::Dual<double>> a(at.begin(), at.end()), c(w.begin(), w.end());
  std::vector<double> out;
  for (const auto& d : model::vjp_dual<double>(f, a, c, context))
    out.push_back(d.primal());
  return out;
}

props::TrialResult compare_with_model_vjp(const Term& m, const std::string& x, const Type& t,
                                          const std::vector<double>& at,
                                          const std::vector<double>& w, const std::string& what_e,
                                          const std::vector<double>& actual,
                                          const std::string& what_a,
                                          const props::PropertyContext& context) {
  const std::vector<double> expected = model_vjp(m, x, t, at, w);
  return props::unless_rounding_of_sums(
      compare_vectors(expected, what_e, actual, what_a, CheckKind::derivative, context), expected,
      what_e, actual, what_a,
      [&] {
        const model::DiffContext dc;
        return model::vjp_magnitude(denotation::as_function<model::Interval>(x, t, m, {}, dc), at,
                                    w, dc);
      },
      CheckKind::derivative, context.tolerance(CheckKind::derivative));
}

props::TrialResult compare_vectors(const std::vector<double>& expected, const std::string& what_e,
                                   const std::vector<double>& actual, const std::string& what_a,
                                   CheckKind kind, const props::PropertyContext& context) {
  return compare_vectors(
      expected, [&] { return what_e; }, actual, [&] { return what_a; }, kind, context);
}

props::TrialResult compare_vectors(const std::vector<double>& expected, const Label& what_e,
                                   const std::vector<double>& actual, const Label& what_a,
                                   CheckKind kind, const props::PropertyContext& context) {
  if (expected.size() != actual.size())
    return props::TrialResult::fail(fmt::format("{} has {} reals, {} has {}", what_e(),
                                                expected.size(), what_a(), actual.size()));
  // read once, at the first element compared (an invalid override is reported there, as before)
  std::optional<Tolerance> tol;
  for (std::size_t i = 0; i < expected.size(); ++i) {
    // The expected side overflowed (exp of a large value, then inf * 0 = NaN): there is nothing to
    // compare against, so the trial is a counted discard. A finite expectation met by a
    // non-finite answer still fails below. (Found by a long simple-diff/chain-rule run: both
    // sides NaN at x = -3, reported as a failure.)
    if (!std::isfinite(expected[i])) return props::TrialResult::discard(props::discards::overflow);
    if (!tol) tol = context.tolerance(kind);
    // the labels are built for a failure only (most trials compare a few reals, all agreeing)
    if (within_tolerance(expected[i], actual[i], *tol)) continue;
    return props::compare_reals(expected[i], fmt::format("{}[{}]", what_e(), i), actual[i],
                                fmt::format("{}[{}]", what_a(), i), kind, *tol);
  }
  return props::TrialResult::pass();
}

std::string describe(const gen::OpenTerm& t, const std::vector<double>& at) {
  std::string point;
  for (const double v : at)
    point += (point.empty() ? "" : ",") + print_real(v);
  return fmt::format("{}:{}. {}{}{}", t.x, print_type(t.t), print(t.term), point_separator, point);
}

props::TrialResult trace_agrees_at(const Term& m, const Term& c, const std::string& x,
                                   const Type& t, const std::vector<double>& at,
                                   const props::PropertyContext& context) {
  const Options options = machine_options(context);
  const Operational of_m = run(m, x, t, at, options);
  const Operational of_c = run(c, x, t, at, options);
  if (of_m.unknown || of_c.unknown) return props::TrialResult::discard("fuel");
  if (!of_m.value && !of_c.value) return props::TrialResult::pass(); // both ⊥
  if (!of_m.value || !of_c.value)
    return props::TrialResult::fail(fmt::format(
        "away from ρ, M {} but its trace {}", of_m.value ? "evaluates" : "fails: " + of_m.message,
        of_c.value ? "evaluates" : "fails: " + of_c.message));
  return compare_vectors(*of_m.value, "eval(M) away from ρ", *of_c.value, "eval(trace) away from ρ",
                         CheckKind::exact_value, context);
}

props::TrialResult check_derivative_typing(const Term& d, const std::string& x, const Type& t) {
  if (!is_trace_term(*d))
    return props::TrialResult::fail("W.R_V(x:T. C) is not a trace term: " + print(d));
  try {
    const Typed typed = typecheck(d, primitives(), {{x, t}});
    if (!same_type(typed.type, t))
      return props::TrialResult::fail("W.R_V(x:T. C) has type " + print_type(typed.type) +
                                      ", not T = " + print_type(t));
  } catch (const AdsemError& e) {
    if (e.diagnostic().kind != ErrorKind::type) throw;
    return props::TrialResult::fail(std::string("W.R_V(x:T. C) is ill-typed: ") + e.what());
  }
  return props::TrialResult::pass();
}

} // namespace adsem::simple_diff::oracle
