// The valid equations on rd of seed 003 Sections 2, 4 and 5 (spec §6.5 P-EQ-1, 4, 5, 7-12) as
// term-level properties: both sides are built as closed terms from generated ones and run by the
// operational semantics (with the campaign's mutant); they must agree in the Kleene sense (both
// ⊥, or both defined and equal up to the derivative tolerance: the sums associate differently).
#include <fmt/format.h>
#include <rapidcheck.h>

#include "generators/core/uniform.hpp"
#include "properties/core/sum_compare.hpp"
#include "properties/simple_diff/trial.hpp"
#include "syntax/simple_diff/derived.hpp"
#include "syntax/simple_diff/names.hpp"

namespace adsem::simple_diff {

namespace {

using props::PropertyContext;
using props::TrialResult;

Term value_of(const Type& t, const std::vector<double>& xs) {
  return value_term(unflatten(t, xs));
}

// Fresh names for the binders an equation introduces.
NameSupply names_avoiding(const Trial& tr) {
  NameSupply names;
  names.avoid_all(*tr.t.term);
  names.avoid(tr.t.x);
  return names;
}

// lhs ≃ rhs operationally; `shown` is reported.
TrialResult kleene_equal(const Term& lhs, const std::string& what_l, const Term& rhs,
                         const std::string& what_r, const Trial& shown,
                         const PropertyContext& context) {
  const Options options = oracle::machine_options(context);
  bool ul = false, ur = false;
  const auto a = closed(lhs, options, ul);
  const auto b = closed(rhs, options, ur);
  if (ul || ur) return shown.done(TrialResult::discard("fuel"));
  if (!a && !b) return shown.done(TrialResult::pass()); // both ⊥
  if (!a || !b) {
    // a guard decided on a derivative value near its boundary may flip with the summation order
    // (spec §6 conventions): a side the interval model cannot certify is inconclusive
    const oracle::Denotation d = oracle::denote(a ? rhs : lhs, "unused", unit_type(), {});
    if (!d.uncertified.empty()) return shown.done(TrialResult::discard(d.uncertified));
    return shown.done(TrialResult::fail(fmt::format(
        "{} is {} but {} is {}", what_l, a ? "defined" : "⊥", what_r, b ? "defined" : "⊥")));
  }
  return shown.done(
      oracle::compare_vectors(*a, what_l, *b, what_r, CheckKind::derivative, context));
}

// lhs against an expected closed value (nullopt: lhs must be ⊥).
TrialResult equals_expected(const Term& lhs, const std::string& what,
                            const std::optional<std::vector<double>>& expected, const Trial& shown,
                            const PropertyContext& context) {
  bool unknown = false;
  const auto a = closed(lhs, oracle::machine_options(context), unknown);
  if (unknown) return shown.done(TrialResult::discard("fuel"));
  if (!expected) {
    if (!a) return shown.done(TrialResult::pass());
    return shown.done(TrialResult::fail(what + " is defined where its body is ⊥"));
  }
  if (!a) return shown.done(TrialResult::fail(what + " is ⊥ where its body is defined"));
  return shown.done(
      oracle::compare_vectors(*expected, "expected", *a, what, CheckKind::derivative, context));
}

// The body N at X by the operational semantics (nullopt: ⊥; discard on fuel through `unknown`).
std::optional<std::vector<double>> body_at(const Trial& tr, const PropertyContext& context,
                                           bool& unknown) {
  const oracle::Operational op =
      oracle::run(tr.t.term, tr.t.x, tr.t.t, tr.at, oracle::machine_options(context));
  unknown = op.unknown;
  return op.value;
}

// P-EQ-4 fan-in (seed 003 eq. 10, line 593), for z : real × real:
//   w.rd_<V1,V2>(z. N) ≃ <w.rd_V1(x1. N[<x1, V2>/z]), w.rd_V2(x2. N[<V1, x2>/z])>,
// the substitution written as let z = <x1, V2> in N.
TrialResult fan_in(const PropertyContext& context) {
  gen::TermOptions o;
  o.param = real_power(2);
  const Trial tr = draw(context, o);
  const std::vector<double> w = *gen::direction(type_size(*tr.t.type));
  NameSupply names = names_avoiding(tr);
  const std::string x1 = names.fresh("x"), x2 = names.fresh("x");
  const Term wt = value_of(tr.t.type, w), v1 = mk::constant(tr.at[0]), v2 = mk::constant(tr.at[1]);
  const Type real = real_type();
  const Term lhs = mk::rd(wt, mk::pair(v1, v2), tr.t.x, tr.t.t, tr.t.term);
  const Term rhs = mk::pair(
      mk::rd(wt, v1, x1, real, mk::let(tr.t.x, tr.t.t, mk::pair(mk::var(x1), v2), tr.t.term)),
      mk::rd(wt, v2, x2, real, mk::let(tr.t.x, tr.t.t, mk::pair(v1, mk::var(x2)), tr.t.term)));
  return kleene_equal(lhs, "w.rd_<V1,V2>(z. N)", rhs, "<w.rd_V1(x1. N), w.rd_V2(x2. N)>", tr,
                      context);
}

// P-EQ-5 projections and tupling (seed 003 lines 613-621):
//   w.rd_V(x:T×S. fst(x)) = <w, 0_S>,  w.rd_V(x:T×S. snd(x)) = <0_T, w>,
//   <w0, w1>.rd_V(x. <N0, N1>) ≃ w0.rd_V(x. N0) +_T w1.rd_V(x. N1).
TrialResult projections_and_tupling(const PropertyContext& context) {
  const Trial t0 = draw(context);
  gen::TermOptions o;
  o.param = t0.t.t;
  gen::OpenTerm n1 = *gen::open_term(o);
  const int m0 = type_size(*t0.t.type), m1 = type_size(*n1.type);
  const std::vector<double> w0 = *gen::direction(m0), w1 = *gen::direction(m1);
  // the projections, at V = <a, b> : U0 × U1 (U0, U1 the two bodies' types)
  const Type u = product_type(t0.t.type, n1.type);
  const std::vector<double> ab = *gen::point(m0 + m1);
  const std::string p = "p";
  const bool first = *rc::gen::arbitrary<bool>();
  const Term proj = first ? mk::fst(mk::var(p)) : mk::snd(mk::var(p));
  std::vector<double> expected(static_cast<std::size_t>(m0 + m1), 0.0);
  const std::vector<double>& w = first ? w0 : w1;
  std::copy(w.begin(), w.end(), expected.begin() + (first ? 0 : m0));
  const Term projected =
      mk::rd(value_of(first ? t0.t.type : n1.type, w), value_of(u, ab), p, u, proj);
  Trial shown = t0;
  shown.t.term = projected;
  auto r = equals_expected(projected, first ? "w.rd_V(p. fst(p))" : "w.rd_V(p. snd(p))", expected,
                           shown, context);
  if (r.kind != TrialResult::Kind::pass) return r;
  // tupling
  NameSupply names = names_avoiding(t0);
  names.avoid_all(*n1.term);
  const Term v = value_of(t0.t.t, t0.at);
  const Term lhs = mk::rd(value_of(u,
                                   [&] {
                                     std::vector<double> both = w0;
                                     both.insert(both.end(), w1.begin(), w1.end());
                                     return both;
                                   }()),
                          v, t0.t.x, t0.t.t, mk::pair(t0.t.term, n1.term));
  const Term rhs = plus_of(t0.t.t, mk::rd(value_of(t0.t.type, w0), v, t0.t.x, t0.t.t, t0.t.term),
                           mk::rd(value_of(n1.type, w1), v, t0.t.x, t0.t.t, n1.term), names);
  shown.t.term = lhs;
  return kleene_equal(lhs, "<w0, w1>.rd_V(x. <N0, N1>)", rhs, "w0.rd_V(x. N0) + w1.rd_V(x. N1)",
                      shown, context);
}

// P-EQ-7 linear bodies (seed 003 line 553: d^r of a linear map is its transpose, at every point):
// N = A x for a random integer matrix A, written with mul and +; w.rd_V(x. N) = A^T w at two
// random points V.
TrialResult linear_bodies(const PropertyContext& context) {
  const int n = adsem::gen::uniform_in(1, 3), m = adsem::gen::uniform_in(1, 3);
  const Type t = real_power(n), u = real_power(m);
  std::vector<std::vector<int>> a(static_cast<std::size_t>(m));
  for (auto& row : a)
    row = *rc::gen::container<std::vector<int>>(
        static_cast<std::size_t>(n), rc::gen::resize(rc::kNominalSize, rc::gen::inRange(-3, 4)));
  const auto coordinate = [&](int j) {
    if (n == 1) return mk::var("x");
    return j == 0 ? mk::fst(mk::var("x")) : mk::snd(mk::var("x"));
  };
  std::vector<Term> rows;
  for (const auto& row : a) {
    Term sum = mk::op("mul", mk::pair(mk::constant(row[0]), coordinate(0)));
    for (int j = 1; j < n; ++j)
      sum = mk::add(sum, mk::op("mul", mk::pair(mk::constant(row[static_cast<std::size_t>(j)]),
                                                coordinate(j))));
    rows.push_back(sum);
  }
  const Term body = m == 1 ? rows[0] : mk::pair(rows[0], rows[1]);
  const std::vector<double> w = *gen::direction(m);
  std::vector<double> expected(static_cast<std::size_t>(n), 0.0); // A^T w
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j)
      expected[static_cast<std::size_t>(j)] +=
          a[static_cast<std::size_t>(i)][static_cast<std::size_t>(j)] *
          w[static_cast<std::size_t>(i)];
  Trial shown{gen::OpenTerm{"x", t, body, u}, *gen::point(n)};
  for (const std::vector<double>& at : {shown.at, *gen::point(n)}) {
    const Term rd = mk::rd(value_of(u, w), value_of(t, at), "x", t, body);
    auto r = equals_expected(rd, "w.rd_V(x. A x)", expected, shown, context);
    if (r.kind != TrialResult::Kind::pass) return r;
  }
  return shown.done(TrialResult::pass());
}

// P-EQ-8 constant bodies (seed 003 Fact 1, line 611): y ∉ FV(N): w.rd_V(y:S. N) = 0_S where N is
// defined, ⊥ where it is not (N's free x bound to X outside the rd).
TrialResult constant_bodies(const PropertyContext& context) {
  const Trial tr = draw(context);
  bool unknown = false;
  const auto n = body_at(tr, context, unknown);
  if (unknown) return tr.done(TrialResult::discard("fuel"));
  NameSupply names = names_avoiding(tr);
  const std::string y = names.fresh("y");
  const Type s = *rc::gen::arbitrary<bool>() ? real_type() : real_power(2);
  const std::vector<double> v = *gen::point(type_size(*s));
  const std::vector<double> w = *gen::direction(type_size(*tr.t.type));
  const Term lhs = mk::let(tr.t.x, tr.t.t, value_of(tr.t.t, tr.at),
                           mk::rd(value_of(tr.t.type, w), value_of(s, v), y, s, tr.t.term));
  std::optional<std::vector<double>> expected;
  if (n) expected = std::vector<double>(static_cast<std::size_t>(type_size(*s)), 0.0);
  return equals_expected(lhs, "w.rd_V(y. N)", expected, tr, context);
}

// P-EQ-9 zero-dimensional cases (seed 003 lines 597-609): w.rd_V(u:unit. N) = * and, for N : unit,
// *.rd_V(x:T. N) = 0_T, where N is defined (⊥ where it is not).
TrialResult zero_dimensional(const PropertyContext& context) {
  const bool unit_result = *rc::gen::arbitrary<bool>();
  gen::TermOptions o;
  if (unit_result) o.result = unit_type();
  const Trial tr = draw(context, o);
  bool unknown = false;
  const auto n = body_at(tr, context, unknown);
  if (unknown) return tr.done(TrialResult::discard("fuel"));
  Term lhs;
  std::optional<std::vector<double>> expected;
  if (unit_result) {
    lhs = mk::rd(mk::unit(), value_of(tr.t.t, tr.at), tr.t.x, tr.t.t, tr.t.term);
    if (n) expected = std::vector<double>(static_cast<std::size_t>(type_size(*tr.t.t)), 0.0);
  } else {
    NameSupply names = names_avoiding(tr);
    const std::vector<double> w = *gen::direction(type_size(*tr.t.type));
    lhs = mk::let(
        tr.t.x, tr.t.t, value_of(tr.t.t, tr.at),
        mk::rd(value_of(tr.t.type, w), mk::unit(), names.fresh("u"), unit_type(), tr.t.term));
    if (n) expected = std::vector<double>{};
  }
  return equals_expected(lhs, unit_result ? "().rd_V(x. N)" : "w.rd_().(u:unit. N)", expected, tr,
                         context);
}

// A real coordinate of x : T (T = real or real × real).
Term real_coordinate(const Trial& tr) {
  return tr.t.t->is_real() ? mk::var(tr.t.x) : mk::fst(mk::var(tr.t.x));
}

// P-EQ-10 restriction invariance (seed 003 Prop. 4.1(1), lines 629-647): for N' a restriction
// of N (if x < c then N else N, or let u = log(x*x) in N), w.rd_V(x. N') ≃ w.rd_V(x. N) wherever
// N' is defined.
TrialResult restriction_invariance(const PropertyContext& context) {
  const Trial tr = draw(context);
  NameSupply names = names_avoiding(tr);
  const Term xc = real_coordinate(tr);
  Term restricted;
  if (*rc::gen::arbitrary<bool>()) {
    const double c = adsem::gen::uniform_in(-12, 13) / 4.0 + 0.0625; // off the point grid
    restricted = mk::if_(mk::pred("less", mk::pair(xc, mk::constant(c))), tr.t.term, tr.t.term);
  } else {
    restricted = mk::let(names.fresh("u"), real_type(),
                         mk::op("log", mk::op("mul", mk::pair(xc, xc))), tr.t.term);
  }
  const std::vector<double> w = *gen::direction(type_size(*tr.t.type));
  const Term wt = value_of(tr.t.type, w), v = value_of(tr.t.t, tr.at);
  const Term lhs = mk::rd(wt, v, tr.t.x, tr.t.t, restricted);
  const Term rhs = mk::rd(wt, v, tr.t.x, tr.t.t, tr.t.term);
  Trial shown = tr;
  shown.t.term = restricted;
  bool unknown = false;
  if (!closed(lhs, oracle::machine_options(context), unknown))
    return shown.done(TrialResult::discard(unknown ? "fuel" : "outside-restriction"));
  return kleene_equal(lhs, "w.rd_V(x. N')", rhs, "w.rd_V(x. N)", shown, context);
}

// P-EQ-11 conditional = branch taken (seed 003 Prop. 4.3, lines 666-690): if B holds at V then
// w.rd_V(x. if B then M else N) ≃ w.rd_V(x. M) (N if it fails); on B's boundary the if is ⊥.
TrialResult conditional_branch(const PropertyContext& context) {
  const Trial tm = draw(context);
  gen::TermOptions o;
  o.param = tm.t.t;
  o.result = tm.t.type;
  const gen::OpenTerm n = *gen::open_term(o);
  o.result = real_type();
  o.max_size = 12;
  const gen::OpenTerm g = *gen::open_term(o);
  const double c = adsem::gen::uniform_in(-12, 13) / 4.0;
  const Term guard = mk::pred("less", mk::pair(g.term, mk::constant(c)));
  const Term body = mk::if_(guard, tm.t.term, n.term);
  const std::vector<double> w = *gen::direction(type_size(*tm.t.type));
  const Term wt = value_of(tm.t.type, w), v = value_of(tm.t.t, tm.at);
  Trial shown = tm;
  shown.t.term = body;
  const oracle::Operational b =
      oracle::run(mk::if_(guard, mk::constant(1), mk::constant(0)), tm.t.x, tm.t.t, tm.at,
                  oracle::machine_options(context));
  if (!b.value && b.unknown) return shown.done(TrialResult::discard("fuel"));
  const Term lhs = mk::rd(wt, v, tm.t.x, tm.t.t, body);
  if (!b.value) // B is ⊥ at V (its boundary, or a domain): so is the if
    return equals_expected(lhs, "w.rd_V(x. if B then M else N)", std::nullopt, shown, context);
  const bool holds = b.value->front() == 1.0;
  const Term rhs = mk::rd(wt, v, tm.t.x, tm.t.t, holds ? tm.t.term : n.term);
  return kleene_equal(lhs, "w.rd_V(x. if B then M else N)", rhs,
                      holds ? "w.rd_V(x. M)" : "w.rd_V(x. N)", shown, context);
}

// P-EQ-12 recursion and unfolding (seed 003 Prop. 4.4, lines 696-732): for
//   letrec r(x:real×real):real = if fst(x) < 0.5 then snd(x) else r(<fst(x) - 1, S>),
// w.rd_V(y. r(y)) ≃ w.rd_V(y. let x = y in Mr): differentiating a call equals differentiating
// its one-step unfolding (S generated, with x free only; r resolves to one closure on both sides).
TrialResult recursion_unfolding(const PropertyContext& context) {
  gen::TermOptions o;
  o.param = real_power(2);
  o.result = real_type();
  o.max_size = 20;
  const Trial step = draw(context, o);
  NameSupply names = names_avoiding(step);
  const std::string r = "unfold", y = names.fresh("y");
  const Type t = real_power(2), real = real_type();
  const std::string x = step.t.x;
  const Term mr = mk::if_(
      mk::pred("less", mk::pair(mk::fst(mk::var(x)), mk::constant(0.5))), mk::snd(mk::var(x)),
      mk::call(
          r, mk::pair(mk::op("sub", mk::pair(mk::fst(mk::var(x)), mk::constant(1))), step.t.term)));
  const std::vector<double> w = *gen::direction(1);
  const Term wt = mk::constant(w[0]), v = value_of(t, step.at);
  const Term lhs = mk::letrec(r, x, t, real, mr, mk::rd(wt, v, y, t, mk::call(r, mk::var(y))));
  const Term rhs =
      mk::letrec(r, x, t, real, mr, mk::rd(wt, v, y, t, mk::let(x, t, mk::var(y), mr)));
  Trial shown = step;
  shown.t.term = lhs;
  return kleene_equal(lhs, "w.rd_V(y. r(y))", rhs, "w.rd_V(y. let x = y in Mr)", shown, context);
}

// P-EQ-1 the adjoint (dot-product) test (seed 003 eq. 5, line 565):
//   dot(w, t.fd_{U,V}(x:T. N)) = dot(w.rd_V(x:T. N), t)
// for random t and w: both sides by the operational semantics, so rd is checked against itself
// transposed, with no model involved. Each dot product's terms may cancel: compared relative to
// their magnitudes (docs/model.md, "Tolerance policy").
TrialResult dot_product_test(const PropertyContext& context) {
  const Trial tr = draw(context);
  const std::vector<double> t = *gen::direction(type_size(*tr.t.t));
  const std::vector<double> w = *gen::direction(type_size(*tr.t.type));
  NameSupply names = names_avoiding(tr);
  const Term v = value_of(tr.t.t, tr.at);
  const Term forward =
      fd_of(value_of(tr.t.t, t), tr.t.type, v, tr.t.x, tr.t.t, tr.t.term, names, true);
  const Term reverse = mk::rd(value_of(tr.t.type, w), v, tr.t.x, tr.t.t, tr.t.term);
  const Options options = oracle::machine_options(context);
  bool uf = false, ur = false;
  const auto jt = closed(forward, options, uf);
  const auto jtw = closed(reverse, options, ur);
  if (uf || ur) return tr.done(TrialResult::discard("fuel"));
  if (!jt && !jtw) return tr.done(TrialResult::discard("undefined-point"));
  if (!jt || !jtw) {
    const oracle::Denotation d = oracle::denote(tr.t.term, tr.t.x, tr.t.t, tr.at);
    if (!d.uncertified.empty()) return tr.done(TrialResult::discard(d.uncertified));
    return tr.done(TrialResult::fail(fmt::format("t.fd(x.N) is {} but w.rd(x.N) is {}",
                                                 jt ? "defined" : "⊥", jtw ? "defined" : "⊥")));
  }
  if (jt->size() != w.size() || jtw->size() != t.size())
    return tr.done(TrialResult::fail(
        fmt::format("t.fd(x.N) has {} components for |U| = {}, w.rd(x.N) {} for |T| = {}",
                    jt->size(), w.size(), jtw->size(), t.size())));
  const auto dot = [](const std::vector<double>& a, const std::vector<double>& b) {
    SumWithMagnitude sum = props::term(0.0);
    for (std::size_t i = 0; i < a.size() && i < b.size(); ++i)
      sum = props::add_terms(sum, props::term(a[i] * b[i]));
    return std::vector<SumWithMagnitude>{sum};
  };
  return tr.done(props::compare_sum_vectors(dot(w, *jt), "dot(w, t.fd(x.N))", dot(*jtw, t),
                                            "dot(w.rd(x.N), t)", CheckKind::derivative,
                                            context.tolerance(CheckKind::derivative)));
}

} // namespace

std::vector<props::PropertyDef> equation_properties() {
  return {
      def("dot-product-test", "ad-correctness",
          "dot(w, t.fd_{U,V}(x. N)) = dot(w.rd_V(x. N), t), both sides operational",
          "seed 003, eq. 5, line 565; spec P-EQ-1", dot_product_test),
      def("fan-in", "ad-correctness",
          "w.rd_<V1,V2>(z. N) = <w.rd_V1(x1. N[<x1,V2>/z]), w.rd_V2(x2. N[<V1,x2>/z])>",
          "seed 003, eq. 10, line 593; spec P-EQ-4", fan_in),
      def("projections-and-tupling", "ad-correctness",
          "rd of fst/snd is <w, 0>/<0, w>; rd of a pair is the sum of the components' rd",
          "seed 003, lines 613-621; spec P-EQ-5", projections_and_tupling),
      def("linear-bodies", "ad-correctness", "w.rd_V(x. A x) = A^T w at every V",
          "seed 003, line 553; spec P-EQ-7", linear_bodies),
      def("constant-bodies", "ad-correctness", "w.rd_V(y. N) = 0 for y not free in N, ⊥ with N",
          "seed 003, Fact 1, line 611; spec P-EQ-8", constant_bodies),
      def("zero-dimensional", "ad-correctness", "rd at unit is *; rd of a unit body is 0_T",
          "seed 003, lines 597-609; spec P-EQ-9", zero_dimensional),
      def("restriction-invariance", "ad-correctness",
          "restricting the body's domain does not change rd where it is defined",
          "seed 003, Prop. 4.1(1), lines 629-647; spec P-EQ-10", restriction_invariance),
      def("conditional-branch", "ad-correctness", "rd of an if is rd of the branch taken",
          "seed 003, Prop. 4.3, lines 666-690; spec P-EQ-11", conditional_branch),
      def("recursion-unfolding", "ad-correctness",
          "rd of a recursive call equals rd of its one-step unfolding",
          "seed 003, Prop. 4.4, lines 696-732; spec P-EQ-12", recursion_unfolding),
  };
}

} // namespace adsem::simple_diff
