// Lexer, parser, printer and type checker of simple-diff (spec §2.6, §3; seed 003 Fig. 1).
#include <gtest/gtest.h>

#include <fstream>
#include <iterator>

#include "syntax/core/lexer.hpp"
#include "syntax/simple_diff/names.hpp"
#include "tests/simple_diff/helpers.hpp"

namespace adsem::simple_diff::syntax_test {
namespace {

// ---- lexer ---------------------------------------------------------------------------------

TEST(SimpleDiffLexer, NumbersCommentsAndPositions) {
  LexerConfig config;
  config.symbols = {"(", ")", ".", "-", "()", "="};
  config.keywords = {"let"};
  const auto tokens = lex("let x1' = 1.5e-3 -- comment\n  1.rd # more\n()", config);
  ASSERT_EQ(tokens.size(), 9u);
  EXPECT_EQ(tokens[0].kind, Token::Kind::keyword);
  EXPECT_EQ(tokens[1].text, "x1'");
  EXPECT_TRUE(tokens[2].is_symbol("="));
  EXPECT_EQ(tokens[3].number, 1.5e-3);
  EXPECT_EQ(tokens[4].pos, (SourcePos{2, 3}));
  EXPECT_EQ(tokens[6].text, "rd");
  EXPECT_TRUE(tokens[7].is_symbol("()")); // longest match
  EXPECT_EQ(tokens[7].pos, (SourcePos{3, 1}));
  EXPECT_EQ(tokens[8].kind, Token::Kind::end);
}

TEST(SimpleDiffLexer, DotAfterIntegerIsASeparateToken) {
  LexerConfig config;
  config.symbols = {".", "(", ")", "[", "]", "()"};
  const auto tokens = lex("1.rd 2.5 1e10 3E+2 7e", config);
  ASSERT_GE(tokens.size(), 7u);
  EXPECT_EQ(tokens[0].kind, Token::Kind::number);
  EXPECT_EQ(tokens[0].number, 1.0);
  EXPECT_TRUE(tokens[1].is_symbol("."));
  EXPECT_EQ(tokens[2].text, "rd");
  EXPECT_EQ(tokens[3].number, 2.5);
  EXPECT_EQ(tokens[4].number, 1e10);
  EXPECT_EQ(tokens[5].number, 300.0);
  EXPECT_EQ(tokens[6].number, 7.0); // "7e" is 7 followed by the identifier e
  EXPECT_EQ(tokens[7].text, "e");
  EXPECT_EQ((tokens[3].pos), (SourcePos{1, 6}));
}

TEST(SimpleDiffLexer, UnexpectedCharacterIsLocated) {
  LexerConfig config;
  config.symbols = {"+"};
  try {
    lex("a +\n  $", config);
    FAIL() << "no error";
  } catch (const AdsemError& e) {
    EXPECT_EQ(e.diagnostic().kind, ErrorKind::parse);
    EXPECT_EQ(e.diagnostic().pos, (SourcePos{2, 3}));
  }
}

// ---- parser and printer --------------------------------------------------------------------

Term parse(const std::string& s) {
  return parse_term(s, primitives());
}

// Every program of spec §2.6 / §4.9 / §8: print(parse(s)) re-parses to an alpha-equal term, and
// printing is a fixed point after one round.
const char* const round_trip_examples[] = {
    "1.rd[1](x:real. x * 1.rd[1](y:real. x + y))",
    "letrec f(x:real):real = 1.rd[1](y:real. x + y) in 1.rd[1](x:real. x + f(x))",
    "let relu(x:real):real = if x < 0 then 0 else x in relu(-2)",
    "grad[<<1,2>,<3,4>>](p:real^2*real^2. dprod2(p))",
    "dprod2_r(<<<1,2>,<3,4>>, 2>)",
    "1.fd[real, 3](x:real. x * x)",
    "<1, 0>.fd[real * real, <1, 2>](x:real^2. <fst(x) * snd(x), sin(fst(x))>)",
    "<5, 7>.rd[<0, 0>](x:real^2. <2 * fst(x) + 3 * snd(x), snd(x)>)",
    "grad[3](x:real. let y:real = x * x in y * y)",
    "2.rd[<1, <2, 3>>](x:real * (real * real). fst(x))",
    "(3 * 2).rd[1.5](x:real. x * x)",
    "().rd[3](x:real. ())",
    "5.rd[()](x:unit. 3)",
    "().rd[-1](x:real. let u:real = log(x) in ())",
    "grad[0](x:real. 1 / x)",
    "letrec loop(x:real):real = loop(x) in loop(1)",
    "letrec pow(p: real * real): real = if snd(p) < 0.5 then 1 else fst(p) * pow(<fst(p), "
    "snd(p) - 1>) in pow(<2, 3>)",
    "letrec f(x:real):real = if x < 1 then x * x else 1.rd[0.5 * x](y:real. f(y)) in f(3)",
    "grad[5](x:real. if x + 1 < 0 then x * 2 else x)",
    "let <a:real, b:real, c:unit> = <<1, 2>, ()> in a - b - (a - b) / 2",
    "plus[real * unit](<1, ()>, zero[real * unit])",
    "letrec[3] f(x:real):real = f(x) in f(1e-07)",
    "if gt(1, 2) then true_branch() else 0",
    "if 2 > 1 then 1 else -0.5 * -2",
    "let f(u:unit):real = 1 in f() + f(())",
};

TEST(SimpleDiffParser, RoundTripOnSpecExamples) {
  for (const char* source : round_trip_examples) {
    SCOPED_TRACE(source);
    Term m;
    try {
      m = parse(source);
    } catch (const AdsemError& e) {
      FAIL() << e.what();
    }
    const std::string printed = print(m);
    const Term again = parse(printed);
    EXPECT_TRUE(alpha_equal(m, again)) << printed;
    EXPECT_EQ(print(again), printed);
    // the core printing (no sugar) re-parses to the same term as well
    PrintOptions core;
    core.sugar = false;
    EXPECT_TRUE(alpha_equal(m, parse(print(m, core)))) << print(m, core);
  }
}

TEST(SimpleDiffParser, PrinterShowsTheUsersForms) {
  EXPECT_EQ(print(parse("grad[<1,2>](x:real^2. fst(x) * snd(x))")),
            "grad[<1, 2>](x:real * real. fst(x) * snd(x))");
  EXPECT_EQ(print(parse("1.fd[real, 3](x:real. x*x)")), "1.fd[real, 3](x:real. x * x)");
  EXPECT_EQ(print(parse("let <a:real, b:real> = p in a")), "let <a:real, b:real> = p in a");
  EXPECT_EQ(print(parse("zero[real*real]")), "zero[real * real]");
  EXPECT_EQ(print(parse("a - (b - c)")), "a - (b - c)");
  EXPECT_EQ(print(parse("(a + b) * c")), "(a + b) * c");
  EXPECT_EQ(print(parse("x * 1.rd[1](y:real. x + y)")), "x * 1.rd[1](y:real. x + y)");
}

TEST(SimpleDiffParser, DerivedFormsExpandAsTheSpecSays) {
  // grad_L(x.N) = 1.rd_L(x.N) (line 140)
  EXPECT_TRUE(alpha_equal(parse("grad[2](x:real. x * x)"), parse("1.rd[2](x:real. x * x)")));
  // M.fd_{U,L}(x.N) = M.rd_{0_U}(y:U. y.rd_L(x.N)) (lines 144-148)
  EXPECT_TRUE(alpha_equal(parse("1.fd[real, 3](x:real. x * x)"),
                          parse("1.rd[0](y:real. y.rd[3](x:real. x * x))")));
  // binary tuple let (spec §2.3)
  EXPECT_TRUE(alpha_equal(parse("let <a:real, b:unit> = m in a"),
                          parse("let z:real * unit = m in let a:real = fst(z) in "
                                "let b:unit = snd(z) in a")));
  // a - b = sub(<a, b>), f(a, b, c) = f(<<a, b>, c>), real^3 = (real * real) * real
  EXPECT_TRUE(alpha_equal(parse("a - b * c"), parse("sub(<a, mul(<b, c>)>)")));
  EXPECT_TRUE(alpha_equal(parse("f(a, b, c)"), parse("f(<<a, b>, c>)")));
  EXPECT_TRUE(same_type(parse_type("real^3"), parse_type("(real * real) * real")));
  EXPECT_TRUE(same_type(parse_type("R * Real"), parse_type("real^2")));
  EXPECT_TRUE(same_type(parse_type("real^0"), unit_type()));
  // 0_{real × unit} = <0, *>
  EXPECT_TRUE(alpha_equal(parse("zero[real * unit]"), parse("<0, ()>")));
}

struct ParseErrorCase {
  const char* source;
  int line, column;
};

TEST(SimpleDiffParser, ErrorsAreLocated) {
  const ParseErrorCase cases[] = {
      {"let x:real = 1 x", 1, 16},                     // expected 'in'
      {"1 +\n  * 2", 2, 3},                            // expected a term
      {"if (x < 0) then 1 else 2", 1, 7},              // no parentheses around guards
      {"letrec sin(x:real):real = x in 1", 1, 8},      // primitive names are reserved
      {"<1, 2", 1, 6},                                 // unclosed tuple
      {"1.rd[1](x real. x)", 1, 11},                   // missing ':'
      {"let x:real^y = 1 in x", 1, 12},                // real^NAT
      {"if less(1, 2) then less(1, 2) else 0", 1, 20}, // predicate as a term
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.source);
    try {
      parse(c.source);
      ADD_FAILURE() << "parsed";
    } catch (const AdsemError& e) {
      EXPECT_EQ(e.diagnostic().kind, ErrorKind::parse) << e.what();
      ASSERT_TRUE(e.diagnostic().pos) << e.what();
      EXPECT_EQ(e.diagnostic().pos->line, c.line) << e.what();
      EXPECT_EQ(e.diagnostic().pos->column, c.column) << e.what();
    }
  }
}

TEST(SimpleDiffParser, DeepNestingIsAnErrorNotACrash) {
  const int depth = 100'000;
  const std::string parens = std::string(depth, '(') + "1" + std::string(depth, ')');
  try {
    parse(parens);
    FAIL() << "parsed a 100,000-deep term";
  } catch (const AdsemError& e) {
    EXPECT_EQ(e.diagnostic().kind, ErrorKind::parse);
    EXPECT_NE(std::string(e.what()).find("deeper"), std::string::npos) << e.what();
  }
  std::string lets;
  for (int i = 0; i < depth; ++i)
    lets += "let x:real = 1 in ";
  lets += "x";
  EXPECT_THROW(parse(lets), AdsemError);
  std::string sums;
  for (int i = 0; i < depth; ++i)
    sums += "1 + (";
  sums += "1" + std::string(depth, ')');
  EXPECT_THROW(check_source(sums), AdsemError);
}

// A let is one level of the source walks' guard (syntax/simple_diff/nesting.hpp: 20,000 levels, on
// a large stack), so the let series of 10,000 stages that docs/performance.md measures reads from
// text, and so does the deepest series the guard admits (its last stage's sin(x) adds two levels);
// one stage more is a located parse error, not a stack overflow.
std::string let_series(int n) {
  std::string s = "let x:real = 0.3 in let x1:real = sin(x) in ";
  for (int i = 1; i < n; ++i)
    s += "let x" + std::to_string(i + 1) + ":real = " + (i % 2 == 1 ? "tanh" : "sin") + "(x" +
         std::to_string(i) + ") in ";
  return s + "x" + std::to_string(n);
}

TEST(SimpleDiffParser, LetSeriesUpToTheSourceNestingGuard) {
  const Typed deepest = check_source(let_series(19'996));
  EXPECT_TRUE(alpha_equal(parse(print(deepest.term)), deepest.term));
  EXPECT_EQ(print_type(deepest.type), "real");
  const std::string beyond = let_series(19'997);
  try {
    parse(beyond);
    FAIL() << "parsed a let series past the guard";
  } catch (const AdsemError& e) {
    EXPECT_EQ(e.diagnostic().kind, ErrorKind::parse);
    EXPECT_EQ(e.diagnostic().message, "term nested deeper than 20000 levels");
    ASSERT_TRUE(e.diagnostic().pos.has_value());
    EXPECT_GT(e.diagnostic().pos->column, static_cast<int>(beyond.size()) - 100);
  }
}

TEST(SimpleDiffSemantics, LetSeriesOfTenThousandStagesDifferentiates) {
  // rd with R-fast on the complexity family's series (properties/simple_diff/
  // complexity_families.cpp), which stopped at the parser's former 10,000-level guard
  std::string body = "let x1:real = sin(x) in ";
  for (int i = 1; i < 10'000; ++i)
    body += "let x" + std::to_string(i + 1) + ":real = " + (i % 2 == 1 ? "tanh" : "sin") + "(x" +
            std::to_string(i) + ") in ";
  body += "x10000";
  const Term n = check_source(body, {{"x", real_type()}}).term;
  Options o;
  o.fuel = 10'000'000;
  const GradientOutcome g = gradient("x", real_type(), n, {0.3}, o);
  EXPECT_NEAR(flatten(g.value).at(0), 0.014125296383803236, 1e-15);
  EXPECT_NEAR(flatten(g.gradient).at(0), 0.00010310941680205072, 1e-17);
}

// ---- type checker --------------------------------------------------------------------------

std::string type_of(const std::string& s, const TypeContext& gamma = {}) {
  return print_type(check_source(s, gamma).type);
}

// Fresh names avoid every identifier of the program of the form stem_digits (the only ones a
// fresh name can equal) and are never handed out twice.
TEST(SimpleDiffNames, FreshNamesAvoidTheProgramsNumberedNames) {
  NameSupply names;
  names.avoid_all(*mk::let("t_1", real_type(), mk::var("t"), mk::var("t_2_x")));
  names.avoid("t_3");
  EXPECT_EQ(names.fresh("t"), "t_2");   // t_1 is the program's; t_2_x is another name
  EXPECT_EQ(names.fresh("t_9"), "t_4"); // a numbered base keeps its stem; t_3 is avoided
  EXPECT_EQ(names.fresh("t_"), "t__5"); // no digits after the '_': the stem is "t_"
  NameSupply other;
  other.avoid("x_2");
  EXPECT_EQ(other.fresh("x"), "x_1");
  EXPECT_EQ(other.fresh("x"), "x_3");
}

TEST(SimpleDiffTypes, SpecTypingExamples) {
  EXPECT_EQ(type_of("1.rd[1](x:real. x * 1.rd[1](y:real. x + y))"), "real");
  EXPECT_EQ(type_of("grad[<<1,2>,<3,4>>](p:real^2*real^2. dprod2(p))"),
            "real * real * (real * real)");
  EXPECT_EQ(type_of("dprod2_r(<<<1,2>,<3,4>>, 2>)"), "real * real * (real * real)");
  EXPECT_EQ(type_of("mul_r_r(<<<1, 2>, 3>, <4, 5>>)"), "real * real * real");
  EXPECT_EQ(type_of("<1, 0>.fd[real * real, <1, 2>](x:real^2. <fst(x) * snd(x), sin(fst(x))>)"),
            "real * real");
  EXPECT_EQ(type_of("5.rd[()](x:unit. 3)"), "unit");
  EXPECT_EQ(type_of("plus[real * unit](<1, ()>, zero[real * unit])"), "real * unit");
  EXPECT_EQ(type_of("let <a:real, b:real, c:unit> = <<1, 2>, ()> in c"), "unit");
  EXPECT_EQ(type_of("x + y", {{"x", real_type()}, {"y", real_type()}}), "real");
  std::string e5;
  {
    std::ifstream in(std::string(ADSEM_SOURCE_DIR) + "/examples/simple_diff/e5_training.ad");
    e5.assign(std::istreambuf_iterator<char>(in), {});
  }
  EXPECT_EQ(type_of(e5), "real * real");
}

TEST(SimpleDiffTypes, AnnotationsAreFilledInAndUnique) {
  const Typed t = check_source("fst(<1, <2, ()>>)");
  const Node& fst = *t.term;
  ASSERT_TRUE(fst.ann_left() && fst.ann_right());
  EXPECT_EQ(print_type(fst.ann_left()), "real");
  EXPECT_EQ(print_type(fst.ann_right()), "real * unit");
  ASSERT_TRUE(fst.a->ann_left());
  // re-checking the elaborated term gives the same type (P-TY-1)
  EXPECT_TRUE(same_type(typecheck(t.term, primitives()).type, t.type));
  // a different annotation is rejected
  const Term wrong = mk::fst(mk::pair(mk::constant(1), mk::unit()), real_type(), real_type());
  EXPECT_THROW(typecheck(wrong, primitives()), AdsemError);
}

struct TypeErrorCase {
  const char* source;
  int line, column;
  const char* words;
};

TEST(SimpleDiffTypes, ErrorsAreLocatedAndReadable) {
  const TypeErrorCase cases[] = {
      {"1 + <1, 2>", 1, 5, "right operand of '+'"},
      {"let x:real = 1 in\n  fst(x)", 2, 7, "expects a product"},
      {"if 1 < 2 then 1 else ()", 1, 22, "branches of 'if' differ"},
      {"g(1)", 1, 1, "unknown function 'g'"},
      {"let y:real = 2 in letrec f(x:real):real = x + y in f(1)", 1, 47, "parameter"},
      {"1.rd[<1, 2>](x:real. x)", 1, 6, "point of rd"},
      {"<1, 2>.rd[1](x:real. x)", 1, 1, "cotangent of rd"},
      {"sin(<1, 2>)", 1, 5, "argument of sin"},
      {"letrec f(x:real):unit = x in 1", 1, 25, "body of function f"},
      {"z", 1, 1, "unbound variable 'z'"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.source);
    try {
      check_source(c.source);
      ADD_FAILURE() << "type-checked";
    } catch (const AdsemError& e) {
      EXPECT_EQ(e.diagnostic().kind, ErrorKind::type) << e.what();
      ASSERT_TRUE(e.diagnostic().pos) << e.what();
      EXPECT_EQ(e.diagnostic().pos->line, c.line) << e.what();
      EXPECT_EQ(e.diagnostic().pos->column, c.column) << e.what();
      EXPECT_NE(std::string(e.what()).find(c.words), std::string::npos) << e.what();
    }
  }
}

TEST(SimpleDiffTypes, RdBinderDoesNotScopeOverPointAndCotangent) {
  // P-17: x in L and M is the outer x
  EXPECT_EQ(type_of("x.rd[<x, x>](x:real * real. fst(x))", {{"x", real_type()}}), "real * real");
}

} // namespace
} // namespace adsem::simple_diff::syntax_test
