#pragma once
// The shared program language of the cross-calculus check ("one program, five AD
// mechanisms, one gradient"): a small simply typed language over the shared primitive table with
// `let`, pairs and projections (the first-order fragment every calculus has), plus λ and
// application (the higher-order fragment of the four calculi with functions). A program is a
// body of type R over real inputs x0..x(n-1); embeddings (properties/cross/) print it in each
// calculus's own surface syntax. Not a calculus of any paper: it has no AD construct of its own,
// so every derivative comes from a calculus's mechanism or from the model.
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace adsem::cross {

struct Type {
  enum class Kind { real, pair, function };
  Kind kind = Kind::real;
  std::vector<Type> parts; // pair: (first, second); function: (argument, result)

  static Type real() { return {}; }
  static Type pair(Type first, Type second) {
    return {Kind::pair, {std::move(first), std::move(second)}};
  }
  static Type function(Type argument, Type result) {
    return {Kind::function, {std::move(argument), std::move(result)}};
  }
  bool is_real() const { return kind == Kind::real; }
  bool is_pair() const { return kind == Kind::pair; }
  bool is_function() const { return kind == Kind::function; }
  const Type& first() const { return parts.at(0); }
  const Type& second() const { return parts.at(1); }
  friend bool operator==(const Type&, const Type&) = default;
};

// "R", "R * (R * R)", "(R -> R) -> R -> R": components that are not atoms are parenthesised
// except the result of an arrow.
std::string to_string(const Type& type);
// Does the type mention a function type?
bool is_higher_order(const Type& type);

struct Expr {
  enum class Kind { var, lit, prim, pair, fst, snd, let, lam, app };
  Kind kind = Kind::lit;
  std::string name;       // var: the variable; prim: a primitive name; let, lam: the binder
  double value = 0.0;     // lit
  Type type = {};         // let, lam: the binder's type
  std::vector<Expr> args; // prim: arguments; pair: 2; fst, snd: 1; let: (bound, body);
                          // lam: (body); app: (function, argument)

  static Expr var(std::string x) { return {Kind::var, std::move(x), 0.0, {}, {}}; }
  static Expr lit(double v) { return {Kind::lit, "", v, {}, {}}; }
  static Expr prim(std::string op, std::vector<Expr> arguments) {
    return {Kind::prim, std::move(op), 0.0, {}, std::move(arguments)};
  }
  static Expr pair(Expr a, Expr b) {
    return {Kind::pair, "", 0.0, {}, {std::move(a), std::move(b)}};
  }
  static Expr fst(Expr e) { return {Kind::fst, "", 0.0, {}, {std::move(e)}}; }
  static Expr snd(Expr e) { return {Kind::snd, "", 0.0, {}, {std::move(e)}}; }
  static Expr let(std::string x, Type t, Expr bound, Expr body) {
    return {Kind::let, std::move(x), 0.0, std::move(t), {std::move(bound), std::move(body)}};
  }
  static Expr lam(std::string x, Type t, Expr body) {
    return {Kind::lam, std::move(x), 0.0, std::move(t), {std::move(body)}};
  }
  static Expr app(Expr f, Expr a) { return {Kind::app, "", 0.0, {}, {std::move(f), std::move(a)}}; }
  friend bool operator==(const Expr&, const Expr&) = default;
};

// A closed real function of the inputs: body : R under x0 : R, ..., x(n-1) : R.
struct Program {
  std::vector<std::string> inputs;
  Expr body;
  friend bool operator==(const Program&, const Program&) = default;
};

using TypeEnv = std::vector<std::pair<std::string, Type>>; // innermost binding last

// The program's own syntax (for reports): "\x0 x1. let y0 : R = mul(x0, x1) in sin(y0)".
std::string to_string(const Expr& e);
std::string to_string(const Program& p);
// Nodes in the tree.
int size_of(const Expr& e);
// The type of e under env, or nullopt when e is ill typed (primitives: the shared table's arity,
// R^k -> R).
std::optional<Type> type_of(const Expr& e, const TypeEnv& env);
// body : R under the inputs.
bool well_typed(const Program& p);
// Construct tags of a program, each once: "let", "pair", "fst", "snd", "lambda", "apply", the
// primitive names, and "higher-order-binder" when a let or λ binds a function.
std::vector<std::string> constructs(const Program& p);

// Literals as every calculus can read them: the shortest round-trip decimal.
std::string literal_text(double value);

} // namespace adsem::cross
