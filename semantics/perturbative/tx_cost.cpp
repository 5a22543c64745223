#include "semantics/perturbative/tx_cost.hpp"

#include <map>

#include "syntax/core/depth_guard.hpp"

namespace adsem::perturbative {

namespace {

struct Shape {
  double n = 0; // summands
  double u = 0; // Σ summand tree sizes
};

class Bound {
public:
  explicit Bound(std::string x) : x_(std::move(x)) {}

  Shape bag(const Term& m, bool x_visible) {
    Shape out;
    for (const SimpleP& s : m.items) {
      const Shape t = simple(*s, x_visible);
      out.n += t.n;
      out.u += t.u;
    }
    return out;
  }

  Shape simple(const Simple& s, bool x_visible) {
    const DepthGuard guard(budget_);
    const auto key = std::pair{&s, x_visible};
    if (const auto it = memo_.find(key); it != memo_.end()) return it->second;
    Shape out;
    switch (s.kind) {
    case Kind::var:
      out = s.name == x_ && x_visible ? Shape{1, 1} : Shape{1, 2};
      break;
    case Kind::numeral:
    case Kind::primitive:
      out = {1, 2};
      break;
    case Kind::lam:
      out = linear(simple(*s.operand, x_visible && s.name != x_));
      break;
    case Kind::inj:
    case Kind::push:
    case Kind::proj:
      out = linear(simple(*s.operand, x_visible));
      break;
    case Kind::app: {
      const Shape f = simple(*s.operand, x_visible);
      const Shape a = bag(s.argument, x_visible);
      const double first = f.n * (3 + a.u + a.n) + f.u; // (π1 X)(π2 Y), and (π2 X)(π2 Y)
      const double chain = f.n * (5 + a.u) + f.u;       // π1((T(π2 X)) Y)
      out = {3 * f.n, 2 * first + chain + 3 * f.n};
      break;
    }
    }
    memo_.emplace(key, out);
    return out;
  }

private:
  static Shape linear(const Shape& t) { return {2 * t.n, 2 * t.u + 6 * t.n}; }

  std::string x_;
  std::map<std::pair<const Simple*, bool>, Shape> memo_;
  DepthBudget budget_{DepthBudget::default_limit, 0, ErrorKind::eval};
};

} // namespace

TxSizeBound tx_size_bound(const std::string& x, const Term& m) {
  const Shape s = Bound(x).bag(m, true);
  return {s.n, s.u + 1};
}

} // namespace adsem::perturbative
