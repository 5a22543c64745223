#pragma once
// A small reusable lexer shared by the calculi's parsers (design.md "Layout": syntax/core holds
// the lexer helpers). It knows identifiers, numbers (with exponents), keywords and punctuation,
// all given by the caller, and line comments; every token carries its SourcePos.
#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

#include "syntax/core/diagnostic.hpp"

namespace adsem {

struct LexerConfig {
  // Punctuation, matched longest first ("()" before "(").
  std::vector<std::string> symbols;
  // Identifiers that lex as keywords.
  std::unordered_set<std::string> keywords;
  // Line comments run from one of these to the end of the line.
  std::vector<std::string> line_comments = {"--", "#"};
  // Characters allowed in an identifier after the first ([A-Za-z_] always start one; letters,
  // digits and '_' always continue one).
  std::string extra_ident_chars = "'";
};

struct Token {
  enum class Kind { identifier, keyword, number, symbol, end };
  Kind kind = Kind::end;
  std::string text; // as written (for symbols: the symbol)
  double number = 0.0;
  SourcePos pos;

  bool is_symbol(std::string_view s) const { return kind == Kind::symbol && text == s; }
  bool is_keyword(std::string_view s) const { return kind == Kind::keyword && text == s; }
  // "'in'" / "identifier 'x'" / "number 1.5" / "end of input", for error messages.
  std::string describe() const;
};

// The largest source the parsers read. Every parse keeps all its tokens (the parsers scan them
// for fresh names first), about 30 bytes of memory per byte of a dense term, and a longer term
// would in any case pass the depth guard (depth_guard.hpp) or the evaluators' budgets; refusing
// it before lexing bounds the memory and time a hostile file can cost (a 50 MB flat chain took
// 13-20 s and up to 3.95 GB).
inline constexpr std::size_t max_source_bytes = std::size_t{4} << 20; // 4 MiB

// Splits `source` into tokens, ending with one Kind::end token. Numbers are
//   DIGITS ["." DIGITS] [("e"|"E") ["+"|"-"] DIGITS]
// so "1.rd" lexes as 1 . rd and "1." is the number 1 followed by ".". Throws
// AdsemError(ErrorKind::parse), located, at an unexpected character, at a number whose value
// is beyond the range of a double (it would overflow to infinity or underflow to zero), and at
// the first byte past max_source_bytes.
std::vector<Token> lex(std::string_view source, const LexerConfig& config);

// A cursor over a token vector with the usual helpers for recursive-descent parsers.
class TokenStream {
public:
  explicit TokenStream(std::vector<Token> tokens);
  const Token& peek(std::size_t ahead = 0) const;
  const Token& next();
  bool at_end() const { return peek().kind == Token::Kind::end; }
  bool accept_symbol(std::string_view s);
  bool accept_keyword(std::string_view s);
  const Token& expect_symbol(std::string_view s, std::string_view context = {});
  const Token& expect_keyword(std::string_view s, std::string_view context = {});
  const Token& expect_identifier(std::string_view context = {});
  [[noreturn]] void fail(const std::string& message) const; // at peek()
  [[noreturn]] void fail_expected(std::string_view what, std::string_view context = {}) const;
  const std::vector<Token>& tokens() const { return tokens_; }

private:
  std::vector<Token> tokens_;
  std::size_t index_ = 0;
};

} // namespace adsem
