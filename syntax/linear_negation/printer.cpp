#include "syntax/linear_negation/printer.hpp"

#include <cmath>

#include <fmt/format.h>

#include "syntax/core/depth_guard.hpp"
#include "syntax/linear_negation/nesting.hpp"

namespace adsem::linear_negation {

std::string format_real(double r) {
  if (std::isnan(r)) return "nan";
  if (std::isinf(r)) return r > 0 ? "1e999" : "(-1e999)";
  std::string s = fmt::format("{}", r);
  return r < 0 ? "(" + s + ")" : s;
}

std::string print_type(const Type& t) {
  return type_text(t);
}

namespace {

// Levels: 0 binder forms (λ, let), 1 sums, 2 products, 3 applications, 4 postfix ES / atoms.
class Printer {
public:
  std::string run(const Term& t) {
    std::string out;
    go(t, 0, out);
    return out;
  }

private:
  static std::string binder(const Binder& b) {
    if (b.linear) return b.name + ":R";
    if (!b.type) return b.name;
    return b.name + ":!" + print_type_atomic(b.type);
  }
  static std::string print_type_atomic(const Type& t) {
    const std::string s = type_text(t);
    return is_real(t) ? s : "(" + s + ")";
  }
  void go(const Term& t, int level, std::string& out) {
    const DepthGuard guard(budget_);
    force(*t); // a shared copy of rule (9) is printed as the copy it stands for
    const auto open = [&](int mine) {
      if (level > mine) out += "(";
    };
    const auto close = [&](int mine) {
      if (level > mine) out += ")";
    };
    switch (t->kind) {
    case Kind::var:
      out += t->name;
      return;
    case Kind::num:
      out += format_real(t->value);
      return;
    case Kind::lam:
      open(0);
      out += "\\" + binder(t->x) + ". ";
      go(t->body(), 0, out);
      close(0);
      return;
    case Kind::app:
      open(3);
      go(t->left(), 3, out);
      out += " ";
      go(t->right(), 4, out);
      close(3);
      return;
    case Kind::pair:
      out += "(";
      go(t->left(), 0, out);
      out += ", ";
      go(t->right(), 0, out);
      out += ")";
      return;
    case Kind::let:
    case Kind::let_pair: {
      // (t)[p := u]: postfix on an atom; a let body chains without parentheses
      const bool chain = t->body()->kind == Kind::let || t->body()->kind == Kind::let_pair;
      if (!chain) out += "(";
      go(t->body(), chain ? 4 : 0, out);
      if (!chain) out += ")";
      out += "[";
      if (t->kind == Kind::let)
        out += binder(t->x);
      else
        out += "(" + binder(t->x) + ", " + binder(t->y) + ")";
      out += " := ";
      go(t->bound(), 0, out);
      out += "]";
      return;
    }
    case Kind::add:
      open(1);
      go(t->left(), 1, out);
      out += " + ";
      go(t->right(), 2, out);
      close(1);
      return;
    case Kind::prim:
      if (t->name == "mul" && t->kids.size() == 2) {
        open(2);
        go(t->kids[0], 2, out);
        out += " * ";
        go(t->kids[1], 3, out);
        close(2);
        return;
      }
      out += t->name + "(";
      for (std::size_t i = 0; i < t->kids.size(); ++i) {
        if (i) out += ", ";
        go(t->kids[i], 0, out);
      }
      out += ")";
      return;
    }
  }
  DepthBudget budget_{max_nesting, 0, ErrorKind::eval};
};

} // namespace

std::string print(const Term& t) {
  return on_stack_for(t, [&] { return Printer().run(t); });
}

} // namespace adsem::linear_negation
