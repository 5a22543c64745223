#include "properties/pullback/rule_instance.hpp"

#include <fmt/format.h>
#include <rapidcheck.h>

#include "generators/pullback/terms.hpp"
#include "semantics/pullback/primitive_table.hpp"
#include "syntax/pullback/printer.hpp"

namespace adsem::pullback {

namespace {

const std::string hole = "hole_";
const std::string slot = "slot_";

int pick(int n) {
  return n <= 1 ? 0 : *rc::gen::resize(rc::kNominalSize, rc::gen::inRange(0, n));
}
double number() { // the generator's grid: multiples of 1/4 in [-2, 2]
  return (*rc::gen::resize(rc::kNominalSize, rc::gen::inRange(0, 17)) - 8) / 4.0;
}
std::vector<double> numbers(std::size_t n) {
  std::vector<double> c;
  for (std::size_t i = 0; i < n; ++i)
    c.push_back(number());
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

const std::vector<std::string>& jacobian_primitives() {
  static const std::vector<std::string> names = {"sin",  "cos", "tanh", "pow2", "neg",
                                                 "mult", "add", "sub",  "g"};
  return names;
}

Term value_of(const Type& t, const VarScope& scope, Naming& nm, int depth) {
  if (!is_euclidean(t)) { // a variable of this type in scope (Euclidean ones: euclid's atoms)
    std::vector<Term> same;
    for (const auto& [x, ty] : scope)
      if (same_type(ty, t)) same.push_back(var(x, ty));
    if (!same.empty() && pick(4) == 0)
      return same[static_cast<std::size_t>(pick(static_cast<int>(same.size())))];
  }
  if (is_euclidean(t)) return euclid(scope, t, nm, 2);
  if (is_prod(t))
    return pair(value_of(t->left, scope, nm, depth), value_of(t->right, scope, nm, depth));
  if (is_dual(t)) {
    const Type rho = t->left;
    switch (pick(depth > 0 ? 4 : 1)) {
    case 0:
      return covec(numbers(dim(rho)), rho);
    case 1: { // a gradient query ((Ω λy:ρ.P)·Ω c) V
      const std::string y = nm.fresh("y");
      const Type tau = small_euclid();
      return app(pullback(y, rho, euclid(with(scope, y, rho), tau, nm), constant_form(nm, tau)),
                 euclid(scope, rho, nm));
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
  if (is_euclidean(a) && is_dual(b) && same_type(b->left, a)) { // a 1-form Ω A
    switch (pick(3)) {
    case 0:
      return constant_form(nm, a);
    case 1: { // (Ω λy:A.P)·Ω c
      const std::string y = nm.fresh("y");
      const Type tau = small_euclid();
      return pullback(y, a, euclid(with(scope, y, a), tau, nm), constant_form(nm, tau));
    }
    default:
      return lam(z, a, value_of(b, with(scope, z, a), nm, depth - 1));
    }
  }
  if (is_euclidean(a) && is_euclidean(b)) {
    std::vector<std::string> fs;
    for (const std::string& f : jacobian_primitives())
      if (same_type(type_of(make_jac(f, zero(a))), t)) fs.push_back(f);
    if (!fs.empty() && pick(3) == 0)
      return make_jac(fs[static_cast<std::size_t>(pick(static_cast<int>(fs.size())))],
                      euclid(scope, a, nm));
    return lam(z, a, euclid(with(scope, z, a), b, nm));
  }
  return lam(z, a, value_of(b, with(scope, z, a), nm, depth));
}

enum class Frame { builder, pullback_body, apply, one_form, dual_map, dual_sum, form_output, proj };
struct Step {
  Frame frame;
  Type in, out;
  int index = 1; // proj
};

bool is_one_form(const Type& t) {
  return is_arrow(t) && is_euclidean(t->left) && is_dual(t->right) &&
         same_type(t->right->left, t->left);
}
bool dual_of_euclid(const Type& t) {
  return is_dual(t) && is_euclidean(t->left);
}

// Bottom-up: the frames from the hole's type to the program's type.
std::vector<Step> plan(const Type& u) {
  std::vector<Step> steps;
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
    } else if (dual_of_euclid(t)) {
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

// A term of type `out` built by the generator over scope + slot_ : in, with slot_ at one place;
// returns it with the slot's path and the variables visible there.
struct Framed {
  Term term;
  std::vector<int> path;
  VarScope visible;
};

Framed builder_frame(const Type& in, const Type& out, const VarScope& scope, Naming& nm) {
  Term b = euclid(with(scope, slot, in), out, nm, 2);
  auto occ = occurrences(b, slot, scope);
  if (occ.empty()) { // the generator did not use the slot: add a use of it
    const Term r = real_atom(var(slot, in), in);
    b = sum({b, is_real(out) ? r : pair(r, numeral_tuple(out->right, numbers(dim(out->right))))});
    occ = occurrences(b, slot, scope);
  }
  const auto k = static_cast<std::size_t>(pick(static_cast<int>(occ.size())));
  for (std::size_t i = 0; i < occ.size(); ++i) // the other uses become 0 of the slot's type
    if (i != k) b = replace_at(b, occ[i].path, zero(in));
  return {b, occ[k].path, occ[k].visible};
}

Framed frame(const Step& s, const VarScope& scope, Naming& nm) {
  const Term x = var(slot, s.in);
  switch (s.frame) {
  case Frame::builder:
    return builder_frame(s.in, s.out, scope, nm);
  case Frame::pullback_body: { // ((Ω λy:σ.B[slot])·Ω c) V: the hole under y, differentiated
    const std::string y = nm.fresh("y");
    const Type sy = s.out->left, rho = small_euclid();
    Framed body = builder_frame(s.in, rho, with(scope, y, sy), nm);
    body.path.insert(body.path.begin(), {0, 0});
    return {app(pullback(y, sy, body.term, constant_form(nm, rho)), euclid(scope, sy, nm)),
            body.path, body.visible};
  }
  case Frame::apply:
    return {app(x, value_of(s.in->left, scope, nm, 2)), {0}, scope};
  case Frame::one_form: { // ((Ω λy:σ.P)·slot) V
    const std::string y = nm.fresh("y");
    const Type sy = s.out->left;
    return {
        app(pullback(y, sy, euclid(with(scope, y, sy), s.in->left, nm), x), euclid(scope, sy, nm)),
        {0, 1},
        scope};
  }
  case Frame::dual_map: { // (λz:σ.L)*·slot, L linear in z
    const std::string z = nm.fresh("x");
    const Type sz = s.out->left;
    return {dualmap(z, sz, *gen::linear_term_named(z, sz, s.in->left, nm.take()), x), {1}, scope};
  }
  case Frame::dual_sum: {
    const Term other = value_of(s.in, scope, nm, 1);
    if (pick(2) == 0) return {sum({x, other}), {0}, scope};
    return {sum({other, x}), {1}, scope};
  }
  case Frame::form_output: { // ((Ω λy:σ.P)·(λu:ρ.slot)) V: the hole under u
    const std::string y = nm.fresh("y"), u = nm.fresh("u");
    const Type sy = s.out->left, rho = s.in->left;
    return {app(pullback(y, sy, euclid(with(scope, y, sy), rho, nm), lam(u, rho, x)),
                euclid(scope, sy, nm)),
            {0, 1, 0},
            with(scope, u, rho)};
  }
  case Frame::proj:
    return {proj(s.index, x), {0}, scope};
  }
  throw std::logic_error("pullback rule instance: unknown frame");
}

// Top-down: frames outermost first; returns C with hole_ at `path`, and what the hole sees.
Term build(const std::vector<Step>& steps, int i, const Type& u, const VarScope& scope, Naming& nm,
           VarScope& visible) {
  if (i < 0) {
    visible = scope;
    return var(hole, u);
  }
  const Framed f = frame(steps[static_cast<std::size_t>(i)], scope, nm);
  // the slot's place (sum() flattens, so it is looked up rather than predicted)
  const auto occ = occurrences(f.term, slot, scope);
  if (occ.size() != 1) throw std::logic_error("pullback rule instance: a frame lost its slot");
  const Term inner = build(steps, i - 1, u, occ.front().visible, nm, visible);
  return replace_at(f.term, occ.front().path, inner);
}

std::string point_text(const Term& v) {
  std::vector<double> xs;
  flatten_numerals(v, xs);
  std::string out;
  for (const double x : xs)
    out += (out.empty() ? "" : ",") + number_text(x);
  return out;
}

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
  RuleInstance in;
  Naming nm;
  in.sigma_a = small_euclid();
  const std::vector<Step> steps = plan(p.type);
  VarScope visible;
  const VarScope outer = {{in.a, in.sigma_a}};
  in.context = build(steps, static_cast<int>(steps.size()) - 1, p.type, outer, nm, visible);

  std::map<std::string, Term> sigma;
  std::string assignment;
  for (const Metavariable& m : p.metas) {
    Term t;
    if (m.linear_in) {
      t = *gen::linear_term_named(m.linear_in->first, m.linear_in->second, m.type, nm.take());
    } else {
      VarScope scope = visible;
      scope.insert(scope.end(), m.binders.begin(), m.binders.end());
      t = value_of(m.type, scope, nm, 2);
    }
    sigma[m.name] = t;
    assignment += fmt::format("{}{} := {}", assignment.empty() ? "" : ", ", m.name, print(t));
  }
  in.lhs = instantiate(p.lhs, sigma);
  in.rhs = instantiate(p.rhs, sigma);
  in.before = instantiate(in.context, {{hole, in.lhs}});
  in.after = instantiate(in.context, {{hole, in.rhs}});
  in.type = type_of(in.before);
  in.point = numeral_tuple(in.sigma_a, numbers(dim(in.sigma_a)));
  if (is_euclidean(in.type))
    for (std::size_t i = 0; i < dim(in.type); ++i)
      in.cotangent.push_back((1 + pick(4)) * (pick(2) == 0 ? 1.0 : -1.0) / 2.0);

  std::string shown = print(in.context);
  for (std::size_t at = shown.find(hole); at != std::string::npos; at = shown.find(hole))
    shown.replace(at, hole.size(), "[ ]");
  in.report = fmt::format("{}  -->  {}   with {}   in context {}   at {}:{} = {}", print(in.lhs),
                          print(in.rhs), assignment.empty() ? "no metavariables" : assignment,
                          shown, in.a, type_text(in.sigma_a), point_text(in.point));
  return in;
}

} // namespace adsem::pullback
