// Properties of spec §6 (seed 001): typing, adequacy, the translations' theorems and the Delta
// machinery. Each body draws a well-typed term (generators/delta_reverse), runs the calculus
// (translations, machine, eval; the active mutant's rule book) and compares with the shared model,
// which never uses this calculus's AD.
#include "properties/delta_reverse/properties.hpp"

#include "properties/delta_reverse/enumeration.hpp"

#include <cmath>
#include <cstring>

#include <fmt/format.h>
#include <rapidcheck.h>

#include "generators/core/uniform.hpp"
#include "properties/core/discards.hpp"
#include "properties/core/fd_compare.hpp"
#include "properties/delta_reverse/cost_properties.hpp"
#include "properties/delta_reverse/delta_linearity.hpp"
#include "properties/delta_reverse/evaluation_order.hpp"
#include "properties/delta_reverse/frontend.hpp"
#include "properties/delta_reverse/fundamental_property.hpp"
#include "properties/delta_reverse/metamorphic.hpp"
#include "properties/delta_reverse/overloading_agreement.hpp"
#include "properties/delta_reverse/random_deltas.hpp"
#include "properties/delta_reverse/separate_compilation.hpp"
#include "properties/delta_reverse/support.hpp"
#include "semantics/core/finite_difference.hpp"
#include "semantics/core/interval_model.hpp"
#include "semantics/core/jacobian.hpp"
#include "semantics/delta_reverse/denotation.hpp"
#include "semantics/delta_reverse/derivative_rules.hpp"
#include "semantics/delta_reverse/model_bridge.hpp"
#include "semantics/delta_reverse/translate.hpp"
#include "syntax/delta_reverse/parser.hpp"
#include "syntax/delta_reverse/printer.hpp"

namespace adsem::delta_reverse {

namespace {

using props::PropertyContext;
using props::PropertyDef;
using props::TrialResult;
using namespace support;
using TK = TypeNode::Kind;

constexpr const char* calc = "delta-reverse";

bool has_sum(const Type& t) {
  return t->kind == TK::sum || (t->kind == TK::product && (has_sum(t->left) || has_sum(t->right)));
}

TrialResult typed_on(TrialResult r, const Typed& t) {
  r.on(r.shows_input() ? print(t.term) : std::string(), print_type(t.type),
       static_cast<int>(size_of(t.term)), gen::tags_of(t.term));
  return r;
}

// ---- round-trip: print then parse gives the same term (spec §2.2) ----
TrialResult round_trip_of(const Typed& t) {
  const std::string text = print(t.term);
  const Typed back = typecheck(parse_term(text));
  if (!same_term(back.term, t.term))
    return typed_on(TrialResult::fail("re-parsed as a different term: " + print(back.term)), t);
  if (!same_type(back.type, t.type))
    return typed_on(TrialResult::fail("re-parsed at type " + print_type(back.type)), t);
  return typed_on(TrialResult::pass(), t);
}

TrialResult round_trip(const PropertyContext&) {
  return round_trip_of(*gen::closed_term(3));
}

// ---- type-soundness (spec §6 P1; the typing is "standard", L47): ⊢ e : A, e ⇓ v ⟹ ⊢ v : A ----
TrialResult type_soundness_of(const Typed& t, const PropertyContext& context) {
  return guarded([&] {
    if (const auto error = type_error(t.term, {}, t.type))
      return typed_on(TrialResult::fail("generated term ill-typed: " + *error), t);
    Ledger ledger;
    ledger.fuel = fuel(context);
    ledger.coverage = context.rule_counter;
    const Value v = eval_closed(t.term, ledger, *setup_of(context).rules);
    if (!has_type(v, t.type))
      return typed_on(TrialResult::fail("value " + print_value(v, t.type) + " is not of type " +
                                        print_type(t.type)),
                      t);
    return typed_on(TrialResult::pass(), t);
  });
}

TrialResult type_soundness(const PropertyContext& context) {
  return type_soundness_of(*gen::closed_term(3), context);
}

// ---- adequacy (P2, App. A.2 L1029-1049): the machine's e s equals ⟦e⟧(s), bit for bit ----
TrialResult adequacy(const PropertyContext& context) {
  return adequacy_at(draw(context), context);
}

// ---- translation-typing (P3): Γ ⊢ e : A ⟹ X{Γ} ⊢ X{e} : X{A} for Dfwd (L207), Drev1, Drev2
// (L321-323) and Drev (L446: M Drev{A}) ----
TrialResult translation_typing(const PropertyContext& context) {
  const RunSetup v = setup_of(context);
  const auto& pool = gen::type_pool();
  Context gamma;
  const std::size_t n = *rc::gen::inRange<std::size_t>(0, 3); // grows with the size
  for (std::size_t i = 0; i < n; ++i)
    gamma.emplace_back("g" + std::to_string(i), *rc::gen::elementOf(pool));
  const Type a = *rc::gen::elementOf(pool);
  const Term e = *gen::term(gamma, a, 3);
  const Typed t{a, e};
  return typed_on(translations_typed(e, gamma, a, v), t);
}

// ---- primal-preservation (P4, L258-262): primal_T of every translation's result is e s, bit for
// bit (within the exact-value tolerance under a rule file: same_result) ----
TrialResult primal_preservation_at(const Drawn& d, const DrawLike& like,
                                   const PropertyContext& context) {
  return guarded([&] {
    const Trial trial = prepare(d, context, like);
    const RunSetup& v = trial.setup;
    const long f = trial.fuel;
    const Value& primal = trial.primal;
    const Value ds = like(d.s);
    const Value& dt = trial.dt;
    const auto check_bits = [&](const Value& got, const char* who) {
      return same_result(primal, "e s", got, std::string(who) + " primal", d.m.t, context);
    };
    TrialResult r = check_bits(forward(d.program, d.s, ds, v, f).primal, "Dfwd");
    if (r.kind == TrialResult::Kind::pass)
      r = check_bits(reverse(d.program, d.s, dt, Wrapper::seeded, EvalImpl::map, v, f).primal,
                     "Drev");
    if (r.kind == TrialResult::Kind::pass && d.m.t->kind == TK::real) {
      r = check_bits(reverse2(d.program, d.s, 1.0, v, f).primal, "Drev2");
      if (r.kind == TrialResult::Kind::pass && !has_sum(d.m.s))
        r = check_bits(reverse1(d.program, d.s, 1.0, v, f).primal, "Drev1");
    }
    return on(r, d.m);
  });
}

TrialResult primal_preservation(const PropertyContext& context) {
  return primal_preservation_at(draw(context), random_like, context);
}

// ---- forward-correctness (Prop. 2, L273-278; Fig. 2 L125-127): F{e}(s, ds) = J⟦e⟧(s)·ds ----
// F{e}(s, ds) against J ds, J computed by the caller before ds is drawn.
TrialResult forward_against_model(const Drawn& d, const Eigen::MatrixXd& j, const Value& ds,
                                  const PropertyContext& context) {
  const ForwardRun run = forward(d.program, d.s, ds, setup_of(context), fuel(context));
  const Eigen::VectorXd expected = j * as_vector(flatten_reals(ds));
  const std::vector<double> got = flatten_reals(run.tangent);
  require_finite(got);
  std::size_t next = 0;
  const Value want = unflatten_reals(
      run.tangent, std::vector<double>(expected.data(), expected.data() + expected.size()), next);
  return on(compare_value_sums(want, "J·ds (model)", run.tangent, "F{e}(s, ds)",
                               CheckKind::derivative, context,
                               [&] { return model_jvp_magnitude(d.program, d.s, ds); }),
            d.m);
}

TrialResult forward_correctness(const PropertyContext& context) {
  const Drawn d = draw(context);
  return guarded([&] {
    const Eigen::MatrixXd j = model_jacobian(d.program, d.s);
    require_finite(j);
    return forward_against_model(d, j, *gen::tangent_like(d.s), context);
  });
}

// The model's VJP dtᵀ J in the shape of s.
Value model_vjp(const Drawn& d, const Value& dt) {
  const Eigen::MatrixXd j = model_jacobian(d.program, d.s);
  require_finite(j);
  const Eigen::VectorXd g = j.transpose() * as_vector(flatten_reals(dt));
  std::size_t next = 0;
  return unflatten_reals(d.s, std::vector<double>(g.data(), g.data() + g.size()), next);
}

// ---- reverse-correctness (Thm. 3, L727-735; Fig. 2 L129-131; §11.2): R{e}(s, dt) = dtᵀ J⟦e⟧(s)
// in the shape of s, for the Fig. 15 wrapper with both eval implementations ----
TrialResult reverse_correctness(const PropertyContext& context) {
  const Drawn d = draw(context);
  return guarded([&] {
    const Trial trial = prepare(d, context);
    return reverse_correctness_at(d, trial.dt, context);
  });
}

// ---- reverse-vs-finite-differences (Thm. 3 against the other two oracles): on a certified box
// around s, R{e}(s, dt) matches dtᵀ J_fd and lies in the interval enclosure of dtᵀ J ----
TrialResult reverse_vs_fd_at(const Drawn& d, const DrawLike& like, const PropertyContext& context) {
  return guarded([&] {
    const Trial trial = prepare(d, context, like);
    const long f = trial.fuel;
    const Value& dt = trial.dt;
    const std::vector<double> x = flatten_reals(d.s);
    if (x.empty()) return on(TrialResult::discard("no-real-input"), d.m);
    model::Enclosure enclosure;
    if (const auto reason = uncertified(d.program, d.s, &enclosure))
      return on(TrialResult::discard(*reason), d.m);
    const auto fd = denote_closed<double>(d.program.term);
    const model::Value<double> shape = to_model(d.s);
    const model::RealVectorFunction g = [&](const Eigen::VectorXd& xs) {
      std::vector<model::Dual<double>> in;
      for (Eigen::Index i = 0; i < xs.size(); ++i)
        in.emplace_back(xs(i));
      const auto out = model::flatten_primal(
          fd(model::unflatten(shape, std::span<const model::Dual<double>>(in))));
      return as_vector(out);
    };
    const model::FdJacobianEstimate est = model::fd_jacobian_estimate(g, as_vector(x));
    require_finite(est.jacobian);
    const Eigen::VectorXd w = as_vector(flatten_reals(dt));
    const Eigen::VectorXd fd_vjp = est.jacobian.transpose() * w;
    const Eigen::VectorXd err = est.error.transpose() * w.cwiseAbs();
    const ReverseRun run =
        reverse(d.program, d.s, dt, Wrapper::fig15, EvalImpl::array, setup_of(context), f);
    const std::vector<double> got = flatten_reals(run.gradient);
    const Tolerance fd_tol = context.tolerance(CheckKind::finite_difference);
    const Tolerance der_tol = context.tolerance(CheckKind::derivative);
    // A disagreement with either oracle is a verdict; FD that cannot resolve is a discard only
    // when the enclosure agrees too.
    TrialResult by_fd = props::compare_with_estimates(
        std::span<const double>(fd_vjp.data(), static_cast<std::size_t>(fd_vjp.size())),
        std::span<const double>(err.data(), static_cast<std::size_t>(err.size())), "dtᵀJ_fd", got,
        "R{e}", fd_tol);
    if (by_fd.kind == TrialResult::Kind::fail) return on(by_fd, d.m);
    for (std::size_t jx = 0; jx < got.size(); ++jx) {
      // the enclosure of Σ_i dt_i J_ij over the box, widened by the derivative tolerance
      model::Interval acc(0.0);
      for (Eigen::Index i = 0; i < w.size(); ++i)
        acc += model::Interval(w(i)) * enclosure.jacobian(static_cast<std::size_t>(i), jx);
      if (!model::encloses_rounded(acc, got[jx], der_tol))
        return on(TrialResult::fail(fmt::format("R{{e}}[{}] = {} lies outside the interval "
                                                "enclosure [{}, {}] of dtᵀJ over the box",
                                                jx, got[jx], acc.lower(), acc.upper())),
                  d.m);
    }
    return on(by_fd, d.m);
  });
}

TrialResult reverse_vs_fd(const PropertyContext& context) {
  return reverse_vs_fd_at(draw(context), random_like, context);
}

// ---- forward-reverse-duality (Lemma 1, L154-155): dt • F{e}(s, ds) = R{e}(s, dt) • ds, the
// oracle-free dot-product test ----
TrialResult duality_at(const Drawn& d, const DrawLike& like, const PropertyContext& context) {
  return guarded([&] {
    const RunSetup v = setup_of(context);
    const long f = fuel(context);
    const Value ds = like(d.s);
    const ForwardRun fw = forward(d.program, d.s, ds, v, f);
    require_finite(flatten_reals(fw.primal));
    const Value dt = like(fw.primal);
    const ReverseRun rv = reverse(d.program, d.s, dt, Wrapper::seeded, EvalImpl::array, v, f);
    const std::vector<double> dtf = flatten_reals(dt), dsf = flatten_reals(ds);
    SumWithMagnitude lhs = dot_with_magnitude(dtf, flatten_reals(fw.tangent));
    SumWithMagnitude rhs = dot_with_magnitude(flatten_reals(rv.gradient), dsf);
    // Both sides sum the chain rule's path terms dt_k·∂…∂·ds_i, only in another order: after
    // cancellation (a constant function) each may be off by rounding relative to those terms.
    const std::vector<double> paths = model_jvp_magnitude(d.program, d.s, ds);
    const double terms = dot_with_magnitude(dtf, paths).magnitude; // Σ |dt_k| · paths_k
    lhs.magnitude = std::max(lhs.magnitude, terms);
    rhs.magnitude = std::max(rhs.magnitude, terms);
    return on(props::compare_sums(lhs, "dt • F{e}(s, ds)", rhs, "R{e}(s, dt) • ds",
                                  CheckKind::derivative, context.tolerance(CheckKind::derivative)),
              d.m);
  });
}

TrialResult duality(const PropertyContext& context) {
  return duality_at(draw(context), random_like, context);
}

// ---- dense-tape-adequacy (Thm. 5, L790-792; P9): ⟦get C' z⟧_D φ_a, the dense meaning of the
// tape, independent of eval, is the model's gradient ----
TrialResult dense_tape_adequacy_at(const Drawn& d, const PropertyContext& context) {
  // a gradient: e : A -> Real (the random bodies draw no other output)
  if (d.m.t->kind != TK::real) return on(TrialResult::discard("not-real-output"), d.m);
  return guarded([&] {
    const Eigen::MatrixXd j = model_jacobian(d.program, d.s);
    require_finite(j);
    const ReverseRun run = reverse(d.program, d.s, v_real(1.0), Wrapper::fig11, EvalImpl::array,
                                   setup_of(context), fuel(context));
    // the dense meaning evaluates every binding, dead ones too: an overflowed coefficient gives
    // 0·inf = NaN there (spec §9.4), a rounding limit, not a verdict
    if (has_non_finite_coefficient(run.binds))
      return on(TrialResult::discard(props::discards::overflow), d.m);
    const Eigen::VectorXd dense =
        dense_tape(run.binds, run.final_delta, static_cast<int>(run.inputs));
    for (Eigen::Index i = 0; i < dense.size(); ++i) {
      TrialResult r = props::compare_reals(j(0, i), fmt::format("∇⟦e⟧[{}] (model)", i), dense(i),
                                           fmt::format("⟦tape⟧_D[{}]", i), CheckKind::derivative,
                                           context.tolerance(CheckKind::derivative));
      if (r.kind != TrialResult::Kind::pass) return on(r, d.m);
    }
    return on(TrialResult::pass(), d.m);
  });
}

TrialResult dense_tape_adequacy(const PropertyContext& context) {
  gen::Options o;
  o.real_output = true;
  return dense_tape_adequacy_at(draw(context, o), context);
}

// ---- eval-correctness (Lemma 6, L802-813; P12): s·⟦u⟧γ = Σ_i (eval s u m − m)(i)·γ(i), and the
// final keys are free ids only ----
TrialResult eval_correctness(const PropertyContext& context) {
  const RunSetup v = setup_of(context);
  const int free_ids = 3;
  std::int64_t next_let = 10;
  const Delta u = random_delta(free_ids, next_let, 4);
  std::map<std::int64_t, Eigen::VectorXd> gamma;
  DeltaMap m;
  for (std::int64_t i = 1; i <= free_ids; ++i) {
    Eigen::VectorXd g(3);
    for (int c = 0; c < 3; ++c)
      g(c) = adsem::gen::uniform_in(-8, 9) / 4.0;
    gamma[i] = g;
    m[i] = adsem::gen::uniform_in(-8, 9) / 2.0;
  }
  const double s = adsem::gen::uniform_in(-8, 9) / 2.0;
  TrialResult r = TrialResult::pass();
  Ledger ledger;
  ledger.coverage = context.rule_counter;
  DeltaMap after = m;
  eval_map(s, u, after, ledger, *v.rules);
  const Eigen::VectorXd lhs = s * dense_meaning(u, gamma, 3);
  Eigen::VectorXd rhs = Eigen::VectorXd::Zero(3);
  for (const auto& [id, x] : after) {
    if (id > free_ids) {
      r = TrialResult::fail(fmt::format("id {} is left in the final map (not free)", id));
      break;
    }
    rhs += (x - m[id]) * gamma[id];
  }
  for (int c = 0; c < 3 && r.kind == TrialResult::Kind::pass; ++c)
    r = props::compare_reals(lhs(c), fmt::format("s·⟦u⟧γ[{}]", c), rhs(c),
                             fmt::format("Σ (eval − m)·γ [{}]", c), CheckKind::derivative,
                             context.tolerance(CheckKind::derivative));
  r.on(print_delta(u), "Delta", static_cast<int>(delta_nodes(u)), {});
  return r;
}

// ---- tape-invariants (L571 sharing invariant; Lemma 10 / P11: bindings only appended, fresh
// increasing ids, each rhs refers to inputs or earlier ids; §7.4 (b): one binding per real
// primitive call, ≤ 5 nodes per binary rhs) ----
TrialResult tape_invariants_at(const Drawn& d, const DrawLike& like,
                               const PropertyContext& context) {
  return guarded([&] {
    const Trial trial = prepare(d, context, like);
    const long f = trial.fuel;
    const Value& dt = trial.dt;
    const ReverseRun run =
        reverse(d.program, d.s, dt, Wrapper::seeded, EvalImpl::array, setup_of(context), f);
    const auto fail = [&](const std::string& why) { return on(TrialResult::fail(why), d.m); };
    if (!zero_or_var_only(run.result))
      return fail("a dual number in the result carries a Delta other than Zero or Var (L571)");
    if (const auto e = tape_order_error(run)) return fail(*e);
    const long calls = run_primal(d.program, d.s, f, context.rule_counter, *setup_of(context).rules)
                           .real_prim_calls;
    if (static_cast<long>(run.binds.size()) != calls)
      return fail(fmt::format("{} bindings for {} real primitive calls of e s (§7.4 (b))",
                              run.binds.size(), calls));
    return on(TrialResult::pass(), d.m);
  });
}

TrialResult tape_invariants(const PropertyContext& context) {
  return tape_invariants_at(draw(context), random_like, context);
}

// ---- reverse-versions-agree (P13, P14): R1, R2 and R (map, array) agree; map and array bit for
// bit ----
// R1 and R2 seed one real output (Fig. 5, L321-323), and R1 takes no sum in its input.
TrialResult versions_agree_at(const Drawn& d, double dt, const PropertyContext& context) {
  if (d.m.t->kind != TK::real) return on(TrialResult::discard("not-real-output"), d.m);
  if (has_sum(d.m.s)) return on(TrialResult::discard("sum-in-input"), d.m);
  return guarded([&] {
    const RunSetup v = setup_of(context);
    const long f = fuel(context);
    const ReverseRun map = reverse(d.program, d.s, v_real(dt), Wrapper::fig11, EvalImpl::map, v, f);
    const ReverseRun arr =
        reverse(d.program, d.s, v_real(dt), Wrapper::fig11, EvalImpl::array, v, f);
    require_finite(flatten_reals(map.gradient));
    if (!same_bits(map.gradient, arr.gradient))
      return on(TrialResult::fail(fmt::format("map eval {} and array sweep {} differ bitwise",
                                              print_value(map.gradient, d.m.s),
                                              print_value(arr.gradient, d.m.s))),
                d.m);
    const DenseRun r1 = reverse1(d.program, d.s, dt, v, f);
    TrialResult r =
        compare_values(map.gradient, "R{e}", r1.gradient, "R1{e}", CheckKind::derivative, context);
    if (r.kind != TrialResult::Kind::pass) return on(r, d.m);
    const Delta2Run r2 = reverse2(d.program, d.s, dt, v, f);
    return on(
        compare_values(map.gradient, "R{e}", r2.gradient, "R2{e}", CheckKind::derivative, context),
        d.m);
  });
}

TrialResult versions_agree(const PropertyContext& context) {
  gen::Options o;
  o.real_output = true;
  o.sums_in_input = false;
  const Drawn d = draw(context, o);
  return guarded([&] {
    // drawn after the program, where the body has always drawn it
    return versions_agree_at(d, adsem::gen::uniform_in(-1000, 1001) / 500.0, context);
  });
}

// ---- wrapper-variants-agree (P15): Fig. 11, Fig. 15 and output seeding give one gradient; the
// forward plan's Jacobian equals the reverse plan's (§3.2, L161-167) ----
TrialResult wrappers_agree_at(const Drawn& d, const DrawLike& like,
                              const PropertyContext& context) {
  return guarded([&] {
    const Trial trial = prepare(d, context, like);
    const RunSetup& v = trial.setup;
    const long f = trial.fuel;
    const Value& primal = trial.primal;
    const Value& dt = trial.dt;
    const ReverseRun fig15 = reverse(d.program, d.s, dt, Wrapper::fig15, EvalImpl::map, v, f);
    const ReverseRun seeded = reverse(d.program, d.s, dt, Wrapper::seeded, EvalImpl::map, v, f);
    TrialResult r = compare_values(fig15.gradient, "Fig. 15", seeded.gradient, "seeded",
                                   CheckKind::derivative, context);
    if (r.kind == TrialResult::Kind::pass && d.m.t->kind == TK::real)
      r = compare_values(fig15.gradient, "Fig. 15",
                         reverse(d.program, d.s, dt, Wrapper::fig11, EvalImpl::map, v, f).gradient,
                         "Fig. 11", CheckKind::derivative, context);
    if (r.kind != TrialResult::Kind::pass) return on(r, d.m);
    // forward plan (columns) vs reverse plan (rows)
    const std::vector<double> x = flatten_reals(d.s);
    const std::vector<double> t = flatten_reals(primal);
    Eigen::MatrixXd jf(t.size(), x.size()), jr(t.size(), x.size());
    for (std::size_t c = 0; c < x.size(); ++c) {
      std::vector<double> e(x.size(), 0.0);
      e[c] = 1.0;
      std::size_t next = 0;
      const auto col =
          flatten_reals(forward(d.program, d.s, unflatten_reals(d.s, e, next), v, f).tangent);
      for (std::size_t i = 0; i < t.size(); ++i)
        jf(static_cast<Eigen::Index>(i), static_cast<Eigen::Index>(c)) = col[i];
    }
    for (std::size_t i = 0; i < t.size(); ++i) {
      std::vector<double> e(t.size(), 0.0);
      e[i] = 1.0;
      std::size_t next = 0;
      const auto row = flatten_reals(reverse(d.program, d.s, unflatten_reals(primal, e, next),
                                             Wrapper::seeded, EvalImpl::array, v, f)
                                         .gradient);
      for (std::size_t c = 0; c < x.size(); ++c)
        jr(static_cast<Eigen::Index>(i), static_cast<Eigen::Index>(c)) = row[c];
    }
    for (Eigen::Index i = 0; i < jf.rows(); ++i)
      for (Eigen::Index c = 0; c < jf.cols(); ++c) {
        r = props::compare_reals(jf(i, c), fmt::format("forward plan J[{},{}]", i, c), jr(i, c),
                                 fmt::format("reverse plan J[{},{}]", i, c), CheckKind::derivative,
                                 context.tolerance(CheckKind::derivative));
        if (r.kind != TrialResult::Kind::pass) return on(r, d.m);
      }
    return on(TrialResult::pass(), d.m);
  });
}

TrialResult wrappers_agree(const PropertyContext& context) {
  return wrappers_agree_at(draw(context), random_like, context);
}

// ---- shape-preservation (P16, L943): R{e}(s, dt) has the tags of s with its leaves copied;
// F{e}(s, ds) has the tags of e s ----
TrialResult shape_preservation_at(const Drawn& d, const DrawLike& like,
                                  const PropertyContext& context) {
  return guarded([&] {
    const Trial trial = prepare(d, context, like);
    const RunSetup& v = trial.setup;
    const long f = trial.fuel;
    const Value& primal = trial.primal;
    const Value& dt = trial.dt;
    const ReverseRun rv = reverse(d.program, d.s, dt, Wrapper::fig15, EvalImpl::array, v, f);
    if (!same_shape(d.s, rv.gradient))
      return on(
          TrialResult::fail(fmt::format("R{{e}} = {} does not have the shape of s = {}",
                                        print_value(rv.gradient, d.m.s), print_value(d.s, d.m.s))),
          d.m);
    const ForwardRun fw = forward(d.program, d.s, like(d.s), v, f);
    if (!same_shape(primal, fw.tangent))
      return on(TrialResult::fail("F{e} does not have the shape of e s"), d.m);
    return on(TrialResult::pass(), d.m);
  });
}

TrialResult shape_preservation(const PropertyContext& context) {
  return shape_preservation_at(draw(context), random_like, context);
}

// ---- primitive-rules (P21, §10.1 Fig. 14): each table entry's partial derivatives match the
// model's derivative of the shared primitive, at random points of its domain ----
TrialResult primitive_rules(const PropertyContext& context) {
  const auto& rules = derivative_rules();
  const DerivativeRule& rule = rules[adsem::gen::uniform_below(rules.size())];
  std::vector<double> x;
  for (std::size_t i = 0; i < rule.arity; ++i)
    x.push_back(adsem::gen::uniform_in(-2000, 2001) / 1000.0);
  TrialResult r = guarded([&] {
    const Primitive& p = primitives().at(rule.name);
    const Eigen::MatrixXd j =
        model::jacobian(model::as_vector_function<model::Dual<double>>(p), as_vector(x));
    // the partials the book's primitive clause uses: Dfwd{op} at x with the tangent e_k
    const auto reals = [](const std::vector<double>& xs) {
      return xs.size() == 1 ? v_real(xs[0]) : v_pair(v_real(xs[0]), v_real(xs[1]));
    };
    const Value point = reals(x);
    const RunSetup setup = setup_of(context);
    Ledger ledger;
    ledger.fuel = fuel(context);
    ledger.coverage = setup.coverage;
    Machine m(ledger, *setup.rules);
    const Value f = m.eval(nullptr, translate(Translation::dfwd, prim(rule.name), setup));
    for (std::size_t k = 0; k < rule.arity; ++k) {
      std::vector<double> e(rule.arity, 0.0);
      e[k] = 1.0;
      const double got = delta_value(m.apply(f, zip_value(point, reals(e))))->real;
      TrialResult c = props::compare_reals(
          j(0, static_cast<Eigen::Index>(k)), fmt::format("∂{}/∂x{} (model)", rule.name, k + 1),
          got, fmt::format("table entry ∂{}/∂x{}", rule.name, k + 1), CheckKind::derivative,
          context.tolerance(CheckKind::derivative));
      if (c.kind != TrialResult::Kind::pass) return c;
    }
    return TrialResult::pass();
  });
  r.on(rule.name, "primitive", 1, {});
  return r;
}

PropertyDef def(std::string name, std::string kind, std::string summary, std::string citation,
                std::function<TrialResult(const PropertyContext&)> body) {
  return PropertyDef{calc,
                     std::string(calc) + "/" + name,
                     std::move(kind),
                     std::move(summary),
                     std::move(citation),
                     std::move(body)};
}

} // namespace

TrialResult translations_typed(const Term& e, const Context& gamma, const Type& a,
                               const RunSetup& v) {
  for (const Translation tr :
       {Translation::dfwd, Translation::drev1, Translation::drev2, Translation::drev}) {
    Context tg;
    for (const auto& [x, ty] : gamma)
      tg.emplace_back(x, translate_type(tr, ty));
    const Term te = translate(tr, e, v);
    if (const auto error = type_error(te, tg, translated_term_type(tr, a))) {
      TrialResult r =
          TrialResult::fail(fmt::format("{}{{e}} ill-typed: {}", translation_name(tr), *error));
      r.trace = {print(te)};
      return r;
    }
  }
  return TrialResult::pass();
}

TrialResult adequacy_at(const Drawn& d, const PropertyContext& context) {
  return guarded([&] {
    const model::Value<double> meaning =
        denote_closed<double>(d.program.term)(to_model(d.s)); // first: undefined is a discard
    const Value expected = from_model(meaning);
    const Value actual =
        run_primal(d.program, d.s, fuel(context), context.rule_counter, *setup_of(context).rules)
            .result;
    require_finite(flatten_reals(actual));
    return on(same_result(expected, "the model", actual, "the machine's result", d.m.t, context),
              d.m);
  });
}

TrialResult forward_correctness_at(const Drawn& d, const Value& ds,
                                   const PropertyContext& context) {
  return guarded([&] {
    const Eigen::MatrixXd j = model_jacobian(d.program, d.s);
    require_finite(j);
    return forward_against_model(d, j, ds, context);
  });
}

TrialResult reverse_correctness_at(const Drawn& d, const Value& dt,
                                   const PropertyContext& context) {
  return guarded([&] {
    const RunSetup v = setup_of(context);
    const long f = fuel(context);
    const Value expected = model_vjp(d, dt);
    for (const EvalImpl impl : {EvalImpl::map, EvalImpl::array}) {
      const ReverseRun run = reverse(d.program, d.s, dt, Wrapper::fig15, impl, v, f);
      TrialResult r = compare_value_sums(expected, "dtᵀJ (model)", run.gradient,
                                         impl == EvalImpl::map ? "R{e} (map eval)" : "R{e} (array)",
                                         CheckKind::derivative, context,
                                         [&] { return model_vjp_magnitude(d.program, d.s, dt); });
      if (r.kind != TrialResult::Kind::pass) {
        for (const auto& [id, rhs] : run.binds)
          r.trace.push_back(std::to_string(id) + " = " + print_delta(rhs));
        return on(r, d.m);
      }
    }
    return on(TrialResult::pass(), d.m);
  });
}

std::vector<std::pair<std::string, ProgramCheck>> program_checks() {
  const DrawLike one = ones_like; // tangents and cotangents 1: R{e}(s, 1) is the gradient
  return {
      {"round-trip",
       [](const Drawn& d, const PropertyContext&) {
         return round_trip_of(typecheck(d.program.term)); // elaborated, as closed_term's
       }},
      // the closed term (λx. e) s : Real, a program applied to its point
      {"type-soundness",
       [](const Drawn& d, const PropertyContext& c) {
         return type_soundness_of(Typed{d.program.t, app(d.program.term, real(d.s->real))}, c);
       }},
      {"primal-preservation",
       [one](const Drawn& d, const PropertyContext& c) {
         return primal_preservation_at(d, one, c);
       }},
      {"forward-reverse-duality",
       [one](const Drawn& d, const PropertyContext& c) { return duality_at(d, one, c); }},
      {"reverse-vs-finite-differences",
       [one](const Drawn& d, const PropertyContext& c) { return reverse_vs_fd_at(d, one, c); }},
      {"dense-tape-adequacy", dense_tape_adequacy_at},
      {"tape-invariants",
       [one](const Drawn& d, const PropertyContext& c) { return tape_invariants_at(d, one, c); }},
      {"reverse-versions-agree",
       [](const Drawn& d, const PropertyContext& c) { return versions_agree_at(d, 1.0, c); }},
      {"wrapper-variants-agree",
       [one](const Drawn& d, const PropertyContext& c) { return wrappers_agree_at(d, one, c); }},
      {"shape-preservation",
       [one](const Drawn& d, const PropertyContext& c) {
         return shape_preservation_at(d, one, c);
       }},
      {"evaluation-order-agreement",
       [one](const Drawn& d, const PropertyContext& c) { return evaluation_order_at(d, one, c); }},
      {"overloading-tape-agrees",
       [one](const Drawn& d, const PropertyContext& c) {
         return overloading_agrees_at(d, one, c);
       }},
  };
}

std::vector<props::PropertyDef> properties() {
  std::vector<PropertyDef> out = {
      def("round-trip", "round-trip", "printing then parsing gives the same term",
          "spec §2.2 [proposal]", round_trip),
      def("type-soundness", "typing", "a closed well-typed term evaluates to a value of its type",
          "spec §6 P1; seed 001 L47", type_soundness),
      def("adequacy", "adequacy", "the machine's e s equals the denotation ⟦e⟧(s) bit for bit",
          "spec §6 P2; App. A.2 L1029-1049", adequacy),
      def("translation-typing", "typing",
          "Dfwd, Drev1, Drev2 and Drev preserve typing in any context",
          "spec §6 P3; seed 001 L207, L321-323, L446", translation_typing),
      def("primal-preservation", "ad-correctness",
          "every translation's primal result is e s bit for bit", "spec §6 P4; seed 001 L258-262",
          primal_preservation),
      def("forward-correctness", "ad-correctness", "F{e}(s, ds) = J⟦e⟧(s)·ds against the model",
          "spec §6 P5; Prop. 2 L273-278, Fig. 2 L125-127", forward_correctness),
      def("forward-reverse-duality", "ad-correctness",
          "dt • F{e}(s, ds) = R{e}(s, dt) • ds (dot-product test)", "spec §6 P6; Lemma 1 L154-155",
          duality),
      def("reverse-correctness", "ad-correctness",
          "R{e}(s, dt) = dtᵀJ⟦e⟧(s) against the model, map and array eval",
          "spec §6 P7; Thm. 3 L727-735, §11.2 L896-943", reverse_correctness),
      def("reverse-vs-finite-differences", "ad-correctness",
          "R{e}(s, dt) against finite differences and inside the interval enclosure of dtᵀJ",
          "spec §6 P7, §5.3 oracles; Thm. 3 L727-735", reverse_vs_fd),
      def("dense-tape-adequacy", "ad-correctness",
          "the dense meaning of the tape is the model's gradient (independent of eval)",
          "spec §6 P9; Thm. 5 L790-792, Fig. 13 L739-775", dense_tape_adequacy),
      def("eval-correctness", "soundness",
          "eval s u m adds s·⟦u⟧ to the free ids and leaves no bound id",
          "spec §6 P12; Lemma 6 L802-813", eval_correctness),
      def("tape-invariants", "soundness",
          "duals carry Zero or Var; ids fresh and increasing; rhs refer to earlier ids; one "
          "binding per real primitive call",
          "spec §6 P10, P11, P17(b); L571, Lemma 10 L1051-1053, §7.4 L605", tape_invariants),
      def("reverse-versions-agree", "ad-correctness",
          "R1, R2 and R agree; the map eval and the array sweep agree bit for bit",
          "spec §6 P13, P14; §7.3 L585-597", versions_agree),
      def("wrapper-variants-agree", "ad-correctness",
          "Fig. 11, Fig. 15 and output seeding agree; forward plan = reverse plan Jacobian",
          "spec §6 P15; §3.2 L161-167", wrappers_agree),
      def("shape-preservation", "ad-correctness",
          "R{e}(s, dt) has the tags and leaves of s; F{e}(s, ds) the tags of e s",
          "spec §6 P16; L943", shape_preservation),
      def("primitive-rules", "ad-correctness",
          "each derivative-table entry's partials match the model's derivative of the primitive",
          "spec §6 P21, §7.3; Fig. 14 L818-846", primitive_rules),
  };
  out.push_back(delta_linearity());
  out.push_back(fundamental_property());
  out.push_back(evaluation_order_agreement());
  out.push_back(metamorphic_invariance());
  out.push_back(metamorphic_rewrites());
  out.push_back(separate_compilation());
  out.push_back(overloading_tape_agrees());
  for (PropertyDef& p : array_properties())
    out.push_back(std::move(p));
  take_part_in_enumeration(out); // bounded-exhaustive checks of one given program
  for (PropertyDef& p : cost_properties())
    out.push_back(std::move(p));
  return out;
}

} // namespace adsem::delta_reverse
