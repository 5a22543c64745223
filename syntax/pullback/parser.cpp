#include "syntax/pullback/parser.hpp"

#include <unordered_set>

#include "syntax/core/depth_guard.hpp"
#include "syntax/core/large_stack.hpp"
#include "syntax/core/lexer.hpp"
#include "syntax/pullback/nesting.hpp"

namespace adsem::pullback {

namespace {

const LexerConfig& config() {
  static const LexerConfig c = [] {
    LexerConfig c;
    c.symbols = {"^*", "->", "\\", ".", ":", "=", ";", ",", "<", ">",
                 "(",  ")",  "[",  "]", "+", "*", "^", "@", "-"};
    c.keywords = {"let", "in", "zero", "Omega"};
    c.line_comments = {"--"};
    return c;
  }();
  return c;
}

class Parser {
public:
  Parser(const std::string& source, const ParseOptions& options)
      : tokens_(lex(source, config())), options_(options) {
    for (const auto& [x, t] : options.free) {
      scope_.push_back({x, var(x, t)});
      source_names_.insert(x);
    }
    for (const Token& t : tokens_)
      if (t.kind == Token::Kind::identifier) source_names_.insert(t.text);
  }

  Term whole_term() {
    Term t = term();
    if (!at_end()) fail("unexpected " + peek().describe());
    return t;
  }
  Type whole_type() {
    Type t = type();
    if (!at_end()) fail("unexpected " + peek().describe() + " after the type");
    return t;
  }

  // ---- tokens ----
  const Token& peek(std::size_t k = 0) const {
    return tokens_[std::min(index_ + k, tokens_.size() - 1)];
  }
  const Token& next() {
    const Token& t = peek();
    if (index_ + 1 < tokens_.size()) ++index_;
    return t;
  }
  bool at_end() const { return peek().kind == Token::Kind::end; }
  bool sym(std::string_view s, std::size_t k = 0) const { return peek(k).is_symbol(s); }
  bool kw(std::string_view s, std::size_t k = 0) const { return peek(k).is_keyword(s); }
  bool accept(std::string_view s) {
    if (!sym(s)) return false;
    next();
    return true;
  }
  void expect(std::string_view s, std::string_view context) {
    if (!accept(s))
      fail("expected '" + std::string(s) + "' " + std::string(context) + ", got " +
           peek().describe());
  }
  [[noreturn]] void fail(const std::string& message) const {
    throw AdsemError(ErrorKind::parse, message, peek().pos);
  }
  // Is token k directly adjacent to the token before it (no whitespace)?
  bool adjacent(std::size_t k) const {
    if (index_ + k == 0) return false;
    const Token& a = tokens_[std::min(index_ + k - 1, tokens_.size() - 1)];
    const Token& b = peek(k);
    return a.pos.line == b.pos.line &&
           a.pos.column + static_cast<int>(a.text.size()) == b.pos.column;
  }

  // ---- types ----
  Type type() {
    const DepthGuard g(depth_, peek().pos);
    Type left = tprod();
    if (accept("->")) return arrow(left, type());
    return left;
  }
  Type tprod() {
    Type t = tpost();
    while (accept("*"))
      t = prod(t, tpost());
    return t;
  }
  Type tpost() {
    Type t = tatom();
    while (accept("^*"))
      t = dual(t);
    return t;
  }
  Type tatom() {
    const DepthGuard g(depth_, peek().pos);
    if (peek().kind == Token::Kind::identifier &&
        (peek().text == "R" || peek().text == "real" || peek().text == "Real")) {
      next();
      if (accept("^")) {
        // range first: casting 1e300 (or nan) to long is UB (found by fuzz_parse_pullback)
        if (peek().kind != Token::Kind::number || !(peek().number >= 1 && peek().number <= 64) ||
            peek().number != static_cast<double>(static_cast<long>(peek().number)))
          fail("expected a dimension 1..64 after 'R^', got " + peek().describe());
        return real_power(static_cast<std::size_t>(next().number));
      }
      return real_type();
    }
    if (kw("Omega")) {
      next();
      return one_form(tpost());
    }
    if (accept("(")) {
      Type t = type();
      expect(")", "to close the type");
      return t;
    }
    fail("expected a type, got " + peek().describe());
  }

  // ---- binders ----
  struct Bound {
    std::string name;
    Term replacement;
  };
  // binder ::= IDENT ':' type | '<' binder {',' binder} '>'; returns the λ's variable, its type
  // and the scope entries it introduces (pattern components become atoms z.p, spec §2.3).
  struct Binder {
    std::string name;
    Type type;
    std::vector<Bound> entries;
  };
  Binder binder() {
    const DepthGuard g(depth_, peek().pos);
    if (accept("<")) {
      std::vector<Binder> parts{binder()};
      while (accept(","))
        parts.push_back(binder());
      expect(">", "to close the pattern");
      if (parts.size() < 2) fail("a pattern binder needs at least two components");
      // <a,b,c> = <<a,b>,c>
      Binder acc = parts[0];
      for (std::size_t i = 1; i < parts.size(); ++i) {
        Binder next_part = parts[i];
        Binder joined;
        joined.name = fresh_pattern_name();
        joined.type = prod(acc.type, next_part.type);
        const Term z = var(joined.name, joined.type);
        for (const Bound& b : acc.entries)
          joined.entries.push_back({b.name, replace_root(b.replacement, acc.name, proj(1, z))});
        for (const Bound& b : next_part.entries)
          joined.entries.push_back(
              {b.name, replace_root(b.replacement, next_part.name, proj(2, z))});
        acc = joined;
      }
      return acc;
    }
    const Token& id = peek();
    if (id.kind != Token::Kind::identifier) fail("expected a binder, got " + id.describe());
    next();
    expect(":", "after the bound variable (binders need a type)");
    Binder b;
    b.name = id.text;
    b.type = type();
    b.entries.push_back({b.name, var(b.name, b.type, id.pos)});
    return b;
  }
  // The variable a pattern λ binds (spec §2.3) must not be captured by a binder the user wrote:
  // in `\<a:R,b:R>. \p1_:R. a` the `a` becomes p1_.1 under the user's p1_. So the name avoids
  // every identifier of the source (and the free variables given by the caller).
  std::string fresh_pattern_name() {
    std::string name;
    do
      name = "p" + std::to_string(++pattern_counter_) + "_";
    while (source_names_.contains(name));
    return name;
  }
  // An atom rooted at variable `root`, with that root replaced by `by`.
  static Term replace_root(const Term& atom, const std::string& root, const Term& by) {
    if (atom->kind == Kind::var) return atom->name == root ? by : atom;
    return proj(atom->index, replace_root(atom->kids[0], root, by));
  }

  template <class F> Term with_scope(const Binder& b, F body) {
    const std::size_t mark = scope_.size();
    for (const Bound& e : b.entries)
      scope_.push_back(e);
    Term t = body();
    scope_.resize(mark);
    return t;
  }

  // ---- terms ----
  Term term() {
    const DepthGuard g(depth_, peek().pos);
    const SourcePos pos = peek().pos;
    if (accept("\\")) {
      const Binder b = binder();
      expect(".", "after the binder");
      return lam(b.name, b.type, with_scope(b, [&] { return term(); }), pos);
    }
    if (kw("let")) {
      next();
      return let_rest(pos);
    }
    return sum_level();
  }
  Term let_rest(SourcePos pos) {
    // A let level is one level of the guard (term() counts it) although it takes two frames
    // (term, let_rest): the parser runs on a large stack (parse_term), where the guard, not the
    // frames' size, bounds the depth.
    const Token& id = peek();
    if (id.kind != Token::Kind::identifier) fail("expected a variable after 'let'");
    next();
    Type annotated;
    if (accept(":")) annotated = type();
    expect("=", "in the let binding");
    const Term bound = term();
    Type rho = annotated ? annotated : type_of(bound);
    // Every let prints with its type, so a partly unknown one (`let x = <zero, 1>`: _ * R) has
    // no surface form; found by fuzz_parse_pullback (the printed term did not parse).
    if (mentions_any(rho))
      throw AdsemError(ErrorKind::type,
                       "cannot infer the type of '" + id.text + "'" +
                           (is_any(rho) ? "" : " (only " + type_text(rho) + ")") +
                           "; annotate it: let " + id.text + " : T = ...",
                       id.pos);
    Binder b{id.text, rho, {{id.text, var(id.text, rho, id.pos)}}};
    Term body;
    if (accept(";")) {
      const SourcePos p2 = peek().pos;
      body = with_scope(b, [&] { return let_rest(p2); });
    } else {
      if (!kw("in")) fail("expected ';' or 'in' after the let binding, got " + peek().describe());
      next();
      body = with_scope(b, [&] { return term(); });
    }
    return let(id.text, rho, bound, body, pos);
  }
  Term sum_level() {
    const SourcePos pos = peek().pos;
    std::vector<Term> items{dot_level()};
    while (accept("+"))
      items.push_back(dot_level());
    if (items.size() == 1) return items.front();
    return make_node(Node{.kind = Kind::sum, .kids = items, .pos = pos});
  }
  Term dot_level() {
    const DepthGuard g(depth_, peek().pos);
    const SourcePos pos = peek().pos;
    if (peek().kind == Token::Kind::identifier && peek().text == "J" &&
        peek(1).kind == Token::Kind::identifier && options_.signature &&
        options_.signature(peek(1).text)) {
      next();
      const PrimitiveInfo info = *options_.signature(next().text);
      expect("@", "after 'J f'");
      return jac(info.name, info.signature, dot_level(), pos);
    }
    if (sym("(") && kw("Omega", 1) && sym("\\", 2)) {
      next();
      next();
      next();
      const Binder b = binder();
      expect(".", "after the binder");
      const Term body = with_scope(b, [&] { return term(); });
      expect(")", "to close the pullback head");
      expect("@", "after the pullback head '(Omega \\x:T. P)'");
      return pullback(b.name, b.type, body, dot_level(), pos);
    }
    if (sym("(") && sym("\\", 1)) {
      next();
      const SourcePos lpos = peek().pos;
      next();
      const Binder b = binder();
      expect(".", "after the binder");
      const Term body = with_scope(b, [&] { return term(); });
      Term inner = lam(b.name, b.type, body, lpos);
      if (accept(":")) inner = ascribe(inner, type(), lpos);
      expect(")", "to close the parenthesis");
      if (accept("^*")) {
        expect("@", "after the dual-map head '(\\x:T. S)^*'");
        return dualmap(b.name, b.type, body, dot_level(), pos);
      }
      return app_rest(postfix(inner));
    }
    return app_rest(post());
  }
  bool starts_post() const {
    const Token& t = peek();
    switch (t.kind) {
    case Token::Kind::identifier:
    case Token::Kind::number:
      return true;
    case Token::Kind::keyword:
      return t.text == "zero" || t.text == "Omega";
    case Token::Kind::symbol:
      return t.text == "[" || t.text == "<" || t.text == "(" ||
             (t.text == "-" && peek(1).kind == Token::Kind::number);
    default:
      return false;
    }
  }
  Term app_rest(Term head) {
    while (starts_post()) {
      const SourcePos pos = peek().pos;
      head = app(head, post(), pos);
    }
    return head;
  }
  Term post() { return postfix(atom()); }
  Term postfix(Term t) {
    // '.1' / '.2' only directly after the term, with the digits directly after the dot.
    while (sym(".") && adjacent(0) && peek(1).kind == Token::Kind::number && adjacent(1)) {
      next();
      const Token& n = next();
      for (const char c : n.text) {
        if (c == '.') continue;
        if (c != '1' && c != '2')
          throw AdsemError(ErrorKind::parse, "projections are .1 and .2, got ." + n.text, n.pos);
        t = proj(c - '0', t, n.pos);
      }
    }
    return t;
  }
  std::vector<double> numbers_in_brackets() {
    expect("[", "");
    std::vector<double> xs{number()};
    while (accept(","))
      xs.push_back(number());
    expect("]", "to close the numeral tuple");
    return xs;
  }
  double number() {
    const bool negative = accept("-");
    if (peek().kind != Token::Kind::number) fail("expected a number, got " + peek().describe());
    const double x = next().number;
    return negative ? -x : x;
  }
  Term ascribe(Term t, const Type& ty, SourcePos pos) {
    if (t->kind == Kind::zero) return zero(ty, t->pos);
    if (t->kind == Kind::covec) {
      if (!is_dual(ty) || !is_euclidean(ty->left) || dim(ty->left) != t->vec.size())
        throw AdsemError(ErrorKind::type,
                         "a covector literal of " + std::to_string(t->vec.size()) +
                             " entries cannot have type " + type_text(ty),
                         pos);
      return covec(t->vec, ty->left, t->pos);
    }
    if (!same_type(type_of(t), ty))
      throw AdsemError(ErrorKind::type,
                       "term of type " + type_text(type_of(t)) + " ascribed " + type_text(ty), pos);
    return t;
  }
  Term atom() {
    const DepthGuard g(depth_, peek().pos);
    const Token& t = peek();
    const SourcePos pos = t.pos;
    if (t.kind == Token::Kind::number || (t.is_symbol("-"))) return num(number(), pos);
    if (kw("zero")) {
      next();
      return zero(nullptr, pos);
    }
    if (sym("[")) {
      const std::vector<double> xs = numbers_in_brackets();
      if (accept("^*")) return covec(xs, real_power(xs.size()), pos);
      Node n = *numeral_tuple(real_power(xs.size()), xs);
      n.pos = pos;
      return make_node(std::move(n));
    }
    if (kw("Omega")) {
      next();
      if (!sym("[")) fail("expected '[' after 'Omega' (constant 1-form Omega [r1, ..., rn])");
      const std::vector<double> xs = numbers_in_brackets();
      const Type sigma = real_power(xs.size());
      return lam("u", sigma, covec(xs, sigma, pos), pos);
    }
    if (accept("<")) {
      std::vector<Term> items{term()};
      while (accept(","))
        items.push_back(term());
      expect(">", "to close the tuple");
      if (items.size() < 2) fail("a tuple needs at least two components");
      Term acc = items[0];
      for (std::size_t i = 1; i < items.size(); ++i)
        acc = pair(acc, items[i], pos);
      return acc;
    }
    if (accept("(")) {
      Term inner = term();
      if (accept(":")) inner = ascribe(inner, type(), pos);
      expect(")", "to close the parenthesis");
      return inner;
    }
    if (t.kind == Token::Kind::identifier) {
      if (options_.signature) {
        if (const auto info = options_.signature(t.text)) {
          next();
          if (!sym("("))
            fail("primitive '" + t.text + "' must be applied: " + t.text + "(P), or J " + t.text +
                 " @ S");
          next();
          const Term arg = term();
          expect(")", "to close the primitive's argument");
          return prim(info->name, info->signature, arg, pos);
        }
      }
      next();
      for (auto it = scope_.rbegin(); it != scope_.rend(); ++it)
        if (it->name == t.text) return relocate(it->replacement, pos);
      throw AdsemError(ErrorKind::type, "unbound variable '" + t.text + "'", pos);
    }
    fail("expected a term, got " + t.describe());
  }
  static Term relocate(const Term& t, SourcePos pos) {
    if (t->kind == Kind::var) return var(t->name, t->type, pos);
    return proj(t->index, relocate(t->kids[0], pos), pos);
  }

private:
  std::vector<Token> tokens_;
  std::size_t index_ = 0;
  const ParseOptions& options_;
  std::vector<Bound> scope_;
  DepthBudget depth_{max_source_nesting, 0, ErrorKind::parse};
  int pattern_counter_ = 0;
  std::unordered_set<std::string> source_names_; // for fresh_pattern_name
};

} // namespace

Term parse_term(const std::string& source, const ParseOptions& options) {
  return on_large_stack([&] { return Parser(source, options).whole_term(); });
}

Type parse_type(const std::string& source) {
  const ParseOptions none;
  return on_large_stack([&] { return Parser(source, none).whole_type(); });
}

} // namespace adsem::pullback
