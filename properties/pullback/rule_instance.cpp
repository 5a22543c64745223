#include "properties/pullback/rule_instance.hpp"

#include <rapidcheck.h>

#include "generators/pullback/terms.hpp"
#include "properties/core/rule_instance_kit.hpp"
#include "semantics/pullback/primitive_table.hpp"
#include "syntax/pullback/printer.hpp"

namespace adsem::pullback {

namespace {

const std::string slot = "slot_";

int pick(int n) {
  return n <= 1 ? 0 : adsem::rules::uniform(0, n);
}
std::vector<double> numbers(std::size_t n) { // the generator's grid: multiples of 1/4 in [-2, 2]
  std::vector<double> c;
  for (std::size_t i = 0; i < n; ++i)
    c.push_back((adsem::rules::uniform(0, 17) - 8) / 4.0);
  return c;
}
Type small_euclid() {
  return pick(3) == 0 ? real_power(2) : real_type();
}

// Binder names: generator calls get disjoint number ranges (z1001.., z2001..); frames and
// instances number their own binders from 900001 (all reserved in rules: a letter + digits).
struct Naming {
  int calls = 0;
  int own = 900000;
  int take() { return ++calls * 1000; }
  std::string fresh(const char* base) { return base + std::to_string(++own); }
};

VarScope with(VarScope s, const std::string& x, const Type& t) {
  s.emplace_back(x, t);
  return s;
}
Term euclid(const VarScope& scope, const Type& t, Naming& nm, int depth = 1) {
  return *gen::euclid_over(scope, t, nm.take(), depth);
}
Term constant_form(Naming& nm, const Type& rho) {
  return lam(nm.fresh("u"), rho, covec(numbers(dim(rho)), rho));
}
// ((Ω λy:σ.P)·ω) applied to a point when `at` (a gradient query), P drawn with y in scope
// (one expression per shape: argument evaluation order decides the order of RapidCheck draws)
template <class Omega>
Term query(const VarScope& scope, const Type& sy, const Type& tau, Naming& nm, Omega&& omega,
           bool at = true) {
  const std::string y = nm.fresh("y");
  if (!at) return pullback(y, sy, euclid(with(scope, y, sy), tau, nm), omega());
  return app(pullback(y, sy, euclid(with(scope, y, sy), tau, nm), omega()), euclid(scope, sy, nm));
}

const std::vector<std::string>& jacobian_primitives() {
  static const std::vector<std::string> names = {"sin",  "cos", "tanh", "pow2", "neg",
                                                 "mult", "add", "sub",  "g"};
  return names;
}
template <class T> const T& one_of(const std::vector<T>& xs) {
  return xs[static_cast<std::size_t>(pick(static_cast<int>(xs.size())))];
}
bool is_one_form(const Type& t) {
  return is_arrow(t) && is_euclidean(t->left) && is_dual(t->right) &&
         same_type(t->right->left, t->left);
}

Term value_of(const Type& t, const VarScope& scope, Naming& nm, int depth) {
  if (!is_euclidean(t)) { // a variable of this type in scope (Euclidean ones: euclid's atoms)
    std::vector<Term> same;
    for (const auto& [x, ty] : scope)
      if (same_type(ty, t)) same.push_back(var(x, ty));
    if (!same.empty() && pick(4) == 0) return one_of(same);
  }
  if (is_euclidean(t)) return euclid(scope, t, nm, 2);
  if (is_prod(t))
    return pair(value_of(t->left, scope, nm, depth), value_of(t->right, scope, nm, depth));
  const auto form = [&nm](const Type& rho) {
    return [&nm, rho] { return constant_form(nm, rho); };
  };
  if (is_dual(t)) {
    const Type rho = t->left;
    switch (pick(depth > 0 ? 4 : 1)) {
    case 0:
      return covec(numbers(dim(rho)), rho);
    case 1: { // a gradient query ((Ω λy:ρ.P)·Ω c) V
      const Type tau = small_euclid();
      return query(scope, rho, tau, nm, form(tau));
    }
    case 2: { // a dual map (λx:ρ.L)*·D, L linear in x (genLin)
      const std::string x = nm.fresh("x");
      const Type tau = small_euclid();
      return dualmap(x, rho, *gen::linear_term_named(x, rho, tau, nm.take()),
                     value_of(dual(tau), scope, nm, depth - 1));
    }
    default:
      return sum({value_of(t, scope, nm, depth - 1), value_of(t, scope, nm, depth - 1)});
    }
  }
  // t = A -> B
  const Type a = t->left, b = t->right;
  const std::string z = nm.fresh("z");
  if (is_one_form(t)) { // a 1-form Ω A
    switch (pick(3)) {
    case 0:
      return constant_form(nm, a);
    case 1: { // (Ω λy:A.P)·Ω c
      const Type tau = small_euclid();
      return query(scope, a, tau, nm, form(tau), false);
    }
    default:
      return lam(z, a, value_of(b, with(scope, z, a), nm, depth - 1));
    }
  }
  if (is_euclidean(a) && is_euclidean(b)) {
    std::vector<std::string> fs;
    for (const std::string& f : jacobian_primitives())
      if (same_type(type_of(make_jac(f, zero(a))), t)) fs.push_back(f);
    if (!fs.empty() && pick(3) == 0) return make_jac(one_of(fs), euclid(scope, a, nm));
    return lam(z, a, euclid(with(scope, z, a), b, nm));
  }
  return lam(z, a, value_of(b, with(scope, z, a), nm, depth));
}

enum class Frame { builder, pullback_body, apply, one_form, dual_map, dual_sum, form_output, proj };
struct FrameStep {
  Frame frame;
  Type in, out;
  int index = 1; // proj
};

// Bottom-up: the frames from the hole's type to the program's type.
std::vector<FrameStep> plan(const Type& u) {
  std::vector<FrameStep> steps;
  Type t = u;
  // At most one frame that differentiates (a pullback around or under the hole): the model's
  // derivatives nest (tagged duals), and extended-ad differentiates the whole program once more,
  // so deeper nesting costs exponentially in time without reaching new rules.
  bool differentiated = false;
  for (int guard = 0; guard < 12; ++guard) {
    const bool after_builder = !steps.empty() && steps.back().frame == Frame::builder;
    if (is_euclidean(t)) {
      if (after_builder && (steps.size() >= 3 || differentiated || pick(4) != 0)) break;
      if (!differentiated && (after_builder || pick(5) == 0)) {
        differentiated = true;
        steps.push_back({Frame::pullback_body, t, dual(small_euclid())});
      } else {
        steps.push_back({Frame::builder, t, small_euclid()});
      }
    } else if (is_dual(t) && is_euclidean(t->left)) {
      if (steps.size() >= 3) break;
      const int k = pick(6);
      if (k < 3 || (k == 5 && differentiated)) break;
      differentiated = differentiated || k == 5;
      const Type out = dual(small_euclid());
      steps.push_back({k == 3   ? Frame::dual_map
                       : k == 4 ? Frame::dual_sum
                                : Frame::form_output,
                       t, k == 4 ? t : out});
    } else if (is_arrow(t)) {
      if (is_one_form(t) && !differentiated && pick(3) != 0) {
        differentiated = true;
        steps.push_back({Frame::one_form, t, dual(small_euclid())});
      } else {
        steps.push_back({Frame::apply, t, t->right});
      }
    } else if (is_prod(t)) {
      const bool left = can_place(t->left), right = can_place(t->right);
      const int i = left && right ? 1 + pick(2) : left ? 1 : 2;
      steps.push_back({Frame::proj, t, i == 1 ? t->left : t->right, i});
    } else {
      break;
    }
    t = steps.back().out;
  }
  return steps;
}

// A term of type `out` drawn by the generator over scope + slot_ : in, slot_ at one of its uses.
Term builder_frame(const Type& in, const Type& out, const VarScope& scope, Naming& nm) {
  Term b = euclid(with(scope, slot, in), out, nm, 2);
  auto occ = occurrences(b, slot, scope);
  if (occ.empty()) { // the generator did not use the slot: add a use of it
    const Term r = real_atom(var(slot, in), in);
    b = sum({b, is_real(out) ? r : pair(r, numeral_tuple(out->right, numbers(dim(out->right))))});
    occ = occurrences(b, slot, scope);
  }
  const auto k = static_cast<std::size_t>(pick(static_cast<int>(occ.size())));
  return adsem::rules::zero_other_holes(
      b, occ, k, zero(in),
      [](const Term& t, const auto& path, const Term& z) { return replace_at(t, path, z); });
}

// One frame: a term of type s.out with slot_ : s.in at one place.
Term frame(const FrameStep& s, const VarScope& scope, Naming& nm) {
  const Term x = var(slot, s.in);
  switch (s.frame) {
  case Frame::builder:
    return builder_frame(s.in, s.out, scope, nm);
  case Frame::pullback_body: { // ((Ω λy:σ.B[slot])·Ω c) V: the hole under y, differentiated
    const std::string y = nm.fresh("y");
    const Type sy = s.out->left, rho = small_euclid();
    const Term body = builder_frame(s.in, rho, with(scope, y, sy), nm);
    return app(pullback(y, sy, body, constant_form(nm, rho)), euclid(scope, sy, nm));
  }
  case Frame::apply:
    return app(x, value_of(s.in->left, scope, nm, 2));
  case Frame::one_form: // ((Ω λy:σ.P)·slot) V
    return query(scope, s.out->left, s.in->left, nm, [&] { return x; });
  case Frame::dual_map: { // (λz:σ.L)*·slot, L linear in z
    const std::string z = nm.fresh("x");
    const Type sz = s.out->left;
    return dualmap(z, sz, *gen::linear_term_named(z, sz, s.in->left, nm.take()), x);
  }
  case Frame::dual_sum: {
    const Term other = value_of(s.in, scope, nm, 1);
    return pick(2) == 0 ? sum({x, other}) : sum({other, x});
  }
  case Frame::form_output: { // ((Ω λy:σ.P)·(λu:ρ.slot)) V: the hole under u
    return query(scope, s.out->left, s.in->left, nm,
                 [&] { return lam(nm.fresh("u"), s.in->left, x); });
  }
  case Frame::proj:
    return proj(s.index, x);
  }
  throw std::logic_error("pullback rule instance: unknown frame");
}

// Top-down: frames outermost first; the innermost slot is the hole.
Term build(const std::vector<FrameStep>& steps, std::size_t i, const Type& u, const VarScope& scope,
           Naming& nm) {
  if (i == 0) return var(adsem::rules::context_hole, u);
  const Term f = frame(steps[i - 1], scope, nm);
  // the slot's place (sum() flattens, so it is looked up rather than predicted)
  const auto occ = occurrences(f, slot, scope);
  if (occ.size() != 1) throw std::logic_error("pullback rule instance: a frame lost its slot");
  return replace_at(f, occ.front().path, build(steps, i - 1, u, occ.front().visible, nm));
}

// How pullback draws an instance (rule_instance_kit.hpp): the context is the plan's frames
// around the one hole; the point is a numeral tuple of a0's type.
struct Draw {
  using Pattern = pullback::Pattern;
  using Term = pullback::Term;
  using Hole = Occurrence;
  struct Frame {
    Type sigma_a;
    Naming nm;
  };
  static constexpr int context_attempts = 1;
  static constexpr const char* calculus = "pullback";

  static Frame frame(const Pattern&) { return {small_euclid(), {}}; }
  static VarScope outer(const Pattern&, const Frame& f) { return {{"a0", f.sigma_a}}; }
  static Term context(const Pattern& p, Frame& f) {
    const std::vector<FrameStep> steps = plan(p.type);
    return build(steps, steps.size(), p.type, outer(p, f), f.nm);
  }
  static int pick(int n) { return pullback::pick(n); }
  static Term meta_term(const VarScope& scope, const Metavariable& m, std::size_t, Frame& f) {
    if (m.linear_in)
      return *gen::linear_term_named(m.linear_in->first, m.linear_in->second, m.type, f.nm.take());
    return value_of(m.type, scope, f.nm, 2);
  }
  static Term fill_others(const Term& c, const std::vector<Occurrence>&, std::size_t,
                          const Pattern&) {
    return c; // the one hole
  }
  static Term marker(const Pattern& p) { return var("[ ]", p.type); }
  static std::vector<double> point(const Frame& f) { return numbers(dim(f.sigma_a)); }
  static std::string at_text(const Frame& f, const std::vector<double>& at) {
    return adsem::rules::variable_at("a0", type_text(f.sigma_a), at, number_text);
  }
};

} // namespace

bool can_generate(const Type& t) {
  if (is_euclidean(t)) return true;
  if (is_prod(t)) return can_generate(t->left) && can_generate(t->right);
  if (is_dual(t)) return is_euclidean(t->left);
  if (is_arrow(t)) return can_generate(t->right);
  return false;
}

bool can_place(const Type& t) {
  if (is_euclidean(t)) return true;
  if (is_dual(t)) return is_euclidean(t->left);
  if (is_arrow(t)) return is_one_form(t) || (can_generate(t->left) && can_place(t->right));
  if (is_prod(t)) return can_place(t->left) || can_place(t->right);
  return false;
}

RuleInstance draw_instance(const Pattern& p) {
  const auto d = adsem::rules::draw_instance<Draw>(p);
  RuleInstance in{"a0",
                  d.frame.sigma_a,
                  numeral_tuple(d.frame.sigma_a, d.at),
                  type_of(d.before),
                  d.lhs,
                  d.rhs,
                  d.before,
                  d.after,
                  {},
                  d.report};
  if (is_euclidean(in.type))
    for (std::size_t i = 0; i < dim(in.type); ++i)
      in.cotangent.push_back((1 + pick(4)) * (pick(2) == 0 ? 1.0 : -1.0) / 2.0);
  return in;
}

} // namespace adsem::pullback
