// Symbolic evaluation (spec §4.9 traces), symbolic differentiation (spec §8.3 golden R outputs,
// Fig. 6 vs R-fast), fuel, depth, rule traces and the rule table.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <set>

#include "semantics/core/finite_difference.hpp"
#include "semantics/core/interval_model.hpp"
#include "semantics/simple_diff/denotation.hpp"
#include "semantics/simple_diff/symbolic_diff.hpp"
#include "syntax/core/large_stack.hpp"
#include "syntax/simple_diff/derived.hpp"
#include "tests/simple_diff/helpers.hpp"

namespace adsem::simple_diff::semantics_test {
namespace {

using test::canonical;
using test::mode;

TypeContext reals_ctx(std::initializer_list<const char*> names) {
  TypeContext g;
  for (const char* n : names)
    g.emplace_back(n, real_type());
  return g;
}

// φ | ρ ⊢ M ⇝ C with ρ = {x ↦ r}, Fig. 6 literally (the spec's traces are for it).
Term trace_at(const std::string& source, double x) {
  const Typed m = check_source(source, reals_ctx({"x"}));
  return symbolic_evaluate(m.term, {{"x", Value::real(x)}}, mode(DiffMode::literal)).trace;
}

Term expected(const std::string& source, const TypeContext& gamma) {
  return check_source(source, gamma).term;
}

TEST(SimpleDiffTraces, SmallTracesOfSpec4_9) {
  const struct {
    const char* term;
    double x;
    const char* trace;
  } cases[] = {
      {"x * 1.rd[1](y:real. x + y)", 1, "let z:real = 0 + 1 in mul(<x, z>)"},
      {"if x < 0 then 0 else x", 3, "x"},
      {"let relu(x:real):real = if x < 0 then 0 else x in relu(x)", 3, "let x:real = x in x"},
      {"x * x + x", 2, "let z:real = mul(<x, x>) in z + x"},
      {"log(x)", -1, "log(x)"},
      {"<x + 1, 2>", -1, "let z:real = x + 1 in <z, 2>"},
      {"if x + 1 < 0 then x * 2 else x", 5, "let z:real = x + 1 in x"},
      {"1.rd[x](y:real. y * y)", 1,
       "let y:real = x in let u:real*real = mul_r(<<y, y>, 1>) in "
       "let <u1:real, u2:real> = u in u1 + u2"},
      {"letrec f(x:real):real = 1.rd[1](y:real. x + y) in x + f(x)", 1,
       "let z:real = (let x:real = x in 0 + 1) in x + z"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.term);
    const Term got = trace_at(c.term, c.x);
    const Term want = expected(c.trace, reals_ctx({"x"}));
    EXPECT_TRUE(alpha_equal(got, want))
        << "got  " << canonical(got) << "\nwant " << canonical(want);
    EXPECT_TRUE(is_trace_term(*got));
  }
  // guard on its boundary: no trace
  try {
    trace_at("if x < 0 then 0 else x", 0);
    FAIL() << "traced through an undefined guard";
  } catch (const AdsemError& e) {
    EXPECT_EQ(e.diagnostic().kind, ErrorKind::domain);
  }
}

TEST(SimpleDiffTraces, TracesKeepVariablesOpen) {
  // spec P-2: the trace mentions x, never its value; evaluating the trace elsewhere differs
  const Term c = trace_at("if x < 0 then 0 else x * x", 3);
  EXPECT_TRUE(alpha_equal(c, expected("mul(<x, x>)", reals_ctx({"x"}))));
  // Prop. 3.5 (interpolation): eval(M) = eval(trace of M)
  const std::string m = "letrec f(p:real * real):real = if snd(p) < 0.5 then 1 else "
                        "fst(p) * f(<fst(p), snd(p) - 1>) in f(<x, 3>) + 1.rd[x](y:real. y * x)";
  const Typed typed = check_source(m, reals_ctx({"x"}));
  const ValueContext rho = {{"x", Value::real(1.5)}};
  const double direct = evaluate(typed.term, {}, rho).value.as_real();
  const Term trace = symbolic_evaluate(typed.term, rho).trace;
  EXPECT_TRUE(is_trace_term(*trace));
  EXPECT_EQ(print_type(typecheck(trace, primitives(), reals_ctx({"x"})).type), "real");
  EXPECT_DOUBLE_EQ(evaluate(trace, {}, rho).value.as_real(), direct);
  EXPECT_DOUBLE_EQ(direct, 1.5 * 1.5 * 1.5 + 1.5);
}

// ---- §8.3 golden R outputs -----------------------------------------------------------------

TraceOutcome R(const char* w, const char* v, const char* x, const Type& t, const char* c,
               const TypeContext& gamma, DiffMode d = DiffMode::literal) {
  TypeContext with_x = gamma;
  with_x.emplace_back(x, t);
  return symbolic_derivative(check_source(w, gamma).term, check_source(v, gamma).term, x, t,
                             check_source(c, with_x).term, mode(d));
}

TEST(SimpleDiffR, GoldenOutputsOfSpec8_3) {
  const TypeContext vw = reals_ctx({"v", "w"});
  {
    const Term got = R("w", "v", "x", real_type(), "x * x", vw).trace;
    const Term want =
        expected("let x:real = v in let y:real*real = mul_r(<<x, x>, w>) in let p:real*real = y in "
                 "let y1:real = fst(p) in let y2:real = snd(p) in y1 + y2",
                 vw);
    EXPECT_TRUE(alpha_equal(got, want)) << canonical(got);
    // evaluates to 2 v w
    const ValueContext rho = {{"v", Value::real(1.5)}, {"w", Value::real(4)}};
    EXPECT_DOUBLE_EQ(evaluate(got, {}, rho).value.as_real(), 12.0);
  }
  {
    const Term got = R("1", "2", "x", real_type(), "let z:real = x * x in z + x", {}).trace;
    const Term want =
        expected("let x:real = 2 in let z:real = mul(<x,x>) in (0 + 1) + (let zbar:real = 1 + 0 in "
                 "let x:real = 2 in let y:real*real = mul_r(<<x,x>, zbar>) in "
                 "let <y1:real, y2:real> = y in y1 + y2)",
                 {});
    EXPECT_TRUE(alpha_equal(got, want)) << canonical(got);
    EXPECT_DOUBLE_EQ(evaluate(got).value.as_real(), 5.0); // 2x + 1 at 2
  }
  for (DiffMode d : {DiffMode::literal, DiffMode::linear}) {
    const Term g = R("1", "<1, 2>", "x", real_power(2), "fst(x) * snd(x)", {}, d).trace;
    EXPECT_EQ(flatten(evaluate(g).value), (std::vector<double>{2, 1}));
    // W.R_V(x:T. *) = 0_T
    const Term z = R("()", "<1, 2>", "x", real_power(2), "()", {}, d).trace;
    EXPECT_EQ(flatten(evaluate(z).value), (std::vector<double>{0, 0}));
    // W.R_V(x:unit. C) = * when C is defined at V
    const Term u = R("2", "()", "x", unit_type(), "sin(3)", {}, d).trace;
    EXPECT_EQ(print_value(evaluate(u).value), "()");
    // undefined where log_r is
    const Term l = R("1", "-1", "x", real_type(), "log(x)", {}, d).trace;
    EXPECT_THROW(evaluate(l), AdsemError);
  }
  const Term l = R("1", "-1", "x", real_type(), "log(x)", {}).trace;
  EXPECT_TRUE(alpha_equal(l, expected("let x:real = -1 in let y:real = log_r(<x, 1>) in y", {})))
      << canonical(l);
}

TEST(SimpleDiffR, PointAndCotangentMayMentionTheBinderName) {
  // spec P-3: the outer x in V or W is not the differentiation variable
  for (DiffMode d : {DiffMode::literal, DiffMode::linear}) {
    const TypeContext g = reals_ctx({"x"});
    const Term r = R("x", "<x, 2>", "x", real_power(2), "fst(x) * snd(x)", g, d).trace;
    const ValueContext rho = {{"x", Value::real(3)}};
    // ∇(a*b) at (3, 2) scaled by 3: (6, 9)
    EXPECT_EQ(flatten(evaluate(r, {}, rho).value), (std::vector<double>{6, 9}));
  }
}

// ---- literal Fig. 6 versus R-fast ----------------------------------------------------------

std::string product_of(int factors) {
  std::string body = "x";
  for (int i = 1; i < factors; ++i)
    body += " * x";
  return body;
}

struct Sizes {
  long literal, linear;
  double literal_value, linear_value;
};

Sizes sizes_for(int factors) {
  const Term c = trace_at(product_of(factors), 1.1); // a let chain of factors - 2 lets
  const TypeContext none;
  Sizes s{};
  for (DiffMode d : {DiffMode::literal, DiffMode::linear}) {
    const Term r = symbolic_derivative(mk::constant(1), mk::constant(1.1), "x", real_type(), c,
                                       mode(d, 50'000'000))
                       .trace;
    const double value = evaluate(r).value.as_real();
    (d == DiffMode::literal ? s.literal : s.linear) = term_size(*r);
    (d == DiffMode::literal ? s.literal_value : s.linear_value) = value;
  }
  return s;
}

TEST(SimpleDiffR, LiteralBlowUpAndLinearSize) {
  const Sizes s11 = sizes_for(11), s12 = sizes_for(12);
  const double want11 = 11 * std::pow(1.1, 10), want12 = 12 * std::pow(1.1, 11);
  EXPECT_NEAR(s11.literal_value, want11, 1e-9 * want11);
  EXPECT_NEAR(s11.linear_value, want11, 1e-9 * want11);
  EXPECT_NEAR(s12.literal_value, want12, 1e-9 * want12);
  EXPECT_NEAR(s12.linear_value, want12, 1e-9 * want12);
  // spec P-1: ~25k nodes for 11 factors, doubling per factor; R-fast grows by a constant
  EXPECT_GT(s11.literal, 10'000);
  EXPECT_GT(static_cast<double>(s12.literal) / s11.literal, 1.8);
  EXPECT_LT(s11.linear, 400);
  EXPECT_LT(s12.linear - s11.linear, 40);
  RecordProperty("literal_nodes_11", std::to_string(s11.literal));
  RecordProperty("linear_nodes_11", std::to_string(s11.linear));
}

TEST(SimpleDiffR, LiteralAndLinearAgree) {
  const char* programs[] = {
      "grad[<0.3, -1.2>](x:real^2. let a:real = sin(fst(x)) * snd(x) in "
      "let b:real = exp(a) / (1 + snd(x) * snd(x)) in tanh(b) + a * b)",
      "<2, 3>.rd[<1, <0.5, 2>>](x:real * (real * real). let p:real * real = snd(x) in "
      "<fst(p) * fst(x), log(snd(p)) + fst(x) * fst(x)>)",
      "grad[0.7](x:real. let u:unit = () in let p:real * unit = <cos(x), u> in fst(p) * x)",
      "grad[<1, 2>](x:real^2. 1.rd[fst(x)](y:real. y * y * snd(x)))",
      "grad[1.5](x:real. sqrt(x) * neg(x) - recip(x) + dprod2(<<x, 1>, <2, x>>))",
  };
  for (const char* p : programs) {
    SCOPED_TRACE(p);
    const auto a = test::reals(p, DiffMode::literal), b = test::reals(p, DiffMode::linear);
    ASSERT_EQ(a.size(), b.size());
    for (std::size_t i = 0; i < a.size(); ++i)
      EXPECT_NEAR(a[i], b[i], 1e-12 * (1 + std::abs(a[i])));
  }
}

// ---- fuel, depth, traces -------------------------------------------------------------------

TEST(SimpleDiffRun, DivergenceIsAnOutcomeNotAHang) {
  const std::string loop = "letrec loop(x:real):real = loop(x) in loop(1)";
  try {
    test::run(loop, DiffMode::linear, 1'000);
    FAIL();
  } catch (const AdsemError& e) {
    EXPECT_EQ(e.diagnostic().kind, ErrorKind::fuel);
    EXPECT_NE(std::string(e.what()).find("fuel exhausted"), std::string::npos) << e.what();
  }
  // a deep (non-tail) recursion stops at the depth budget, not with a stack overflow
  const std::string deep = "letrec down(n:real):real = if n < 0.5 then 0 else 1 + down(n - 1) in "
                           "down(1000000)";
  EXPECT_EQ(test::failure(deep, DiffMode::linear, 100'000'000), ErrorKind::fuel);
  // letrec_n: the limited language of Fig. 8 (clo_0 is stuck)
  EXPECT_EQ(test::failure("letrec[3] f(x:real):real = f(x) in f(1)"), ErrorKind::fuel);
  EXPECT_EQ(test::reals("letrec[4] pow(p: real * real): real = if snd(p) < 0.5 then 1 else "
                        "fst(p) * pow(<fst(p), snd(p) - 1>) in pow(<2, 3>)"),
            (std::vector<double>{8}));
  EXPECT_EQ(test::failure("letrec[3] pow(p: real * real): real = if snd(p) < 0.5 then 1 else "
                          "fst(p) * pow(<fst(p), snd(p) - 1>) in pow(<2, 3>)"),
            ErrorKind::fuel);
}

TEST(SimpleDiffRun, DeepTermsGiveErrorsNotCrashes) {
  Term deep = mk::constant(1);
  for (int i = 0; i < 100'000; ++i)
    deep = mk::add(mk::constant(1), deep);
  EXPECT_THROW(typecheck(deep, primitives()), AdsemError);
  try {
    evaluate(deep);
    FAIL();
  } catch (const AdsemError& e) {
    EXPECT_EQ(e.diagnostic().kind, ErrorKind::fuel);
  }
  EXPECT_THROW(print(deep), AdsemError);
  EXPECT_THROW(alpha_equal(deep, deep), AdsemError);
  EXPECT_EQ(term_size(*deep), 200'001);
}

TEST(SimpleDiffRun, RuleTraceNamesThePaperRules) {
  Options o = mode(DiffMode::literal);
  o.record_trace = true;
  const Outcome out = evaluate(check_source("1.rd[1](x:real. x * 1.rd[1](y:real. x + y))").term, o);
  EXPECT_EQ(out.value.as_real(), 1.0);
  ASSERT_EQ(static_cast<long>(out.trace.size()), out.steps);
  std::vector<std::string> names;
  for (const auto& t : out.trace)
    names.push_back(t.rule);
  auto position = [&](const char* n) {
    return std::find(names.begin(), names.end(), n) - names.begin();
  };
  // O-rd fires first (after the point and cotangent values), then tracing, then R
  EXPECT_LT(position("O-rd"), position("S-ctx"));
  EXPECT_LT(position("S-rd"), position("R-add"));
  EXPECT_LT(position("R-add"), position("R-op"));
  EXPECT_LT(position("R-op"), static_cast<long>(names.size()));
  EXPECT_NE(out.trace.front().detail, "");
}

TEST(SimpleDiffRules, BookIsCompleteAndNamed) {
  const Rules& book = *paper_rules();
  std::set<std::string> seen;
  for (const RuleInfo& r : book.infos()) {
    EXPECT_TRUE(seen.insert(r.name).second) << r.name;
    EXPECT_EQ(book.position(r.name), r.position);
    EXPECT_NE(r.citation.find(r.name == "R-fast" ? "not in the paper" : "Abadi & Plotkin"),
              std::string::npos)
        << r.name;
  }
  EXPECT_EQ(book.size(), 42u);
  EXPECT_EQ(book.get<Derivative>("R-let").info.kind, RuleKind::transformation);
  EXPECT_EQ(book.get<SymbolicContext>("S-ctx").info.kind, RuleKind::context);
  for (const Rules::Entry& entry : book.entries())
    std::visit([](const auto& rule) { EXPECT_EQ(rule.fireable(), rule.info.unfireable.empty()); },
               entry);
}

Options with(RulesPatch patch, Options o = {}) {
  o.rules = patch_paper_rules(patch);
  return o;
}

// A run of Fig. 6 applied literally, to its end or to the step budget's refusal.
struct LiteralRun {
  std::string error; // empty: it fit the budget
  long steps = 0;
  std::vector<std::string> trace;
  RuleCounts fired;
};
LiteralRun run_literal(const Term& m, long fuel, const RulesPtr& rules) {
  RuleCounter counter;
  LiteralRun out;
  on_large_stack([&] {
    Options o = mode(DiffMode::literal);
    o.fuel = fuel;
    o.record_trace = true;
    o.max_trace_lines = 1'000'000;
    o.rules = rules;
    o.counter = &counter;
    Machine machine(o); // adds its rule firings to the counter when it ends
    machine.avoid_names(*m);
    try {
      (void)machine.eval(nullptr, m);
    } catch (const AdsemError& e) {
      out.error = e.what();
    }
    out.steps = machine.steps();
    for (const TraceLine& line : machine.trace())
      out.trace.push_back(line.rule + " " + line.detail);
  });
  out.fired = counter.fired;
  return out;
}

// A literal derivative whose steps are counted over the budget is not built (symbolic_diff.cpp):
// its run takes the same steps, traced alike and counted alike, to the same refusal at the same
// redex as building it does, at every budget.
TEST(SimpleDiffRules, ALiteralDerivativeOverTheBudgetTakesTheStepsOfBuildingIt) {
  // R-let wrapped: the same clause, but its entry no longer lists the derivatives it takes, so no
  // derivative through a let is counted: each is built until the budget runs out
  RulesPatch wrapped;
  wrapped.replace<Derivative>("R-let", [](Rule<Derivative> r) {
    r.result = [paper = r.result](Machine& m, const Derivative::Redex& x, const RuleInfo& self) {
      return paper(m, x, self);
    };
    return r;
  });
  const RulesPtr building = patch_paper_rules(wrapped);
  const Term m = check_source("1.rd[<2, 0.5>](x:real*real. let a:real = fst(x) * snd(x) in "
                              "let b:real = sin(a) * a in b + fst(x))")
                     .term;
  const long total = run_literal(m, 1'000'000, building).steps;
  ASSERT_GT(total, 300);
  ASSERT_LT(total, 20'000);
  int refused_in_fig6 = 0;
  for (long fuel = 1; fuel <= total + 1; fuel += total / 400 + 1) {
    SCOPED_TRACE(fuel);
    const LiteralRun counted = run_literal(m, fuel, paper_rules());
    const LiteralRun built = run_literal(m, fuel, building);
    EXPECT_EQ(counted.error, built.error);
    EXPECT_EQ(counted.steps, built.steps);
    EXPECT_EQ(counted.trace, built.trace);
    EXPECT_EQ(counted.fired, built.fired);
    if (!counted.trace.empty() && counted.trace.back().starts_with("R-")) ++refused_in_fig6;
  }
  EXPECT_GT(refused_in_fig6, 20); // most budgets run out inside Fig. 6
}

TEST(SimpleDiffRules, ReplacingOneEntryChangesThatRuleEverywhere) {
  const Term m = check_source("grad[<3, 4>](x:real^2. fst(x) * snd(x))").term;
  ASSERT_EQ(flatten(evaluate(m).value), (std::vector<double>{4, 3}));
  // a patch of R-op and R-fast: W.op_r(D) built with swapped pair components
  const OpRTerm swapped_op_r = [](const std::string& op, const Term& primal, const Term& w,
                                  const Type& s, const Type& u) {
    return mk::op(op + "_r", mk::pair(w, primal, u, s));
  };
  RulesPatch swap;
  swap.replace<Derivative>("R-op", [&](Rule<Derivative> r) {
    r.result = rules::r_op(swapped_op_r);
    return r;
  });
  swap.replace<TraceDerivative>("R-fast", [&](Rule<TraceDerivative> r) {
    r.result = rules::r_fast(swapped_op_r);
    return r;
  });
  // the arity no longer fits mul_r: the patch shows up (here as a wrong value)
  try {
    EXPECT_NE(flatten(evaluate(m, with(swap)).value), (std::vector<double>{4, 3}));
  } catch (const AdsemError&) {
  }
  // a patch of R-var (Fig. 6) in literal mode: every variable derivative is 0
  RulesPatch zero_var;
  zero_var.replace<Derivative>("R-var", [](Rule<Derivative> r) {
    r.result = [](Machine&, const Derivative::Redex& x, const RuleInfo&) {
      return zero_of(x.goal.t);
    };
    return r;
  });
  EXPECT_EQ(flatten(evaluate(m, with(zero_var, mode(DiffMode::literal))).value),
            (std::vector<double>{0, 0}));
  // a patch of O-iff: the else branch evaluates the then branch
  RulesPatch wrong_branch;
  wrong_branch.replace<Ordinary>("O-iff", [](Rule<Ordinary> r) {
    r.result = [](Machine& mach, const Ordinary::Redex& x, const RuleInfo&) {
      return mach.eval(x.phi, x.term->b);
    };
    return r;
  });
  EXPECT_EQ(
      evaluate(check_source("if 2 < 1 then 5 else 7").term, with(wrong_branch)).value.as_real(),
      5.0);
}

// rd computes in floating point in its own order, so where the Jacobian is constant its interval
// enclosure is one point and rd may round beside it: `campaign all -s 14` reported "rd gives
// 0.9999999999999999 for ∂/∂x0, outside the enclosure [1, 1]" (d/dx of 2.5 - x + x is exactly
// 0). rd-in-interval-enclosure widens the enclosure by the derivative tolerance, and no more.
TEST(SimpleDiffR, RoundsBesideADegenerateEnclosureWithinTheTolerance) {
  const std::string body = "x + sin(-1.rd[x](v2:real. v2) + (letrec f(v1:real * real):real = "
                           "snd(v1) in sub(<2.5, x>) + f(<0, x>)))";
  const std::vector<double> g = test::reals("1.rd[-3](x:real. " + body + ")");
  ASSERT_EQ(g.size(), 1u);
  EXPECT_NE(g[0], 1.0); // rd's own rounding
  const model::DiffContext dc;
  const auto f = denotation::as_function<model::Interval>(
      "x", real_type(), check_source(body, reals_ctx({"x"})).term, {}, dc);
  const std::vector<double> at = {-3.0};
  const model::Interval e =
      model::enclose(f, model::box_around(at, model::fd_stencil_relative_radius()), dc)
          .jacobian(0, 0);
  EXPECT_EQ(e.lower(), 1.0);
  EXPECT_EQ(e.upper(), 1.0);
  EXPECT_FALSE(model::encloses(e, g[0]));
  const Tolerance tol = default_tolerance(CheckKind::derivative);
  EXPECT_TRUE(model::encloses_rounded(e, g[0], tol));
  EXPECT_FALSE(model::encloses_rounded(e, 1.0 - 1e-6, tol)); // a wrong derivative still fails
}

} // namespace
} // namespace adsem::simple_diff::semantics_test
