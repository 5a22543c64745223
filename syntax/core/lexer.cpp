#include "syntax/core/lexer.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <system_error>

namespace adsem {

std::string Token::describe() const {
  switch (kind) {
  case Kind::identifier:
    return "identifier '" + text + "'";
  case Kind::keyword:
    return "'" + text + "'";
  case Kind::number:
    return "number " + text;
  case Kind::symbol:
    return "'" + text + "'";
  case Kind::end:
    return "end of input";
  }
  return text;
}

namespace {

bool is_digit(char c) {
  return c >= '0' && c <= '9';
}
bool starts_ident(char c) {
  return std::isalpha(static_cast<unsigned char>(c)) || c == '_';
}

class Lexer {
public:
  Lexer(std::string_view src, const LexerConfig& config) : src_(src), config_(config) {
    symbols_ = config.symbols;
    std::sort(symbols_.begin(), symbols_.end(),
              [](const std::string& a, const std::string& b) { return a.size() > b.size(); });
  }

  std::vector<Token> run() {
    std::vector<Token> out;
    for (;;) {
      skip_space_and_comments();
      Token t;
      t.pos = pos_;
      if (i_ >= src_.size()) {
        out.push_back(t);
        return out;
      }
      const char c = src_[i_];
      if (starts_ident(c)) {
        t.text = take_identifier();
        t.kind = config_.keywords.count(t.text) ? Token::Kind::keyword : Token::Kind::identifier;
      } else if (is_digit(c)) {
        t.kind = Token::Kind::number;
        t.text = take_number();
        t.number = number_value(t.text, t.pos);
      } else if (const std::string* sym = match_symbol()) {
        t.kind = Token::Kind::symbol;
        t.text = *sym;
        advance(sym->size());
      } else {
        throw AdsemError(ErrorKind::parse, std::string("unexpected character '") + c + "'", pos_);
      }
      out.push_back(std::move(t));
    }
  }

private:
  // from_chars reports a literal beyond the double range (1e400, 1e-400) as out of range and
  // leaves the value alone, which used to read such a literal silently as 0.
  static double number_value(const std::string& text, SourcePos pos) {
    double value = 0.0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec == std::errc::result_out_of_range)
      throw AdsemError(ErrorKind::parse,
                       "number " + text +
                           " is outside the range of a double (it is neither 0 nor between "
                           "about 4.9e-324 and 1.8e308 in magnitude)",
                       pos);
    if (ec != std::errc{} || end != text.data() + text.size())
      throw AdsemError(ErrorKind::parse, "malformed number " + text, pos);
    return value;
  }

  void advance(std::size_t n = 1) {
    for (std::size_t k = 0; k < n && i_ < src_.size(); ++k) {
      if (src_[i_] == '\n') {
        ++pos_.line;
        pos_.column = 1;
      } else {
        ++pos_.column;
      }
      ++i_;
    }
  }
  bool looking_at(std::string_view s) const { return src_.substr(i_, s.size()) == s; }

  void skip_space_and_comments() {
    for (;;) {
      while (i_ < src_.size() && std::isspace(static_cast<unsigned char>(src_[i_])))
        advance();
      bool comment = false;
      for (const auto& start : config_.line_comments)
        if (!start.empty() && looking_at(start)) comment = true;
      if (!comment) return;
      while (i_ < src_.size() && src_[i_] != '\n')
        advance();
    }
  }

  std::string take_identifier() {
    const std::size_t start = i_;
    while (i_ < src_.size()) {
      const char c = src_[i_];
      const bool continues = std::isalnum(static_cast<unsigned char>(c)) || c == '_' ||
                             config_.extra_ident_chars.find(c) != std::string::npos;
      if (!continues) break;
      advance();
    }
    return std::string(src_.substr(start, i_ - start));
  }

  std::string take_number() {
    const std::size_t start = i_;
    auto digits = [&] {
      while (i_ < src_.size() && is_digit(src_[i_]))
        advance();
    };
    digits();
    // "." only when a digit follows: "1.rd" is 1 . rd
    if (i_ + 1 < src_.size() && src_[i_] == '.' && is_digit(src_[i_ + 1])) {
      advance();
      digits();
    }
    if (i_ < src_.size() && (src_[i_] == 'e' || src_[i_] == 'E')) {
      std::size_t j = i_ + 1;
      if (j < src_.size() && (src_[j] == '+' || src_[j] == '-')) ++j;
      if (j < src_.size() && is_digit(src_[j])) {
        advance(j - i_);
        digits();
      }
    }
    return std::string(src_.substr(start, i_ - start));
  }

  const std::string* match_symbol() const {
    const char c = src_[i_]; // a symbol's first byte first: one compare, not one per symbol
    for (const auto& s : symbols_)
      if (!s.empty() && s.front() == c && looking_at(s)) return &s;
    return nullptr;
  }

  std::string_view src_;
  const LexerConfig& config_;
  std::vector<std::string> symbols_;
  std::size_t i_ = 0;
  SourcePos pos_;
};

} // namespace

std::vector<Token> lex(std::string_view source, const LexerConfig& config) {
  if (source.size() > max_source_bytes) {
    SourcePos pos; // of the first byte past the limit
    for (const char c : source.substr(0, max_source_bytes)) {
      if (c == '\n') {
        ++pos.line;
        pos.column = 1;
      } else {
        ++pos.column;
      }
    }
    throw AdsemError(ErrorKind::parse,
                     "source longer than " + std::to_string(max_source_bytes) +
                         " bytes (4 MiB), the parsers' size limit; nothing was parsed",
                     pos);
  }
  return Lexer(source, config).run();
}

TokenStream::TokenStream(std::vector<Token> tokens) : tokens_(std::move(tokens)) {
  if (tokens_.empty() || tokens_.back().kind != Token::Kind::end) tokens_.push_back(Token{});
}

const Token& TokenStream::peek(std::size_t ahead) const {
  return tokens_[std::min(index_ + ahead, tokens_.size() - 1)];
}

const Token& TokenStream::next() {
  const Token& t = tokens_[index_];
  if (index_ + 1 < tokens_.size()) ++index_;
  return t;
}

bool TokenStream::accept_symbol(std::string_view s) {
  if (!peek().is_symbol(s)) return false;
  next();
  return true;
}

bool TokenStream::accept_keyword(std::string_view s) {
  if (!peek().is_keyword(s)) return false;
  next();
  return true;
}

const Token& TokenStream::expect_symbol(std::string_view s, std::string_view context) {
  if (!peek().is_symbol(s)) fail_expected("'" + std::string(s) + "'", context);
  return next();
}

const Token& TokenStream::expect_keyword(std::string_view s, std::string_view context) {
  if (!peek().is_keyword(s)) fail_expected("'" + std::string(s) + "'", context);
  return next();
}

const Token& TokenStream::expect_identifier(std::string_view context) {
  if (peek().kind != Token::Kind::identifier) fail_expected("an identifier", context);
  return next();
}

void TokenStream::fail(const std::string& message) const {
  throw AdsemError(ErrorKind::parse, message, peek().pos);
}

void TokenStream::fail_expected(std::string_view what, std::string_view context) const {
  std::string msg = "expected " + std::string(what);
  if (!context.empty()) msg += " " + std::string(context);
  msg += ", found " + peek().describe();
  fail(msg);
}

} // namespace adsem
