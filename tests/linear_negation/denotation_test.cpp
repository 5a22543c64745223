// The model ⟦−⟧ of seed 002 §4.3 (Table 4) walks a compiled form of the term (variables resolved
// to environment positions): its values, the order in which it visits subterms (which of two
// errors surfaces first decides a trial's discard reason) and the work units it charges to the
// budget (one per node visited, a λ's body at each application) are those of the walk on the term.
#include <cmath>
#include <memory>
#include <string>
#include <variant>

#include <gtest/gtest.h>

#include "semantics/linear_negation/denotation.hpp"
#include "semantics/linear_negation/program.hpp"

namespace adsem::linear_negation::denotation_test {
namespace {

using V = model::Value<double>;

double value_of(const std::string& text) {
  return denote<double>(parse_elaborated(text, Mode::target).term, nullptr).real().primal();
}

std::string error_of(const Term& t, const Env<double>& env = nullptr) {
  try {
    (void)denote<double>(t, env);
  } catch (const AdsemError& e) {
    return e.diagnostic().message;
  }
  return "no error";
}

std::string error_of(const std::string& text) {
  return error_of(parse_elaborated(text, Mode::target).term);
}

TEST(LinearNegationDenotation, BindersShadowAndClosuresKeepTheirEnvironment) {
  EXPECT_EQ(value_of("let x = 1.0 in let x = 2.0 in x"), 2.0);
  EXPECT_EQ(value_of("let x = 1.0 in (let x = 2.0 in x) + x"), 3.0);
  EXPECT_EQ(value_of("let x = 3.0 in let f = \\y:!R. x * y in let x = 5.0 in f x"), 15.0);
  EXPECT_EQ(value_of("let (a, b) = (2.0, 7.0) in sub(a, b)"), -5.0);
  EXPECT_EQ(value_of("let (a, a) = (2.0, 7.0) in a"), 7.0); // the second binder is innermost
  EXPECT_EQ(value_of("(\\x:!R. \\y:!R. sub(x, y)) 1.0 4.0"), -3.0);
}

TEST(LinearNegationDenotation, ReadsTheCallersEnvironmentInnermostFirst) {
  Env<double> env = linear_negation::bind<double>(nullptr, "x", V(1.0));
  env = linear_negation::bind<double>(env, "y", V(10.0));
  env = linear_negation::bind<double>(env, "x", V(100.0));
  const Term t = add(var("x"), add(var("y"), let(Binder{"y", real_type()}, var("y"), num(1000))));
  EXPECT_EQ(denote<double>(t, env).real().primal(), 1110.0);
  EXPECT_EQ(error_of(var("z"), env), "denotation: unbound variable z");
}

// An unbound name is an error only where the walk reaches it: under a λ never applied it is not.
TEST(LinearNegationDenotation, AnUnboundVariableFailsWhenVisited) {
  const Term unapplied = lam(Binder{"x", real_type()}, var("nowhere"));
  EXPECT_EQ(error_of(unapplied), "no error");
  EXPECT_EQ(error_of(app(unapplied, num(1))), "denotation: unbound variable nowhere");
}

// The first error raised is the one reported: pairs and sums visit their right operand first, an
// application its function first, a primitive its arguments from left to right, a let its bound
// term before its body.
TEST(LinearNegationDenotation, VisitsSubtermsInItsOwnOrder) {
  EXPECT_EQ(error_of(pair(var("l"), var("r"))), "denotation: unbound variable r");
  EXPECT_EQ(error_of(add(var("l"), var("r"))), "denotation: unbound variable r");
  EXPECT_EQ(error_of(app(var("f"), var("r"))), "denotation: unbound variable f");
  EXPECT_EQ(error_of(mul(var("l"), var("r"))), "denotation: unbound variable l");
  EXPECT_EQ(error_of(let(Binder{"x", real_type()}, var("body"), var("bound"))),
            "denotation: unbound variable bound");
  EXPECT_EQ(error_of("(log(-1.0), sqrt(-1.0))"), "sqrt(-1): outside the domain (x1 > 0)");
  EXPECT_EQ(error_of("log(-1.0) * sqrt(-1.0)"), "log(-1): outside the domain (x1 > 0)");
}

// A primitive's ⊥ is kept where it is met and thrown when the outermost walk returns
// (DenoteBudget): the first ⊥ in the walk's order is reported, before any error met after it.
TEST(LinearNegationDenotation, TheFirstUndefinedPointIsReportedBeforeLaterErrors) {
  const Term log_of_minus_one = prim("log", {num(-1)});
  EXPECT_EQ(error_of(pair(var("l"), log_of_minus_one)), "log(-1): outside the domain (x1 > 0)");
  EXPECT_EQ(error_of(add(app(num(1), num(2)), log_of_minus_one)),
            "log(-1): outside the domain (x1 > 0)");
  EXPECT_EQ(error_of(let(Binder{"y", real_type()}, pair(var("y"), var("y")), log_of_minus_one)),
            "log(-1): outside the domain (x1 > 0)");
  EXPECT_EQ(error_of(pair(log_of_minus_one, var("r"))), "denotation: unbound variable r");
  EXPECT_EQ(error_of("(\\x:!R. (sqrt(x), log(x))) (-3.0)"), "log(-3): outside the domain (x1 > 0)");
  EXPECT_THROW((void)denote<double>(log_of_minus_one, nullptr), model::Undefined);
}

// A closure applied from outside every walk throws its body's ⊥ at each application and leaves its
// budget usable; g, applied inside the walk (more than ApplicationMemo::min_units), remembers
// nothing of the application that met the ⊥ (its placeholder would be read back the second time).
TEST(LinearNegationDenotation, AClosureAppliedFromOutsideThrowsItsUndefinedPointEachTime) {
  const auto budget = std::make_shared<DenoteBudget>();
  const V f = denote<double>(
      parse_elaborated("let g = \\a:!R. a * log(a) + a * a + a * a + a * a + a * a + a * a in "
                       "\\x:!R. g x",
                       Mode::target)
          .term,
      nullptr, budget);
  for (int i = 0; i < 2; ++i) {
    try {
      (void)f(V(-2.0));
      ADD_FAILURE() << "no error";
    } catch (const model::Undefined& e) {
      EXPECT_EQ(e.diagnostic().message, "log(-2): outside the domain (x1 > 0)");
      EXPECT_EQ(e.reason(), model::outside_domain);
    }
    EXPECT_EQ(budget->depth.depth, 0);
  }
  EXPECT_FALSE(budget->failure);
  EXPECT_NEAR(f(V(std::exp(1.0))).real().primal(), std::exp(1.0) * (1.0 + 5.0 * std::exp(1.0)),
              1e-12);
}

// The ⊥ put in an out-parameter rather than thrown; other errors still thrown.
TEST(LinearNegationDenotation, AnUndefinedPointIsReturnedWhereAsked) {
  std::unique_ptr<const model::DomainFailure> failure;
  EXPECT_EQ(denote<double>(parse_elaborated("sub(2.0, 5.0)", Mode::target).term, nullptr, failure)
                .real()
                .primal(),
            -3.0);
  EXPECT_FALSE(failure);
  (void)denote<double>(pair(var("l"), prim("sqrt", {num(-4)})), nullptr, failure);
  ASSERT_TRUE(failure);
  ASSERT_TRUE(std::holds_alternative<model::Undefined>(*failure));
  EXPECT_EQ(std::get<model::Undefined>(*failure).diagnostic().message,
            "sqrt(-4): outside the domain (x1 > 0)");
  EXPECT_THROW((void)denote<double>(pair(prim("sqrt", {num(-4)}), var("r")), nullptr, failure),
               AdsemError);
}

long units_of(const std::string& text, double argument) {
  const auto budget = std::make_shared<DenoteBudget>();
  const V f = denote<double>(parse_elaborated(text, Mode::target).term, nullptr, budget);
  const long made = budget->work.used();
  (void)f(V(argument));
  return made * 1000 + budget->work.used();
}

// One unit a node visited: making a λ is one; each application walks its body again.
TEST(LinearNegationDenotation, ChargesOneUnitANodeVisited) {
  // λ: 1; applied: the app, the inner λ, the number, then the body x + x (3) twice
  EXPECT_EQ(units_of("\\y:!R. let f = \\x:!R. x + x in f (f y)", 1.0), 1 * 1000 + 1 + 13);
  // let (2 visits: the let and its bound number), the pair (3), the primitive (3)
  EXPECT_EQ(units_of("\\y:!R. let (a, b) = (y, 2.0) in a * b", 1.0), 1 * 1000 + 1 + 7);
}

} // namespace
} // namespace adsem::linear_negation::denotation_test
