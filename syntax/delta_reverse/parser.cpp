#include "syntax/delta_reverse/parser.hpp"

#include "syntax/core/depth_guard.hpp"
#include "syntax/core/large_stack.hpp"
#include "syntax/core/lexer.hpp"
#include "syntax/delta_reverse/nesting.hpp"
#include "syntax/delta_reverse/signature.hpp"

namespace adsem::delta_reverse {

namespace {

const LexerConfig& config() {
  static const LexerConfig c = [] {
    LexerConfig k;
    k.symbols = {"\\", "(", ")", ",", ".", ":", "->", "<-", "|", "=",
                 "+",  "-", "*", "/", "^", "[", "]",  "{",  "}", ";"};
    k.keywords = {"let",    "in",       "case",  "of",     "inl",     "inr",    "fst",    "snd",
                  "Real",   "Int",      "M",     "Delta",  "DeltaId", "Delta2", "DeltaS", "pure",
                  "do",     "deltaLet", "Zero",  "Scale",  "Add",     "Var",    "OneHot", "Zero2",
                  "Scale2", "Add2",     "zeroS", "oplusS", "otimesS"};
    k.line_comments = {"--"};
    return k;
  }();
  return c;
}

bool is_real_literal(const Token& t) {
  return t.kind == Token::Kind::number && t.text.find_first_of(".eE") != std::string::npos;
}

// A pattern of a λ (typed) or a let (untyped).
struct Pattern {
  std::string name; // leaf
  Type type;        // leaf type (λ only)
  std::vector<Pattern> parts;
  SourcePos pos;
};

class Parser {
public:
  explicit Parser(std::vector<Token> tokens) : ts_(std::move(tokens)) {
    std::vector<std::string> names;
    for (const Token& t : ts_.tokens())
      if (t.kind == Token::Kind::identifier) names.push_back(t.text);
    fresh_ = FreshNames(std::move(names));
  }

  Term whole() {
    Term t = expr();
    if (!ts_.at_end()) ts_.fail_expected("end of input");
    return t;
  }
  Type whole_type() {
    Type t = type();
    if (!ts_.at_end()) ts_.fail_expected("end of input");
    return t;
  }

private:
  // ---- types ----
  Type type() {
    const DepthGuard g(depth_, ts_.peek().pos);
    const DepthGuard type_level(type_depth_, ts_.peek().pos);
    Type a = sum_ty();
    if (ts_.accept_symbol("->")) return arrow_type(a, type());
    return a;
  }
  Type sum_ty() {
    const DepthGuard type_level(type_depth_, ts_.peek().pos);
    Type a = prod_ty();
    if (ts_.accept_symbol("+")) return sum_type(a, sum_ty());
    return a;
  }
  Type prod_ty() {
    const DepthGuard type_level(type_depth_, ts_.peek().pos);
    Type a = atom_ty();
    if (ts_.accept_symbol("*")) return product_type(a, prod_ty());
    return a;
  }
  Type atom_ty() {
    Type a = base_ty();
    if (ts_.accept_symbol("^")) {
      const Token& n = ts_.peek();
      if (n.kind != Token::Kind::number || is_real_literal(n) || n.number < 1 || n.number > 1000)
        ts_.fail_expected("a positive integer exponent");
      ts_.next();
      Type out = a;
      for (int i = 1; i < static_cast<int>(n.number); ++i)
        out = product_type(a, out);
      return out;
    }
    return a;
  }
  Type base_ty() {
    const DepthGuard g(depth_, ts_.peek().pos);
    const DepthGuard type_level(type_depth_, ts_.peek().pos);
    const Token& t = ts_.peek();
    if (ts_.accept_keyword("Real")) return real_type();
    if (ts_.accept_keyword("Int")) return int_type();
    if (ts_.accept_keyword("Delta")) return delta_type();
    if (ts_.accept_keyword("DeltaId")) return delta_id_type();
    if (ts_.accept_keyword("Delta2")) return delta2_type();
    if (ts_.accept_keyword("DeltaS")) return dense_type();
    if (ts_.accept_keyword("M")) return monad_type(base_ty());
    if (t.kind == Token::Kind::identifier && t.text == "Vector") { // §10.2 (not a keyword)
      ts_.next();
      return vector_type(base_ty());
    }
    if (t.kind == Token::Kind::identifier && (t.text == "R" || t.text == "real")) {
      ts_.next();
      return real_type();
    }
    if (t.kind == Token::Kind::identifier && (t.text == "Z" || t.text == "int")) {
      ts_.next();
      return int_type();
    }
    if (ts_.accept_symbol("(")) {
      Type a = type();
      ts_.expect_symbol(")", "in a type");
      return a;
    }
    ts_.fail_expected("a type");
  }

  // ---- patterns ----
  Pattern pattern(bool typed) {
    const DepthGuard g(depth_, ts_.peek().pos);
    Pattern p;
    p.pos = ts_.peek().pos;
    if (ts_.accept_symbol("(")) {
      p.parts.push_back(pattern(typed));
      while (ts_.accept_symbol(","))
        p.parts.push_back(pattern(typed));
      ts_.expect_symbol(")", "in a pattern");
      if (p.parts.size() == 1) return p.parts.front();
      return p;
    }
    p.name = ts_.expect_identifier("in a pattern").text;
    if (typed) {
      ts_.expect_symbol(":", "after a λ-bound variable (binders need a type, spec §2.2)");
      p.type = type();
    }
    return p;
  }
  static Type pattern_type(const Pattern& p) {
    if (p.parts.empty()) return p.type;
    Type t = pattern_type(p.parts.back());
    for (std::size_t i = p.parts.size() - 1; i-- > 0;)
      t = product_type(pattern_type(p.parts[i]), t);
    return t;
  }
  // let-bind the components of tuple pattern p from the variable `from`, linearly (spec §2.2).
  Term destructure(const Pattern& p, const std::string& from, Term body) {
    // Collect (name, term) bindings in order, then wrap from the inside out.
    std::vector<std::pair<std::string, Term>> binds;
    bind_parts(p, from, binds);
    for (std::size_t i = binds.size(); i-- > 0;)
      body = let(binds[i].first, binds[i].second, body, p.pos);
    return body;
  }
  void bind_parts(const Pattern& p, const std::string& from,
                  std::vector<std::pair<std::string, Term>>& binds) {
    std::string rest = from;
    const std::size_t n = p.parts.size();
    for (std::size_t i = 0; i + 1 < n; ++i) {
      const SourcePos at = p.parts[i].pos;
      bind_one(p.parts[i], fst(var(rest, at), at), binds);
      if (i + 2 == n) {
        bind_one(p.parts[n - 1], snd(var(rest, at), at), binds);
        return;
      }
      const std::string next = fresh_("p");
      binds.emplace_back(next, snd(var(rest, at), at));
      rest = next;
    }
  }
  void bind_one(const Pattern& part, Term component,
                std::vector<std::pair<std::string, Term>>& binds) {
    const std::string name = part.parts.empty() ? part.name : fresh_("p");
    binds.emplace_back(name, std::move(component));
    if (!part.parts.empty()) bind_parts(part, name, binds);
  }

  // ---- expressions ----
  Term expr() {
    const DepthGuard g(depth_, ts_.peek().pos);
    const SourcePos pos = ts_.peek().pos;
    if (ts_.accept_symbol("\\")) {
      ts_.expect_symbol("(", "after '\\' (write \\(x : T). e)");
      Pattern p;
      p.pos = pos;
      p.parts.push_back(pattern(true));
      while (ts_.accept_symbol(","))
        p.parts.push_back(pattern(true));
      ts_.expect_symbol(")", "after the λ's parameters");
      ts_.expect_symbol(".", "after the λ's parameters");
      Term body = expr();
      if (p.parts.size() == 1 && p.parts[0].parts.empty())
        return lam(p.parts[0].name, p.parts[0].type, body, pos);
      const Pattern& whole = p.parts.size() == 1 ? p.parts[0] : p;
      const std::string x = fresh_("p");
      return lam(x, pattern_type(whole), destructure(whole, x, body), pos);
    }
    if (ts_.accept_keyword("let")) {
      const Pattern p = pattern(false);
      if (ts_.accept_symbol(":")) (void)type(); // annotation: documentation only (docs)
      ts_.expect_symbol("=", "in a let");
      Term e1 = expr();
      ts_.expect_keyword("in", "after the let-bound term");
      Term e2 = expr();
      if (p.parts.empty()) return let(p.name, e1, e2, pos);
      const std::string x = fresh_("p");
      return let(x, e1, destructure(p, x, e2), pos);
    }
    if (ts_.accept_keyword("case")) {
      Term e0 = expr();
      ts_.expect_keyword("of", "in a case");
      ts_.expect_keyword("inl", "in a case");
      const std::string x1 = ts_.expect_identifier("after inl").text;
      ts_.expect_symbol("->", "in a case branch");
      Term e1 = expr();
      if (!ts_.accept_symbol("|")) ts_.expect_symbol(",", "between the case branches");
      ts_.expect_keyword("inr", "in a case");
      const std::string x2 = ts_.expect_identifier("after inr").text;
      ts_.expect_symbol("->", "in a case branch");
      Term e2 = expr();
      return case_of(e0, x1, e1, x2, e2, pos);
    }
    if (ts_.accept_keyword("do")) {
      ts_.expect_symbol("{", "after do");
      Term t = statements();
      ts_.expect_symbol("}", "at the end of a do block");
      return t;
    }
    return add_expr();
  }

  Term statements() {
    const DepthGuard g(depth_, ts_.peek().pos);
    const SourcePos pos = ts_.peek().pos;
    if (ts_.peek().kind == Token::Kind::identifier && ts_.peek(1).is_symbol("<-")) {
      const std::string x = ts_.next().text;
      ts_.next();
      Term e = expr();
      ts_.expect_symbol(";", "after a do statement");
      return do_bind(x, e, statements(), pos);
    }
    if (ts_.peek().is_keyword("let") && ts_.peek(1).kind == Token::Kind::identifier &&
        ts_.peek(2).is_symbol("=")) {
      // `let x = e;` statement (spec §3.2 [proposal]) or a let-expression
      ts_.next();
      const std::string x = ts_.next().text;
      ts_.next();
      Term e = expr();
      if (ts_.accept_keyword("in")) {
        Term body = expr();
        return more_statements(let(x, e, body, pos), pos);
      }
      ts_.expect_symbol(";", "after a do statement");
      return let(x, e, statements(), pos);
    }
    return more_statements(expr(), pos);
  }
  Term more_statements(Term e, SourcePos pos) {
    if (ts_.accept_symbol(";")) return do_bind("", e, statements(), pos);
    return e;
  }

  // A left-associative chain of n operators nests 2n levels (app, pair) without recursing here:
  // count them against the depth budget, or a long `x + x + ...` builds a tree whose recursive
  // destruction overflows the C++ stack (found by check-rule's hostile-input test).
  void chain_guard(int chain, SourcePos pos) { check_chain(depth_, 2 * chain, pos); }

  Term add_expr() {
    Term a = mul_expr();
    for (int chain = 0;; ++chain) {
      const SourcePos pos = ts_.peek().pos;
      chain_guard(chain, pos);
      if (ts_.accept_symbol("+"))
        a = app(prim("addR", pos), pair(a, mul_expr(), pos), pos);
      else if (ts_.accept_symbol("-"))
        a = app(prim("subR", pos), pair(a, mul_expr(), pos), pos);
      else
        return a;
    }
  }
  Term mul_expr() {
    Term a = unary();
    for (int chain = 0;; ++chain) {
      const SourcePos pos = ts_.peek().pos;
      chain_guard(chain, pos);
      if (ts_.accept_symbol("*"))
        a = app(prim("mulR", pos), pair(a, unary(), pos), pos);
      else if (ts_.accept_symbol("/"))
        a = app(prim("divR", pos), pair(a, unary(), pos), pos);
      else
        return a;
    }
  }
  // An integer literal's value; casting 1e32 to int64 is UB (found by fuzz_eval_delta_reverse).
  std::int64_t integer_value(const Token& t) {
    if (!(t.number < 9.2e18)) ts_.fail("integer literal out of range");
    return static_cast<std::int64_t>(t.number);
  }
  Term unary() {
    const DepthGuard g(depth_, ts_.peek().pos);
    const SourcePos pos = ts_.peek().pos;
    if (ts_.accept_symbol("-")) {
      const Token& t = ts_.peek();
      if (t.kind == Token::Kind::number && !ts_.peek(1).is_symbol(".")) {
        ts_.next();
        if (is_real_literal(t)) return real(-t.number, pos);
        return integer(-integer_value(t), pos);
      }
      return app(prim("negR", pos), unary(), pos);
    }
    return app_expr();
  }

  bool starts_item(const Token& t) const {
    switch (t.kind) {
    case Token::Kind::identifier:
    case Token::Kind::number:
      return true;
    case Token::Kind::symbol:
      return t.text == "(";
    case Token::Kind::keyword:
      return t.text == "fst" || t.text == "snd" || t.text == "pure" || t.text == "deltaLet" ||
             t.text == "inl" || t.text == "inr" || t.text == "Zero" || t.text == "Scale" ||
             t.text == "Add" || t.text == "Var" || t.text == "OneHot" || t.text == "Zero2" ||
             t.text == "Scale2" || t.text == "Add2" || t.text == "zeroS" || t.text == "oplusS" ||
             t.text == "otimesS";
    case Token::Kind::end:
      return false;
    }
    return false;
  }

  Term app_expr() {
    Term f = item();
    while (starts_item(ts_.peek())) {
      const SourcePos pos = ts_.peek().pos;
      f = app(f, item(), pos);
    }
    return f;
  }

  Term item() {
    const DepthGuard g(depth_, ts_.peek().pos);
    const SourcePos pos = ts_.peek().pos;
    if (ts_.accept_keyword("fst")) return fst(item(), pos);
    if (ts_.accept_keyword("snd")) return snd(item(), pos);
    if (ts_.accept_keyword("pure")) return pure(item(), pos);
    if (ts_.accept_keyword("deltaLet")) return delta_let(item(), pos);
    if (annotated("sequence")) {
      Type a = element_type("sequence");
      return sequence(std::move(a), item(), pos);
    }
    for (const char* k : {"inl", "inr"}) {
      if (ts_.accept_keyword(k)) {
        ts_.expect_symbol("[", "after inl/inr (write inl[B] e with B the other summand)");
        Type other = type();
        ts_.expect_symbol("]", "after the summand type");
        Term e = item();
        return k[2] == 'l' ? inl(other, e, pos) : inr(other, e, pos);
      }
    }
    Term a = atom();
    while (ts_.peek().is_symbol(".") && ts_.peek(1).kind == Token::Kind::number &&
           !is_real_literal(ts_.peek(1))) {
      ts_.next();
      const Token& n = ts_.next();
      if (n.number < 1) ts_.fail("projections are 1-based");
      // casting 1e10 to int is UB (fuzzing); no tuple is that wide
      if (n.number > 1'000'000) ts_.fail("projection index too large");
      a = proj(a, static_cast<int>(n.number), pos);
    }
    return a;
  }

  Term constructor(Kind kind, std::size_t arity, SourcePos pos) {
    ts_.expect_symbol("(", "after a Delta constructor");
    std::vector<Term> kids;
    for (std::size_t i = 0; i < arity; ++i) {
      if (i) ts_.expect_symbol(",", "between constructor arguments");
      kids.push_back(expr());
    }
    ts_.expect_symbol(")", "after the constructor arguments");
    return node(kind, std::move(kids), pos);
  }

  // index[A], build[A], sequence[A]: the array extension's names (§10.2) are read as its
  // constants only before '[', so programs that use them as variables still parse.
  bool annotated(const char* name) const {
    return ts_.peek().kind == Token::Kind::identifier && ts_.peek().text == name &&
           ts_.peek(1).is_symbol("[");
  }
  Type element_type(const std::string& name) {
    ts_.next();
    ts_.next();
    Type a = type();
    ts_.expect_symbol("]", "after " + name + "'s element type");
    return a;
  }

  Term atom() {
    const Token& t = ts_.peek();
    const SourcePos pos = t.pos;
    if (annotated("index")) return index_op(element_type("index"), pos);
    if (annotated("build")) return build_op(element_type("build"), pos);
    // sumV (spec §9.12) is a keyword: bare it sums reals, sumV[A] names the translations' sums
    if (annotated("sumV")) return sum_v_op(element_type("sumV"), pos);
    if (t.kind == Token::Kind::identifier && t.text == "sumV") {
      ts_.next();
      return sum_v_op(real_type(), pos);
    }
    if (t.kind == Token::Kind::identifier) {
      ts_.next();
      if (const auto p = canonical_prim(t.text)) return prim(*p, pos);
      return var(t.text, pos);
    }
    if (t.kind == Token::Kind::number) {
      ts_.next();
      if (is_real_literal(t)) return real(t.number, pos);
      return integer(integer_value(t), pos);
    }
    if (ts_.accept_symbol("(")) {
      std::vector<Term> items = {expr()};
      while (ts_.accept_symbol(","))
        items.push_back(expr());
      ts_.expect_symbol(")", "to close a parenthesis or tuple");
      Term out = items.back();
      for (std::size_t i = items.size() - 1; i-- > 0;)
        out = pair(items[i], out, pos);
      return out;
    }
    if (ts_.accept_keyword("Zero")) return node(Kind::d_zero, {}, pos);
    if (ts_.accept_keyword("Zero2")) return node(Kind::d2_zero, {}, pos);
    if (ts_.accept_keyword("zeroS")) return node(Kind::s_zero, {}, pos);
    if (ts_.accept_keyword("Scale")) return constructor(Kind::d_scale, 2, pos);
    if (ts_.accept_keyword("Add")) return constructor(Kind::d_add, 2, pos);
    if (ts_.accept_keyword("Var")) return constructor(Kind::d_var, 1, pos);
    if (ts_.accept_keyword("OneHot")) return constructor(Kind::d2_onehot, 1, pos);
    if (ts_.accept_keyword("Scale2")) return constructor(Kind::d2_scale, 2, pos);
    if (ts_.accept_keyword("Add2")) return constructor(Kind::d2_add, 2, pos);
    if (ts_.accept_keyword("oplusS")) return constructor(Kind::s_oplus, 2, pos);
    if (ts_.accept_keyword("otimesS")) return constructor(Kind::s_otimes, 2, pos);
    ts_.fail_expected("a term");
  }

  TokenStream ts_;
  FreshNames fresh_;
  DepthBudget depth_{max_source_nesting, 0, ErrorKind::parse};
  // A written type nests at most this deep: the type walks (printing, equality, the translations'
  // type clauses) recurse without a guard of their own on the caller's stack, and
  // `Real * Real * ... * Real` of 50,000 factors overflowed it in print_type.
  DepthBudget type_depth_{DepthBudget::default_limit, 0, ErrorKind::parse};
};

} // namespace

Term parse_term(const std::string& source) {
  const auto read = [&] { return Parser(lex(source, config())).whole(); };
  return source.size() <= shallow_text ? read() : on_large_stack(read);
}

Type parse_type(const std::string& source) {
  const auto read = [&] { return Parser(lex(source, config())).whole_type(); };
  return source.size() <= shallow_text ? read() : on_large_stack(read);
}

} // namespace adsem::delta_reverse
