#include "semantics/core/primitives.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "semantics/core/overflow.hpp"
#include "syntax/core/real_text.hpp"

namespace adsem {

// For S = double; the other scalar types find their overloads by argument-dependent lookup.
using std::cos;
using std::exp;
using std::log;
using std::sin;
using std::sqrt;
using std::tanh;

std::string_view to_string(BoxClass box_class) {
  switch (box_class) {
  case BoxClass::inside:
    return "inside";
  case BoxClass::outside:
    return "outside";
  case BoxClass::straddling:
    return "straddling";
  }
  return "straddling";
}

std::string_view to_string(Truth truth) {
  switch (truth) {
  case Truth::holds:
    return "holds";
  case Truth::fails:
    return "fails";
  case Truth::boundary:
    return "boundary";
  }
  return "boundary";
}

namespace {
std::string argument_name(std::size_t argument) {
  std::string name = std::to_string(argument + 1);
  name.insert(name.begin(), 'x');
  return name;
}
} // namespace

DomainCondition positive(std::size_t argument) {
  return positive_where(argument_name(argument) + " > 0",
                        [argument](const auto& x) { return x[argument]; });
}

DomainCondition nonzero(std::size_t argument) {
  return nonzero_where(argument_name(argument) + " != 0",
                       [argument](const auto& x) { return x[argument]; });
}

bool contains(const Domain& domain, Args<double> point) {
  for (const DomainCondition& condition : domain) {
    const double g = condition.at_point(point);
    const bool ok = condition.kind == DomainCondition::Kind::positive ? g > 0 : (g < 0 || g > 0);
    if (!ok) return false; // NaN is outside
  }
  return true;
}

BoxClass classify(const Domain& domain, Args<model::Interval> box) {
  bool all_inside = true;
  for (const DomainCondition& condition : domain) {
    const model::Interval g = condition.on_box(box);
    const double lo = g.lower(), hi = g.upper();
    if (condition.kind == DomainCondition::Kind::positive) {
      if (lo > 0) continue;
      if (hi <= 0) return BoxClass::outside; // every point has g <= 0
    } else {
      if (lo > 0 || hi < 0) continue;
      if (lo == 0 && hi == 0) return BoxClass::outside; // g = 0 everywhere
    }
    all_inside = false; // straddling, or NaN bounds (undecidable)
  }
  return all_inside ? BoxClass::inside : BoxClass::straddling;
}

void Primitive::require_function() const {
  if (is_predicate())
    throw std::logic_error("primitive " + name() + " is a predicate: use holds() or truth()");
}

void Primitive::require_arity(std::size_t given) const {
  if (given != spec_.arity)
    throw AdsemError(ErrorKind::eval, "primitive " + name() + " takes " +
                                          std::to_string(spec_.arity) + " argument(s), got " +
                                          std::to_string(given));
}

std::string Primitive::call_text(Args<double> point) const {
  std::string out = name() + "(";
  for (std::size_t i = 0; i < point.size(); ++i) {
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.17g", point[i]);
    out += (i == 0 ? "" : ", ") + std::string(buffer);
  }
  return out + ")";
}

std::string Primitive::domain_text() const {
  std::string out;
  for (const DomainCondition& condition : spec_.domain)
    out += (out.empty() ? "" : " and ") + condition.description;
  return out;
}

model::Undefined Primitive::outside(Args<double> point) const {
  return model::Undefined(model::outside_domain,
                          call_text(point) + ": outside the domain (" + domain_text() + ")");
}

void Primitive::throw_outside(Args<double> point) const {
  throw outside(point);
}

model::Undefined Primitive::outside_box() const {
  return model::Undefined(model::outside_domain,
                          name() + ": the box lies outside the domain (" + domain_text() + ")");
}

Truth Primitive::truth(Args<double> point) const {
  require_arity(point.size());
  require_domain(point);
  const double g = run(point)[0];
  if (g > 0) return Truth::holds;
  if (g < 0) return Truth::fails;
  if (std::isnan(g)) throw_outside(point);
  return Truth::boundary;
}

Truth Primitive::truth(Args<model::Interval> box) const {
  require_arity(box.size());
  require_domain(box);
  const model::Interval g = run(box)[0];
  if (g.lower() > 0) return Truth::holds;
  if (g.upper() < 0) return Truth::fails;
  return Truth::boundary;
}

PrimitiveTable::PrimitiveTable(std::vector<Primitive> entries) : entries_(std::move(entries)) {
  for (std::size_t i = 0; i < entries_.size(); ++i) {
    auto add = [&](const std::string& key) {
      if (!index_.emplace(key, i).second)
        throw std::invalid_argument("primitive table: duplicate name or alias '" + key + "'");
    };
    add(entries_[i].name());
    for (const std::string& alias : entries_[i].aliases())
      add(alias);
  }
}

const Primitive* PrimitiveTable::find(std::string_view name_or_alias) const {
  const auto it = index_.find(name_or_alias);
  return it == index_.end() ? nullptr : &entries_[it->second];
}

const Primitive& PrimitiveTable::at(std::string_view name_or_alias) const {
  const Primitive* primitive = find(name_or_alias);
  if (primitive == nullptr)
    throw std::out_of_range("unknown primitive '" + std::string(name_or_alias) + "'");
  return *primitive;
}

PrimitiveTable PrimitiveTable::with(Primitive extra) const {
  std::vector<Primitive> entries = entries_;
  entries.push_back(std::move(extra));
  return PrimitiveTable(std::move(entries));
}

namespace {

using model::certainly_positive;

// IEEE overflow: a non-finite result of finite arguments (the domain is checked before) throws
// model::Overflow, on the scalars that stand for one point; an enclosure may be unbounded.
bool finite(double x) {
  return std::isfinite(x);
}
bool finite(const model::Dual<double>& x) { // the value and every derivative coefficient
  return std::ranges::all_of(x.coefficients(), [](double c) { return std::isfinite(c); });
}
bool finite(const model::AutoDiff& x) {
  return std::isfinite(x.value()) && x.derivatives().allFinite();
}
template <class S>
constexpr bool points = std::is_same_v<S, double> || std::is_same_v<S, model::Dual<double>> ||
                        std::is_same_v<S, model::AutoDiff>;

template <class S, class R> bool finite_results(const R& result) {
  if constexpr (std::ranges::range<R>)
    return std::ranges::all_of(result, [](const S& y) { return finite(y); });
  else if constexpr (std::is_same_v<R, S>)
    return finite(result); // read in place: a copy of a dual at every primitive node
  else
    return finite(S(result));
}

// A function primitive whose definition is checked for overflow on every call.
template <class F> Primitive checked_primitive(PrimitiveSpec spec, const F& f) {
  const std::string name = spec.name;
  return function_primitive(std::move(spec), [name, f]<class S>(Args<S> x) {
    auto result = f(x);
    if constexpr (points<S>) {
      if (!finite_results<S>(result) &&
          std::ranges::all_of(x, [](const S& a) { return finite(a); })) {
        std::string call = name + "(";
        for (std::size_t i = 0; i < x.size(); ++i)
          call += (i == 0 ? "" : ", ") + shortest_real_text(model::primal_of(x[i]));
        throw model::Overflow(call + ")");
      }
    }
    return result;
  });
}

// One entry per primitive. Aliases are the names the specs use for the same operation.
std::vector<Primitive> standard_entries() {
  std::vector<Primitive> table;
  auto add = [&](Primitive p) { table.push_back(std::move(p)); };

  // Arithmetic (krawiec §2.2 PRIMNAME: addR subR mulR divR negR; mak-ong §7: add, mult, pow2;
  // abadi-plotkin §7.2 and bmp §7: mul sub neg div recip sq).
  add(checked_primitive(
      {.name = "add", .aliases = {"addR", "plus"}, .arity = 2, .meaning = "x1 + x2"},
      []<class S>(Args<S> x) -> S { return x[0] + x[1]; }));
  add(checked_primitive(
      {.name = "sub", .aliases = {"subR", "minus"}, .arity = 2, .meaning = "x1 - x2"},
      []<class S>(Args<S> x) -> S { return x[0] - x[1]; }));
  add(checked_primitive(
      {.name = "mul", .aliases = {"mulR", "mult", "times"}, .arity = 2, .meaning = "x1 * x2"},
      []<class S>(Args<S> x) -> S { return x[0] * x[1]; }));
  add(checked_primitive({.name = "div",
                         .aliases = {"divR"},
                         .arity = 2,
                         .domain = {nonzero(1)},
                         .meaning = "x1 / x2"},
                        []<class S>(Args<S> x) -> S { return x[0] / x[1]; }));
  add(checked_primitive(
      {.name = "neg", .aliases = {"negR", "negate"}, .arity = 1, .meaning = "-x1"},
      []<class S>(Args<S> x) -> S { return -x[0]; }));
  add(checked_primitive({.name = "recip",
                         .aliases = {"reciprocal"},
                         .arity = 1,
                         .domain = {nonzero(0)},
                         .meaning = "1 / x1"},
                        []<class S>(Args<S> x) -> S { return 1.0 / x[0]; }));
  add(checked_primitive(
      {.name = "sq", .aliases = {"pow2", "square"}, .arity = 1, .meaning = "x1 * x1"},
      []<class S>(Args<S> x) -> S { return x[0] * x[0]; }));

  // Elementary functions (every spec's table).
  add(checked_primitive({.name = "sin", .arity = 1, .meaning = "sin x1"},
                        []<class S>(Args<S> x) -> S { return sin(x[0]); }));
  add(checked_primitive({.name = "cos", .arity = 1, .meaning = "cos x1"},
                        []<class S>(Args<S> x) -> S { return cos(x[0]); }));
  add(checked_primitive({.name = "exp", .arity = 1, .meaning = "exp x1"},
                        []<class S>(Args<S> x) -> S { return exp(x[0]); }));
  // abadi-plotkin §7.2: log's domain is x > 0, not x != 0.
  add(checked_primitive(
      {.name = "log", .aliases = {"ln"}, .arity = 1, .domain = {positive(0)}, .meaning = "log x1"},
      []<class S>(Args<S> x) -> S { return log(x[0]); }));
  // abadi-plotkin §7.2: 0 excluded, sqrt is not smooth there.
  add(checked_primitive({.name = "sqrt", .arity = 1, .domain = {positive(0)}, .meaning = "sqrt x1"},
                        []<class S>(Args<S> x) -> S { return sqrt(x[0]); }));
  add(checked_primitive({.name = "tanh", .arity = 1, .meaning = "tanh x1"},
                        []<class S>(Args<S> x) -> S { return tanh(x[0]); }));

  // bmp §7 (paper L602, L642): the logistic sigmoid and its derivative symbol.
  add(checked_primitive(
      {.name = "sigma", .aliases = {"sigmoid"}, .arity = 1, .meaning = "1 / (1 + exp(-x1))"},
      []<class S>(Args<S> x) -> S { return 1.0 / (1.0 + exp(-x[0])); }));
  add(checked_primitive({.name = "dsigma", .arity = 1, .meaning = "sigma(x1) * (1 - sigma(x1))"},
                        []<class S>(Args<S> x) -> S {
                          const S s = 1.0 / (1.0 + exp(-x[0]));
                          return s * (1.0 - s);
                        }));
  // bmp §7 (paper L166): relu and step. Smooth on the open domain x != 0 only; the kink is a
  // non-differentiable point, counted, never reported (design.md "Partial domains"). bmp's table
  // convention step(0) = 1 is the calculus's business, not the model's.
  add(checked_primitive(
      {.name = "relu", .arity = 1, .domain = {nonzero(0)}, .meaning = "x1 < 0 ? 0 : x1"},
      []<class S>(Args<S> x) -> S { return certainly_positive(x[0]) ? x[0] : S(0.0); }));
  add(checked_primitive(
      {.name = "step", .arity = 1, .domain = {nonzero(0)}, .meaning = "x1 < 0 ? 0 : 1"},
      []<class S>(Args<S> x) -> S { return certainly_positive(x[0]) ? S(1.0) : S(0.0); }));

  // abadi-plotkin §7.1 (paper L235-241): DProd_2 on real^2 x real^2, flattened to 4 reals;
  // mak-ong §7 dot2.
  add(dot_product_primitive(2, "dot2", {"dprod2", "dprod_2", "DProd_2"}));
  // mak-ong §7, Ex. 3.1 (paper L177): g(x, y) = (x + 1, 2x + y^2), R^2 -> R^2.
  add(checked_primitive({.name = "g",
                         .aliases = {"mak_ong_g"},
                         .arity = 2,
                         .coarity = 2,
                         .meaning = "(x1 + 1, 2 x1 + x2^2)"},
                        []<class S>(Args<S> x) -> std::array<S, 2> {
                          return {x[0] + 1.0, 2.0 * x[0] + x[1] * x[1]};
                        }));

  // Partial predicates (abadi-plotkin §2.4, §7.2: less undefined on the diagonal; krawiec ltR).
  add(predicate_primitive(
      {.name = "less", .aliases = {"lt", "ltR"}, .arity = 2, .meaning = "x1 < x2"},
      []<class S>(Args<S> x) -> S { return x[1] - x[0]; }));
  add(predicate_primitive({.name = "gt", .aliases = {"greater"}, .arity = 2, .meaning = "x1 > x2"},
                          []<class S>(Args<S> x) -> S { return x[0] - x[1]; }));
  add(predicate_primitive({.name = "pos", .arity = 1, .meaning = "x1 > 0"},
                          []<class S>(Args<S> x) -> S { return x[0]; }));
  return table;
}

} // namespace

Primitive dot_product_primitive(std::size_t n, std::string name, std::vector<std::string> aliases) {
  if (n == 0) throw std::invalid_argument("dot_product_primitive: n must be positive");
  std::string meaning;
  for (std::size_t i = 0; i < n; ++i)
    meaning += (i == 0 ? "" : " + ") + argument_name(i) + " * " + argument_name(n + i);
  return checked_primitive({.name = std::move(name),
                            .aliases = std::move(aliases),
                            .arity = 2 * n,
                            .meaning = std::move(meaning)},
                           [n]<class S>(Args<S> x) -> S {
                             S sum = x[0] * x[n];
                             for (std::size_t i = 1; i < n; ++i)
                               sum = sum + x[i] * x[n + i];
                             return sum;
                           });
}

const PrimitiveTable& primitives() {
  static const PrimitiveTable table(standard_entries());
  return table;
}

} // namespace adsem
