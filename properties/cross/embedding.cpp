#include "properties/cross/embedding.hpp"

namespace adsem::cross {

std::string SurfacePrinter::expr(const Expr& e) const {
  switch (e.kind) {
  case Expr::Kind::var:
    return e.name;
  case Expr::Kind::lit:
    return literal(e.value);
  case Expr::Kind::prim: {
    std::vector<std::string> args;
    for (const Expr& a : e.args)
      args.push_back(expr(a));
    return primitive(e.name, args);
  }
  case Expr::Kind::pair:
    return pair(expr(e.args[0]), expr(e.args[1]));
  case Expr::Kind::fst:
    return project(1, expr(e.args[0]));
  case Expr::Kind::snd:
    return project(2, expr(e.args[0]));
  case Expr::Kind::let:
    return let(e.name, e.type, expr(e.args[0]), expr(e.args[1]));
  case Expr::Kind::lam:
    return lambda(e.name, e.type, expr(e.args[0]));
  case Expr::Kind::app:
    return apply(expr(e.args[0]), expr(e.args[1]));
  }
  return "?";
}

std::string SurfacePrinter::literal(double value) const {
  const std::string text = literal_text(value);
  return value < 0 ? "(" + text + ")" : text;
}

std::string SurfacePrinter::function(const Program& p, const std::string& body) const {
  std::string out;
  for (const auto& x : p.inputs)
    out += "\\" + x + ":" + type(Type::real()) + ". ";
  return out + body;
}

std::string SurfacePrinter::type(const Type& t) const {
  return type_text(t, "R");
}

std::string SurfacePrinter::pair(const std::string& a, const std::string& b) const {
  return "(" + a + ", " + b + ")";
}

std::string SurfacePrinter::let(const std::string& x, const Type&, const std::string& bound,
                                const std::string& body) const {
  return "(let " + x + " = " + bound + " in " + body + ")";
}

std::string SurfacePrinter::lambda(const std::string& x, const Type& t,
                                   const std::string& body) const {
  return "(\\" + x + ":" + type(t) + ". " + body + ")";
}

std::string SurfacePrinter::applied_to_tuple(const std::string& name,
                                             const std::vector<std::string>& args, const char* open,
                                             const char* close) {
  if (args.size() == 1) return name + "(" + args[0] + ")";
  std::string tuple;
  for (const auto& a : args)
    tuple += (tuple.empty() ? "" : ", ") + a;
  return name + "(" + open + tuple + close + ")";
}

std::string SurfacePrinter::juxtaposed(const std::string& name,
                                       const std::vector<std::string>& args) {
  if (args.size() == 1) return "(" + name + " " + args[0] + ")";
  return "(" + name + " (" + args[0] + ", " + args[1] + "))";
}

std::string SurfacePrinter::apply(const std::string& f, const std::string& a) const {
  return "(" + f + " " + a + ")";
}

std::string SurfacePrinter::type_text(const Type& t, const std::string& real_name) {
  const auto part = [&](const Type& u) {
    return u.is_real() ? real_name : "(" + type_text(u, real_name) + ")";
  };
  switch (t.kind) {
  case Type::Kind::real:
    return real_name;
  case Type::Kind::pair:
    return part(t.first()) + " * " + part(t.second());
  case Type::Kind::function:
    return part(t.first()) + " -> " + part(t.second());
  }
  return "?";
}

const std::vector<Embedding>& embeddings() {
  static const std::vector<Embedding> all = {
      {"simple-diff", {"rd"}, false, embed_simple_diff},
      {"perturbative", {"pushforward"}, true, embed_perturbative},
      // bp (Def. 10) and forward (Prop. 1) run on computational graphs only (seed 002 §3).
      {"linear-negation", {"backprop"}, true, embed_linear_negation, {"bp", "forward"}},
      {"delta-reverse", {"R", "F"}, true, embed_delta_reverse},
      {"pullback", {"pullback"}, true, embed_pullback},
  };
  return all;
}

} // namespace adsem::cross
