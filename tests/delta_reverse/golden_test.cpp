// Golden tests: every worked example of spec §8 (numbers checked there with a prototype), and the
// paper's Fig. 12 tape (seed 001 L646-725) with the spec's golden Delta (Ex. 6 test vectors A, B).
#include <gtest/gtest.h>

#include "helpers.hpp"
#include "properties/delta_reverse/mutants.hpp"
#include "quaternion.hpp"
#include "semantics/delta_reverse/delta_eval.hpp"

namespace adsem::delta_reverse::golden_test {
namespace {

using namespace testing;
constexpr long fuel = 10'000'000;

ReverseRun rev(const Fixture& s, const Value& dt, Wrapper w = Wrapper::fig11,
               EvalImpl impl = EvalImpl::map, const RunSetup& v = {}) {
  return reverse(s.program, s.s, dt, w, impl, v, fuel);
}

TEST(DeltaReverseGolden, Ex2MultiplicationAllModes) {
  const Fixture s = setup(R"(\(x : Real, y : Real). x * y)", {3.0, 4.0});
  EXPECT_EQ(run_primal(s.program, s.s, fuel).result->real, 12.0);
  EXPECT_EQ(forward(s.program, s.s, point_of(s.program.s, {1, 0}), {}, fuel).tangent->real, 4.0);
  EXPECT_EQ(forward(s.program, s.s, point_of(s.program.s, {0, 1}), {}, fuel).tangent->real, 3.0);
  expect_near_all(reals(reverse1(s.program, s.s, 0.5, {}, fuel).gradient), {2.0, 1.5});
  const Delta2Run r2 = reverse2(s.program, s.s, 0.5, {}, fuel);
  EXPECT_EQ(print_delta(r2.delta), "Add(Scale(4.0, OneHot 1), Scale(3.0, OneHot 2))");
  expect_near_all(reals(r2.gradient), {2.0, 1.5});
  const ReverseRun r = rev(s, v_real(1.0));
  expect_tape(r, {"3 = Add(Scale(4.0, Var 1), Scale(3.0, Var 2))", "result = Var 3"});
  expect_near_all(reals(r.gradient), {4.0, 3.0});
  expect_near_all(reals(rev(s, v_real(0.5)).gradient), {2.0, 1.5});
}

TEST(DeltaReverseGolden, Ex3LossOfSharing) {
  const Fixture s = setup(read_example("ex3_sharing.dr"), {3.0});
  const ReverseRun r = rev(s, v_real(1.0));
  expect_tape(r, {"2 = Add(Scale(3.0, Var 1), Scale(3.0, Var 1))", "3 = Add(Var 2, Var 2)",
                  "result = Var 3"});
  Ledger ledger;
  EXPECT_EQ(
      print_delta(run_delta(r.binds, r.final_delta, ledger)),
      "Let 2 (Add(Scale(3.0, Var 1), Scale(3.0, Var 1))) (Let 3 (Add(Var 2, Var 2)) (Var 3))");
  expect_near_all(reals(r.gradient), {12.0});
  EXPECT_EQ(r.primal->real, 18.0);
  const Delta2Run r2 = reverse2(s.program, s.s, 1.0, {}, fuel);
  EXPECT_EQ(r2.eval2_visits, 11); // Y is walked twice
  expect_near_all(reals(r2.gradient), {12.0});
}

TEST(DeltaReverseGolden, Ex4ExponentialBlowUpTable) {
  struct Row {
    int k;
    double value, grad;
  };
  for (const Row row : {Row{1, 3, 2}, Row{3, 12, 8}, Row{10, 1536, 1024}, Row{15, 49152, 32768}}) {
    std::string src = "\\(x : Real). let x1 = x + x in ";
    for (int i = 1; i < row.k; ++i)
      src += "let x" + std::to_string(i + 1) + " = x" + std::to_string(i) + " + x" +
             std::to_string(i) + " in ";
    src += "x" + std::to_string(row.k);
    const Fixture s = setup(src, {1.5});
    const ReverseRun map = rev(s, v_real(1.0));
    const ReverseRun arr = rev(s, v_real(1.0), Wrapper::fig11, EvalImpl::array);
    EXPECT_EQ(map.primal->real, row.value);
    EXPECT_EQ(reals(map.gradient)[0], row.grad);
    EXPECT_EQ(static_cast<int>(map.binds.size()), row.k);
    long eval = 0, sweep = 0;
    for (const Step r : {Step::Eval_Zero, Step::Eval_Scale, Step::Eval_Add, Step::Eval_Var,
                         Step::Eval_Let_Nothing, Step::Eval_Let_Just})
      eval += map.ledger.count(r);
    for (const Step r : {Step::Sweep_Zero, Step::Sweep_Scale, Step::Sweep_Add, Step::Sweep_Var})
      sweep += arr.ledger.count(r);
    EXPECT_EQ(eval, 4 * row.k + 1);
    EXPECT_EQ(sweep, 3 * row.k + 1);
    EXPECT_EQ(reverse2(s.program, s.s, 1.0, {}, fuel).eval2_visits, (2L << row.k) - 1);
    if (row.k == 3)
      expect_tape(map, {"2 = Add(Var 1, Var 1)", "3 = Add(Var 2, Var 2)", "4 = Add(Var 3, Var 3)",
                        "result = Var 4"});
  }
}

TEST(DeltaReverseGolden, Ex5SinCos) {
  const Fixture s = setup(R"(\(x : Real). sin x * cos x)", {0.5});
  const ReverseRun r = rev(s, v_real(1.0));
  expect_tape(r, {"2 = Scale(0.8775825618903728, Var 1)", "3 = Scale(-0.479425538604203, Var 1)",
                  "4 = Add(Scale(0.8775825618903728, Var 2), Scale(0.479425538604203, Var 3))",
                  "result = Var 4"});
  EXPECT_NEAR(r.primal->real, 0.420735492403948, 1e-15);
  EXPECT_NEAR(reals(r.gradient)[0], 0.540302305868140, 1e-15);
  const Fixture s2 = setup(R"(\(x : Real). sin (x * x))", {1.5});
  const ReverseRun r2 = rev(s2, v_real(1.0));
  EXPECT_NEAR(r2.primal->real, 0.778073196887921, 1e-15);
  EXPECT_NEAR(reals(r2.gradient)[0], -1.88452086816822, 1e-14);
  EXPECT_NEAR(forward(s2.program, s2.s, v_real(1.0), {}, fuel).tangent->real, -1.88452086816822,
              1e-14);
}

TEST(DeltaReverseGolden, Ex6QuaternionGradientEveryMechanism) {
  const Fixture s = setup(read_example("ex6_quaternion.dr"), quaternion_point);
  EXPECT_NEAR(run_primal(s.program, s.s, fuel).result->real, 71.874, 1e-12);
  for (const Wrapper w : {Wrapper::fig11, Wrapper::fig15, Wrapper::seeded})
    for (const EvalImpl impl : {EvalImpl::map, EvalImpl::array})
      expect_near_all(reals(rev(s, v_real(1.0), w, impl).gradient), quaternion_gradient);
  expect_near_all(reals(reverse1(s.program, s.s, 1.0, {}, fuel).gradient), quaternion_gradient);
  expect_near_all(reals(reverse2(s.program, s.s, 1.0, {}, fuel).gradient), quaternion_gradient);
  for (std::size_t j = 0; j < 7; ++j) { // forward plan: 7 calls of F
    std::vector<double> e(7, 0.0);
    e[j] = 1.0;
    EXPECT_NEAR(forward(s.program, s.s, point_of(s.program.s, e), {}, fuel).tangent->real,
                quaternion_gradient[j], 1e-12 * std::max(1.0, std::abs(quaternion_gradient[j])));
  }
}

// Test vector A: the paper's own tape (OCaml, right to left; paper name x_k is id 7 + k).
const std::vector<std::string> paper_tape = {"8=Add(Scale(5.5,Var 2),Scale(2.2,Var 5))",
                                             "9=Add(Scale(6.6,Var 1),Scale(1.1,Var 6))",
                                             "10=Add(Var 9,Scale(-1.0,Var 8))",
                                             "11=Add(Scale(7.7,Var 1),Scale(1.1,Var 7))",
                                             "12=Add(Scale(5.5,Var 3),Scale(3.3,Var 5))",
                                             "13=Add(Var 12,Scale(-1.0,Var 11))",
                                             "14=Add(Scale(6.6,Var 3),Scale(3.3,Var 6))",
                                             "15=Add(Scale(7.7,Var 2),Scale(2.2,Var 7))",
                                             "16=Add(Var 15,Scale(-1.0,Var 14))",
                                             "17=Zero",
                                             "18=Add(Scale(4.4,Var 17),Scale(2.0,Var 4))",
                                             "19=Add(Scale(-4.84,Var 18),Scale(8.8,Var 10))",
                                             "20=Add(Scale(9.68,Var 18),Scale(8.8,Var 13))",
                                             "21=Add(Scale(-4.84,Var 18),Scale(8.8,Var 16))",
                                             "22=Add(Scale(3.3,Var 3),Scale(3.3,Var 3))",
                                             "23=Add(Scale(2.2,Var 2),Scale(2.2,Var 2))",
                                             "24=Add(Scale(1.1,Var 1),Scale(1.1,Var 1))",
                                             "25=Add(Var 24,Var 23)",
                                             "26=Add(Var 25,Var 22)",
                                             "27=Add(Scale(4.4,Var 4),Scale(4.4,Var 4))",
                                             "28=Add(Var 27,Scale(-1.0,Var 26))",
                                             "29=Add(Scale(7.7,Var 28),Scale(2.42,Var 7))",
                                             "30=Add(Scale(6.6,Var 28),Scale(2.42,Var 6))",
                                             "31=Add(Scale(5.5,Var 28),Scale(2.42,Var 5))",
                                             "32=Add(Scale(7.7,Var 3),Scale(3.3,Var 7))",
                                             "33=Add(Scale(6.6,Var 2),Scale(2.2,Var 6))",
                                             "34=Add(Scale(5.5,Var 1),Scale(1.1,Var 5))",
                                             "35=Add(Var 34,Var 33)",
                                             "36=Add(Var 35,Var 32)",
                                             "37=Zero",
                                             "38=Add(Scale(45.98,Var 37),Scale(2.0,Var 36))",
                                             "39=Add(Scale(3.3,Var 38),Scale(91.96,Var 3))",
                                             "40=Add(Scale(2.2,Var 38),Scale(91.96,Var 2))",
                                             "41=Add(Scale(1.1,Var 38),Scale(91.96,Var 1))",
                                             "42=Add(Var 39,Var 29)",
                                             "43=Add(Var 40,Var 30)",
                                             "44=Add(Var 41,Var 31)",
                                             "45=Add(Var 42,Var 19)",
                                             "46=Add(Var 43,Var 20)",
                                             "47=Add(Var 44,Var 21)"};

TEST(DeltaReverseGolden, Ex6TestVectorAPaperTape) {
  const Binds tape = read_tape(paper_tape);
  const auto gradient_of = [&](std::int64_t result) {
    Ledger ledger;
    const Delta u = run_delta(tape, d_var(result), ledger);
    DeltaMap m;
    eval_map(1.0, u, m, ledger);
    std::vector<double> g;
    std::vector<std::int64_t> keys;
    for (const auto& [id, x] : m)
      keys.push_back(id);
    EXPECT_EQ(keys, (std::vector<std::int64_t>{1, 2, 3, 4, 5, 6, 7})) << "result Var " << result;
    for (std::int64_t i = 1; i <= 7; ++i)
      g.push_back(m[i]);
    // the array sweep agrees bit for bit
    const std::vector<double> arr = sweep(1.0, d_var(result), tape, 48, ledger);
    for (std::int64_t i = 1; i <= 7; ++i)
      EXPECT_EQ(arr[static_cast<std::size_t>(i)], g[static_cast<std::size_t>(i - 1)]);
    return g;
  };
  expect_near_all(gradient_of(47), quaternion_gradient);
  expect_near_all(gradient_of(45), {77.44, -38.72, 91.96, 58.08, -12.1, 24.2, 24.2});
  expect_near_all(gradient_of(46), {-58.08, 91.96, 38.72, 77.44, 33.88, 12.1, 4.84});
}

// Fig. 12's tape is what its implementation's order makes of Fig. 12's program: Fig. 9's Drev
// with the argument and the second component first and from_float allocating (rules.hpp),
// run by Fig. 11's wrapper (T = R, no ⊙ binding), prints test vector A line for line.
TEST(DeltaReverseGolden, Ex6Fig12ImplementationPrintsThePapersTape) {
  const Fixture s = setup(read_example("ex6_quaternion.dr"), quaternion_point);
  RunSetup fig12;
  fig12.rules = patch_paper_rules(fig12_implementation());
  std::vector<std::string> expected = paper_tape;
  expected.push_back("result=Var 47");
  const ReverseRun r = rev(s, v_real(1.0), Wrapper::fig11, EvalImpl::map, fig12);
  expect_tape(r, expected);
  expect_near_all(reals(r.gradient), quaternion_gradient);
}

TEST(DeltaReverseGolden, Ex6TestVectorBGoldenTape) {
  const Fixture s = setup(read_example("ex6_quaternion.dr"), quaternion_point);
  const ReverseRun r = rev(s, v_real(1.0), Wrapper::fig15);
  expect_tape(r, test_vector_b);
  // bindings 44 and 45 (the y and z components) are dead, and so is everything only they use
  // (15 16 25 26 28 29 34 35 36 37 38 39 41 42): eval's Nothing branch skips all 16
  EXPECT_EQ(r.ledger.count(Step::Eval_Let_Nothing), 16);
  EXPECT_EQ(r.ledger.count(Step::Eval_Let_Just), 39 - 16);
  EXPECT_EQ(r.first_id, 8);
}

TEST(DeltaReverseGolden, Ex7HigherOrderHelpers) {
  const Fixture s = setup(read_example("ex7_higher_order.dr"), {1.5, 2.0});
  const ReverseRun r = rev(s, v_real(1.0));
  expect_tape(r, {"3 = Add(Scale(1.5, Var 1), Scale(1.5, Var 1))",
                  "4 = Add(Scale(2.25, Var 3), Scale(2.25, Var 3))",
                  "5 = Add(Scale(2.0, Var 2), Scale(2.0, Var 2))", "6 = Add(Var 4, Var 5)",
                  "result = Var 6"});
  EXPECT_EQ(r.primal->real, 9.0625);
  expect_near_all(reals(r.gradient), {13.5, 4.0});
}

TEST(DeltaReverseGolden, Ex8SumsInTheInput) {
  const std::string src = read_example("ex8_sums.dr");
  const RealProgram rp = real_program(parse_closed(src));
  const Value left = v_pair(v_inl(v_real(2.0)), v_real(3.0));
  const Value right = v_pair(v_inr(v_real(2.0)), v_real(3.0));
  const ReverseRun l =
      reverse(rp.program, left, v_real(1.0), Wrapper::fig11, EvalImpl::map, {}, fuel);
  EXPECT_EQ(print_value(l.gradient, rp.program.s), "(inl[Real] 3.0, 2.0)");
  expect_tape(l, {"3 = Add(Scale(3.0, Var 1), Scale(2.0, Var 2))", "result = Var 3"});
  const ReverseRun r =
      reverse(rp.program, right, v_real(1.0), Wrapper::fig11, EvalImpl::map, {}, fuel);
  EXPECT_EQ(print_value(r.gradient, rp.program.s), "(inr[Real] 1.0, 1.0)");
  expect_tape(r, {"3 = Add(Var 1, Var 2)", "result = Var 3"});
  const ReverseRun l15 =
      reverse(rp.program, left, v_real(1.0), Wrapper::fig15, EvalImpl::map, {}, fuel);
  EXPECT_TRUE(same_tape_line(tape_lines(l15)[1], "4 = Add(Scale(1.0, Var 3), Scale(6.0, Zero))"));
  EXPECT_EQ(
      forward(rp.program, left, v_pair(v_inl(v_real(1.0)), v_real(0.0)), {}, fuel).tangent->real,
      3.0);
  EXPECT_EQ(
      forward(rp.program, left, v_pair(v_inl(v_real(0.0)), v_real(1.0)), {}, fuel).tangent->real,
      2.0);
  EXPECT_EQ(
      forward(rp.program, right, v_pair(v_inr(v_real(1.0)), v_real(0.0)), {}, fuel).tangent->real,
      1.0);
}

TEST(DeltaReverseGolden, Ex9SumsDrevYesDrev1No) {
  const RealProgram rp = real_program(
      parse_closed(R"(\(s : Real + Real). case s of inl a -> a * 2.0 | inr b -> 1.0)"));
  const ReverseRun l =
      reverse(rp.program, v_inl(v_real(3.0)), v_real(1.0), Wrapper::fig11, EvalImpl::map, {}, fuel);
  EXPECT_EQ(l.primal->real, 6.0);
  EXPECT_EQ(print_value(l.gradient, rp.program.s), "inl[Real] 2.0");
  const ReverseRun r =
      reverse(rp.program, v_inr(v_real(3.0)), v_real(1.0), Wrapper::fig11, EvalImpl::map, {}, fuel);
  EXPECT_EQ(r.primal->real, 1.0);
  EXPECT_EQ(print_value(r.gradient, rp.program.s), "inr[Real] 0.0");
  EXPECT_THROW(reverse1(rp.program, v_inl(v_real(3.0)), 1.0, {}, fuel), AdsemError);
}

TEST(DeltaReverseGolden, Ex10Leaves) {
  const RealProgram rp = real_program(
      parse_closed(R"(\((x : Real, y : Real), (n : Int, z : Real)). x * y + fromInt n * z)"));
  const Value s = v_pair(v_pair(v_real(2.0), v_real(5.0)), v_pair(v_int(3), v_real(0.5)));
  const ReverseRun r = reverse(rp.program, s, v_real(1.0), Wrapper::fig11, EvalImpl::map, {}, fuel);
  EXPECT_EQ(r.primal->real, 11.5);
  EXPECT_EQ(r.inputs, 3);
  EXPECT_EQ(r.first_id, 4);
  EXPECT_EQ(print_value(r.gradient, rp.program.s), "((5.0, 2.0), (3, 3.0))");
  const Value ds = v_pair(v_pair(v_real(1.0), v_real(0.0)), v_pair(v_int(3), v_real(0.0)));
  EXPECT_EQ(forward(rp.program, s, ds, {}, fuel).tangent->real, 5.0);
}

TEST(DeltaReverseGolden, Ex11VectorOutputAndLemma1) {
  const Fixture s = setup(R"(\(x : Real, y : Real). (x * y, x + y))", {3.0, 4.0});
  const auto pt = [&](double a, double b) { return v_pair(v_real(a), v_real(b)); };
  expect_near_all(reals(forward(s.program, s.s, pt(1, 0), {}, fuel).tangent), {4, 1});
  expect_near_all(reals(forward(s.program, s.s, pt(0, 1), {}, fuel).tangent), {3, 1});
  expect_near_all(reals(rev(s, pt(1, 0), Wrapper::fig15).gradient), {4, 3});
  expect_near_all(reals(rev(s, pt(0, 1), Wrapper::fig15).gradient), {1, 1});
  const ReverseRun r12 = rev(s, pt(1, 2), Wrapper::fig15);
  expect_near_all(reals(r12.gradient), {6, 5});
  expect_tape(r12, {"3 = Add(Scale(4.0, Var 1), Scale(3.0, Var 2))", "4 = Add(Var 1, Var 2)",
                    "5 = Add(Scale(1.0, Var 3), Scale(12.0, Zero))",
                    "6 = Add(Scale(2.0, Var 4), Scale(7.0, Zero))", "7 = Add(Var 5, Var 6)",
                    "result = Var 7"});
  const auto f = reals(forward(s.program, s.s, pt(0.5, -1.0), {}, fuel).tangent);
  expect_near_all(f, {-1.0, -0.5});
  EXPECT_DOUBLE_EQ(1.0 * f[0] + 2.0 * f[1], -2.0);
  EXPECT_DOUBLE_EQ(6.0 * 0.5 + 5.0 * -1.0, -2.0);
}

TEST(DeltaReverseGolden, Ex12MainExpressionNotALambda) {
  const Fixture s = setup(R"(let c = 2.0 * 3.0 in \(x : Real). x * c)", {5.0});
  const ReverseRun r = rev(s, v_real(1.0));
  expect_tape(r, {"2 = Add(Scale(3.0, Zero), Scale(2.0, Zero))",
                  "3 = Add(Scale(6.0, Var 1), Scale(5.0, Var 2))", "result = Var 3"});
  EXPECT_EQ(r.primal->real, 30.0);
  expect_near_all(reals(r.gradient), {6.0});
  // Read literally (spec §11 item 6), Drev{e} runs outside the runDelta of g s0: binding 2 is
  // lost and id 2 is reused, so binding 2 refers to itself.
  const RunSetup literal = setup_for("delta-reverse/paper-literal-drev-applied-outside-rundelta");
  const ReverseRun bad = rev(s, v_real(1.0), Wrapper::fig11, EvalImpl::map, literal);
  expect_tape(bad, {"2 = Add(Scale(6.0, Var 1), Scale(5.0, Var 2))", "result = Var 2"});
}

TEST(DeltaReverseGolden, Ex13QuadraticCostOfDrev1) {
  for (const int a : {2, 4, 8, 16, 32, 64}) {
    std::string params, sum;
    for (int i = 1; i <= a; ++i) {
      params += (i == 1 ? "" : ", ") + std::string("x") + std::to_string(i) + " : Real";
      sum += (i == 1 ? "" : " + ") + std::string("x") + std::to_string(i);
    }
    const Fixture s = setup("\\(" + params + "). " + sum, std::vector<double>(a, 0.25));
    const DenseRun r1 = reverse1(s.program, s.s, 1.0, {}, fuel);
    EXPECT_EQ(r1.dense_flops, static_cast<long>(a) * (a - 1) + static_cast<long>(a) * a)
        << "a(a-1) additions plus a^2 for seeding, a = " << a;
    const ReverseRun r = rev(s, v_real(1.0), Wrapper::fig11, EvalImpl::array);
    EXPECT_EQ(static_cast<int>(r.binds.size()), a - 1);
    EXPECT_EQ(reals(r.gradient), std::vector<double>(a, 1.0));
    EXPECT_EQ(reals(r1.gradient), std::vector<double>(a, 1.0));
  }
  const Fixture p =
      setup(R"(\(x1 : Real, x2 : Real, x3 : Real, x4 : Real). x1 * x2 * x3 * x4)", {1, 2, 3, 4});
  expect_near_all(reals(rev(p, v_real(1.0)).gradient), {24, 12, 8, 6});
  expect_near_all(reals(reverse2(p.program, p.s, 1.0, {}, fuel).gradient), {24, 12, 8, 6});
  expect_near_all(reals(reverse1(p.program, p.s, 2.0, {}, fuel).gradient), {48, 24, 16, 12});
}

TEST(DeltaReverseGolden, Ex14Lemma6ByHand) {
  const Delta u =
      d_let(5, d_add(d_scale(2.0, d_var(1)), d_var(2)), d_add(d_var(5), d_scale(3.0, d_var(5))));
  std::map<std::int64_t, Eigen::VectorXd> gamma;
  gamma[1] = Eigen::Vector2d(1, 0);
  gamma[2] = Eigen::Vector2d(0, 1);
  const Eigen::VectorXd meaning = dense_meaning(u, gamma, 2);
  EXPECT_EQ(meaning(0), 8.0);
  EXPECT_EQ(meaning(1), 4.0);
  DeltaMap m = {{1, 10.0}, {2, 0.0}};
  Ledger ledger;
  eval_map(0.5, u, m, ledger);
  EXPECT_EQ(m, (DeltaMap{{1, 14.0}, {2, 2.0}}));
}

} // namespace
} // namespace adsem::delta_reverse::golden_test
