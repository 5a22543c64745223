// Spec §6 P20 [proposal; it follows from Thm. 3 because AD computes the derivative of the
// denotation], the rewrites metamorphic-invariance leaves out (source_rewrites.hpp): let-inlining,
// let-floating, η-expansion and case-of-known-constructor. One of those with a redex in e is
// applied everywhere; R{e} and F{e} must not change beyond rounding, and the number of tape
// bindings must change exactly as the number of real primitive calls of e s changes (§7.4 (b):
// one binding per call). Let-inlining duplicates calls (a shared let used twice runs twice, more
// bindings) or drops them (an unused let); η-expansion of a non-value runs it once per call.
#include <array>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <rapidcheck.h>

#include "generators/core/uniform.hpp"
#include "properties/delta_reverse/metamorphic.hpp"
#include "properties/delta_reverse/source_rewrites.hpp"
#include "properties/delta_reverse/support.hpp"
#include "syntax/delta_reverse/printer.hpp"

namespace adsem::delta_reverse {

namespace {
using props::PropertyContext;
using props::TrialResult;
using namespace support;

// A term with a redex of the rewrite and the term after it.
struct Rewritten {
  Term before, after;
};

struct SourceRewrite {
  const char* name;
  Rewritten (*apply)(const Term&);
};

Rewritten let_inlined(const Term& e) {
  return {e, inline_lets(e)};
}
Rewritten let_floated(const Term& e) {
  return {e, float_lets(e)};
}
Rewritten eta_expanded(const Term& e) {
  return {e, eta_expand(e)};
}
// The generator seldom makes a known constructor the scrutinee of a case, so one of e's lets, if
// it has any, is first made such a case (the rewrite read backwards).
Rewritten known_constructor_cased(const Term& e) {
  const std::size_t lets = let_count(e);
  const Term before = lets == 0 ? e : plant_known_case(e, adsem::gen::uniform_below(lets));
  return {before, known_case(before)};
}

constexpr std::array<SourceRewrite, 4> source_rewrites = {{
    {"let-inlining", let_inlined},
    {"let-floating", let_floated},
    {"eta-expansion", eta_expanded},
    {"case-of-known-constructor", known_constructor_cased},
}};

// The drawn rewrite, or the next one with a redex in e.
std::optional<std::pair<const SourceRewrite*, Rewritten>> drawn_rewrite(const Term& e) {
  const std::size_t first = adsem::gen::uniform_below(source_rewrites.size());
  for (std::size_t i = 0; i < source_rewrites.size(); ++i) {
    const SourceRewrite& w = source_rewrites[(first + i) % source_rewrites.size()];
    Rewritten r = w.apply(e);
    if (!same_term(r.before, r.after)) return std::pair{&w, std::move(r)};
  }
  return std::nullopt;
}

long primal_calls(const Program& p, const Value& s, const Trial& trial,
                  const PropertyContext& context) {
  return run_primal(p, s, trial.fuel, context.rule_counter, *trial.setup.rules).real_prim_calls;
}

TrialResult rewrites_keep_derivatives(const PropertyContext& context) {
  const Drawn d = draw(context);
  const auto drawn = drawn_rewrite(d.program.term);
  if (!drawn) return on(TrialResult::discard("no-redex"), d.m);
  const SourceRewrite* w = drawn->first;
  const Program p1{drawn->second.before, d.program.s, d.program.t};
  const Program p2{drawn->second.after, d.program.s, d.program.t};
  const Value ds = *gen::tangent_like(d.s);
  TrialResult r = guarded([&] {
    const Trial trial = prepare(d, context);
    const std::string after = fmt::format("e after {}", w->name);
    const ReverseRun a =
        reverse(p1, d.s, trial.dt, Wrapper::seeded, EvalImpl::array, trial.setup, trial.fuel);
    const ReverseRun b =
        reverse(p2, d.s, trial.dt, Wrapper::seeded, EvalImpl::array, trial.setup, trial.fuel);
    TrialResult c = compare_value_sums(
        a.gradient, "R{e}", b.gradient, fmt::format("R{{{}}}", after), CheckKind::derivative,
        context, [&] { return model_vjp_magnitude(d.program, d.s, trial.dt); });
    if (c.kind == TrialResult::Kind::pass)
      c = compare_value_sums(forward(p1, d.s, ds, trial.setup, trial.fuel).tangent, "F{e}",
                             forward(p2, d.s, ds, trial.setup, trial.fuel).tangent,
                             fmt::format("F{{{}}}", after), CheckKind::derivative, context,
                             [&] { return model_jvp_magnitude(d.program, d.s, ds); });
    if (c.kind != TrialResult::Kind::pass) return c;
    const long calls_a = primal_calls(p1, d.s, trial, context);
    const long calls_b = primal_calls(p2, d.s, trial, context);
    const long binds_a = static_cast<long>(a.binds.size());
    const long binds_b = static_cast<long>(b.binds.size());
    if (binds_b - binds_a != calls_b - calls_a)
      return TrialResult::fail(
          fmt::format("{}: bindings {} -> {}, real primitive calls of e s {} -> {}", w->name,
                      binds_a, binds_b, calls_a, calls_b));
    return c;
  });
  on(r, d.m).tags.emplace_back(w->name);
  if (r.shows_input()) {
    if (!same_term(p1.term, d.program.term)) r.trace.push_back("e with a redex: " + print(p1.term));
    r.trace.push_back(fmt::format("e after {}: {}", w->name, print(p2.term)));
  }
  return r;
}

} // namespace

props::PropertyDef metamorphic_rewrites() {
  return props::PropertyDef{
      "delta-reverse",
      "delta-reverse/metamorphic-rewrites",
      "ad-correctness",
      "let-inlining, let-floating, η-expansion or case-of-known-constructor keeps R{e} and F{e}, "
      "and changes the tape's bindings exactly as the real primitive calls",
      "seed 001, Thm. 3 L727-735, §7.4 L605; spec §6 P20 [proposal]",
      rewrites_keep_derivatives,
      50,
      {"let-inlining", "let-floating", "eta-expansion", "case-of-known-constructor"}};
}

} // namespace adsem::delta_reverse
