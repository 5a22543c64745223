#include "syntax/pullback/printer.hpp"

#include <cmath>
#include <cstdio>

#include "syntax/core/deep_walk.hpp"
#include "syntax/core/real_text.hpp"
#include "syntax/pullback/nesting.hpp"

namespace adsem::pullback {

std::string number_text(double x) {
  if (x == 0) return "0";
  return shortest_real_text(x);
}

namespace {

// Levels: 0 term (λ, let, sum), 1 dot (@), 2 app, 3 post/atom.
class Printer {
public:
  std::string go(const Term& t, int level) {
    if (leaves_default_stack(depth_.depth)) return on_large_stack([&] { return go(t, level); });
    const DepthGuard g(depth_);
    std::string s;
    int own = 3;
    switch (t->kind) {
    case Kind::var:
      s = t->name;
      break;
    case Kind::num:
      s = number_text(t->value);
      break;
    case Kind::zero:
      s = "zero";
      break;
    case Kind::covec: {
      std::string v = "[";
      const std::vector<double> entries = t->vec.dense();
      for (std::size_t i = 0; i < entries.size(); ++i)
        v += (i ? ", " : "") + number_text(entries[i]);
      v += "]^*";
      if (alpha_default(t))
        s = v;
      else
        s = "(" + v + " : " + type_text(dual(t->type)) + ")";
      break;
    }
    case Kind::proj:
      s = go(t->kids[0], 3) + "." + std::to_string(t->index);
      break;
    case Kind::pair:
      s = "<" + go(t->kids[0], 0) + ", " + go(t->kids[1], 0) + ">";
      break;
    case Kind::prim:
      s = t->name + "(" + go(t->kids[0], 0) + ")";
      break;
    case Kind::app:
      s = go(t->kids[0], 2) + " " + go(t->kids[1], 3);
      own = 2;
      break;
    case Kind::jac:
      s = "J " + t->name + " @ " + go(t->kids[0], 1);
      own = 1;
      break;
    case Kind::dualmap:
      s = "(\\" + t->name + ":" + type_text(t->type) + ". " + go(t->kids[0], 0) + ")^* @ " +
          go(t->kids[1], 1);
      own = 1;
      break;
    case Kind::pullback:
      s = "(Omega \\" + t->name + ":" + type_text(t->type) + ". " + go(t->kids[0], 0) + ") @ " +
          go(t->kids[1], 1);
      own = 1;
      break;
    case Kind::lam:
      s = "\\" + t->name + ":" + type_text(t->type) + ". " + go(t->kids[0], 0);
      own = 0;
      break;
    case Kind::let:
      s = "let " + t->name + " : " + type_text(t->type) + " = " + go(t->kids[0], 0) + " in " +
          go(t->kids[1], 0);
      own = 0;
      break;
    case Kind::sum:
      for (std::size_t i = 0; i < t->kids.size(); ++i)
        s += (i ? " + " : "") + go(t->kids[i], 1);
      own = 0;
      break;
    }
    return own < level ? "(" + s + ")" : s;
  }

private:
  static bool alpha_default(const Term& t) {
    return same_type(t->type, real_power(t->vec.size())) && !is_any(t->type);
  }
  DepthBudget depth_{max_term_nesting, 0, ErrorKind::eval};
};

} // namespace

std::string print(const Term& t) {
  Printer p;
  return p.go(t, 0);
}

} // namespace adsem::pullback
