// Golden tests: every worked example of spec §8 (seed 000 Ex. 3.1-4.9 L177-391, App. A.1 L616-681,
// Ex. 3.2 / App. A.2 / Fig. 5 L195-197, L683-743) and the walk-through of spec §4.10, with the
// expected numbers.
#include <gtest/gtest.h>

#include "properties/pullback/frontend.hpp"
#include "semantics/pullback/denotation.hpp"
#include "semantics/pullback/primitive_table.hpp"
#include "semantics/pullback/strategy.hpp"
#include "syntax/pullback/printer.hpp"
#include "syntax/pullback/typecheck.hpp"

namespace adsem::pullback::golden_test {
namespace {

const char* running = "((Omega \\<x:R, y:R>. pow2(mult(g(<x, y>)))) @ Omega[1]) [1, 3]";

pullback::Run run(const std::string& source, Rules rules = {}) {
  RunOptions o;
  o.trace = true;
  return normalise(parse_closed(source), rules, o);
}
pullback::Run run_open(const std::string& source, const std::map<std::string, Type>& free) {
  RunOptions o;
  o.trace = true;
  return normalise(annotate_zeros(parse(source, free)), {}, o);
}
std::vector<double> covector_of(const Term& t) {
  EXPECT_EQ(t->kind, Kind::covec) << print(t);
  return t->kind == Kind::covec ? t->vec.dense() : std::vector<double>{};
}
long fired(const pullback::Run& r, const std::string& rule) {
  return r.rule_counts.count(rule) ? r.rule_counts.at(rule) : 0;
}
bool trace_has(const pullback::Run& r, const std::string& text) {
  for (const auto& line : r.trace)
    if (line.find(text) != std::string::npos) return true;
  return false;
}
double value_at(const Term& body, const std::string& v, const Term& arg) {
  const auto env = extend<double>(nullptr, v, denote<double>(annotate_zeros(arg), nullptr, {}));
  return denote<double>(body, env, {}).real().primal();
}

// §8.2: Ex. 3.1, 3.3, 3.4, 3.7, 3.9, 4.9.
TEST(PullbackGolden, RunningExampleGradient) {
  const pullback::Run r = run(running);
  EXPECT_EQ(covector_of(r.result), (std::vector<double>{660, 528}));
  // Ex. 3.9: the reverse phase, inside out (the 6-entry covector: erratum #16)
  EXPECT_TRUE(trace_has(r, "[0, 0, 0, 0, 0, 0, 44]^*"));
  EXPECT_TRUE(trace_has(r, "[0, 0, 0, 0, 484, 88]^*"));
  EXPECT_TRUE(trace_has(r, "[0, 0, 660, 528]^*"));
  // Ex. 3.7: forward values (1,3) → (2,11) → 22 → 484
  EXPECT_TRUE(trace_has(r, "<2, 11>"));
  EXPECT_TRUE(trace_has(r, "sq(22)"));
  EXPECT_TRUE(trace_has(r, " 484"));
  // the prototype's rule counts (spec §8.2): g, mult, pow2 each evaluated once
  const std::map<std::string, long> expected = {{"A*", 1},  {"8", 3},  {"7", 1}, {"20a", 3},
                                                {"13c", 1}, {"15", 3}, {"3", 3}, {"2", 4},
                                                {"1", 1},   {"5+", 4}};
  EXPECT_EQ(r.rule_counts, expected);
}

TEST(PullbackGolden, RunningExampleLiteralAnf) {
  Rules literal;
  literal.bind_atoms = true;
  const pullback::Run r = run(running, literal);
  EXPECT_EQ(covector_of(r.result), (std::vector<double>{660, 528}));
  EXPECT_EQ(fired(r, "8") + fired(r, "7"), 8); // 8 stages (spec §8.2 "Stage counts")
}

TEST(PullbackGolden, RunningExampleSymbolic) {
  const pullback::Run r = run_open("((Omega \\<x:R,y:R>. pow2(mult(g(<x,y>)))) @ omega) [1,3]",
                                   {{"omega", one_form(real_type())}});
  const Term& nf = r.result;
  ASSERT_EQ(nf->kind, Kind::dualmap) << print(nf);
  ASSERT_EQ(nf->kids[1]->kind, Kind::app);
  EXPECT_EQ(print(nf->kids[1]), "omega 484");
  EXPECT_DOUBLE_EQ(value_at(nf->kids[0], nf->name, parse("[1, 0]")), 660);
  EXPECT_DOUBLE_EQ(value_at(nf->kids[0], nf->name, parse("[0, 1]")), 528);
  EXPECT_EQ(fired(r, "6"), 3);
  EXPECT_EQ(fired(r, "5+"), 0);
}

// §4.10 walk-through and §8.3 (L145-165).
TEST(PullbackGolden, SmallExamples) {
  EXPECT_EQ(covector_of(run("((Omega \\x:R. pow2(x)) @ Omega[2]) 3").result),
            std::vector<double>{12});
  EXPECT_EQ(covector_of(run("((Omega \\p:R^2. mult(p)) @ Omega[1]) [3,4]").result),
            (std::vector<double>{4, 3}));
  EXPECT_EQ(covector_of(run("(\\v:R^2. (J g @ v) [1,3])^* @ [1,0]^*").result),
            (std::vector<double>{1, 0}));
  EXPECT_EQ(covector_of(run("(\\v:R^2. (J g @ v) [1,3])^* @ [0,1]^*").result),
            (std::vector<double>{2, 6}));
  EXPECT_EQ(covector_of(run("((Omega \\x:R^2. g(x)) @ Omega[1,0]) [1,3]").result),
            (std::vector<double>{1, 0}));
  EXPECT_EQ(covector_of(run("((Omega \\x:R^2. g(x)) @ Omega[0,1]) [1,3]").result),
            (std::vector<double>{2, 6}));
  const Term t = parse("\\x:R->R->R. \\y:R->R. \\z:R. x z (y z)");
  EXPECT_TRUE(lin(t->kids[0]->kids[0]->kids[0]).contains("x")); // lin(x z (y z)) = {x} (L153)
  EXPECT_FALSE(lin(t->kids[0]->kids[0]->kids[0]).contains("y"));
}

// §8.6 T1-T20 (derived per-rule regression tests).
TEST(PullbackGolden, PerRuleTable) {
  const std::vector<std::pair<std::string, std::vector<double>>> closed = {
      {"(\\v:R^2. (J g @ v) [1,3])^* @ [0,1]^*", {2, 6}},        // T1
      {"((Omega \\x:R^2. g(x)) @ Omega[0,1]) [1,3]", {2, 6}},    // T2
      {"((Omega \\x:R. pow2(x)) @ Omega[2]) 3", {12}},           // T3
      {"((Omega \\x:R. pow2(x)) @ Omega[1]) 3", {6}},            // T3
      {"((Omega \\p:R^2. p.1 + p.2) @ Omega[1]) [4,5]", {1, 1}}, // T4
      {"((Omega \\x:R. <x, 3>) @ (\\u:R^2. [2,7]^*)) 1", {2}},   // T6
      {"((Omega \\p:R^2. p.2) @ Omega[1]) [4,5]", {0, 1}},       // T8
      {"((Omega \\x:R^2. x) @ Omega[3,4]) [1,1]", {3, 4}},       // T9
      {"((Omega \\a:R^2. J g @ a) @ (\\h:R^2->R^2. (\\k:R^2->R^2. k [1,3])^* @ [0,1]^*)) [1,0]",
       {2, 6}}, // T10
      {"((Omega \\y:R. \\x:R. mult(<y, x>)) @ (\\h:R->R. (\\k:R->R. k 2)^* @ [1]^*)) 3",
       {2}},                                                         // T11
      {"((Omega \\y:R. (\\z:R. mult(<z,z>)) y) @ Omega[1]) 3", {6}}, // T12
      {"((Omega \\x:R. let a = sin(x) in mult(<a, a>)) @ Omega[1]) 0.5",
       {0.8414709848078965}},                                  // T15
      {"((Omega \\x:R^2. mult(x)) @ Omega[1]) [3,4]", {4, 3}}, // T20
  };
  for (const auto& [source, expected] : closed) {
    SCOPED_TRACE(source);
    const std::vector<double> got = covector_of(run(source).result);
    ASSERT_EQ(got.size(), expected.size());
    for (std::size_t i = 0; i < got.size(); ++i)
      EXPECT_NEAR(got[i], expected[i], 1e-15);
  }
  // T15: sin is evaluated once
  EXPECT_EQ(fired(run("((Omega \\x:R. let a = sin(x) in mult(<a, a>)) @ Omega[1]) 0.5"), "3"), 2);
  // T5, T7: free c
  const std::map<std::string, Type> c = {{"c", real_type()}};
  EXPECT_EQ(covector_of(run_open("((Omega \\x:R. c + x) @ Omega[1]) 2", c).result),
            std::vector<double>{1});
  EXPECT_EQ(covector_of(run_open("((Omega \\x:R. <c, x>) @ (\\u:R^2. [2,7]^*)) 1", c).result),
            std::vector<double>{7});
  // T13: (\v:R->R. v 5)^* @ [1]^*, probe v = \t. mult(<t,3>) gives 15
  const pullback::Run t13 = run("((Omega \\h:R->R. h 5) @ Omega[1]) (\\t:R. mult(<t,t>))");
  EXPECT_TRUE(alpha_equal(t13.result, parse_closed("(\\v:R->R. v 5)^* @ [1]^*")))
      << print(t13.result);
  const auto phi = denote<double>(t13.result, nullptr, {});
  EXPECT_DOUBLE_EQ(phi(denote<double>(parse("\\t:R. mult(<t,3>)"), nullptr, {})).real().primal(),
                   15);
  // T14 (free c): (\v:R->R. v c)^* @ [1]^*
  const pullback::Run t14 = run_open("((Omega \\h:R->R. h c) @ Omega[1]) (\\t:R. mult(<t,t>))", c);
  EXPECT_TRUE(alpha_equal(t14.result, parse("(\\v:R->R. v c)^* @ [1]^*", c))) << print(t14.result);
  // T16: (\v:(R^2)^*. (\x:R^2. <x.2,x.1>)^* @ v)^* @ (om [7,5]^*)
  const pullback::Run t16 =
      run_open("((Omega \\u:(R^2)^*. (\\x:R^2. <x.2, x.1>)^* @ u) @ om) [5,7]^*",
               {{"om", one_form(dual(real_power(2)))}});
  ASSERT_EQ(t16.result->kind, Kind::dualmap) << print(t16.result);
  EXPECT_EQ(print(t16.result->kids[1]), "om [7, 5]^*");
  // T18, T19: stuck normal forms (value 1, value 2), sound: T19 denotes -sin 0.3
  const pullback::Run t19 = run("((Omega \\y:R. (J sin @ 1) y) @ Omega[1]) 0.3");
  EXPECT_NE(t19.result->kind, Kind::covec);
  const auto d19 = denote<double>(t19.result, nullptr, {});
  EXPECT_NEAR(d19(model::Value<double>(1.0)).real().primal(), -0.29552020666133955, 1e-12);
  const pullback::Run t18 =
      run_open("((Omega \\y:R. \\x:R->R. x y) @ om) 3",
               {{"om", one_form(arrow(arrow(real_type(), real_type()), real_type()))}});
  EXPECT_EQ(t18.result->kind, Kind::app) << print(t18.result); // the redex itself
}

// §8.4: the higher-order sum over Church lists (Ex. 3.2, App. A.2, Fig. 5).
TEST(PullbackGolden, ChurchListSum) {
  const std::string query = "((Omega \\l:(R->R->R)->R->R. l (\\x:R. \\y:R. x + y) 0) @ Omega[1]) "
                            "(\\f:R->R->R. \\d:R. f (-1) (f 7 d))";
  const pullback::Run r = run(query);
  const Term expected = parse_closed(
      "(\\v:(R->R->R)->R->R. v (\\x:R. let z1 : R -> R = (\\y:R. let z2 : R = x + y in z2) in z1) "
      "0)^* @ [1]^*");
  EXPECT_TRUE(alpha_equal(r.result, expected)) << print(r.result);
  const auto phi = denote<double>(r.result, nullptr, {});
  const auto probe = [&](const char* list) {
    return phi(denote<double>(parse(list), nullptr, {})).real().primal();
  };
  EXPECT_DOUBLE_EQ(probe("\\f:R->R->R. \\d:R. f 5 (f 2 d)"), 7);
  EXPECT_DOUBLE_EQ(probe("\\f:R->R->R. \\d:R. f 3 (f 4 (f 5 d))"), 12);
  EXPECT_DOUBLE_EQ(probe("\\f:R->R->R. \\d:R. d"), 0);
  EXPECT_DOUBLE_EQ(probe("\\f:R->R->R. \\d:R. f d d"), 0);
  // the forward value fed to ω is sum [7,-1] = 6 (L741)
  const pullback::Run sym =
      run_open("((Omega \\l:(R->R->R)->R->R. l (\\x:R. \\y:R. x + y) 0) @ om) "
               "(\\f:R->R->R. \\d:R. f (-1) (f 7 d))",
               {{"om", one_form(real_type())}});
  ASSERT_EQ(sym.result->kind, Kind::dualmap);
  EXPECT_EQ(print(sym.result->kids[1]), "om 6");
}

TEST(PullbackGolden, Figure5SubResult) {
  const pullback::Run r =
      run_open("((Omega \\f:R->R->R. \\d:R. f (-1) (f 7 d)) @ om) (\\x:R. \\y:R. x + y)",
               {{"om", one_form(arrow(real_type(), real_type()))}});
  ASSERT_EQ(r.result->kind, Kind::dualmap) << print(r.result);
  const Term& body = r.result->kids[0];
  const auto at_2 = [&](const char* v) {
    const auto env = extend<double>(nullptr, r.result->name, denote<double>(parse(v), nullptr, {}));
    return denote<double>(body, env, {})(model::Value<double>(2.0)).real().primal();
  };
  EXPECT_DOUBLE_EQ(at_2("\\a:R. \\b:R. mult(<a,b>)"), 5);
  EXPECT_DOUBLE_EQ(at_2("\\a:R. \\b:R. a"), 6);
  EXPECT_DOUBLE_EQ(at_2("\\a:R. \\b:R. b"), 11);
  // the forward value passed to om is d ↦ 6 + d
  const auto w = denote<double>(r.result->kids[1]->kids[1], nullptr, {});
  EXPECT_DOUBLE_EQ(w(model::Value<double>(2.0)).real().primal(), 8);
}

} // namespace
} // namespace adsem::pullback::golden_test
