// [[-]] of seed 003 Section 5 (lines 736-900; spec §5.3-5.4), generic in the scalar C.
#include "semantics/simple_diff/denotation.hpp"

#include <exception>
#include <memory>
#include <optional>
#include <utility>
#include <variant>

#include "semantics/core/interval.hpp"
#include "semantics/core/jacobian.hpp"
#include "semantics/core/model_errors.hpp"
#include "semantics/core/primitives.hpp"
#include "semantics/core/reverse_derivative.hpp"
#include "semantics/simple_diff/operations.hpp"
#include "syntax/simple_diff/printer.hpp"

namespace adsem::simple_diff::denotation {

namespace {

template <class C> using D = model::Dual<C>;

// ρ and φ as persistent lists: closures capture φ at their definition (static scoping).
template <class C> struct VarBinding {
  std::string x;
  MValue<C> v;
  std::shared_ptr<const VarBinding> next;
};
template <class C> using VarEnv = std::shared_ptr<const VarBinding<C>>;

struct FunDef; // clo_φ(f(x:T):U. M) of the model: the syntax and the φ it closes over
using FunEnv = std::shared_ptr<const FunDef>;
struct FunDef {
  const Node* letrec = nullptr; // f, x, T, U, M
  FunEnv next;                  // φ at the definition (the list continues below f)
  std::optional<int> limit;     // letrec_n (Fig. 8): the n-th approximant of the fixed point
};

const Node* lookup_fun(const FunEnv& phi, const std::string& f, FunEnv& defined_in) {
  for (FunEnv p = phi; p; p = p->next)
    if (p->letrec->name == f) {
      defined_in = p;
      return p->letrec;
    }
  return nullptr;
}

// An op's or a predicate's flattened argument and an op's results: inside up to four reals.
template <class C> using Reals = model::ReverseReals<C>;

template <class C, class Out> void flatten_value_into(const MValue<C>& v, Out& out);

template <class C> class Denoter {
public:
  Denoter(const model::DiffContext& context, const Budget& budget)
      : context_(context), budget_(budget) {}

  // [[n]]ρ; when the walk meets f^(0) of a letrec_n, or a primitive's ⊥, it records it
  // (stopped()) and returns a placeholder that every caller drops at once (see bottom_ below).
  MValue<C> term(const FunEnv& phi, const VarEnv<C>& rho, const Node& n) {
    if (++steps_ > budget_.steps)
      throw AdsemError(ErrorKind::fuel, "model: step budget exhausted (⊥ fuel: unknown)");
    const Nesting nesting(*this);
    switch (n.kind) {
    case Kind::var:
      for (VarEnv<C> p = rho; p; p = p->next)
        if (p->x == n.name) return p->v;
      throw AdsemError(ErrorKind::eval, "model: unbound variable '" + n.name + "'");
    case Kind::constant: // [[r]] = r
      return MValue<C>(D<C>(n.value));
    case Kind::add: { // [[M + N]] = [[M]] + [[N]]
      // N before M: the order the compiled `term(M).real() + term(N).real()` had (GCC evaluates
      // the right operand first), kept so that which ⊥ is met first does not change.
      const MValue<C> right = term(phi, rho, *n.b);
      if (stopped()) return none();
      const MValue<C> left = term(phi, rho, *n.a);
      if (stopped()) return none();
      return MValue<C>(left.real() + right.real());
    }
    case Kind::op: { // [[op(M)]] = ev(op) ∘ [[M]], partial (line 233)
      // op_r^k is J^T w of op_r^(k-1) by the model's duals (spec §5.4, §7 A4)
      const auto op = ops::find_operation(n.name);
      if (!op) throw AdsemError(ErrorKind::eval, "model: no primitive '" + n.name + "'");
      // op_r^k is defined where op is (Dom(op_r) = Dom(op) × R^m): the base's domain decides
      if (!op->base->domain().empty()) partial_met_ = true;
      const MValue<C> arg = term(phi, rho, *n.a);
      if (stopped()) return none();
      Reals<C> x;
      flatten_value_into(arg, x);
      // outside the base's domain, or a box straddling it: the ⊥ reverse_results would throw
      if (std::optional<model::DomainFailure> failure = domain_failure(*op, x)) {
        failure_ = std::move(failure);
        return none();
      }
      return undefined_unless(
          [&] {
            const Reals<C> y = model::reverse_results<C>(
                *op->base, op->order, std::span<const D<C>>(x.data(), x.size()), context_);
            return shape(*op, std::span<const D<C>>(y.data(), y.size()));
          },
          none());
    }
    case Kind::let: { // [[let x = M in N]]ρ = [[N]]ρ[x ↦ [[M]]ρ]
      MValue<C> bound = term(phi, rho, *n.a);
      if (stopped()) return none();
      return term(phi, bind(rho, n.name, std::move(bound)), *n.b);
    }
    case Kind::unit:
      return MValue<C>(model::Unit{});
    case Kind::pair: { // the second component first, as for add
      MValue<C> second = term(phi, rho, *n.b);
      if (stopped()) return none();
      MValue<C> first = term(phi, rho, *n.a);
      if (stopped()) return none();
      return MValue<C>::pair(std::move(first), std::move(second));
    }
    case Kind::fst: {
      const MValue<C> v = term(phi, rho, *n.a);
      return stopped() ? none() : v.first();
    }
    case Kind::snd: {
      const MValue<C> v = term(phi, rho, *n.a);
      return stopped() ? none() : v.second();
    }
    case Kind::if_: { // defined off the guard's boundary only (spec §5.4)
      const bool holds = guard(phi, rho, *n.a);
      if (stopped()) return none();
      return holds ? term(phi, rho, *n.b) : term(phi, rho, *n.c);
    }
    case Kind::letrec: // the least fixed point, unfolded on demand
      return term(std::make_shared<const FunDef>(FunDef{&n, phi, n.limit()}), rho, *n.b);
    case Kind::call:
      return call(phi, rho, n);
    case Kind::rd:
      return rd(phi, rho, n);
    case Kind::b_true:
    case Kind::b_false:
    case Kind::pred:
      break;
    }
    throw AdsemError(ErrorKind::eval, "model: a boolean term where a term was expected");
  }

  // [[B]]: true, false, or pred's truth, undefined on its boundary.
  bool guard(const FunEnv& phi, const VarEnv<C>& rho, const Node& b) {
    if (b.kind == Kind::b_true) return true;
    if (b.kind == Kind::b_false) return false;
    partial_met_ = true; // a partial predicate: the path depends on the point
    const Primitive* pred = ops::find_predicate(b.name);
    if (!pred) throw AdsemError(ErrorKind::eval, "model: no predicate '" + b.name + "'");
    const MValue<C> arg = term(phi, rho, *b.a);
    if (stopped()) return false;
    Reals<C> x;
    flatten_value_into(arg, x);
    // the guard's boundary (a straddling box) is returned, not thrown (see stopped())
    std::variant<bool, model::DomainFailure> decision = undefined_unless(
        [&] { return pred->template decide<D<C>>(std::span<const D<C>>(x.data(), x.size())); },
        std::variant<bool, model::DomainFailure>(false));
    if (auto* failure = std::get_if<model::DomainFailure>(&decision)) {
      failure_ = std::move(*failure);
      return false;
    }
    return std::get<bool>(decision);
  }

  // [[f(M)]]: one unfolding of the fixed point; past the budget, ⊥(fuel).
  MValue<C> call(const FunEnv& phi, const VarEnv<C>& rho, const Node& n) {
    const MValue<C> arg = term(phi, rho, *n.a);
    if (stopped()) return none();
    FunEnv at;
    const Node* f = lookup_fun(phi, n.name, at);
    if (!f) throw AdsemError(ErrorKind::eval, "model: unknown function '" + n.name + "'");
    if (++unfoldings_ > budget_.unfoldings)
      throw AdsemError(ErrorKind::fuel, "model: letrec unfolded " +
                                            std::to_string(budget_.unfoldings) +
                                            " times (⊥ fuel: unknown)");
    // the body sees f itself (φ' at the definition, extended by f) and only its parameter
    if (!at->limit) return term(at, bind(VarEnv<C>{}, f->param(), arg), *f->a);
    // letrec_n (Fig. 8, Lemma 6.5): f^(n+1) = M[f^(n)/f], f^(0) = ⊥
    // μ_0 = ⊥ is a definite ⊥ of M^(n) (not "unknown"): the same outcome as the operational
    // side's stuck call through clo_0 (ApproximantStuck), so adequacy compares definedness exactly.
    if (*at->limit == 0) {
      bottom_ = "model: " + f->name + " is the approximant f^(0) = ⊥ (letrec[n])";
      return none();
    }
    const FunEnv lower = std::make_shared<const FunDef>(FunDef{f, at->next, *at->limit - 1});
    return term(lower, bind(VarEnv<C>{}, f->param(), arg), *f->a);
  }

  // [[W.rd_V(x:T. N)]]ρ = J^T W with J the Jacobian of v ↦ [[N]]ρ[x ↦ v] at V (spec §5.3).
  MValue<C> rd(const FunEnv& phi, const VarEnv<C>& rho, const Node& n) {
    const MValue<C> point = term(phi, rho, *n.b);
    if (stopped()) return none();
    const MValue<C> cotangent = term(phi, rho, *n.a);
    if (stopped()) return none();
    const Type& t = n.type;
    const Node& body = *n.c;
    const std::string& x = n.param();
    // A ⊥ inside the body stops the walk as anywhere else (see stopped()), not by a throw out of
    // vjp_into (semantics/core), which knows nothing of stopped(): the columns after it are not
    // walked, each column's value is then w's size of zeros, which vjp_into sums and rd drops.
    // The body is called directly (not through a std::function holding copies of φ, ρ, T and
    // x), and the point, the cotangent, each column's value and the result sit in inline buffers
    // (up to four reals) rather than in a heap vector each: measured, the std::function and the
    // vectors were about a sixth of rd's cost in simple-diff/approximation.
    Reals<C> at, w, result;
    flatten_value_into(point, at);
    flatten_value_into(cotangent, w);
    const auto f = [this, &phi, &rho, &t, &body, &x, &w](std::span<const D<C>> v) {
      Reals<C> out;
      if (!stopped()) {
        const MValue<C> y = term(phi, bind(rho, x, unflatten_value<C>(t, v)), body);
        if (!stopped()) {
          flatten_value_into(y, out);
          return out;
        }
      }
      for (std::size_t i = 0; i < w.size(); ++i)
        out.push_back(D<C>(0.0));
      return out;
    };
    // At a zero-dimensional point (x : unit) the Jacobian has no columns and vjp_into never
    // calls the body; rd is still * only where N is defined (spec P-EQ-9, seed 003 lines
    // 597-609), so the body is walked once at V (found by `adsem enumerate simple-diff -k 7`).
    if (at.empty()) (void)f(std::span<const D<C>>());
    model::vjp_into<C>(f, std::span<const D<C>>(at.data(), at.size()),
                       std::span<const D<C>>(w.data(), w.size()), context_, result);
    if (stopped()) return none();
    return unflatten_value<C>(t, std::span<const D<C>>(result.data(), result.size()));
  }

  // Why bottom_ and not a throw: f^(0) = ⊥ thrown as model::Undefined from the call and unwound
  // through the whole walk cost 10-18% of an adequacy campaign. The walk records it in
  // bottom_ and returns at once from every level; denote() turns it into the same
  // model::Undefined (reason approximant_bottom, same message) at the top, so callers see no
  // change. Every case checks stopped() right after each subterm, before using its value or
  // visiting the next subterm, so the walk stops exactly where the throw stopped it.
  //
  // The same for the ⊥ of a partial primitive or predicate (outside its domain, on a guard's
  // boundary: model::Undefined; a box straddling either: model::Undecided): thrown from the
  // shared primitive and unwound through the whole walk, it was most of the exception handling
  // of an adequacy campaign (the interval certificate meets a straddled guard often). It is
  // caught where the primitive is applied, kept in failed_, and the walk stops as for bottom_;
  // denote_unless_bottom rethrows the same exception at the top. Where the primitive's own check
  // can say so without a throw (its domain, a guard's boundary: Primitive::domain_failure,
  // Primitive::decide), the ⊥ is kept by value in failure_ and never thrown on the way
  // (denote_or_failure returns it): a throw and a rethrow per straddled box were most of the
  // unwinding left in simple-diff/approximation.
  bool stopped() const { return bottom_.has_value() || failed_ || failure_.has_value(); }
  const std::optional<std::string>& bottom_message() const { return bottom_; }
  bool decided_everywhere() const { return !partial_met_; }
  std::optional<model::DomainFailure> take_failure() { return std::exchange(failure_, {}); }
  void rethrow_if_failed() {
    if (failed_) std::rethrow_exception(std::exchange(failed_, nullptr));
    if (failure_) model::throw_failure(*take_failure());
  }

private:
  static MValue<C> none() { return MValue<C>(model::Unit{}); }

  // The check reverse_results makes first on ev(op_r^k, x) (the base entry's domain on x's first
  // arity reals, Dom(op_r) = Dom(op) × R^m), made here without a throw. Where x has not op_r^k's
  // size, reverse_results reports that first and nothing is checked here.
  static std::optional<model::DomainFailure> domain_failure(const ops::Operation& op,
                                                            const Reals<C>& x) {
    const Primitive& base = *op.base;
    if (base.domain().empty() || base.arity() == 0) return std::nullopt;
    const auto [in, out] = op.order == 0 ? std::pair{base.arity(), std::size_t{0}}
                                         : model::reverse_sizes(base, op.order - 1);
    if (x.size() != in + out) return std::nullopt;
    return base.domain_failure<D<C>>(std::span<const D<C>>(x.data(), base.arity()));
  }

  // apply(), or `otherwise` with the exception it threw kept in failed_ (see stopped()).
  template <class F, class T> T undefined_unless(const F& apply, T otherwise) {
    try {
      return apply();
    } catch (...) {
      failed_ = std::current_exception();
      return otherwise;
    }
  }

  // The walk's nesting, bounded so that an unbounded recursion is ⊥(fuel), not a stack overflow.
  class Nesting {
  public:
    explicit Nesting(Denoter& d) : d_(d) {
      if (++d_.depth_ > d_.budget_.depth)
        throw AdsemError(ErrorKind::fuel, "model: nesting budget exhausted (⊥ fuel: unknown)");
    }
    ~Nesting() { --d_.depth_; }
    Nesting(const Nesting&) = delete;
    Nesting& operator=(const Nesting&) = delete;

  private:
    Denoter& d_;
  };

  static VarEnv<C> bind(const VarEnv<C>& rho, const std::string& x, MValue<C> v) {
    return std::make_shared<const VarBinding<C>>(VarBinding<C>{x, std::move(v), rho});
  }
  // An op's result in the shape of its codomain: op_r^k : T × U → T returns a value of T, the
  // domain of op_r^(k-1), in general not a left-nested tuple of reals (seed 003 line 237):
  // dprod_r returns R^n × R^n, mul_r_r_r returns ((R×R)×R)×(R×R). Shaping it as R^n, as this
  // did before, made fst/snd of such a result fail in the model while eval (eval.cpp, ev) shaped
  // it right (found by simple-diff/compositionality on an R ⇝ C trace).
  MValue<C> shape(const ops::Operation& op, std::span<const D<C>> y) {
    if (y.size() == 1) return MValue<C>(y[0]);
    return unflatten_value<C>(op.codomain(), y);
  }

  const model::DiffContext& context_;
  Budget budget_;
  long steps_ = 0;
  long unfoldings_ = 0;
  int depth_ = 0;
  std::optional<std::string> bottom_; // the message of the ⊥ met, if any
  std::exception_ptr failed_;         // a primitive's ⊥ or undecided box, if any (stopped())
  std::optional<model::DomainFailure> failure_; // the same, found without a throw
  bool partial_met_ = false;                    // a predicate or a primitive with a domain was met
};

template <class C, class Out> void flatten_value_into(const MValue<C>& v, Out& out) {
  if (v.is_real()) {
    out.push_back(v.real());
  } else if (v.is_tuple()) {
    for (const MValue<C>& item : v.items())
      flatten_value_into(item, out);
  }
}

template <class C>
MValue<C> unflatten_from(const TypeNode& t, std::span<const D<C>> xs, std::size_t& at) {
  switch (t.kind) {
  case TypeNode::Kind::real:
    return MValue<C>(xs[at++]);
  case TypeNode::Kind::unit:
    return MValue<C>(model::Unit{});
  case TypeNode::Kind::product: {
    MValue<C> left = unflatten_from<C>(*t.left, xs, at);
    MValue<C> right = unflatten_from<C>(*t.right, xs, at);
    return MValue<C>::pair(std::move(left), std::move(right));
  }
  }
  return MValue<C>(model::Unit{});
}

void print_into(const MValue<double>& v, std::string& out) {
  if (v.is_real()) {
    out += print_real(v.real().primal());
  } else if (v.is_tuple()) {
    out += "<";
    print_into(v.first(), out);
    out += ", ";
    print_into(v.second(), out);
    out += ">";
  } else {
    out += "()";
  }
}

} // namespace

template <class C> std::vector<model::Dual<C>> flatten_value(const MValue<C>& v) {
  std::vector<D<C>> out;
  flatten_value_into(v, out);
  return out;
}

template <class C> MValue<C> unflatten_value(const Type& t, std::span<const model::Dual<C>> xs) {
  if (xs.size() != static_cast<std::size_t>(type_size(*t)))
    throw AdsemError(ErrorKind::eval,
                     "model: " + std::to_string(xs.size()) + " reals for type " + print_type(t));
  std::size_t at = 0;
  return unflatten_from<C>(*t, xs, at);
}

template <class C>
Denoted<C> denote_or_failure(const Term& m, const MEnv<C>& rho, const model::DiffContext& context,
                             const Budget& budget) {
  VarEnv<C> env;
  for (const auto& [x, v] : rho)
    env = std::make_shared<const VarBinding<C>>(VarBinding<C>{x, v, env});
  Denoter<C> denoter(context, budget);
  MValue<C> v = denoter.term(nullptr, env, *m);
  std::optional<model::DomainFailure> failure = denoter.take_failure();
  denoter.rethrow_if_failed();
  return Denoted<C>{std::move(v), denoter.bottom_message(), denoter.decided_everywhere(),
                    std::move(failure)};
}

template <class C>
Denoted<C> denote_unless_bottom(const Term& m, const MEnv<C>& rho,
                                const model::DiffContext& context, const Budget& budget) {
  Denoted<C> d = denote_or_failure<C>(m, rho, context, budget);
  if (d.failure) model::throw_failure(*d.failure);
  return d;
}

template <class C>
MValue<C> denote(const Term& m, const MEnv<C>& rho, const model::DiffContext& context,
                 const Budget& budget) {
  Denoted<C> d = denote_unless_bottom<C>(m, rho, context, budget);
  if (d.bottom) throw model::Undefined(approximant_bottom, *d.bottom);
  return std::move(d.value);
}

template <class C>
std::function<std::vector<model::Dual<C>>(std::span<const model::Dual<C>>)>
as_function(const std::string& x, const Type& t, const Term& body, const MEnv<C>& rho,
            const model::DiffContext& context, const Budget& budget) {
  return [=](std::span<const D<C>> v) {
    MEnv<C> extended = rho;
    extended.emplace_back(x, unflatten_value<C>(t, v));
    return flatten_value(denote<C>(body, extended, context, budget));
  };
}

std::string print(const MValue<double>& v) {
  std::string out;
  print_into(v, out);
  return out;
}

#define ADSEM_SD_DENOTATION(C)                                                                     \
  template MValue<C> denote<C>(const Term&, const MEnv<C>&, const model::DiffContext&,             \
                               const Budget&);                                                     \
  template Denoted<C> denote_unless_bottom<C>(const Term&, const MEnv<C>&,                         \
                                              const model::DiffContext&, const Budget&);           \
  template Denoted<C> denote_or_failure<C>(const Term&, const MEnv<C>&, const model::DiffContext&, \
                                           const Budget&);                                         \
  template std::vector<model::Dual<C>> flatten_value<C>(const MValue<C>&);                         \
  template MValue<C> unflatten_value<C>(const Type&, std::span<const model::Dual<C>>);             \
  template std::function<std::vector<model::Dual<C>>(std::span<const model::Dual<C>>)>             \
  as_function<C>(const std::string&, const Type&, const Term&, const MEnv<C>&,                     \
                 const model::DiffContext&, const Budget&);
ADSEM_SD_DENOTATION(double)
ADSEM_SD_DENOTATION(model::Interval)
#undef ADSEM_SD_DENOTATION

} // namespace adsem::simple_diff::denotation
