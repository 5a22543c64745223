#include "syntax/cross/program.hpp"

#include <algorithm>

#include <fmt/format.h>

namespace adsem::cross {

namespace {

std::string atom_type(const Type& t) {
  return t.is_real() ? to_string(t) : "(" + to_string(t) + ")";
}

void add_tag(std::vector<std::string>& tags, const std::string& tag) {
  if (std::find(tags.begin(), tags.end(), tag) == tags.end()) tags.push_back(tag);
}

void collect(const Expr& e, std::vector<std::string>& tags) {
  switch (e.kind) {
  case Expr::Kind::var:
  case Expr::Kind::lit:
    break;
  case Expr::Kind::prim:
    add_tag(tags, e.name);
    break;
  case Expr::Kind::pair:
    add_tag(tags, "pair");
    break;
  case Expr::Kind::fst:
    add_tag(tags, "fst");
    break;
  case Expr::Kind::snd:
    add_tag(tags, "snd");
    break;
  case Expr::Kind::let:
    add_tag(tags, "let");
    if (is_higher_order(e.type)) add_tag(tags, "higher-order-binder");
    break;
  case Expr::Kind::lam:
    add_tag(tags, "lambda");
    if (is_higher_order(e.type)) add_tag(tags, "higher-order-binder");
    break;
  case Expr::Kind::app:
    add_tag(tags, "apply");
    break;
  }
  for (const Expr& a : e.args)
    collect(a, tags);
}

} // namespace

std::string to_string(const Type& type) {
  switch (type.kind) {
  case Type::Kind::real:
    return "R";
  case Type::Kind::pair:
    return atom_type(type.first()) + " * " + atom_type(type.second());
  case Type::Kind::function:
    return atom_type(type.first()) + " -> " + to_string(type.second());
  }
  return "?";
}

bool is_higher_order(const Type& type) {
  return type.is_function() || std::any_of(type.parts.begin(), type.parts.end(),
                                           [](const Type& t) { return is_higher_order(t); });
}

std::string literal_text(double value) {
  return fmt::format("{}", value);
}

std::string to_string(const Expr& e) {
  switch (e.kind) {
  case Expr::Kind::var:
    return e.name;
  case Expr::Kind::lit:
    return e.value < 0 ? "(" + literal_text(e.value) + ")" : literal_text(e.value);
  case Expr::Kind::prim: {
    std::string out = e.name + "(";
    for (std::size_t i = 0; i < e.args.size(); ++i)
      out += (i ? ", " : "") + to_string(e.args[i]);
    return out + ")";
  }
  case Expr::Kind::pair:
    return "(" + to_string(e.args[0]) + ", " + to_string(e.args[1]) + ")";
  case Expr::Kind::fst:
    return "fst(" + to_string(e.args[0]) + ")";
  case Expr::Kind::snd:
    return "snd(" + to_string(e.args[0]) + ")";
  case Expr::Kind::let:
    return "(let " + e.name + " : " + to_string(e.type) + " = " + to_string(e.args[0]) + " in " +
           to_string(e.args[1]) + ")";
  case Expr::Kind::lam:
    return "(\\" + e.name + " : " + to_string(e.type) + ". " + to_string(e.args[0]) + ")";
  case Expr::Kind::app:
    return "(" + to_string(e.args[0]) + " " + to_string(e.args[1]) + ")";
  }
  return "?";
}

std::string to_string(const Program& p) {
  std::string inputs;
  for (const auto& x : p.inputs)
    inputs += (inputs.empty() ? "" : " ") + x;
  return "\\" + inputs + ". " + to_string(p.body);
}

int size_of(const Expr& e) {
  int n = 1;
  for (const Expr& a : e.args)
    n += size_of(a);
  return n;
}

std::optional<Type> type_of(const Expr& e, const TypeEnv& env) {
  const auto arg = [&](std::size_t i, const TypeEnv& in) { return type_of(e.args.at(i), in); };
  switch (e.kind) {
  case Expr::Kind::var:
    for (auto it = env.rbegin(); it != env.rend(); ++it)
      if (it->first == e.name) return it->second;
    return std::nullopt;
  case Expr::Kind::lit:
    return Type::real();
  case Expr::Kind::prim: {
    // Every argument real. The arity is the shared table's (semantics/core): the generator
    // builds calls with it, and the model's Primitive::apply checks it on every evaluation.
    for (std::size_t i = 0; i < e.args.size(); ++i) {
      const auto t = arg(i, env);
      if (!t || !t->is_real()) return std::nullopt;
    }
    if (e.args.empty()) return std::nullopt;
    return Type::real();
  }
  case Expr::Kind::pair: {
    auto a = arg(0, env), b = arg(1, env);
    if (!a || !b) return std::nullopt;
    return Type::pair(std::move(*a), std::move(*b));
  }
  case Expr::Kind::fst:
  case Expr::Kind::snd: {
    const auto t = arg(0, env);
    if (!t || !t->is_pair()) return std::nullopt;
    return e.kind == Expr::Kind::fst ? t->first() : t->second();
  }
  case Expr::Kind::let: {
    const auto bound = arg(0, env);
    if (!bound || !(*bound == e.type)) return std::nullopt;
    TypeEnv inner = env;
    inner.emplace_back(e.name, e.type);
    return arg(1, inner);
  }
  case Expr::Kind::lam: {
    TypeEnv inner = env;
    inner.emplace_back(e.name, e.type);
    auto body = arg(0, inner);
    if (!body) return std::nullopt;
    return Type::function(e.type, std::move(*body));
  }
  case Expr::Kind::app: {
    const auto f = arg(0, env), a = arg(1, env);
    if (!f || !a || !f->is_function() || !(f->first() == *a)) return std::nullopt;
    return f->second();
  }
  }
  return std::nullopt;
}

bool well_typed(const Program& p) {
  TypeEnv env;
  for (const auto& x : p.inputs)
    env.emplace_back(x, Type::real());
  const auto t = type_of(p.body, env);
  return t && t->is_real();
}

std::vector<std::string> constructs(const Program& p) {
  std::vector<std::string> tags;
  collect(p.body, tags);
  return tags;
}

} // namespace adsem::cross
