#include "syntax/linear_negation/parser.hpp"

#include <set>

#include "syntax/core/depth_guard.hpp"
#include "syntax/core/lexer.hpp"
#include "syntax/linear_negation/nesting.hpp"

namespace adsem::linear_negation {

namespace {

LexerConfig config() {
  LexerConfig c;
  c.symbols = {":=", "->", "-o", "\\", ".", ":", "!", "(", ")",
               ",",  "[",  "]",  "+",  "*", "-", "=", "^"};
  c.keywords = {"let", "in", "R"};
  c.line_comments = {"#", "--"};
  return c;
}

class Parser {
public:
  Parser(const std::string& text, Mode mode, Signature signature)
      : ts_(lex(text, config())), mode_(mode), signature_(std::move(signature)) {
    // A '-' directly followed by a digit, after a token that cannot end an operand, is the sign
    // of a numeral (spec §2.7).
    const auto& toks = ts_.tokens();
    for (std::size_t i = 0; i + 1 < toks.size(); ++i) {
      const Token& minus = toks[i];
      const Token& n = toks[i + 1];
      if (!minus.is_symbol("-") || n.kind != Token::Kind::number) continue;
      if (n.pos.line != minus.pos.line || n.pos.column != minus.pos.column + 1) continue;
      if (i > 0) {
        const Token& p = toks[i - 1];
        if (p.kind == Token::Kind::identifier || p.kind == Token::Kind::number ||
            p.is_symbol(")") || p.is_symbol("]"))
          continue;
      }
      signs_.insert({minus.pos.line, minus.pos.column});
    }
  }

  Term whole_term() {
    Term t = term();
    if (!ts_.at_end()) ts_.fail_expected("end of input");
    return t;
  }
  Type whole_type() {
    Type t = type();
    if (!ts_.at_end()) ts_.fail_expected("end of input");
    return t;
  }

private:
  // T ::= T1 '->' T | T1
  Type type() {
    const DepthGuard guard(budget_, ts_.peek().pos);
    Type left = type1();
    if (ts_.accept_symbol("->")) return arrow_type(left, type());
    return left;
  }
  // T1 ::= T2 '*' T1 | T2
  Type type1() {
    const DepthGuard guard(budget_, ts_.peek().pos);
    Type left = type2();
    if (ts_.accept_symbol("*")) return product_type(left, type1());
    return left;
  }
  int exponent() {
    const Token& t = ts_.peek();
    // range first: casting 1e300 to int is UB (fuzzing)
    if (t.kind != Token::Kind::number || !(t.number >= 1 && t.number <= 64) ||
        t.number != static_cast<int>(t.number))
      ts_.fail_expected("a dimension 1..64 after '^'");
    ts_.next();
    return static_cast<int>(t.number);
  }
  // T2 ::= R | R^d | R -o R[^d] | (T)
  Type type2() {
    const DepthGuard guard(budget_, ts_.peek().pos);
    if (ts_.accept_symbol("(")) {
      Type t = type();
      ts_.expect_symbol(")", "to close the type");
      return t;
    }
    const SourcePos pos = ts_.peek().pos;
    ts_.expect_keyword("R", "in a type");
    if (ts_.accept_symbol("^")) return euclidean(exponent());
    if (ts_.accept_symbol("-o")) {
      if (mode_ == Mode::source)
        throw AdsemError(ErrorKind::parse, "linear negation R -o R^d is not a source type", pos);
      ts_.expect_keyword("R", "after '-o'");
      return neg_type(ts_.accept_symbol("^") ? exponent() : 1);
    }
    return real_type();
  }

  // b ::= x ':' '!' T | z ':' 'R' | x
  Binder binder(bool allow_untyped) {
    const Token& id = ts_.expect_identifier("as a binder");
    const SourcePos pos = id.pos;
    Binder b{id.text, nullptr, false};
    if (!primitive_name(b.name).empty())
      throw AdsemError(ErrorKind::parse, "'" + b.name + "' is a primitive and cannot be bound",
                       pos);
    if (!ts_.accept_symbol(":")) {
      if (!allow_untyped) ts_.fail_expected("':' and the binder's type (λ binders are annotated)");
      return b;
    }
    if (ts_.accept_symbol("!")) {
      b.type = type2_or_full();
      return b;
    }
    b.type = type2_or_full();
    b.linear = mode_ == Mode::target && is_real(b.type);
    return b;
  }
  // In binders a full type may follow (arrows end at '.' or ':=').
  Type type2_or_full() { return type(); }

  Term term() {
    const DepthGuard guard(budget_, ts_.peek().pos);
    const SourcePos pos = ts_.peek().pos;
    if (ts_.accept_symbol("\\")) {
      const bool paren = ts_.accept_symbol("(");
      Binder b = binder(false);
      if (paren) ts_.expect_symbol(")", "to close the binder");
      ts_.expect_symbol(".", "after the binder");
      return with_pos(lam(std::move(b), term()), pos);
    }
    if (ts_.accept_keyword("let")) {
      auto [x, y, is_pair] = pattern();
      ts_.expect_symbol("=", "in a let");
      Term bound = term();
      ts_.expect_keyword("in", "in a let");
      Term body = term();
      return with_pos(is_pair ? let_pair(x, y, body, bound) : let(x, body, bound), pos);
    }
    return sum();
  }
  std::tuple<Binder, Binder, bool> pattern() {
    if (ts_.peek().is_symbol("(")) {
      ts_.next();
      Binder x = binder(true);
      ts_.expect_symbol(",", "in a pair pattern");
      Binder y = binder(true);
      ts_.expect_symbol(")", "to close the pair pattern");
      return {x, y, true};
    }
    return {binder(true), Binder{}, false};
  }
  Term sum() {
    Term left = product();
    for (;;) {
      const SourcePos pos = ts_.peek().pos;
      if (ts_.accept_symbol("+"))
        left = with_pos(add(left, product()), pos);
      else if (ts_.peek().is_symbol("-") && !negative_numeral_here())
        ts_.next(), left = with_pos(prim("sub", {left, product()}), pos);
      else
        return left;
    }
  }
  Term product() {
    Term left = application();
    while (ts_.peek().is_symbol("*")) {
      const SourcePos pos = ts_.next().pos;
      left = with_pos(mul(left, application()), pos);
    }
    return left;
  }
  // A '-' directly followed by a digit, after a token that cannot end an operand (spec §2.7).
  bool negative_numeral_here() const {
    const Token& minus = ts_.peek();
    return minus.is_symbol("-") && signs_.count({minus.pos.line, minus.pos.column}) > 0;
  }
  bool starts_operand() const {
    const Token& t = ts_.peek();
    return t.kind == Token::Kind::identifier || t.kind == Token::Kind::number || t.is_symbol("(") ||
           negative_numeral_here();
  }
  Term application() {
    Term left = postfix();
    while (starts_operand()) {
      const SourcePos pos = ts_.peek().pos;
      left = with_pos(app(left, postfix()), pos);
    }
    return left;
  }
  Term postfix() {
    Term t = atom();
    while (ts_.peek().is_symbol("[")) {
      const SourcePos pos = ts_.next().pos;
      auto [x, y, is_pair] = pattern();
      ts_.expect_symbol(":=", "in an explicit substitution");
      Term bound = term();
      ts_.expect_symbol("]", "to close the explicit substitution");
      t = with_pos(is_pair ? let_pair(x, y, t, bound) : let(x, t, bound), pos);
    }
    return t;
  }
  Term atom() {
    const DepthGuard guard(budget_, ts_.peek().pos);
    const Token t = ts_.peek();
    if (negative_numeral_here()) {
      ts_.next();
      const Token n = ts_.next();
      return with_pos(num(-n.number), t.pos);
    }
    if (t.kind == Token::Kind::number) {
      ts_.next();
      return with_pos(num(t.number), t.pos);
    }
    if (t.kind == Token::Kind::identifier) {
      ts_.next();
      const std::string p = primitive_name(t.text);
      if (p.empty()) {
        return with_pos(var(t.text), t.pos);
      }
      ts_.expect_symbol("(", "after the primitive " + t.text);
      std::vector<Term> args{term()};
      while (ts_.accept_symbol(",")) {
        args.push_back(term());
      }
      ts_.expect_symbol(")", "to close the arguments of " + t.text);
      return with_pos(prim(p, std::move(args)), t.pos);
    }
    if (ts_.accept_symbol("(")) {
      std::vector<Term> items{term()};
      while (ts_.accept_symbol(",")) {
        items.push_back(term());
      }
      ts_.expect_symbol(")", "to close the parenthesis");
      return items.size() == 1 ? items.front() : with_pos(tuple(items), t.pos);
    }
    ts_.fail_expected("a term");
  }

  std::string primitive_name(const std::string& spelling) const {
    if (!signature_) return "";
    const auto info = signature_(spelling);
    return info ? info->name : "";
  }

  TokenStream ts_;
  Mode mode_;
  Signature signature_;
  // each level of nesting is about six parser frames, on the large stack (nesting.hpp): a
  // 100,000-deep input stays an error, not a stack overflow (design.md "Engineering rules")
  DepthBudget budget_{max_nesting, 0, ErrorKind::parse};
  std::set<std::pair<int, int>> signs_;
};

} // namespace

Term parse_term(const std::string& text, const Signature& signature, Mode mode) {
  const auto read = [&] { return Parser(text, mode, signature).whole_term(); };
  return text.size() <= shallow_text ? read() : on_large_stack(read);
}
Type parse_type(const std::string& text) {
  const auto read = [&] { return Parser(text, Mode::target, nullptr).whole_type(); };
  return text.size() <= shallow_text ? read() : on_large_stack(read);
}

} // namespace adsem::linear_negation
