// simple-diff: primitives from the shared table (ev and op_r^k of one generic
// definition), evaluation contexts (Lemma 3.1), the limited language with one definite ⊥ on both
// sides, and the linear size of R-fast against its derived bound.
#include <gtest/gtest.h>
#include <rapidcheck.h>

#include <algorithm>
#include <cmath>

#include "generators/simple_diff/terms.hpp"
#include "properties/simple_diff/frontend.hpp"
#include "semantics/core/finite_difference.hpp"
#include "semantics/simple_diff/denotation.hpp"
#include "semantics/simple_diff/operations.hpp"
#include "syntax/simple_diff/contexts.hpp"
#include "syntax/simple_diff/derived.hpp"
#include "tests/simple_diff/helpers.hpp"

namespace adsem::simple_diff::primitives_contexts_test {
namespace {

// Every operation comes from the shared table, with op_r = J^T w checked against
// central finite differences of ev(op) (spec P-DEN-5), and Dom(op_r) = Dom(op) × R^m.
TEST(SimpleDiffPrimitives, EveryTableEntryWithItsReverseDerivative) {
  int checked = 0;
  for (const Primitive& p : adsem::primitives().entries()) {
    const auto op = ops::find_operation(p.name());
    if (p.is_predicate() || !op) continue; // relu, step, sigma, dsigma, sq, g: not operations here
    const auto op_r = ops::find_operation(p.name() + "_r");
    ASSERT_TRUE(op_r) << p.name();
    std::vector<double> a(p.arity());
    for (std::size_t i = 0; i < a.size(); ++i)
      a[i] = 0.7 + 0.3 * static_cast<double>(i); // inside every domain (relu, step: x != 0)
    const std::vector<double> w(p.coarity(), 1.25);
    std::vector<double> aw = a;
    aw.insert(aw.end(), w.begin(), w.end());
    const std::vector<double> rev = ops::apply(*op_r, aw);
    ASSERT_EQ(rev.size(), a.size());
    for (std::size_t j = 0; j < a.size(); ++j) {
      const auto f = [&](double t) {
        std::vector<double> shifted = a;
        shifted[j] = t;
        const std::vector<double> y = ops::apply(*op, shifted);
        double dot = 0;
        for (std::size_t i = 0; i < y.size(); ++i)
          dot += w[i] * y[i];
        return dot;
      };
      const double h = 1e-5;
      const double fd = (f(a[j] + h) - f(a[j] - h)) / (2 * h);
      EXPECT_NEAR(rev[j], fd, 1e-6 * (1 + std::abs(fd))) << p.name() << "_r, coordinate " << j;
    }
    ++checked;
  }
  EXPECT_EQ(checked, 13); // add sub mul div neg recip exp log sqrt sin cos tanh dot2
  // exact domains: log_r(<-1, 1>) is undefined, not -1 (spec §7.2)
  EXPECT_EQ(test::failure("log_r(<-1, 1>)"), ErrorKind::domain);
  EXPECT_EQ(test::failure("sqrt_r_r(<<0, 1>, 1>)"), ErrorKind::domain);
  EXPECT_EQ(test::reals("log_r_r(<<2, 3>, 1>)"), (std::vector<double>{-0.75, 0.5}));
}

TEST(SimpleDiffPrimitives, DotProductsOfEverySize) {
  EXPECT_EQ(test::reals("dprod3(<<1, 2, 3>, <4, 5, 6>>)"), (std::vector<double>{32}));
  EXPECT_EQ(test::reals("dprod3_r(<<<1, 2, 3>, <4, 5, 6>>, 2>)"),
            (std::vector<double>{8, 10, 12, 2, 4, 6}));
  EXPECT_EQ(test::reals("grad[<1, 3>](p:real * real. dprod1(p))"), (std::vector<double>{3, 1}));
  // the model uses the same table entries
  const Frontend fe;
  EXPECT_EQ(fe.denote("dprod3(<<1, 2, 3>, <4, 5, 6>>)", std::nullopt).value,
            std::vector<double>{32});
  // Mak–Ong's table entry g is not an operation here: g is a function name (unknown: a type error)
  EXPECT_THROW(check_source("g(1)"), AdsemError);
  EXPECT_EQ(test::reals("let g(y:real):real = y * 2 in g(1)"), std::vector<double>{2});
}

// codomain() is the U of arity() = (T, U) for op_r^k : T → U at every order (seed 003 lines
// 233-241): op_r : T × U → T, so the codomain of op_r^k is the domain of op_r^(k-1).
TEST(SimpleDiffPrimitives, CodomainIsTheArityCodomain) {
  for (const std::string base : {"sin", "mul", "dot2", "dprod3", "add"}) {
    std::string name = base;
    for (int order = 0; order <= 3; ++order, name += "_r") {
      const auto op = ops::find_operation(name);
      ASSERT_TRUE(op) << name;
      EXPECT_TRUE(same_type(op->codomain(), op->arity().second))
          << name << ": " << print_type(op->codomain()) << " vs " << print_type(op->arity().second);
    }
  }
  EXPECT_EQ(print_type(ops::find_operation("mul_r")->codomain()), "real * real");
  EXPECT_EQ(print_type(ops::find_operation("dprod3")->codomain()), "real");
}

TEST(SimpleDiffContexts, DecomposeFollowsTheGrammar) {
  const auto redex_text = [](const std::string& source) {
    const Term m = check_source(source, {{"x", real_type()}}).term;
    const auto d = decompose(m);
    EXPECT_EQ(all_redex_occurrences(m).size(), d ? 1u : 0u) << source;
    return d ? test::canonical(d->redex) : std::string("value");
  };
  EXPECT_EQ(redex_text("<x, 1>"), "value");
  EXPECT_EQ(redex_text("(x + 1) + (x + 2)"),
            test::canonical(check_source("x + 1", {{"x", real_type()}}).term));
  EXPECT_EQ(redex_text("if x < 1 then 2 else 3"), "less(<x, 1>)");
  EXPECT_EQ(redex_text("letrec f(y:real):real = y in f(x)"),
            test::canonical(
                check_source("letrec f(y:real):real = y in f(x)", {{"x", real_type()}}).term));
  // in rd the point comes first
  EXPECT_EQ(redex_text("(x + 1).rd[x * 2](y:real. y)"),
            test::canonical(check_source("x * 2", {{"x", real_type()}}).term));
}

// letrec_n: a call through clo_0 is a definite ⊥ on both sides (Fig. 8; spec P-10), for every n.
TEST(SimpleDiffLimited, SameBottomOnBothSides) {
  const Term loop = check_source("letrec loop(x:real):real = loop(x) in loop(1)").term;
  const Term pow = check_source("letrec pow(p: real * real): real = if snd(p) < 0.5 then 1 "
                                "else fst(p) * pow(<fst(p), snd(p) - 1>) in pow(<2, 3>)")
                       .term;
  const model::DiffContext dc;
  for (int n = 0; n <= 5; ++n) {
    SCOPED_TRACE(n);
    EXPECT_THROW(evaluate(approximant(loop, n)), ApproximantStuck);
    try {
      denotation::denote<double>(approximant(loop, n), {}, dc);
      ADD_FAILURE() << "the model gives loop^(n) a value";
    } catch (const model::Undefined& e) {
      EXPECT_EQ(e.reason(), denotation::approximant_bottom);
    }
    const bool defined = n >= 4; // pow(<2, 3>) needs 4 nested calls
    bool op_defined = true, model_defined = true;
    try {
      evaluate(approximant(pow, n));
    } catch (const ApproximantStuck&) {
      op_defined = false;
    }
    try {
      denotation::denote<double>(approximant(pow, n), {}, dc);
    } catch (const model::Undefined&) {
      model_defined = false;
    }
    EXPECT_EQ(op_defined, defined);
    EXPECT_EQ(model_defined, defined);
  }
  // the step budget stays "unknown", unlike clo_0
  try {
    evaluate(loop, test::mode(DiffMode::linear, 1000));
    ADD_FAILURE();
  } catch (const AdsemError& e) {
    EXPECT_TRUE(is_unknown(e));
  }
}

int type_tree(const TypeNode& t) {
  return t.is_product() ? 1 + type_tree(*t.left) + type_tree(*t.right) : 1;
}

// R-fast against the bound k(σ) = 20 + 23σ derived in properties.cpp (linear-cost), and the
// measured ratios (printed; docs/calculi/simple-diff.md quotes them).
TEST(SimpleDiffCost, RFastWithinTheDerivedBound) {
  double worst = 0, worst_share = 0;
  const auto g = gen::open_term({.trace_only = true, .max_size = 60});
  for (int i = 0; i < 300; ++i) {
    const gen::OpenTerm t = g(rc::Random(77 + static_cast<std::uint64_t>(i)), 100).value();
    const Term w = value_term(
        unflatten(t.type, std::vector<double>(static_cast<std::size_t>(type_size(*t.type)), 1.0)));
    const Term v = value_term(
        unflatten(t.t, std::vector<double>(static_cast<std::size_t>(type_size(*t.t)), 0.5)));
    const long in = term_size(*t.term) + term_size(*w) + term_size(*v);
    const long out = term_size(*symbolic_derivative(w, v, t.x, t.t, t.term).trace);
    const int sigma = std::max(type_tree(*t.t), type_tree(*t.type));
    worst = std::max(worst, static_cast<double>(out) / static_cast<double>(in));
    worst_share = std::max(worst_share, static_cast<double>(out) /
                                            (static_cast<double>(in) * (20 + 23 * sigma)));
  }
  std::printf("R-fast: max |out|/|in| = %.2f, max |out|/(k(σ)|in|) = %.3f over 300 traces\n", worst,
              worst_share);
  EXPECT_LE(worst_share, 1.0);
  // a let of a pair of atoms is bound once (an atom copy) and pulled back through its uses
  const Term c = check_source("let y:(real*real)*(real*real) = <<x, x * x>, <x, 2>> in "
                              "fst(fst(y)) + snd(fst(y)) * fst(snd(y)) + snd(snd(y))",
                              {{"x", real_type()}})
                     .term;
  for (const DiffMode mode : {DiffMode::linear, DiffMode::literal}) {
    const Term d = symbolic_derivative(value_term(Value::real(1)), value_term(Value::real(3)), "x",
                                       real_type(), c, test::mode(mode))
                       .trace;
    EXPECT_EQ(flatten(evaluate(d).value), std::vector<double>{28}); // 1 + 3x^2 at 3
  }
}

} // namespace
} // namespace adsem::simple_diff::primitives_contexts_test
