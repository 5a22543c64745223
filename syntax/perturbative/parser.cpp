// Recursive descent over the grammar of spec §2.7, then bidirectional elaboration (spec §2.7
// "Elaboration") into the annotated AST of ast.hpp, whose smart constructors apply the linearity
// sugar of seed 004 L165-185.
#include "syntax/perturbative/parser.hpp"

#include <memory>

#include "syntax/core/depth_guard.hpp"
#include "syntax/core/lexer.hpp"

namespace adsem::perturbative {

namespace {

// ---- surface syntax ----
struct Surf;
using SurfP = std::shared_ptr<const Surf>;
struct Surf {
  enum class Kind {
    lam,
    let,
    sum,
    mul,
    neg,
    app,
    push,
    proj,
    inj,
    ident,
    number,
    zero,
    pair,
    ascribe
  };
  Kind kind;
  SourcePos pos;
  std::string name; // lam/let binder, ident
  Type type;        // lam binder type, ascription
  int index = 0;    // proj/inj
  double number = 0;
  SurfP a, b;
};
SurfP node(Surf s) {
  return std::make_shared<const Surf>(std::move(s));
}

LexerConfig config() {
  LexerConfig c;
  c.symbols = {"->", "\\", ":", ".", "*", "+", "-", "(", ")", ",", "="};
  c.keywords = {"T", "pi1", "pi2", "in1", "in2", "let", "in", "R"};
  c.line_comments = {"#"};
  return c;
}

class Parser {
public:
  explicit Parser(std::string_view source) : ts_(lex(source, config())) {}

  SurfP whole_term() {
    SurfP t = term();
    if (!ts_.at_end()) ts_.fail_expected("end of input");
    return t;
  }
  Type whole_type() {
    Type t = type();
    if (!ts_.at_end()) ts_.fail_expected("end of input");
    return t;
  }

private:
  // type ::= ptype [ "->" type ]
  Type type() {
    const DepthGuard guard(budget_, ts_.peek().pos);
    Type left = ptype();
    if (ts_.accept_symbol("->")) return arrow_type(left, type());
    return left;
  }
  // ptype ::= ttype [ "*" ttype ]   (non-associative)
  Type ptype() {
    Type left = ttype();
    if (ts_.accept_symbol("*")) {
      Type right = ttype();
      if (ts_.peek().is_symbol("*")) ts_.fail("'*' is not associative on types: write (A * B) * C");
      return product_type(left, right);
    }
    return left;
  }
  // ttype ::= "T" ttype | "R" | UIDENT | "(" type ")"
  Type ttype() {
    const DepthGuard guard(budget_, ts_.peek().pos);
    if (ts_.accept_keyword("T")) return tangent_type(ttype()); // Tσ expands at parse time (L186)
    if (ts_.accept_keyword("R")) return real_type();
    if (ts_.accept_symbol("(")) {
      Type t = type();
      ts_.expect_symbol(")", "to close the type");
      return t;
    }
    const Token& t = ts_.peek();
    if (t.kind == Token::Kind::identifier && !t.text.empty() && std::isupper(t.text[0])) {
      ts_.next();
      return atom_type(t.text);
    }
    ts_.fail_expected("a type");
  }

  SurfP term() {
    const DepthGuard guard(budget_, ts_.peek().pos);
    const SourcePos pos = ts_.peek().pos;
    if (ts_.accept_symbol("\\")) {
      const std::string x = ts_.expect_identifier("after '\\'").text;
      ts_.expect_symbol(":", "after the bound variable");
      Type t = type();
      ts_.expect_symbol(".", "after the binder's type");
      return node({Surf::Kind::lam, pos, x, t, 0, 0, term(), nullptr});
    }
    if (ts_.accept_keyword("let")) {
      const std::string x = ts_.expect_identifier("after 'let'").text;
      ts_.expect_symbol("=", "in a let");
      SurfP m = term();
      ts_.expect_keyword("in", "in a let");
      return node({Surf::Kind::let, pos, x, nullptr, 0, 0, m, term()});
    }
    return sum();
  }
  // A left-nested chain (a + b + ..., a * b * ..., f a b ...) is built by a loop but gives a
  // tree as deep as it is long, which the checker and the tree's destructor recurse on: bound
  // it like nesting (a 10 MB `1 * 1 * ...` overflowed the stack in the destructor).
  void chain_link(int& length, const SourcePos& pos) const {
    if (++length + budget_.depth > budget_.limit)
      throw AdsemError(ErrorKind::parse,
                       "term nested deeper than " + std::to_string(budget_.limit) +
                           " levels (a chain of operators or applications)",
                       pos);
  }
  SurfP sum() {
    SurfP left = prod();
    for (int length = 0; ts_.peek().is_symbol("+");) {
      const SourcePos pos = ts_.next().pos;
      chain_link(length, pos);
      left = node({Surf::Kind::sum, pos, "", nullptr, 0, 0, left, prod()});
    }
    return left;
  }
  SurfP prod() {
    SurfP left = unary();
    for (int length = 0; ts_.peek().is_symbol("*");) {
      const SourcePos pos = ts_.next().pos;
      chain_link(length, pos);
      left = node({Surf::Kind::mul, pos, "", nullptr, 0, 0, left, unary()});
    }
    return left;
  }
  SurfP unary() {
    const DepthGuard guard(budget_, ts_.peek().pos);
    if (ts_.peek().is_symbol("-")) {
      const SourcePos pos = ts_.next().pos;
      if (ts_.peek().kind == Token::Kind::number && !starts_argument(ts_.peek(1))) {
        const Token& n = ts_.next();
        if (n.number == 0.0) return node({Surf::Kind::zero, pos, "", nullptr, 0, 0, {}, {}});
        return node({Surf::Kind::number, pos, "", nullptr, 0, -n.number, {}, {}});
      }
      return node({Surf::Kind::neg, pos, "", nullptr, 0, 0, unary(), nullptr});
    }
    return application();
  }
  static bool starts_argument(const Token& t) {
    return t.kind == Token::Kind::identifier || t.kind == Token::Kind::number || t.is_symbol("(") ||
           t.is_keyword("T") || t.is_keyword("pi1") || t.is_keyword("pi2") || t.is_keyword("in1") ||
           t.is_keyword("in2");
  }
  SurfP application() {
    SurfP left = pre();
    for (int length = 0; starts_argument(ts_.peek());) {
      const SourcePos pos = ts_.peek().pos;
      chain_link(length, pos);
      left = node({Surf::Kind::app, pos, "", nullptr, 0, 0, left, pre()});
    }
    return left;
  }
  SurfP pre() {
    const DepthGuard guard(budget_, ts_.peek().pos);
    const SourcePos pos = ts_.peek().pos;
    if (ts_.accept_keyword("T")) return node({Surf::Kind::push, pos, "", nullptr, 0, 0, pre(), {}});
    for (int k = 1; k <= 2; ++k) {
      if (ts_.accept_keyword("pi" + std::to_string(k)))
        return node({Surf::Kind::proj, pos, "", nullptr, k, 0, pre(), {}});
      if (ts_.accept_keyword("in" + std::to_string(k)))
        return node({Surf::Kind::inj, pos, "", nullptr, k, 0, pre(), {}});
    }
    return atom();
  }
  SurfP atom() {
    const Token& t = ts_.peek();
    const SourcePos pos = t.pos;
    if (t.kind == Token::Kind::identifier) {
      ts_.next();
      return node({Surf::Kind::ident, pos, t.text, nullptr, 0, 0, {}, {}});
    }
    if (t.kind == Token::Kind::number) {
      ts_.next();
      if (t.number == 0.0) return node({Surf::Kind::zero, pos, "", nullptr, 0, 0, {}, {}});
      return node({Surf::Kind::number, pos, "", nullptr, 0, t.number, {}, {}});
    }
    if (ts_.accept_symbol("(")) {
      SurfP m = term();
      if (ts_.accept_symbol(",")) {
        SurfP n = term();
        ts_.expect_symbol(")", "to close the pair");
        return node({Surf::Kind::pair, pos, "", nullptr, 0, 0, m, n});
      }
      if (ts_.accept_symbol(":")) {
        Type ty = type();
        ts_.expect_symbol(")", "to close the ascription");
        return node({Surf::Kind::ascribe, pos, "", ty, 0, 0, m, {}});
      }
      ts_.expect_symbol(")", "to close '('");
      return m;
    }
    ts_.fail_expected("a term");
  }

  TokenStream ts_;
  DepthBudget budget_{};
};

// ---- elaboration (spec §2.7) ----
class Elaborator {
public:
  Elaborator(const ConstantTypes& constants, Context gamma)
      : constants_(constants), gamma_(std::move(gamma)) {}

  Term synth(const Surf& m) {
    const DepthGuard guard(budget_, m.pos);
    switch (m.kind) {
    case Surf::Kind::ident: {
      for (auto it = gamma_.rbegin(); it != gamma_.rend(); ++it)
        if (it->first == m.name) return var(m.name, it->second);
      if (const auto t = constants_(m.name)) return primitive(m.name, *t);
      throw AdsemError(ErrorKind::type, "unbound variable '" + m.name + "'", m.pos);
    }
    case Surf::Kind::number:
      return numeral(m.number);
    case Surf::Kind::lam: {
      gamma_.emplace_back(m.name, m.type);
      Term body = synth(*m.a);
      gamma_.pop_back();
      return lam(m.name, m.type, body);
    }
    case Surf::Kind::let: {
      Term bound = synth(*m.a);
      gamma_.emplace_back(m.name, bound.type);
      Term body = synth(*m.b);
      gamma_.pop_back();
      return app(lam(m.name, bound.type, body), bound); // (\x:σ. N) M
    }
    case Surf::Kind::sum: {
      if (synthesisable(*m.a)) {
        Term left = synth(*m.a);
        return sum(left, check(*m.b, left.type));
      }
      Term right = synth(*m.b);
      return sum(check(*m.a, right.type), right);
    }
    case Surf::Kind::mul:
      return binary("mul", m);
    case Surf::Kind::neg:
      return app(constant("neg", m.pos), check(*m.a, real_type()));
    case Surf::Kind::app: {
      Term op = synth(*m.a);
      if (!is_arrow(op.type))
        throw AdsemError(ErrorKind::type,
                         "applying a term of type " + type_text(op.type) + ", not a function",
                         m.a->pos);
      return app(op, check(*m.b, op.type->left));
    }
    case Surf::Kind::push: { // (Push): s : σ → τ gives T s : Tσ → Tτ
      Term op = synth(*m.a);
      if (!is_arrow(op.type))
        throw AdsemError(ErrorKind::type, "T needs a function, got type " + type_text(op.type),
                         m.a->pos);
      return push(op);
    }
    case Surf::Kind::proj: {
      Term p = synth(*m.a);
      if (!is_product(p.type))
        throw AdsemError(ErrorKind::type,
                         "pi" + std::to_string(m.index) + " needs a product, got type " +
                             type_text(p.type),
                         m.a->pos);
      return proj(m.index, p);
    }
    case Surf::Kind::pair: {
      Term a = synth(*m.a);
      Term b = synth(*m.b);
      return pair(a, b);
    }
    case Surf::Kind::ascribe:
      return check(*m.a, m.type);
    case Surf::Kind::zero:
      throw AdsemError(ErrorKind::type, "cannot infer the type of 0: write (0 : TYPE)", m.pos);
    case Surf::Kind::inj:
      throw AdsemError(ErrorKind::type,
                       "cannot infer the type of in" + std::to_string(m.index) + ": write (in" +
                           std::to_string(m.index) + " M : A * B)",
                       m.pos);
    }
    throw AdsemError(ErrorKind::type, "cannot type this term", m.pos);
  }

  Term check(const Surf& m, const Type& sigma) {
    const DepthGuard guard(budget_, m.pos);
    switch (m.kind) {
    case Surf::Kind::zero:
      return zero(sigma);
    case Surf::Kind::inj:
      if (!is_product(sigma))
        throw AdsemError(ErrorKind::type,
                         "in" + std::to_string(m.index) + " builds a product, but type " +
                             type_text(sigma) + " is expected",
                         m.pos);
      return inj(m.index, sigma, check(*m.a, component(sigma, m.index)));
    case Surf::Kind::pair:
      if (!is_product(sigma))
        throw AdsemError(ErrorKind::type,
                         "a pair is a product, but type " + type_text(sigma) + " is expected",
                         m.pos);
      return pair(check(*m.a, sigma->left), check(*m.b, sigma->right));
    case Surf::Kind::sum:
      return sum(check(*m.a, sigma), check(*m.b, sigma));
    case Surf::Kind::lam:
      if (is_arrow(sigma) && same_type(sigma->left, m.type)) {
        gamma_.emplace_back(m.name, m.type);
        Term body = check(*m.a, sigma->right);
        gamma_.pop_back();
        return lam(m.name, m.type, body);
      }
      break;
    case Surf::Kind::let: {
      Term bound = synth(*m.a);
      gamma_.emplace_back(m.name, bound.type);
      Term body = check(*m.b, sigma);
      gamma_.pop_back();
      return app(lam(m.name, bound.type, body), bound);
    }
    default:
      break;
    }
    Term t = synth(m);
    if (!same_type(t.type, sigma))
      throw AdsemError(ErrorKind::type,
                       "expected type " + type_text(sigma) + ", got " + type_text(t.type), m.pos);
    return t;
  }

private:
  static bool synthesisable(const Surf& m) {
    switch (m.kind) {
    case Surf::Kind::zero:
    case Surf::Kind::inj:
      return false;
    case Surf::Kind::pair:
      return synthesisable(*m.a) && synthesisable(*m.b);
    case Surf::Kind::sum:
      return synthesisable(*m.a) || synthesisable(*m.b);
    case Surf::Kind::let:
      return synthesisable(*m.b);
    default:
      return true;
    }
  }
  Term constant(const std::string& name, SourcePos pos) {
    const auto t = constants_(name);
    if (!t) throw AdsemError(ErrorKind::type, "primitive '" + name + "' is not available", pos);
    return primitive(name, *t);
  }
  Term binary(const std::string& name, const Surf& m) { // M * N := mul (M, N)
    return app(constant(name, m.pos), pair(check(*m.a, real_type()), check(*m.b, real_type())));
  }

  const ConstantTypes& constants_;
  Context gamma_;
  DepthBudget budget_{DepthBudget::default_limit, 0, ErrorKind::type};
};

} // namespace

Term parse_term(std::string_view source, const ConstantTypes& constants, const Context& gamma) {
  const SurfP surface = Parser(source).whole_term();
  return Elaborator(constants, gamma).synth(*surface);
}

Type parse_type(std::string_view source) {
  return Parser(source).whole_type();
}

} // namespace adsem::perturbative
