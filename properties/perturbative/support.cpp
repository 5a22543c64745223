#include "properties/perturbative/support.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>
#include <rapidcheck.h>

#include "generators/perturbative/terms.hpp"
#include "properties/core/discards.hpp"
#include "properties/core/user_rules.hpp"
#include "properties/perturbative/mutants.hpp"
#include "properties/perturbative/user_rules.hpp"
#include "semantics/core/probe.hpp"
#include "semantics/perturbative/transform.hpp"
#include "syntax/perturbative/printer.hpp"

namespace adsem::perturbative::support {

RunOptions run_options(const PropertyContext& context) {
  RunOptions o;
  o.fuel = context.option_int("fuel", 20'000);
  o.counter = context.rule_counter.get();
  return o;
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
    if (e.diagnostic().message.find("non-finite") != std::string::npos)
      return TrialResult::discard(props::discards::overflow);
    throw;
  }
}

TrialResult on(TrialResult r, const Term& m, const std::vector<std::string>& extra_tags) {
  std::vector<std::string> tags = gen::tags_of(m);
  tags.insert(tags.end(), extra_tags.begin(), extra_tags.end());
  r.on(r.shows_input() ? print(m) : std::string(), print_type(m.type), static_cast<int>(size_of(m)),
       std::move(tags));
  // A closed input is a program of its own: failure corpora re-check it with `adsem type`.
  if (r.shows_input() && free_variables(m).empty()) r.source = r.term;
  return r;
}

bool finite(const std::vector<double>& xs) {
  return std::all_of(xs.begin(), xs.end(), [](double x) { return std::isfinite(x); });
}

TrialResult compare_values(const V& expected, const std::string& expected_label, const V& actual,
                           const std::string& actual_label, const Type& type, std::uint64_t seed,
                           const PropertyContext& context) {
  const auto report = model::compare_by_probing(expected, actual, model_type(type), seed, 3,
                                                context.tolerance(CheckKind::probe));
  if (report.equal) return TrialResult::pass();
  if (!std::isfinite(report.worst_difference))
    return TrialResult::discard(props::discards::overflow);
  TrialResult r = TrialResult::fail(
      fmt::format("{} and {} differ by {} at {} ({} probes)", expected_label, actual_label,
                  report.worst_difference,
                  report.worst_place.empty() ? "the value" : report.worst_place, report.probes));
  r.discrepancy = report.worst_difference;
  r.tolerance = context.tolerance(CheckKind::probe);
  r.tolerance_kind = "probe";
  return r;
}

DenoteContext denote_context(const PropertyContext& context) {
  DenoteContext dc;
  dc.diff = model::DiffContext(semantics_for(context).model);
  return dc;
}

Term tx(const PropertyContext& context, const std::string& x, const Type& sigma, const Term& m) {
  Engine engine(*semantics_for(context).rules);
  Term out = transform(engine, x, sigma, m);
  if (RuleCounter* counter = context.rule_counter.get()) engine.add_firings(*counter);
  return out;
}

V denote_closed(const Term& m, const PropertyContext& context,
                std::shared_ptr<GroundValues> ground_values) {
  DenoteContext dc = denote_context(context);
  dc.ground_values = std::move(ground_values);
  return denote<double>(m, nullptr, dc);
}

V denote_in(const Term& m, const std::string& y_name, const V& y_value, const DenoteContext& dc) {
  return denote<double>(m, y_name.empty() ? nullptr : extend<double>(nullptr, y_name, y_value), dc);
}

std::optional<Targeted> targeted_instance(const PropertyContext& context, const Type& domain) {
  if (!props::draw_targeted(context)) return std::nullopt;
  const auto& patterns = context.user_rules->compiled_as<UserRuleFile>().patterns();
  if (patterns.empty()) return std::nullopt;
  const Pattern& p = patterns[static_cast<std::size_t>(uniform(static_cast<int>(patterns.size())))];
  return draw_targeted_instance(p, domain);
}

Term closed_input(const PropertyContext& context, const std::vector<Type>& types) {
  const bool real =
      std::ranges::any_of(types, [](const Type& t) { return t->kind == TypeNode::Kind::real; });
  if (real)
    if (const auto in = targeted_instance(context, real_type()))
      return app(in->function, in->point);
  return *gen::closed_term(types);
}

Term function_input(const PropertyContext& context, const Type& domain) {
  if (const auto in = targeted_instance(context, domain)) return in->function;
  return *gen::term({}, arrow_type(domain, real_type()));
}

std::uint64_t probe_seed() {
  return *rc::gen::arbitrary<std::uint32_t>();
}

int uniform(int n) {
  return *rc::gen::resize(100, rc::gen::inRange(0, n));
}

TrialResult on_only(TrialResult r, const Term& m, std::vector<std::string> tags) {
  r.on(r.shows_input() ? print(m) : std::string(), print_type(m.type), static_cast<int>(size_of(m)),
       std::move(tags));
  return r;
}

PropertyDef def(std::string name, std::string kind, std::string summary, std::string citation,
                std::function<TrialResult(const PropertyContext&)> body) {
  PropertyDef p;
  p.calculus = calculus;
  p.name = std::string(calculus) + "/" + name;
  p.kind = std::move(kind);
  p.summary = std::move(summary);
  p.citation = std::move(citation);
  p.body = std::move(body);
  return p;
}

} // namespace adsem::perturbative::support
