// Combine: the redexes of seed 000 §3.4 (L363-375; spec §4.6) and the extensions [X]: rules 1-4,
// rule 5 (the VJP of a primitive), the extension 5⁺ (general numeric transpose by reverse
// accumulation over B ∈ Lin_v, driven top-down by the covector's type; needed by Example 3.9
// L385-387), rule 6 (forward composition of dual maps, the symbolic case), the numeral folding
// N1-N3, the zero and sum rules Z1-Z7, Sigma1-3, and the β-reading of let.
#include "semantics/pullback/combine.hpp"

#include <algorithm>
#include <span>

#include "semantics/pullback/primitive_table.hpp"
#include "semantics/pullback/strategy.hpp"
#include "syntax/pullback/printer.hpp"
#include "syntax/pullback/substitution.hpp"

namespace adsem::pullback {

namespace {

// Offset and type inside σ (left components first) of the path p of the atom v_p. [perf] Walked
// from the root outward along the atom's projections, without making the path (atom_path).
std::pair<std::size_t, const Type*> path_offset(const Type& sigma, const Term& atom) {
  if (atom->kind == Kind::var) return {0, &sigma};
  auto [off, t] = path_offset(sigma, atom->kids[0]);
  if (!is_prod(*t)) throw AdsemError(ErrorKind::eval, "rule 5+: path into a non-product");
  if (atom->index == 2) {
    off += dim((*t)->left);
    return {off, &(*t)->right};
  }
  return {off, &(*t)->left};
}

// B ∈ Lin_v ::= 0 | v_p | ⟨Lin,Lin⟩ | Lin + Lin | π_i(Lin) | (𝒥f̲·Lin) r̲
bool in_lin_v(const Term& b, const std::string& v) {
  switch (b->kind) {
  case Kind::zero:
    return true;
  case Kind::var:
    return b->name == v;
  case Kind::proj:
    return in_lin_v(b->kids[0], v);
  case Kind::pair:
    return in_lin_v(b->kids[0], v) && in_lin_v(b->kids[1], v);
  case Kind::sum:
    for (const Term& k : b->kids)
      if (!in_lin_v(k, v)) return false;
    return true;
  case Kind::app:
    return b->kids[0]->kind == Kind::jac && in_lin_v(b->kids[0]->kids[0], v) &&
           is_numeral_tuple(b->kids[1]);
  default:
    return false;
  }
}

// A cotangent on positions [0, len) of a space: the entries of a sparse covector whose indices
// lie in [base, base + len), position = index - base, absent positions +0.0. The transpose
// passes windows of the covector down without copying it (spec §9 pitfall 4).
struct Cotangent {
  std::span<const Covector::Entry> entries;
  std::ptrdiff_t base = 0;
  std::size_t len = 0;

  std::size_t position(const Covector::Entry& e) const {
    return static_cast<std::size_t>(static_cast<std::ptrdiff_t>(e.index) - base);
  }
  // positions [0, n) and [n, len)
  Cotangent head(std::size_t n) const { return {entries.first(split(n)), base, n}; }
  Cotangent tail(std::size_t n) const {
    return {entries.subspan(split(n)), base + static_cast<std::ptrdiff_t>(n), len - n};
  }
  Eigen::VectorXd dense() const {
    Eigen::VectorXd d = Eigen::VectorXd::Zero(static_cast<Eigen::Index>(len));
    for (const Covector::Entry& e : entries)
      d[static_cast<Eigen::Index>(position(e))] = e.value;
    return d;
  }

private:
  std::size_t split(std::size_t n) const {
    const auto it = std::partition_point(entries.begin(), entries.end(),
                                         [&](const Covector::Entry& e) { return position(e) < n; });
    return static_cast<std::size_t>(it - entries.begin());
  }
};

class Transposer {
public:
  Transposer(const std::string& v, const Type& sigma, const Adjoint& adjoint)
      : v_(v), sigma_(sigma), adjoint_(adjoint) {}

  // T(B, τ, ct): accumulate Bᵀ ct into the result.
  void go(const Term& b, const Type& tau, const Cotangent& ct) {
    switch (b->kind) {
    case Kind::zero:
      return;
    case Kind::var:
    case Kind::proj:
      if (is_atom(b) && atom_root(b) == v_) {
        const std::size_t off = path_offset(sigma_, b).first;
        for (const Covector::Entry& e : ct.entries)
          added_.push_back({static_cast<std::uint32_t>(off + ct.position(e)), e.value});
        return;
      }
      { // π_i(B₁) with B₁ not an atom: ct on the i-th component of B₁'s space, zero elsewhere
        const Type inner = type_of(b->kids[0]);
        const std::size_t left = dim(inner->left);
        const std::ptrdiff_t shift = b->index == 1 ? 0 : static_cast<std::ptrdiff_t>(left);
        go(b->kids[0], inner, {ct.entries, ct.base - shift, dim(inner)});
        return;
      }
    case Kind::pair: {
      const std::size_t left = dim(tau->left);
      go(b->kids[0], tau->left, ct.head(left));
      go(b->kids[1], tau->right, ct.tail(left));
      return;
    }
    case Kind::sum: {
      const std::size_t n = std::min(b->kids.size(), adjoint_.summands);
      for (std::size_t i = 0; i < n; ++i)
        go(b->kids[i], tau, ct);
      return;
    }
    case Kind::app: { // (𝒥f̲·B₁) r̲ : T(B₁, dom f, 𝒥(f)(r)ᵀ ct)
      const Term& j = b->kids[0];
      std::vector<double> r;
      flatten_numerals(b->kids[1], r);
      const Eigen::MatrixXd jm = prim_jacobian(j->name, r);
      const Eigen::VectorXd through = adjoint_.through(jm, ct.dense());
      std::vector<Covector::Entry> dense_entries(static_cast<std::size_t>(through.size()));
      for (std::size_t i = 0; i < dense_entries.size(); ++i)
        dense_entries[i] = {static_cast<std::uint32_t>(i), through[static_cast<Eigen::Index>(i)]};
      go(j->kids[0], j->type->left, {dense_entries, 0, dense_entries.size()});
      return;
    }
    default:
      throw AdsemError(ErrorKind::eval, "rule 5+: not in Lin_v");
    }
  }

  // Bᵀ c: each entry the sum of what reached it, in the order it arrived, from +0.0, the same
  // additions a dense accumulator makes (it adds +0.0 where nothing arrives, which changes no
  // sum: a sum from +0.0 is never -0.0).
  Covector result() {
    std::stable_sort(
        added_.begin(), added_.end(),
        [](const Covector::Entry& a, const Covector::Entry& b) { return a.index < b.index; });
    std::vector<Covector::Entry> sums;
    for (const Covector::Entry& e : added_) {
      if (sums.empty() || sums.back().index != e.index) sums.push_back({e.index, 0.0});
      sums.back().value += e.value;
    }
    return Covector::from_sorted(dim(sigma_), std::move(sums));
  }

private:
  std::string v_;
  Type sigma_;
  const Adjoint& adjoint_;
  std::vector<Covector::Entry> added_;
};

bool any_kid(const Term& t, Kind kind) {
  for (const Term& k : t->kids)
    if (k->kind == kind) return true;
  return false;
}

bool same_space(const Term& a, const Term& b) {
  return a->vec.size() == b->vec.size() && same_type(a->type, b->type);
}

// The first two summands i < j of the kind (and, for N3, of one space), merged in place of the
// first: the sum's other summands keep their order.
template <class Mergeable, class Merge>
std::optional<Term> merge_first(const Term& t, Kind kind, Mergeable mergeable, Merge merge) {
  for (std::size_t i = 0; i < t->kids.size(); ++i) {
    if (t->kids[i]->kind != kind) continue;
    for (std::size_t j = i + 1; j < t->kids.size(); ++j) {
      if (t->kids[j]->kind != kind || !mergeable(t->kids[i], t->kids[j])) continue;
      std::vector<Term> items;
      for (std::size_t k = 0; k < t->kids.size(); ++k) {
        if (k == i)
          items.push_back(merge(t->kids[i], t->kids[j]));
        else if (k != j)
          items.push_back(t->kids[k]);
      }
      return sum(items);
    }
  }
  return std::nullopt;
}

constexpr auto always = [](const Term&, const Term&) { return true; };

// The summands of a sum each applied (Σ1), projected (Σ2) or dual-mapped (Σ3).
template <class F> Term distribute(const Term& s, F each) {
  std::vector<Term> items;
  for (const Term& k : s->kids)
    items.push_back(each(k));
  return sum(items);
}

} // namespace

bool is_vjp_redex(const Term& t) {
  const Term& body = t->kids[0];
  const Term& fun = t->kids[1];
  return fun->kind == Kind::covec && is_euclidean(t->type) && is_euclidean(fun->type) &&
         body->kind == Kind::app && body->kids[0]->kind == Kind::jac &&
         body->kids[0]->kids[0]->kind == Kind::var && body->kids[0]->kids[0]->name == t->name &&
         is_numeral_tuple(body->kids[1]);
}

bool is_linear_transpose_redex(const Term& t) {
  const std::string& v = t->name;
  const Term& body = t->kids[0];
  const Term& fun = t->kids[1];
  if (fun->kind != Kind::covec || !is_euclidean(t->type) || !is_euclidean(fun->type)) return false;
  if (body->kind == Kind::zero) return false; // Z6
  // FV(B) ⊆ {v} needs no test of its own: Lin_v's only variable is v and its r̲ are closed
  // numerals. [perf] free_vars made a std::set of B's names at every 5⁺ attempt.
  return in_lin_v(body, v) && dim(fun->type) == fun->vec.size();
}

bool is_flat_sum(const Term& t) {
  return !any_kid(t, Kind::zero) && !any_kid(t, Kind::sum);
}

bool sums_numerals(const Term& t) {
  return is_flat_sum(t) && std::count_if(t->kids.begin(), t->kids.end(),
                                         [](const Term& k) { return k->kind == Kind::num; }) >= 2;
}

bool sums_pairs(const Term& t) {
  return is_flat_sum(t) && std::count_if(t->kids.begin(), t->kids.end(),
                                         [](const Term& k) { return k->kind == Kind::pair; }) >= 2;
}

bool sums_covectors(const Term& t) {
  if (!is_flat_sum(t)) return false;
  for (std::size_t i = 0; i < t->kids.size(); ++i)
    for (std::size_t j = i + 1; j < t->kids.size(); ++j)
      if (t->kids[i]->kind == Kind::covec && t->kids[j]->kind == Kind::covec &&
          same_space(t->kids[i], t->kids[j]))
        return true;
  return false;
}

namespace rules {

// (1) (λx.S) V → S[V/x]
Term rule_1(Machine& m, const Combine::Redex& r, const RuleInfo&) {
  const Term& f = r.node->kids[0];
  // [perf] A λ only the redex holds (one a firing built), the redex the run's alone: its body is
  // edited in place instead of copied (substitute_in_place; the same term).
  if (f.use_count() == 1 && !f->keyed_mark.get() && m.holds_alone(r.node))
    return substitute_in_place(f->kids[0], f->name, r.node->kids[1]);
  return substitute(f->kids[0], f->name, r.node->kids[1]);
}

// (2) π_i⟨V₁,V₂⟩ → V_i
Term rule_2(Machine&, const Combine::Redex& r, const RuleInfo&) {
  return r.node->kids[0]->kids[static_cast<std::size_t>(r.node->index - 1)];
}

// (3) f̲(r̲) → f(r) [ID-13: zero at a Euclidean type is the all-zero numeral]
Term rule_3(Machine&, const Combine::Redex& r, const RuleInfo&) {
  const Term& t = r.node;
  const Term& x = t->kids[0];
  std::vector<double> point;
  if (x->kind == Kind::zero)
    point.assign(dim(t->type->left), 0.0);
  else
    flatten_numerals(x, point);
  if (point.size() != dim(t->type->left))
    throw AdsemError(ErrorKind::eval, "rule 3: " + t->name + " applied to " + print(x));
  return numeral_tuple(t->type->right, prim_value(t->name, point));
}

// (4) (𝒥f̲·r̲) r̲' → 𝒥(f)(r')·r: point r', direction r [ID-13]
Term rule_4(Machine&, const Combine::Redex& r, const RuleInfo&) {
  const Term& f = r.node->kids[0];
  const Term& a = r.node->kids[1];
  std::vector<double> direction, point;
  flatten_numerals(numeral_tuple(f->type->left, {}), direction);
  direction.assign(direction.size(), 0.0);
  point = direction;
  if (f->kids[0]->kind != Kind::zero) {
    direction.clear();
    flatten_numerals(f->kids[0], direction);
  }
  if (a->kind != Kind::zero) {
    point.clear();
    flatten_numerals(a, point);
  }
  const Eigen::MatrixXd jm = prim_jacobian(f->name, point);
  const Eigen::VectorXd d = Eigen::Map<const Eigen::VectorXd>(
      direction.data(), static_cast<Eigen::Index>(direction.size()));
  const Eigen::VectorXd out = jm * d;
  return numeral_tuple(f->type->right, std::vector<double>(out.data(), out.data() + out.size()));
}

// (5) (λv.(𝒥f̲·v) r̲)*·r̲'* → ((𝒥f(r))ᵀ r')*, and (5⁺) (λv.B)*·c* → (Bᵀc)* for B ∈ Lin_v
CombineResult transpose(Adjoint adjoint) {
  return
      [adjoint = std::move(adjoint)](Machine&, const Combine::Redex& r, const RuleInfo&) -> Term {
        const Term& t = r.node;
        const Term& fun = t->kids[1];
        Transposer tr(t->name, t->type, adjoint);
        tr.go(t->kids[0], fun->type, {fun->vec.entries(), 0, fun->vec.size()});
        return covec(tr.result(), t->type);
      };
}

// (6) (λv₁.V₁)*·((λv₂.V₂)*·V₃) → (λv₁.V₂[V₁/v₂])*·V₃
Term rule_6(Machine& m, const Combine::Redex& r, const RuleInfo&) {
  const Term& t = r.node;
  const Term& fun = t->kids[1];
  // [perf] In a chain of dual maps, V₂ is the body the last firing built: held by (λv₂.V₂)*·V₃
  // alone, and that by the redex, which the run drops for the contractum. Its nodes are then
  // edited in place instead of copied (substitute_in_place; the same term).
  if (fun.use_count() == 1 && !fun->keyed_mark.get() && m.holds_alone(t))
    return dualmap(t->name, t->type, substitute_in_place(fun->kids[0], fun->name, t->kids[0]),
                   fun->kids[1]);
  return dualmap(t->name, t->type, substitute(fun->kids[0], fun->name, t->kids[0]), fun->kids[1]);
}

// [ID] let x = V in N → N[V/x]
Term let_beta(Machine& m, const Combine::Redex& r, const RuleInfo&) {
  // [perf] The let the run holds alone: N's nodes only it holds are edited in place instead of
  // copied (substitute_in_place; the same term).
  if (m.holds_alone(r.node))
    return substitute_in_place(r.node->kids[1], r.node->name, r.node->kids[0]);
  return substitute(r.node->kids[1], r.node->name, r.node->kids[0]);
}

// (N1) r̲ + s̲ → (r+s)̲
Term n1(Machine&, const Combine::Redex& r, const RuleInfo&) {
  return *merge_first(r.node, Kind::num, always,
                      [](const Term& a, const Term& b) { return num(a->value + b->value); });
}

// (N2) ⟨a,b⟩ + ⟨c,d⟩ → ⟨a+c, b+d⟩
Term n2(Machine&, const Combine::Redex& r, const RuleInfo&) {
  return *merge_first(r.node, Kind::pair, always, [](const Term& a, const Term& b) {
    return pair(sum({a->kids[0], b->kids[0]}), sum({a->kids[1], b->kids[1]}));
  });
}

// (N3) r̲* + s̲* → (r+s)̲* at one type σ*
Term n3(Machine&, const Combine::Redex& r, const RuleInfo&) {
  return *merge_first(r.node, Kind::covec, same_space,
                      [](const Term& a, const Term& b) { return covec(a->vec + b->vec, a->type); });
}

// [perf] After (N1) at a sum whose search was pure, refocusing searches the new sum again: its
// summands are the old inert ones and a numeral, and no summand is 0 or a sum, so the next step
// is (N1) on the same sum, merging the next numeral into the first, until one numeral is left.
// Each step rebuilt the sum and searched it again: quadratic in the summands (16k: 2 s). The run
// is done here at once and counted as the steps it stands for, with the same additions in the
// same order; only refocusing does it, where no step is observed or traced one by one.
long fuse_numerals(Term& s) {
  if (s->kind != Kind::sum) return 0;
  std::vector<Term> items;
  items.reserve(s->kids.size());
  std::size_t first = s->kids.size();
  double value = 0.0;
  long merged = 0;
  for (const Term& k : s->kids) {
    if (k->kind != Kind::num) {
      items.push_back(k);
    } else if (first == s->kids.size()) {
      first = items.size();
      value = k->value;
      items.push_back(k);
    } else {
      value = value + k->value; // num(a + b) of rule N1, a the numeral merged so far
      ++merged;
    }
  }
  if (merged == 0) return 0;
  items[first] = num(value);
  s = sum(items);
  return merged;
}

// (Z1) 0 V → 0, (Z2) π_i(0) → 0, (Z3) ⟨0,0⟩ → 0
Term zero_of_type(Machine&, const Combine::Redex& r, const RuleInfo&) {
  return zero(type_of(r.node));
}

// (Z4) 𝒥f̲·0 → 0
Term z4(Machine&, const Combine::Redex& r, const RuleInfo&) {
  return zero(r.node->type);
}

// (Z5) (λx.V)*·0 → 0, (Z6) (λx.0)*·V → 0
Term zero_covector(Machine&, const Combine::Redex& r, const RuleInfo&) {
  return zero(dual(r.node->type));
}

// (Z7) flatten nested sums and drop zeros
Term z7(Machine&, const Combine::Redex& r, const RuleInfo&) {
  const Term& t = r.node;
  std::vector<Term> items;
  Type ty = type_of(t);
  for (const Term& k : t->kids)
    if (k->kind != Kind::zero) items.push_back(k);
  if (items.empty()) return zero(ty);
  return sum(items);
}

// (Σ1) (V₁+V₂) V → V₁ V + V₂ V
Term sigma1(Machine&, const Combine::Redex& r, const RuleInfo&) {
  const Term& a = r.node->kids[1];
  return distribute(r.node->kids[0], [&](const Term& k) { return app(k, a); });
}

// (Σ2) π_i(V₁+V₂) → π_i(V₁) + π_i(V₂)
Term sigma2(Machine&, const Combine::Redex& r, const RuleInfo&) {
  const int i = r.node->index;
  return distribute(r.node->kids[0], [&](const Term& k) { return proj(i, k); });
}

// (Σ3) (λx.V)*·(V₁+V₂) → (λx.V)*·V₁ + (λx.V)*·V₂
Term sigma3(Machine&, const Combine::Redex& r, const RuleInfo&) {
  const Term& t = r.node;
  return distribute(t->kids[1],
                    [&](const Term& k) { return dualmap(t->name, t->type, t->kids[0], k); });
}

} // namespace rules

} // namespace adsem::pullback
