#include "syntax/dual_numbers/parser.hpp"

#include "syntax/core/depth_guard.hpp"
#include "syntax/core/lexer.hpp"

namespace adsem::dual_numbers {

namespace {

const LexerConfig& config() {
  static const LexerConfig c{.symbols = {"(", ")", "\\", ":", ".", "<", ">", ",", "*", "->", "-"},
                             .keywords = {}}; // immutable
  return c;
}

Type read_type(TokenStream& in) {
  if (in.peek().kind == Token::Kind::identifier && in.peek().text == "real") {
    in.next();
    return real_type();
  }
  in.expect_symbol("(", "in a type");
  const Type left = read_type(in);
  const bool is_product = in.accept_symbol("*");
  if (!is_product) in.expect_symbol("->", "in a product or function type");
  const Type right = read_type(in);
  in.expect_symbol(")", "in a type");
  return is_product ? product(left, right) : arrow(left, right);
}

Term parse_term(TokenStream& in, DepthBudget& budget) {
  const DepthGuard guard(budget, in.peek().pos);
  if (in.accept_symbol("(")) {
    if (in.accept_symbol("\\")) {
      const std::string x = in.expect_identifier("in a binder").text;
      in.expect_symbol(":", "in a binder");
      const Type t = read_type(in);
      in.expect_symbol(".", "in a binder");
      const Term body = parse_term(in, budget);
      in.expect_symbol(")", "to close a lambda");
      return lam(x, t, body);
    }
    const Term f = parse_term(in, budget);
    if (in.accept_symbol(")")) return f;
    const Term argument = parse_term(in, budget);
    in.expect_symbol(")", "to close an application");
    return app(f, argument);
  }
  if (in.accept_symbol("<")) {
    const Term first = parse_term(in, budget);
    in.expect_symbol(",", "in a pair");
    const Term second = parse_term(in, budget);
    in.expect_symbol(">", "in a pair");
    return pair(first, second);
  }
  if (in.accept_symbol("-")) {
    if (in.peek().kind != Token::Kind::number) in.fail_expected("a number after '-'");
    return constant(-in.next().number);
  }
  if (in.peek().kind == Token::Kind::number) return constant(in.next().number);
  const Token& id = in.expect_identifier("in a term");
  const std::string name = id.text;
  const SourcePos at = id.pos;
  if (name == "pi1" || name == "pi2") return proj(name == "pi1" ? 1 : 2, parse_term(in, budget));
  for (const Op o : {Op::add, Op::mul, Op::sin, Op::cos}) {
    if (name != op_name(o) || !in.peek().is_symbol("(")) continue;
    in.next();
    const Term x = parse_term(in, budget);
    Term y = nullptr;
    if (op_arity(o) == 2) {
      in.expect_symbol(",", "in " + name);
      y = parse_term(in, budget);
    }
    in.expect_symbol(")", "to close " + name);
    return op(o, x, y);
  }
  return var(name, at); // located: a rule file's errors about a free name point at it
}

} // namespace

Term parse(std::string_view source) {
  TokenStream in(lex(source, config()));
  // The semantics, the macro and the model recurse over the term: a bound on its depth keeps a
  // hostile input from overflowing the stack.
  DepthBudget budget{.limit = 1'000};
  const Term t = parse_term(in, budget);
  if (!in.at_end()) in.fail_expected("the end of the term");
  return t;
}

Type parse_type(std::string_view source) {
  TokenStream in(lex(source, config()));
  const Type t = read_type(in);
  if (!in.at_end()) in.fail_expected("the end of the type");
  return t;
}

} // namespace adsem::dual_numbers
