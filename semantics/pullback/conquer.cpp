// Conquer: the pullback along an elementary term, rows 9-20 of seed 000 Fig. 3 (L240-248; prose
// L263-339; soundness proofs App. E L980-1158; spec §4.4), and the premises JAC / JAC1 (spec §4.5,
// the garbled meta-rule L377-379: a generic fresh 1-form ω', instantiated afterwards).
// Every result has the shape (λv.S)*·(ω W), λv.S the Jacobian of λy.E at V, W = E[V/y] (Remark
// 3.5, L275).
#include "semantics/pullback/anf.hpp"
#include "semantics/pullback/strategy.hpp"
#include "syntax/pullback/substitution.hpp"

namespace adsem::pullback {

namespace {

bool is_y_atom(const Term& a, const std::string& y) {
  return is_atom(a) && atom_root(a) == y;
}

std::string fresh_for(const std::string& base, std::initializer_list<const Term*> terms) {
  return fresh_name_free_in(base, terms);
}

} // namespace

std::optional<Term> Machine::jac_premise(const std::string& y, const Type& sigma, const Term& m,
                                         const Term& v_value, const std::string& v) {
  // JAC(y, M, V): normalise ((Ω λy.M)·ω') V with ω' fresh, read S off (λu.S)*·(ω' W).
  const std::string om = fresh_for("om", {&m, &v_value});
  const Term omega = var(om, one_form(type_of(m)));
  const Term n = normalise_premise(app(pullback(y, sigma, m, omega), v_value));
  const auto read = [&](const Term& d) -> std::optional<Term> {
    if (d->kind == Kind::dualmap && d->kids[1]->kind == Kind::app &&
        d->kids[1]->kids[0]->kind == Kind::var && d->kids[1]->kids[0]->name == om)
      return substitute(d->kids[0], d->name, var(v, sigma));
    return std::nullopt;
  };
  const auto seen = [&](Term s) {
    if (jac_observer_) jac_observer_(y, sigma, m, v_value, v, s);
    return s;
  };
  if (n->kind == Kind::zero) return seen(zero(type_of(m))); // e.g. 19c's premise "→ 0" (L247)
  if (auto s = read(n)) return seen(*s);
  if (n->kind == Kind::sum) { // [ID-12]
    std::vector<Term> items;
    for (const Term& k : n->kids) {
      auto s = read(k);
      if (!s) return std::nullopt;
      items.push_back(*s);
    }
    return seen(sum(items));
  }
  return std::nullopt; // FAIL: the outer redex has no rule (stuck)
}

std::optional<std::pair<std::string, Term>>
Machine::jac1_premise(const std::string& y, const Type& sigma, const Term& e, const Term& v_value) {
  // JAC1 (20a only): ONE row of §4.4, never a normalisation (spec §4.5, P19).
  const std::string om = fresh_for("om", {&e, &v_value});
  const Term omega = var(om, one_form(type_of(e)));
  std::string rule;
  auto r = conquer(y, sigma, e, omega, v_value, rule);
  if (!r) return std::nullopt;
  count(rule);
  if (rule == "17") { // row 17 rewrites E into a λ; then row 18 once
    const Term& f = (*r)->kids[0];
    r = conquer(y, sigma, f->kids[0], omega, v_value, rule);
    if (!r) return std::nullopt;
    count(rule);
  }
  const Term& d = *r;
  if (d->kind != Kind::dualmap) return std::nullopt;
  return std::make_pair(d->name, d->kids[0]);
}

std::optional<Term> Machine::split_stage(const std::string& y, const Type& sigma, const Term& e,
                                         const Term& omega, const Term& v_value,
                                         std::string& rule) {
  const Term yv = var(y, sigma);
  if (!occurs_free(y, e)) { // (20b) → (λv.⟨v,0⟩)*·(ω⟨V,E⟩)
    rule = "20b";
    const std::string v = fresh_for("v", {&e, &omega});
    return dualmap(v, sigma, pair(var(v, sigma), zero(type_of(e))), app(omega, pair(v_value, e)));
  }
  // (20a) S := JAC1(y, E, V) → (λv.⟨v,S⟩)*·(ω⟨V,E[V/y]⟩)
  auto s = jac1_premise(y, sigma, e, v_value);
  if (!s) return std::nullopt;
  rule = "20a";
  return dualmap(s->first, sigma, pair(var(s->first, sigma), s->second),
                 app(omega, pair(v_value, substitute(e, y, v_value))));
}

std::optional<Term> Machine::conquer(const std::string& y, const Type& sigma, const Term& e,
                                     const Term& omega, const Term& vv, std::string& rule) {
  const auto at = [&](const Term& body, const Term& forward) {
    return dualmap(body->name, sigma, body->kids[0], app(omega, forward));
  };
  const std::string v = fresh_for("v", {&e, &omega, &vv});
  const Term tv = var(v, sigma);
  // the dual map (λv.S)*·(ω W)
  const auto result = [&](const char* name, Term s, Term w) -> std::optional<Term> {
    rule = name;
    return dualmap(v, sigma, std::move(s), app(omega, std::move(w)));
  };
  (void)at;
  if (!occurs_free(y, e)) { // (9) constant: 0 (L241, L279)
    rule = "9";
    if (rules_.is("constant-pullback-nonzero") && is_euclidean(sigma)) // MUTANT
      return covec(std::vector<double>(dim(sigma), 1.0), sigma);
    return zero(dual(sigma));
  }
  const auto vp = [&](const Term& a) { return path_atom(tv, atom_path(a)); };
  const auto Vp = [&](const Term& a) { return meta_project(vv, atom_path(a)); };
  const auto subst = [&](const Term& t) { return substitute(t, y, vv); };
  switch (e->kind) {
  case Kind::sum: {
    if (e->kids.size() != 2) return std::nullopt;
    const Term& a1 = e->kids[0];
    const Term& a2 = e->kids[1];
    const bool y1 = is_y_atom(a1, y), y2 = is_y_atom(a2, y);
    if (y1 && y2) // (10b)
      return result("10b", sum({vp(a1), vp(a2)}), sum({Vp(a1), Vp(a2)}));
    if (y1 && !occurs_free(y, a2)) // (10a), + is AC
      return result("10a", vp(a1), sum({Vp(a1), a2}));
    if (y2 && !occurs_free(y, a1)) return result("10a", vp(a2), sum({a1, Vp(a2)}));
    return std::nullopt;
  }
  case Kind::var:
  case Kind::proj:
    if (!is_y_atom(e, y)) return std::nullopt;
    if (e->kind == Kind::var) return result("11", tv, vv); // (11)
    return result("12", vp(e), Vp(e));                     // (12)
  case Kind::pair: {
    const Term& a1 = e->kids[0];
    const Term& a2 = e->kids[1];
    const bool y1 = is_y_atom(a1, y), y2 = is_y_atom(a2, y);
    if (y1 && y2) return result("13c", pair(vp(a1), vp(a2)), pair(Vp(a1), Vp(a2)));
    if (y1 && !occurs_free(y, a2))
      return result("13a", pair(vp(a1), zero(type_of(a2))), pair(Vp(a1), a2));
    if (y2 && !occurs_free(y, a1))
      return result("13b", pair(zero(type_of(a1)), vp(a2)), pair(a1, Vp(a2)));
    return std::nullopt;
  }
  case Kind::jac: // (14)
    if (!is_y_atom(e->kids[0], y)) return std::nullopt;
    return result("14", jac(e->name, e->type, vp(e->kids[0])),
                  jac(e->name, e->type, Vp(e->kids[0])));
  case Kind::prim: // (15) direction v_p, point V_p
    if (!is_y_atom(e->kids[0], y)) return std::nullopt;
    return result("15", app(jac(e->name, e->type, vp(e->kids[0])), Vp(e->kids[0])),
                  prim(e->name, e->type, Vp(e->kids[0])));
  case Kind::dualmap: {
    const Term& a = e->kids[1];
    const Term lamx = lam(e->name, e->type, e->kids[0]);
    const bool y_in_lam = occurs_free(y, lamx);
    const Term fwd_lam_body = subst(e->kids[0]);
    if (!y_in_lam && is_y_atom(a, y)) // (16a)
      return result("16a", dualmap(e->name, e->type, e->kids[0], vp(a)),
                    dualmap(e->name, e->type, e->kids[0], Vp(a)));
    if (!y_in_lam) return std::nullopt;
    auto s = jac_premise(y, sigma, e->kids[0], vv, v); // x stays free
    if (!s) return std::nullopt;
    if (!occurs_free(y, a)) // (16b)
      return result("16b", dualmap(e->name, e->type, *s, a),
                    dualmap(e->name, e->type, fwd_lam_body, a));
    if (!is_y_atom(a, y)) return std::nullopt;
    return result(
        "16c", // (16c) Jacobian of a bilinear map (L303)
        sum({dualmap(e->name, e->type, fwd_lam_body, vp(a)), dualmap(e->name, e->type, *s, Vp(a))}),
        dualmap(e->name, e->type, fwd_lam_body, Vp(a)));
  }
  case Kind::pullback: { // (17): unfold at a symbolic point b, then row 18 (ID-11)
    const Term& a = e->kids[1];
    if (!is_atom(a)) return std::nullopt;
    const Type kappa = e->type;
    const std::string b = fresh_for("b", {&e, &omega, &vv});
    const Term n = normalise_premise(app(e, var(b, kappa)));
    Term unfolded;
    if (n->kind == Kind::zero) {
      unfolded = zero(dual(kappa));
    } else if (n->kind == Kind::dualmap && n->kids[1]->kind == Kind::app &&
               alpha_equal(n->kids[1]->kids[0], a)) {
      const Term lx = substitute(e->kids[0], e->name, var(b, kappa));
      unfolded = dualmap(n->name, n->type, n->kids[0], app(a, lx));
    } else {
      return std::nullopt;
    }
    rule = "17";
    const Term e2 = lam(b, kappa, anf(unfolded));
    return app(pullback(y, sigma, e2, omega), vv);
  }
  case Kind::lam: {                                    // (18) D-curry (L309-313)
    auto s = jac_premise(y, sigma, e->kids[0], vv, v); // x free, x ∉ FV(V)
    if (!s) return std::nullopt;
    return result("18", lam(e->name, e->type, *s), lam(e->name, e->type, subst(e->kids[0])));
  }
  case Kind::app: { // (19) D-eval (L319-325)
    const Term& a1 = e->kids[0];
    const Term& a2 = e->kids[1];
    if (!is_y_atom(a1, y)) return std::nullopt; // stuck-1: a foreign function ("value 1")
    if (!occurs_free(y, a2))                    // (19a)
      return result("19a", app(vp(a1), a2), app(Vp(a1), a2));
    if (!is_y_atom(a2, y)) return std::nullopt;
    const Term f = Vp(a1);
    if (f->kind != Kind::lam) return std::nullopt; // stuck-2 ("value 2")
    const Term arg = Vp(a2);
    const std::string v2 = fresh_for("v", {&f, &arg, &tv});
    auto s2 = jac_premise(f->name, f->type, f->kids[0], arg, v2);
    if (!s2) return std::nullopt;
    if ((*s2)->kind == Kind::zero) // (19c)
      return result("19c", app(vp(a1), arg), app(f, arg));
    return result("19b", sum({app(vp(a1), arg), substitute(*s2, v2, vp(a2))}), app(f, arg));
  }
  default:
    return std::nullopt;
  }
}

} // namespace adsem::pullback
