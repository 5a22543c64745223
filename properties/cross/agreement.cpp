#include "properties/cross/agreement.hpp"

#include <algorithm>
#include <cmath>
#include <variant>

#include <fmt/format.h>
#include <rapidcheck.h>

#include "generators/cross/programs.hpp"
#include "properties/core/discards.hpp"
#include "properties/cross/mutants.hpp"
#include "semantics/core/finite_difference.hpp"
#include "semantics/core/interval_model.hpp"
#include "semantics/cross/denotation.hpp"

namespace adsem::cross {
namespace {

using props::TrialResult;

// Points on a grid of step 0.01 in [-3, 3], uniform whatever the size (RapidCheck's inRange
// scales its range with the size).
std::vector<double> draw_point(std::size_t dimension) {
  return *rc::gen::container<std::vector<double>>(
      dimension, rc::gen::map(rc::gen::resize(rc::kNominalSize, rc::gen::inRange(-300, 301)),
                              [](int k) { return k / 100.0; }));
}

std::string reals_text(const std::vector<double>& xs) {
  std::string out;
  for (const double x : xs)
    out += (out.empty() ? "" : ", ") + fmt::format("{}", x);
  return "[" + out + "]";
}

std::vector<double> row(const Eigen::MatrixXd& m) {
  return std::vector<double>(m.data(), m.data() + m.size());
}

// The oracles at one point: the model's value and exact gradient, finite differences, and the
// enclosure of the gradient over the certified box.
struct Oracles {
  std::vector<double> point;
  model::Box box;
  double value = 0;
  std::vector<double> gradient;
  std::vector<double> fd;
  std::vector<model::Interval> enclosure;
};

// A point whose finite-difference box is certified inside every primitive's domain. Up to four
// points are drawn; the trial is discarded (with the last point's reason) when none certifies.
std::variant<Oracles, std::string> certified_point(const Program& p) {
  const auto on_box = as_function<model::Interval>(p);
  std::string why;
  for (int attempt = 0; attempt < 4; ++attempt) {
    Oracles o;
    o.point = draw_point(p.inputs.size());
    const auto certificate = model::certify(o.point, [&](const model::Box& box) {
      const auto duals = model::as_duals(box);
      on_box(duals);
    });
    if (certificate.status == model::CertificateStatus::certified && certificate.shrinks == 0) {
      o.box = certificate.box;
      return o;
    }
    why = certificate.status == model::CertificateStatus::outside     ? "undefined-point"
          : certificate.status == model::CertificateStatus::certified ? "near-domain-boundary"
                                                                      : certificate.reason;
  }
  return why;
}

// Fills the oracles; "" or a discard reason. A disagreement between the model and finite
// differences (or the enclosure) is a failure of the model, reported in `failure`.
std::string compute_oracles(const Program& p, Oracles& o, const props::PropertyContext& context,
                            std::optional<TrialResult>& failure) {
  const auto n = static_cast<Eigen::Index>(o.point.size());
  const Eigen::VectorXd at = Eigen::Map<const Eigen::VectorXd>(o.point.data(), n);
  const auto f = as_function<double>(p);
  std::vector<model::Dual<double>> x(o.point.begin(), o.point.end());
  o.value = f(x).at(0).primal();
  const Eigen::MatrixXd exact = model::jacobian(f, at);
  if (!std::isfinite(o.value) || !exact.allFinite()) return "overflow";
  o.gradient = row(exact);

  const auto fd = model::fd_jacobian_estimate(
      [&](const Eigen::VectorXd& y) {
        std::vector<model::Dual<double>> in(y.data(), y.data() + y.size());
        return Eigen::VectorXd::Constant(1, f(in).at(0).primal());
      },
      at);
  const Tolerance fd_tol = context.tolerance(CheckKind::finite_difference);
  o.fd = row(fd.jacobian);
  // The model against FD, weighing the estimate's own error: a disagreement is reported below, an
  // entry the estimate cannot resolve leaves no verdict.
  std::vector<model::Resolution> against_fd;
  for (Eigen::Index j = 0; j < n; ++j)
    against_fd.push_back(model::resolve(fd.jacobian(0, j), fd.error(0, j),
                                        o.gradient[static_cast<std::size_t>(j)], fd_tol));
  if (std::ranges::count(against_fd, model::Resolution::disagree) == 0 &&
      std::ranges::count(against_fd, model::Resolution::unresolved) > 0)
    return props::discards::fd_unstable;

  // Rounding alone can separate two correct evaluation orders where the enclosure of the
  // gradient at the point itself is wider than the derivative tolerance: no verdict there.
  const Tolerance d_tol = context.tolerance(CheckKind::derivative);
  const auto at_point = model::enclose(as_function<model::Interval>(p), model::point_box(o.point));
  for (std::size_t j = 0; j < at_point.jacobian.cols; ++j) {
    const model::Interval& entry = at_point.jacobian(0, j);
    const double magnitude = std::max(std::abs(entry.lower()), std::abs(entry.upper()));
    if (entry.upper() - entry.lower() > std::max(d_tol.rtol * magnitude, d_tol.atol))
      return "ill-conditioned";
  }
  const auto over_box = model::enclose(as_function<model::Interval>(p), o.box);
  for (std::size_t j = 0; j < over_box.jacobian.cols; ++j)
    o.enclosure.push_back(over_box.jacobian(0, j));

  for (std::size_t j = 0; j < o.gradient.size(); ++j) {
    if (against_fd[j] == model::Resolution::disagree) {
      TrialResult r = TrialResult::fail(
          fmt::format("the model's gradient disagrees with finite differences in component {}", j));
      r.expected = reports::ComputedValue{"finite differences", reals_text(o.fd)};
      r.actual = reports::ComputedValue{"model", reals_text(o.gradient)};
      r.discrepancy = std::abs(o.fd[j] - o.gradient[j]);
      r.tolerance = fd_tol;
      r.tolerance_kind = std::string(to_string(CheckKind::finite_difference));
      failure = r;
      return "";
    }
    const auto& e = o.enclosure[j];
    if (!(e.lower() <= o.gradient[j] && o.gradient[j] <= e.upper())) {
      failure = TrialResult::fail(
          fmt::format("the model's gradient component {} = {} lies outside its enclosure [{}, {}]",
                      j, o.gradient[j], e.lower(), e.upper()));
      return "";
    }
  }
  return "";
}

// One mechanism's answer and how it compares.
struct Answer {
  std::string calculus;
  std::string mechanism;
  std::string source;
  std::optional<props::GradResult> result;
  std::string error;     // the front end's error, when it gave no answer
  std::string complaint; // "" when it agrees with every oracle
  bool stuck = false;    // a stuck normal form the paper allows (no verdict, counted as a tag)
  double discrepancy = 0;
  std::string tolerance_kind;
  Tolerance tolerance;
  std::optional<reports::ComputedValue> expected, actual; // the two numbers that disagree
};

void judge(Answer& a, const Oracles& o, const props::PropertyContext& context) {
  if (!a.result) {
    a.complaint = "no answer: " + a.error;
    return;
  }
  const auto& r = *a.result;
  const Tolerance v_tol = context.tolerance(CheckKind::exact_value);
  const Tolerance d_tol = context.tolerance(CheckKind::derivative);
  if (r.gradient.size() != o.gradient.size()) {
    a.complaint = fmt::format("gradient has {} components, expected {}", r.gradient.size(),
                              o.gradient.size());
    return;
  }
  if (!within_tolerance(o.value, r.value, v_tol)) {
    a.complaint = fmt::format("value {} but the model says {}", r.value, o.value);
    a.expected = reports::ComputedValue{"model value", fmt::format("{}", o.value)};
    a.actual = reports::ComputedValue{a.calculus + "/" + a.mechanism + " value",
                                      fmt::format("{}", r.value)};
    a.discrepancy = std::abs(o.value - r.value);
    a.tolerance = v_tol;
    a.tolerance_kind = std::string(to_string(CheckKind::exact_value));
    return;
  }
  for (std::size_t j = 0; j < o.gradient.size(); ++j) {
    if (!within_tolerance(o.gradient[j], r.gradient[j], d_tol)) {
      a.complaint =
          fmt::format("gradient[{}] = {} but the model says {}", j, r.gradient[j], o.gradient[j]);
      a.discrepancy = std::abs(o.gradient[j] - r.gradient[j]);
      a.tolerance = d_tol;
      a.tolerance_kind = std::string(to_string(CheckKind::derivative));
      return;
    }
    if (!model::encloses_rounded(o.enclosure[j], r.gradient[j], d_tol)) {
      a.complaint = fmt::format("gradient[{}] = {} lies outside the enclosure [{}, {}]", j,
                                r.gradient[j], o.enclosure[j].lower(), o.enclosure[j].upper());
      return;
    }
  }
}

// A computational graph: reals, primitives and real-typed lets only.
bool is_graph(const Program& p) {
  for (const auto& tag : constructs(p))
    if (tag == "pair" || tag == "fst" || tag == "snd" || tag == "lambda" || tag == "apply")
      return false;
  return true;
}

// The mechanisms to run for one target: the paper's ones, or every mechanism the front end has
// with --set cross.all-mechanisms=1 (the graph-only ones on graphs only).
std::vector<std::string> mechanisms_of(const Target& t, const Program& p,
                                       const props::PropertyContext& context) {
  if (context.option_int("cross.all-mechanisms", 0) == 0) return t.embedding.mechanisms;
  std::vector<std::string> all;
  for (const auto& m : t.frontend->mechanisms()) {
    const auto& graph_only = t.embedding.graph_only_mechanisms;
    if (is_graph(p) || std::find(graph_only.begin(), graph_only.end(), m) == graph_only.end())
      all.push_back(m);
  }
  return all.empty() ? t.embedding.mechanisms : all;
}

// Pullback reduction is not complete at higher order: a gradient query whose body applies a
// function value that is not a λ (after the let-series split, a path of the stage tuple) is a
// stuck normal form, "value 2" of seed 000 Remark 3.6 (L331-337; spec §4.8: "Completeness ...
// does not hold because of stuck terms. Report the stuck rate as a metric, not as a failure").
bool pullback_stuck(const Target& t, const std::string& error, Fragment fragment) {
  return fragment == Fragment::higher_order && t.embedding.calculus == "pullback" &&
         error.find("did not reach a covector literal") != std::string::npos;
}

// A finding of this check (docs/cross.md): pullback reduction differentiates the body of a
// function-valued stage eagerly (the JAC premise of rules 17/18 normalises it at the point), so a
// partial primitive inside a closure that is never applied, as in
// \x0. let f = \z. log(x0) in x0 at -3, raises a domain error where the program (and
// `adsem eval pullback`) is defined. The paper's primitives are total (seed 000 §2), so this is
// the calculus's extension to partial primitives, not a rule of the paper. Counted as a discard
// with its own reason; --set cross.strict-pullback-domains=1 reports it as a disagreement.
bool pullback_eager_closure(const Target& t, const Diagnostic& error, Fragment fragment,
                            const props::PropertyContext& context) {
  return fragment == Fragment::higher_order && t.embedding.calculus == "pullback" &&
         error.kind == ErrorKind::domain &&
         context.option_int("cross.strict-pullback-domains", 0) == 0;
}

// Runs one mechanism: its answer, or a discard reason when it has no verdict (it ran out of fuel,
// or IEEE overflow left the reals, as in guarded.hpp).
std::variant<Answer, std::string> run_mechanism(const Target& t, const std::string& mechanism,
                                                const std::string& source, const Oracles& o,
                                                Fragment fragment,
                                                const props::PropertyContext& context) {
  Answer a;
  a.calculus = t.embedding.calculus;
  a.mechanism = mechanism;
  a.source = source;
  // A step budget of 100k per mechanism (--set fuel=N): perturbative's T_x grows ×3 per
  // application level and a let is an application there (docs/calculi/perturbative.md, "Cost"),
  // so a few nested lets take seconds; running out is a counted discard, "fuel".
  props::EvalOptions options;
  options.fuel = context.option_int("fuel", 100'000);
  if (const auto forwarded = forwarded_mutant(context.mutant);
      forwarded && forwarded->first == t.embedding.calculus)
    options.mutant = forwarded->second;
  try {
    a.result = t.frontend->grad(source, o.point, mechanism, options);
  } catch (const AdsemError& e) {
    if (e.diagnostic().kind == ErrorKind::fuel) return std::string("fuel");
    if (e.diagnostic().message.find("non-finite") != std::string::npos)
      return std::string(props::discards::overflow);
    if (pullback_eager_closure(t, e.diagnostic(), fragment, context))
      return std::string("pullback-domain-in-closure");
    a.error = e.diagnostic().render();
    a.stuck = pullback_stuck(t, a.error, fragment);
  } catch (const std::exception& e) {
    a.error = std::string("internal error: ") + e.what();
  }
  if (a.result && context.mutant_is(gradient_reversed_mutant) && t.embedding.calculus == "pullback")
    std::reverse(a.result->gradient.begin(), a.result->gradient.end());
  if (!a.stuck) judge(a, o, context);
  return a;
}

std::string answer_text(const Answer& a) {
  const std::string who = fmt::format("{} ({})", a.mechanism, a.calculus);
  if (a.stuck) return fmt::format("{:<28} stuck (Remark 3.6, no verdict): {}", who, a.error);
  if (!a.result) return fmt::format("{:<28} ERROR: {}", who, a.error);
  return fmt::format("{:<28} value {}, gradient {}{}", who, a.result->value,
                     reals_text(a.result->gradient),
                     a.complaint.empty() ? "  agrees" : "  DISAGREES: " + a.complaint);
}

TrialResult disagreement(const Program& p, const Oracles& o, const std::vector<Answer>& answers,
                         const std::vector<std::pair<std::string, std::string>>& sources) {
  std::vector<std::string> wrong;
  const Answer* first = nullptr;
  for (const Answer& a : answers)
    if (!a.complaint.empty()) {
      wrong.push_back(a.calculus + "/" + a.mechanism);
      if (!first) first = &a;
    }
  std::string names;
  for (const auto& w : wrong)
    names += (names.empty() ? "" : ", ") + w;
  TrialResult r = TrialResult::fail(fmt::format("{} of {} mechanisms disagree with the model: {}",
                                                wrong.size(), answers.size(), names));
  r.expected =
      first->expected.value_or(reports::ComputedValue{"model gradient", reals_text(o.gradient)});
  r.actual = first->actual.value_or(reports::ComputedValue{
      first->calculus + "/" + first->mechanism + " gradient",
      first->result ? reals_text(first->result->gradient) : "error: " + first->error});
  if (!first->tolerance_kind.empty()) {
    r.discrepancy = first->discrepancy;
    r.tolerance = first->tolerance;
    r.tolerance_kind = first->tolerance_kind;
  }
  r.trace.push_back("program: " + to_string(p));
  r.trace.push_back("at: " + reals_text(o.point));
  for (const auto& [calculus, source] : sources)
    r.trace.push_back(fmt::format("{:<16} {}", calculus + ":", source));
  r.trace.push_back(fmt::format("{:<28} value {}, gradient {}", "model (shared)", o.value,
                                reals_text(o.gradient)));
  r.trace.push_back(fmt::format("{:<28} gradient {}", "finite differences", reals_text(o.fd)));
  std::string enclosure;
  for (const auto& e : o.enclosure)
    enclosure += (enclosure.empty() ? "" : ", ") + fmt::format("[{}, {}]", e.lower(), e.upper());
  r.trace.push_back(fmt::format("{:<28} gradient [{}]", "interval enclosure (box)", enclosure));
  for (const Answer& a : answers)
    r.trace.push_back(answer_text(a));
  r.trace.push_back("disagreeing: " + names);
  return r;
}

} // namespace

TrialResult gradient_agreement(const std::vector<Target>& targets, Fragment fragment,
                               const props::PropertyContext& context) {
  const bool higher = fragment == Fragment::higher_order;
  const Program p = *(higher ? higher_order_program() : first_order_program());
  const std::string term = to_string(p);
  const std::string type = fmt::format("R^{} -> R", p.inputs.size());
  const auto tag = [&](TrialResult r) {
    r.on(term, type, size_of(p.body), constructs(p));
    return r;
  };
  context.report_input(term);
  if (!well_typed(p)) return tag(TrialResult::error("the generator produced an ill-typed program"));

  auto drawn = certified_point(p);
  if (auto* why = std::get_if<std::string>(&drawn)) return tag(TrialResult::discard(*why));
  Oracles o = std::get<Oracles>(std::move(drawn));
  std::optional<TrialResult> model_failure;
  try {
    if (const auto why = compute_oracles(p, o, context, model_failure); !why.empty())
      return tag(TrialResult::discard(why));
  } catch (const model::Undecided& e) {
    return tag(TrialResult::discard(e.reason()));
  } catch (const model::Undefined&) { // a stencil point past the certified box's rounding
    return tag(TrialResult::discard("undefined-point"));
  }
  if (model_failure) return tag(*model_failure);

  std::vector<Answer> answers;
  std::vector<std::pair<std::string, std::string>> sources;
  for (const Target& t : targets) {
    if (higher && !t.embedding.has_functions) continue;
    const std::string source = t.embedding.print(p, EmbedOptions{context.mutant});
    sources.emplace_back(t.embedding.calculus, source);
    for (const std::string& mechanism : mechanisms_of(t, p, context)) {
      auto answer = run_mechanism(t, mechanism, source, o, fragment, context);
      if (auto* why = std::get_if<std::string>(&answer)) return tag(TrialResult::discard(*why));
      answers.push_back(std::get<Answer>(std::move(answer)));
    }
  }
  if (answers.empty()) return tag(TrialResult::error("no calculus to compare: none registered"));
  for (const Answer& a : answers)
    if (!a.complaint.empty()) return tag(disagreement(p, o, answers, sources));
  TrialResult r = tag(TrialResult::pass());
  for (const Answer& a : answers)
    if (a.stuck) r.tags.push_back(a.calculus + "-stuck"); // the stuck rate, as a metric
  return r;
}

} // namespace adsem::cross
