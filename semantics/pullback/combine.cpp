// Combine: the dual-map redexes of seed 000 §3.4 (L363-375; spec §4.6): (Z5) (Z6) (Σ3), rule 5
// (the VJP of a primitive), the extension 5⁺ (general numeric transpose by reverse accumulation
// over B ∈ Lin_v, driven top-down by the covector's type; needed by Example 3.9 L385-387) and rule
// 6 (forward composition of dual maps, the symbolic case).
#include <Eigen/Core>

#include "semantics/pullback/primitive_table.hpp"
#include "semantics/pullback/strategy.hpp"
#include "syntax/pullback/substitution.hpp"

namespace adsem::pullback {

namespace {

// Offset and type of the path p inside σ (left components first).
std::pair<std::size_t, Type> path_offset(const Type& sigma, const std::vector<int>& path) {
  std::size_t off = 0;
  Type t = sigma;
  for (const int i : path) {
    if (!is_prod(t)) throw AdsemError(ErrorKind::eval, "rule 5+: path into a non-product");
    if (i == 2) {
      off += dim(t->left);
      t = t->right;
    } else {
      t = t->left;
    }
  }
  return {off, t};
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

class Transposer {
public:
  Transposer(const std::string& v, const Type& sigma, const Rules& rules)
      : v_(v), sigma_(sigma), rules_(rules),
        acc_(Eigen::VectorXd::Zero(static_cast<Eigen::Index>(dim(sigma)))) {}

  // T(B, τ, ct): accumulate Bᵀ ct into acc.
  void go(const Term& b, const Type& tau, const Eigen::VectorXd& ct) {
    switch (b->kind) {
    case Kind::zero:
      return;
    case Kind::var:
    case Kind::proj:
      if (is_atom(b) && atom_root(b) == v_) {
        const auto [off, ty] = path_offset(sigma_, atom_path(b));
        acc_.segment(static_cast<Eigen::Index>(off), ct.size()) += ct;
        return;
      }
      { // π_i(B₁) with B₁ not an atom
        const Type inner = type_of(b->kids[0]);
        Eigen::VectorXd wide = Eigen::VectorXd::Zero(static_cast<Eigen::Index>(dim(inner)));
        const Eigen::Index left = static_cast<Eigen::Index>(dim(inner->left));
        if (b->index == 1)
          wide.head(left) = ct;
        else
          wide.tail(wide.size() - left) = ct;
        go(b->kids[0], inner, wide);
        return;
      }
    case Kind::pair: {
      const Eigen::Index left = static_cast<Eigen::Index>(dim(tau->left));
      go(b->kids[0], tau->left, ct.head(left));
      go(b->kids[1], tau->right, ct.tail(ct.size() - left));
      return;
    }
    case Kind::sum:
      for (const Term& k : b->kids) {
        go(k, tau, ct);
        if (rules_.is("combine-drops-summand")) return; // MUTANT: only the first summand
      }
      return;
    case Kind::app: { // (𝒥f̲·B₁) r̲ : T(B₁, dom f, 𝒥(f)(r)ᵀ ct)
      const Term& j = b->kids[0];
      std::vector<double> r;
      flatten_numerals(b->kids[1], r);
      const Eigen::MatrixXd jm = prim_jacobian(j->name, r);
      Eigen::VectorXd next = jm.transpose() * ct;
      if (rules_.is("smooth-pullback-uses-J-not-JT") && jm.rows() == jm.cols())
        next = jm * ct; // MUTANT: J instead of Jᵀ
      go(j->kids[0], j->type->left, next);
      return;
    }
    default:
      throw AdsemError(ErrorKind::eval, "rule 5+: not in Lin_v");
    }
  }
  const Eigen::VectorXd& result() const { return acc_; }

private:
  std::string v_;
  Type sigma_;
  const Rules& rules_;
  Eigen::VectorXd acc_;
};

} // namespace

std::optional<Term> Machine::combine_dual(const Term& t, std::string& rule) {
  const std::string& v = t->name;
  const Type& sigma = t->type;
  const Term& body = t->kids[0];
  const Term& fun = t->kids[1];
  if (fun->kind == Kind::zero) { // (Z5) (λx.V)*·0 → 0
    rule = "Z5";
    return zero(dual(sigma));
  }
  if (body->kind == Kind::zero) { // (Z6) (λx.0)*·V → 0
    rule = "Z6";
    return zero(dual(sigma));
  }
  if (fun->kind == Kind::sum) { // (Σ3)
    rule = "Sigma3";
    std::vector<Term> items;
    for (const Term& k : fun->kids)
      items.push_back(dualmap(v, sigma, body, k));
    return sum(items);
  }
  if (fun->kind == Kind::covec && is_euclidean(sigma) && is_euclidean(fun->type)) {
    // (5) (λv.(𝒥f̲·v) r̲)*·r̲'*  — the special case of 5⁺ with B's direction the variable itself
    const bool five = body->kind == Kind::app && body->kids[0]->kind == Kind::jac &&
                      body->kids[0]->kids[0]->kind == Kind::var &&
                      body->kids[0]->kids[0]->name == v && is_numeral_tuple(body->kids[1]);
    const auto fv = free_vars(body);
    const bool plus = !rules_.is("paper-literal-rule-5-only") && in_lin_v(body, v) &&
                      (fv.empty() || (fv.size() == 1 && fv.count(v))) &&
                      dim(fun->type) == fun->vec.size();
    if (five || plus) {
      rule = five ? rule::vjp : rule::vjp_plus;
      Transposer tr(v, sigma, rules_);
      const Eigen::VectorXd ct = Eigen::Map<const Eigen::VectorXd>(
          fun->vec.data(), static_cast<Eigen::Index>(fun->vec.size()));
      tr.go(body, fun->type, ct);
      const Eigen::VectorXd& c = tr.result();
      return covec(std::vector<double>(c.data(), c.data() + c.size()), sigma);
    }
  }
  if (fun->kind == Kind::dualmap) { // (6) (λv₁.V₁)*·((λv₂.V₂)*·V₃) → (λv₁.V₂[V₁/v₂])*·V₃
    rule = rule::compose;
    return dualmap(v, sigma, substitute(fun->kids[0], fun->name, body), fun->kids[1]);
  }
  return std::nullopt;
}

} // namespace adsem::pullback
