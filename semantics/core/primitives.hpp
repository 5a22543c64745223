#pragma once
// The one primitive table shared by every calculus (design.md "Primitives: one table, one set of
// names"; abadi-plotkin spec §7, manzyuk spec §7, bmp spec §7, krawiec spec §7, mak-ong spec §7).
//
// HOW TO ADD A PRIMITIVE: one entry. In the list in primitives.cpp, or for a table of your own,
// `const PrimitiveTable mine = primitives().with(entry);` where entry is
//
//   function_primitive({.name = "softplus", .aliases = {"sp"}, .arity = 1,
//                       .meaning = "log(1 + exp x1)"},
//                      []<class S>(Args<S> x) -> S { return log(1.0 + exp(x[0])); })
//
//  - The function is written ONCE, generic in the scalar S, with + - * / (mixing in double
//    literals: write 2.0, not 2, because intervals do not mix with int) and the elementary
//    functions exp log sin cos sqrt tanh called unqualified (in your own file, add `using
//    std::exp;` and so on at namespace scope for S = double). The value (double), the interval
//    extension (Interval), derivatives of every order and Jacobians (Dual<double>, Dual<Interval>)
//    and Eigen's AutoDiff all come from that one definition.
//  - Several outputs (R^n -> R^m): set .coarity = m and return std::array<S, m>.
//  - .domain is an open set, given as conditions on the arguments, all of which must hold:
//    positive(i) (x_{i+1} > 0), nonzero(i) (x_{i+1} != 0), or positive_where / nonzero_where with a
//    generic g (g(x) > 0, g(x) != 0). Empty means all of R^n. Points on the boundary are outside.
//  - To branch on a sign inside a definition use certainly_positive(x[0]) (decided on the
//    tag-free part; the domain must exclude the switch point, as relu's does).
//  - A partial predicate is predicate_primitive(spec, g): it holds where g > 0, fails where g < 0
//    and is undefined where g = 0 (abadi-plotkin §2.4, §7: never a total <, <= or =).
#include "semantics/core/interval.hpp"
#include "semantics/core/model_errors.hpp"
#include "semantics/core/scalar.hpp"
#include "syntax/core/inline_vector.hpp"

#include <array>
#include <cstddef>
#include <functional>
#include <map>
#include <optional>
#include <ranges>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <unordered_map>
#include <variant>
#include <vector>

namespace adsem {

// The arguments of a primitive: a flat vector of scalars.
template <class S> using Args = std::span<const S>;
// Room to gather a primitive's arguments, inside up to four (dot2's).
template <class S> using ArgumentBuffer = InlineVector<S, 4>;
// A primitive's results: R^n -> R^m gives m scalars, kept inside up to two (every entry of the
// standard table), so applying a primitive allocates nothing.
template <class S> using Results = InlineVector<S, 2>;

enum class PrimitiveKind { function, predicate };

// A box against an open set: wholly inside, wholly outside, or straddling its boundary.
enum class BoxClass { inside, outside, straddling };
std::string_view to_string(BoxClass box_class);

// A partial predicate at a point (boundary: undefined there) or on a box (boundary: straddling).
enum class Truth { holds, fails, boundary };
std::string_view to_string(Truth truth);

// One open condition on the arguments: g(x) > 0 or g(x) != 0, g given for points and boxes.
struct DomainCondition {
  enum class Kind { positive, nonzero };
  Kind kind = Kind::positive;
  std::string description; // "x1 > 0", for messages
  std::function<double(Args<double>)> at_point;
  std::function<model::Interval(Args<model::Interval>)> on_box;
};
using Domain = std::vector<DomainCondition>;

template <class G> DomainCondition positive_where(std::string description, G g) {
  return {DomainCondition::Kind::positive, std::move(description),
          [g](Args<double> x) { return static_cast<double>(g(x)); },
          [g](Args<model::Interval> x) { return model::Interval(g(x)); }};
}
template <class G> DomainCondition nonzero_where(std::string description, G g) {
  DomainCondition condition = positive_where(std::move(description), g);
  condition.kind = DomainCondition::Kind::nonzero;
  return condition;
}
DomainCondition positive(std::size_t argument); // x_{argument+1} > 0
DomainCondition nonzero(std::size_t argument);  // x_{argument+1} != 0

bool contains(const Domain& domain, Args<double> point);
BoxClass classify(const Domain& domain, Args<model::Interval> box);

// Everything about a primitive except its function.
struct PrimitiveSpec {
  std::string name = {};
  std::vector<std::string> aliases = {};
  std::size_t arity = 1;   // number of real arguments
  std::size_t coarity = 1; // number of real results (1 for predicates)
  Domain domain = {};
  std::string meaning = {}; // "x1 / x2", "x1 < x2"
};

namespace primitive_detail {

// A primitive's one generic definition on every supported scalar type, behind one virtual call
// per application (a std::function per scalar type returning a fresh std::vector was an
// allocation and two indirect calls per primitive node the model visits).
template <class S> class DefinitionOn {
public:
  virtual void run(Args<S> x, Results<S>& out) const = 0;
  // The one result of an R^n -> R definition, made in place (a Results buffer, its two default
  // duals and the copy into it were a third of a primitive node's cost in the models).
  virtual S run1(Args<S> x) const = 0;

protected:
  ~DefinitionOn() = default;
};
class Definition : public DefinitionOn<double>,
                   public DefinitionOn<model::Interval>,
                   public DefinitionOn<model::Dual<double>>,
                   public DefinitionOn<model::Dual<model::Interval>>,
                   public DefinitionOn<model::AutoDiff> {
public:
  virtual ~Definition() = default;
};

template <class S, class R> void put_outputs(R&& result, Results<S>& out) {
  if constexpr (std::ranges::range<std::remove_cvref_t<R>>) { // several results
    for (auto&& item : result)
      out.push_back(S(item));
  } else {
    out.push_back(S(std::forward<R>(result)));
  }
}

template <class F> class DefinitionOf final : public Definition {
public:
  explicit DefinitionOf(F f) : f_(std::move(f)) {}
  void run(Args<double> x, Results<double>& out) const override { put_outputs(f_(x), out); }
  void run(Args<model::Interval> x, Results<model::Interval>& out) const override {
    put_outputs(f_(x), out);
  }
  void run(Args<model::Dual<double>> x, Results<model::Dual<double>>& out) const override {
    put_outputs(f_(x), out);
  }
  void run(Args<model::Dual<model::Interval>> x,
           Results<model::Dual<model::Interval>>& out) const override {
    put_outputs(f_(x), out);
  }
  void run(Args<model::AutoDiff> x, Results<model::AutoDiff>& out) const override {
    put_outputs(f_(x), out);
  }
  double run1(Args<double> x) const override { return single(x); }
  model::Interval run1(Args<model::Interval> x) const override { return single(x); }
  model::Dual<double> run1(Args<model::Dual<double>> x) const override { return single(x); }
  model::Dual<model::Interval> run1(Args<model::Dual<model::Interval>> x) const override {
    return single(x);
  }
  model::AutoDiff run1(Args<model::AutoDiff> x) const override { return single(x); }

private:
  template <class S> S single(Args<S> x) const {
    using R = decltype(f_(x));
    if constexpr (std::ranges::range<R>) // never asked: apply1 checks the coarity first
      throw std::logic_error("a primitive with several results has no single one");
    else if constexpr (std::is_same_v<R, S>)
      return f_(x); // the definition's result is the returned one (no copy, no move)
    else
      return S(f_(x));
  }

  F f_;
};

} // namespace primitive_detail

class Primitive {
public:
  Primitive(PrimitiveSpec spec, PrimitiveKind kind,
            std::shared_ptr<const primitive_detail::Definition> definition)
      : spec_(std::move(spec)), kind_(kind), definition_(std::move(definition)) {}

  const std::string& name() const { return spec_.name; }
  const std::vector<std::string>& aliases() const { return spec_.aliases; }
  PrimitiveKind kind() const { return kind_; }
  bool is_predicate() const { return kind_ == PrimitiveKind::predicate; }
  std::size_t arity() const { return spec_.arity; }
  std::size_t coarity() const { return spec_.coarity; }
  const Domain& domain() const { return spec_.domain; }
  const std::string& meaning() const { return spec_.meaning; }

  bool in_domain(Args<double> point) const { return contains(spec_.domain, point); }
  BoxClass classify(Args<model::Interval> box) const { return adsem::classify(spec_.domain, box); }

  // The function on any supported scalar, after checking the arity and the domain on the
  // tag-free part: model::Undefined outside the domain; model::Undecided("domain-boundary") when
  // an interval argument straddles it.
  template <class S> std::vector<S> apply(Args<S> args) const {
    const Results<S> out = results(args);
    return std::vector<S>(out.begin(), out.end());
  }
  // The same, without a heap vector.
  template <class S> Results<S> results(Args<S> args) const {
    require_function();
    require_arity(args.size());
    require_domain(args);
    return run(args);
  }
  template <class S> std::vector<S> apply(const std::vector<S>& args) const {
    return apply(Args<S>(args));
  }
  // The single result of an R^n -> R primitive.
  template <class S> S apply1(Args<S> args) const {
    if (spec_.coarity != 1) throw std::logic_error("primitive " + name() + " has several results");
    require_function();
    require_arity(args.size());
    require_domain(args);
    return static_cast<const primitive_detail::DefinitionOn<S>&>(*definition_).run1(args);
  }
  template <class S> S apply1(const std::vector<S>& args) const { return apply1(Args<S>(args)); }
  // Without the domain check (the caller has certified the arguments).
  template <class S> std::vector<S> apply_unchecked(Args<S> args) const {
    require_arity(args.size());
    const Results<S> out = run(args);
    return std::vector<S>(out.begin(), out.end());
  }

  // A predicate at a point or on a box (domain checked as in apply).
  Truth truth(Args<double> point) const;
  Truth truth(Args<model::Interval> box) const;
  // A predicate's decision for any scalar, from its tag-free part (abadi-plotkin §5.4): throws
  // model::Undefined("boundary") at a boundary point, model::Undecided("branch-boundary") for a
  // straddling box.
  template <class S> bool holds(Args<S> args) const {
    const std::variant<bool, model::DomainFailure> decision = decide(args);
    if (const auto* failure = std::get_if<model::DomainFailure>(&decision))
      model::throw_failure(*failure);
    return std::get<bool>(decision);
  }
  template <class S> bool holds(const std::vector<S>& args) const { return holds(Args<S>(args)); }
  // holds' decision, with the boundary's ⊥ returned rather than thrown (a walk that stops there
  // need not unwind). The domain is still checked by throwing, as in truth().
  template <class S> std::variant<bool, model::DomainFailure> decide(Args<S> args) const {
    InlineVector<model::Base<S>, 4> base;
    for (const S& a : args)
      base.push_back(model::primal_of(a));
    const Truth t = truth(Args<model::Base<S>>(base));
    if (t != Truth::boundary) return t == Truth::holds;
    if constexpr (std::is_same_v<model::Base<S>, double>)
      return model::Undefined(model::at_boundary, call_text(Args<double>(base)) +
                                                      ": undefined on the boundary of " +
                                                      spec_.meaning);
    else
      return model::Undecided(model::branch_boundary,
                              name() + ": the box straddles the boundary of " + spec_.meaning);
  }
  // apply's domain check, with its ⊥ returned rather than thrown: model::Undefined outside the
  // domain, model::Undecided on a box that straddles it, nothing inside.
  template <class S> std::optional<model::DomainFailure> domain_failure(Args<S> args) const {
    if (spec_.domain.empty()) return std::nullopt;
    using B = model::Base<S>;
    InlineVector<B, 4> base;
    for (const S& a : args)
      base.push_back(model::primal_of(a));
    if constexpr (std::is_same_v<B, double>) {
      if (!in_domain(Args<double>(base))) return outside(Args<double>(base));
    } else {
      switch (classify(Args<model::Interval>(base))) {
      case BoxClass::inside:
        break;
      case BoxClass::outside:
        return outside_box();
      case BoxClass::straddling:
        return model::Undecided(model::domain_boundary,
                                name() + ": the box straddles the domain boundary (" +
                                    domain_text() + ")");
      }
    }
    return std::nullopt;
  }

private:
  void require_function() const;
  void require_arity(std::size_t given) const;
  std::string call_text(Args<double> point) const; // "log(-1)"

  template <class S> void require_domain(Args<S> args) const {
    if (spec_.domain.empty()) return;
    if (const std::optional<model::DomainFailure> failure = domain_failure(args))
      model::throw_failure(*failure);
  }
  template <class S> Results<S> run(Args<S> args) const {
    Results<S> out;
    static_cast<const primitive_detail::DefinitionOn<S>&>(*definition_).run(args, out);
    return out;
  }
  [[noreturn]] void throw_outside(Args<double> point) const;
  model::Undefined outside(Args<double> point) const;
  model::Undefined outside_box() const;
  std::string domain_text() const;

  PrimitiveSpec spec_;
  PrimitiveKind kind_;
  std::shared_ptr<const primitive_detail::Definition> definition_; // shared by copies
};

namespace primitive_detail {
// The one generic definition instantiated for every supported scalar type.
template <class F> std::shared_ptr<const Definition> define(const F& f) {
  return std::make_shared<const DefinitionOf<F>>(f);
}
} // namespace primitive_detail

// A function primitive from its spec and its one generic definition (see the top of this file).
template <class F> Primitive function_primitive(PrimitiveSpec spec, const F& f) {
  return Primitive(std::move(spec), PrimitiveKind::function, primitive_detail::define(f));
}

// A partial predicate: holds where g > 0, fails where g < 0, undefined where g = 0.
template <class G> Primitive predicate_primitive(PrimitiveSpec spec, const G& g) {
  spec.coarity = 1;
  return Primitive(std::move(spec), PrimitiveKind::predicate, primitive_detail::define(g));
}

// An immutable table; lookup by name or alias.
class PrimitiveTable {
public:
  // Throws std::invalid_argument if two entries share a name or alias.
  explicit PrimitiveTable(std::vector<Primitive> entries);

  const Primitive* find(std::string_view name_or_alias) const; // nullptr if unknown
  const Primitive& at(std::string_view name_or_alias) const;   // std::out_of_range if unknown
  bool contains(std::string_view name_or_alias) const { return find(name_or_alias) != nullptr; }
  std::span<const Primitive> entries() const { return entries_; }
  // A new table with one more entry (this one is unchanged).
  PrimitiveTable with(Primitive extra) const;

private:
  std::vector<Primitive> entries_;
  // Hashed, looked up by string_view without a copy: every op node a machine or a model visits
  // looks its symbol up here, and an ordered map's string comparisons were 1.2% of an adequacy
  // trial.
  struct NameHash {
    using is_transparent = void;
    std::size_t operator()(std::string_view name) const {
      return std::hash<std::string_view>{}(name);
    }
  };
  std::unordered_map<std::string, std::size_t, NameHash, std::equal_to<>>
      index_; // name or alias -> entry
};

// The standard table: add sub mul div neg recip sq sin cos exp log sqrt tanh sigma dsigma relu
// step dot2 g, and the predicates less gt pos, with the aliases the specs use.
const PrimitiveTable& primitives();

// The dot product DProd_n of R^n x R^n (abadi-plotkin §7.1, paper L235-241), flattened to 2n
// arguments: x1 x(n+1) + ... + xn x(2n). The table's dot2 is dot_product_primitive(2, "dot2", ...);
// a calculus that needs other n adds them with PrimitiveTable::with.
Primitive dot_product_primitive(std::size_t n, std::string name,
                                std::vector<std::string> aliases = {});

} // namespace adsem
