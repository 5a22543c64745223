#include "syntax/simple_diff/parser.hpp"

#include <cmath>

#include "syntax/core/depth_guard.hpp"
#include "syntax/core/large_stack.hpp"
#include "syntax/core/lexer.hpp"
#include "syntax/simple_diff/derived.hpp"
#include "syntax/simple_diff/names.hpp"
#include "syntax/simple_diff/nesting.hpp"

namespace adsem::simple_diff {

namespace {

const LexerConfig& surface_lexer() {
  static const LexerConfig config = [] {
    LexerConfig c;
    c.symbols = {"()", "(", ")", "<", ">", ",", ":", "=", ".", "+", "-", "*", "/", "[", "]", "^"};
    c.keywords = {"let", "letrec", "in",   "if",   "then", "else", "true", "false",
                  "fst", "snd",    "real", "unit", "grad", "zero", "plus"};
    c.line_comments = {"--", "#"};
    c.extra_ident_chars = "'";
    return c;
  }();
  return config;
}

class Parser {
public:
  Parser(std::string_view source, const Signature& sig)
      : ts_(lex(source, surface_lexer())), sig_(sig) {
    // fresh names for the expansions avoid every identifier the user wrote
    for (const Token& t : ts_.tokens())
      if (t.kind == Token::Kind::identifier) names_.avoid(t.text);
  }

  Term whole_term() {
    Term m = term();
    if (!ts_.at_end()) ts_.fail_expected("end of input");
    return m;
  }

  Type whole_type() {
    Type t = type();
    if (!ts_.at_end()) ts_.fail_expected("end of input");
    return t;
  }

  BinderForm binder_form() {
    const bool paren = ts_.accept_symbol("(");
    BinderForm b;
    b.pos = ts_.peek().pos;
    b.x = ts_.expect_identifier("(the binder of x:T. N)").text;
    ts_.expect_symbol(":", "after the binder");
    b.type = type();
    ts_.expect_symbol(".", "after the binder type");
    b.body = term();
    if (paren) ts_.expect_symbol(")", "closing the binder form");
    if (!ts_.at_end()) ts_.fail_expected("end of input");
    return b;
  }

private:
  // ---- types -------------------------------------------------------------------------------
  Type type() {
    DepthGuard guard(depth_, ts_.peek().pos);
    Type t = type_atom();
    while (ts_.accept_symbol("*"))
      t = product_type(t, type_atom());
    return t;
  }

  Type type_atom() {
    const Token& t = ts_.peek();
    const bool real_alias =
        t.kind == Token::Kind::identifier && (t.text == "R" || t.text == "Real");
    if (t.is_keyword("real") || real_alias) {
      ts_.next();
      if (ts_.accept_symbol("^")) return real_power(natural("after 'real^'"));
      return real_type();
    }
    if (ts_.accept_keyword("unit")) return unit_type();
    if (ts_.accept_symbol("()")) return unit_type();
    if (ts_.accept_symbol("(")) {
      Type inner = type();
      ts_.expect_symbol(")", "closing a type");
      return inner;
    }
    ts_.fail_expected("a type (real, unit, T * U, real^n)");
  }

  int natural(std::string_view context) {
    const Token& t = ts_.peek();
    if (t.kind != Token::Kind::number || t.number != std::floor(t.number) || t.number > 1e6)
      ts_.fail_expected("a natural number", context);
    ts_.next();
    return static_cast<int>(t.number);
  }

  // ---- terms -------------------------------------------------------------------------------
  Term term() {
    DepthGuard guard(depth_, ts_.peek().pos);
    const Token& t = ts_.peek();
    if (t.is_keyword("let")) return let_term();
    if (t.is_keyword("letrec")) return letrec_term();
    if (t.is_keyword("if")) {
      const SourcePos pos = ts_.next().pos;
      Term guard_term = boolean();
      ts_.expect_keyword("then", "after the guard of 'if'");
      Term m = term();
      ts_.expect_keyword("else", "in 'if'");
      Term n = term();
      return mk::if_(guard_term, m, n, pos);
    }
    return arith();
  }

  Term let_term() {
    const SourcePos pos = ts_.next().pos; // let
    if (ts_.accept_symbol("<")) {         // tuple let (2.3)
      std::vector<Sugar::Binder> xs;
      do {
        Sugar::Binder b;
        b.name = ts_.expect_identifier("in the tuple pattern").text;
        ts_.expect_symbol(":", "after a pattern variable");
        b.type = type();
        xs.push_back(std::move(b));
      } while (ts_.accept_symbol(","));
      ts_.expect_symbol(">", "closing the tuple pattern");
      ts_.expect_symbol("=", "in the tuple let");
      Term m = term();
      ts_.expect_keyword("in", "in the tuple let");
      Term n = term();
      return tuple_let(xs, m, n, names_, /*sugar=*/true, pos);
    }
    const Token& name = ts_.expect_identifier("after 'let'");
    if (ts_.peek().is_symbol("(")) { // let f(x:T):U = M in N  abbreviates letrec (line 150)
      Term core = function_definition(name, pos, std::nullopt);
      Sugar s;
      s.kind = Sugar::Kind::let_fun;
      return with_sugar(core, std::move(s));
    }
    ts_.expect_symbol(":", "after the let-bound variable (let x:T = M in N)");
    Type t = type();
    ts_.expect_symbol("=", "in 'let'");
    Term m = term();
    ts_.expect_keyword("in", "in 'let'");
    Term n = term();
    return mk::let(name.text, t, m, n, pos);
  }

  Term letrec_term() {
    const SourcePos pos = ts_.next().pos; // letrec
    std::optional<int> limit;
    if (ts_.accept_symbol("[")) {
      limit = natural("in letrec[n]");
      ts_.expect_symbol("]", "after letrec[n");
    }
    const Token& name = ts_.expect_identifier("after 'letrec'");
    return function_definition(name, pos, limit);
  }

  Term function_definition(const Token& name, SourcePos pos, std::optional<int> limit) {
    if (sig_.op(name.text) || sig_.pred(name.text))
      throw AdsemError(ErrorKind::parse,
                       "'" + name.text + "' is a primitive; primitive names are reserved",
                       name.pos);
    ts_.expect_symbol("(", "after the function name");
    const std::string x = ts_.expect_identifier("(the parameter)").text;
    ts_.expect_symbol(":", "after the parameter");
    Type t = type();
    ts_.expect_symbol(")", "after the parameter type");
    ts_.expect_symbol(":", "before the result type");
    Type u = type();
    ts_.expect_symbol("=", "in the function definition");
    Term m = term();
    ts_.expect_keyword("in", "after the function body");
    Term n = term();
    return mk::letrec(name.text, x, t, u, m, n, limit, pos);
  }

  // arith ::= mterm { ("+" | "-") mterm }
  Term arith() {
    Term m = mterm();
    for (int links = 1;; ++links) {
      const Token& t = ts_.peek();
      check_chain(depth_, links, t.pos);
      if (t.is_symbol("+")) {
        ts_.next();
        m = mk::add(m, mterm(), t.pos);
      } else if (t.is_symbol("-")) {
        ts_.next();
        m = infix("sub", m, mterm(), t.pos);
      } else {
        return m;
      }
    }
  }

  // mterm ::= post { ("*" | "/") post }
  Term mterm() {
    Term m = post();
    for (int links = 1;; ++links) {
      const Token& t = ts_.peek();
      check_chain(depth_, links, t.pos);
      if (t.is_symbol("*")) {
        ts_.next();
        m = infix("mul", m, post(), t.pos);
      } else if (t.is_symbol("/")) {
        ts_.next();
        m = infix("div", m, post(), t.pos);
      } else {
        return m;
      }
    }
  }

  Term infix(const std::string& op, Term a, Term b, SourcePos pos) {
    const auto arity = sig_.op(op);
    if (!arity) throw AdsemError(ErrorKind::parse, "no primitive '" + op + "' for infix", pos);
    Sugar s;
    s.kind = Sugar::Kind::infix;
    return with_sugar(mk::op(arity->name, mk::pair(a, b, nullptr, nullptr, pos), pos), s);
  }

  // post ::= atom { "." "rd" "[" term "]" binder | "." "fd" "[" type "," term "]" binder }
  Term post() {
    Term m = atom();
    for (;;) {
      const Token& dot = ts_.peek();
      const Token& word = ts_.peek(1);
      if (!dot.is_symbol(".") || word.kind != Token::Kind::identifier ||
          (word.text != "rd" && word.text != "fd"))
        return m;
      ts_.next();
      ts_.next();
      ts_.expect_symbol("[", "after '." + word.text + "'");
      if (word.text == "rd") {
        Term l = term();
        ts_.expect_symbol("]", "after the point of rd");
        auto [x, t, body] = binder();
        m = mk::rd(m, l, x, t, body, dot.pos);
      } else {
        Type u = type();
        ts_.expect_symbol(",", "after the result type of fd");
        Term l = term();
        ts_.expect_symbol("]", "after the point of fd");
        auto [x, t, body] = binder();
        m = fd_of(m, u, l, x, t, body, names_, /*sugar=*/true, dot.pos);
      }
    }
  }

  struct Binder {
    std::string x;
    Type t;
    Term body;
  };
  // binder ::= "(" IDENT ":" type "." term ")"
  Binder binder() {
    ts_.expect_symbol("(", "to open the binder (x:T. N)");
    Binder b;
    b.x = ts_.expect_identifier("(the differentiation variable)").text;
    ts_.expect_symbol(":", "after the differentiation variable");
    b.t = type();
    ts_.expect_symbol(".", "after the binder type");
    b.body = term();
    ts_.expect_symbol(")", "closing the binder");
    return b;
  }

  Term atom() {
    const Token& t = ts_.peek();
    const SourcePos pos = t.pos;
    if (t.kind == Token::Kind::number) {
      ts_.next();
      return mk::constant(t.number, pos);
    }
    if (t.is_symbol("-") && ts_.peek(1).kind == Token::Kind::number) {
      ts_.next();
      return mk::constant(-ts_.next().number, pos);
    }
    if (ts_.accept_symbol("()")) return mk::unit(pos);
    if (t.kind == Token::Kind::identifier) {
      ts_.next();
      if (ts_.peek().is_symbol("(") || ts_.peek().is_symbol("()")) return application(t);
      if (sig_.op(t.text))
        throw AdsemError(ErrorKind::parse,
                         "primitive '" + t.text + "' must be applied: " + t.text + "(...)", pos);
      return mk::var(t.text, pos);
    }
    if (ts_.accept_symbol("<")) {
      Term m = term();
      ts_.expect_symbol(",", "in a tuple <M, N>");
      do {
        m = mk::pair(m, term(), nullptr, nullptr, pos);
      } while (ts_.accept_symbol(","));
      ts_.expect_symbol(">", "closing a tuple");
      return m;
    }
    if (ts_.accept_symbol("(")) {
      if (ts_.accept_symbol(")")) return mk::unit(pos);
      Term m = term();
      if (ts_.peek().is_symbol("<") || ts_.peek().is_symbol(">"))
        ts_.fail("a comparison may only be the whole guard of 'if', written without "
                 "parentheses: if a < b then ...");
      ts_.expect_symbol(")", "closing '('");
      return m;
    }
    if (t.is_keyword("fst") || t.is_keyword("snd")) {
      ts_.next();
      ts_.expect_symbol("(", "after '" + t.text + "'");
      Term m = term();
      ts_.expect_symbol(")", "after the argument of " + t.text);
      return t.text == "fst" ? mk::fst(m, nullptr, nullptr, pos)
                             : mk::snd(m, nullptr, nullptr, pos);
    }
    if (ts_.accept_keyword("grad")) { // grad[L](x:T. N) = 1.rd[L](x:T. N)
      ts_.expect_symbol("[", "after 'grad'");
      Term l = term();
      ts_.expect_symbol("]", "after the point of grad");
      auto [x, ty, body] = binder();
      return grad_of(l, x, ty, body, /*sugar=*/true, pos);
    }
    if (ts_.accept_keyword("zero")) { // zero[T] = 0_T
      ts_.expect_symbol("[", "after 'zero'");
      Type ty = type();
      ts_.expect_symbol("]", "after the type of zero");
      return zero_of(ty, /*sugar=*/true);
    }
    if (ts_.accept_keyword("plus")) { // plus[T](M, N) = M +_T N
      ts_.expect_symbol("[", "after 'plus'");
      Type ty = type();
      ts_.expect_symbol("]", "after the type of plus");
      ts_.expect_symbol("(", "before the operands of plus");
      Term m = term();
      ts_.expect_symbol(",", "between the operands of plus");
      Term n = term();
      ts_.expect_symbol(")", "after the operands of plus");
      return plus_of(ty, m, n, names_, /*sugar=*/true);
    }
    ts_.fail_expected("a term");
  }

  // IDENT "(" term { "," term } ")" | IDENT "()": an op if the name is in the table, else a call
  Term application(const Token& name) {
    Term arg;
    if (ts_.peek().is_symbol("()")) {
      arg = mk::unit(ts_.next().pos);
    } else {
      ts_.expect_symbol("(");
      if (ts_.peek().is_symbol(")")) {
        arg = mk::unit(ts_.next().pos);
      } else {
        arg = term();
        while (ts_.peek().is_symbol(",")) {
          const SourcePos comma = ts_.next().pos;
          arg = mk::pair(arg, term(), nullptr, nullptr, comma);
        }
        ts_.expect_symbol(")", "closing the argument list of '" + name.text + "'");
      }
    }
    if (const auto arity = sig_.op(name.text)) return mk::op(arity->name, arg, name.pos);
    if (sig_.pred(name.text))
      throw AdsemError(ErrorKind::parse,
                       "predicate '" + name.text + "' can only be used as the guard of 'if'",
                       name.pos);
    return mk::call(name.text, arg, name.pos);
  }

  // bool ::= true | false | PRED "(" term {"," term} ")" | arith "<" arith | arith ">" arith
  Term boolean() {
    const Token& t = ts_.peek();
    if (ts_.accept_keyword("true")) return mk::b_true(t.pos);
    if (ts_.accept_keyword("false")) return mk::b_false(t.pos);
    if (t.kind == Token::Kind::identifier && ts_.peek(1).is_symbol("(")) {
      if (const auto arity = sig_.pred(t.text)) {
        ts_.next();
        ts_.next();
        Term arg = term();
        while (ts_.peek().is_symbol(",")) {
          const SourcePos comma = ts_.next().pos;
          arg = mk::pair(arg, term(), nullptr, nullptr, comma);
        }
        ts_.expect_symbol(")", "closing the argument list of '" + t.text + "'");
        return mk::pred(arity->name, arg, t.pos);
      }
    }
    Term lhs = arith();
    const Token& cmp = ts_.peek();
    if (!cmp.is_symbol("<") && !cmp.is_symbol(">"))
      ts_.fail_expected("'<' or '>' in the guard (guards are `a < b`, `a > b`, pred(M), "
                        "true or false; no parentheses around them)");
    ts_.next();
    Term rhs = arith();
    const auto arity = sig_.pred(cmp.text == "<" ? "less" : "gt");
    if (!arity) throw AdsemError(ErrorKind::parse, "no predicate for '" + cmp.text + "'", cmp.pos);
    Sugar s;
    s.kind = Sugar::Kind::infix;
    return with_sugar(mk::pred(arity->name, mk::pair(lhs, rhs, nullptr, nullptr, cmp.pos), cmp.pos),
                      s);
  }

  TokenStream ts_;
  const Signature& sig_;
  NameSupply names_;
  DepthBudget depth_{max_source_nesting, 0, ErrorKind::parse};
};

} // namespace

Term parse_term(std::string_view source, const Signature& signature) {
  return on_large_stack([&] { return Parser(source, signature).whole_term(); });
}

Type parse_type(std::string_view source) {
  struct NoPrimitives : Signature {
    std::optional<OpArity> op(std::string_view) const override { return std::nullopt; }
    std::optional<PredArity> pred(std::string_view) const override { return std::nullopt; }
  } none;
  return on_large_stack([&] { return Parser(source, none).whole_type(); });
}

BinderForm parse_binder_form(std::string_view source, const Signature& signature) {
  return on_large_stack([&] { return Parser(source, signature).binder_form(); });
}

} // namespace adsem::simple_diff
