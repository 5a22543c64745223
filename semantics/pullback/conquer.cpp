// Conquer: the pullback along an elementary term, rows 9-20 of seed 000 Fig. 3 (L240-248; prose
// L263-339; soundness proofs App. E L980-1158; spec §4.4), and the premises JAC / JAC1 (spec §4.5,
// the garbled meta-rule L377-379: a generic fresh 1-form ω', instantiated afterwards).
// Every result has the shape (λv.S)*·(ω W), λv.S the Jacobian of λy.E at V, W = E[V/y] (Remark
// 3.5, L275).
#include "semantics/pullback/conquer.hpp"

#include "semantics/pullback/anf.hpp"
#include "semantics/pullback/strategy.hpp"
#include "syntax/pullback/substitution.hpp"

namespace adsem::pullback {

namespace {

std::string fresh_for(const std::string& base, std::initializer_list<const Term*> terms) {
  return fresh_name_free_in(base, terms);
}

bool is_closed(const Term& t) {
  if (t->kind == Kind::var) return false;
  const NodeFacts& f = facts(t);
  return !f.many && f.free.empty();
}

} // namespace

bool is_y_atom(const Term& a, const std::string& y) {
  return is_atom(a) && same_name(atom_root(a), y);
}

std::optional<Term> Machine::jac_premise(const std::string& y, const Type& sigma, const Term& m,
                                         const Term& v_value, const std::string& v) {
  // JAC(y, M, V): normalise ((Ω λy.M)·ω') V with ω' fresh, read S off (λu.S)*·(ω' W).
  std::string om = fresh_for("om", {&m, &v_value});
  // Observed premises are stepped as one term (their observers see every step, in place).
  const Term n =
      observer_
          ? normalise_premise(app(pullback(y, sigma, m, var(om, one_form(type_of(m)))), v_value))
          : normalise_premise(app(unfolded_premise(y, sigma, m, om, v_value), v_value));
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

// The normal form of (Ω λy.M)·ω', ω' named om, as the run of ((Ω λy.M)·ω') V reaches it before
// it reads V (call by value, left to right). Taken from unfoldings_ where M's was made before
// and the replay is exactly that run's effect: nothing else ran inside it (no premise, no row),
// its steps fit the fuel left, and its ω' is not free in V (om is then set to it). The names it
// drew are taken from the counter again, so every later name is the one the run would leave
// (with one caveat: a candidate that a term already uses is skipped, so a run could draw one
// more; and campaigns running trials on several threads share the counter).
Term Machine::unfolded_premise(const std::string& y, const Type& sigma, const Term& m,
                               std::string& om, const Term& v_value) {
  const Unfolding* known = unfoldings_.find(m);
  if (known && known->y == y && known->sigma == sigma &&
      premise_depth_ < options_.max_premise_depth && fuel_used_ + known->steps <= options_.fuel &&
      !occurs_free(known->om, v_value)) {
    for (const auto& [rule, firings] : known->fired)
      fired_[rule] += firings;
    fuel_used_ += known->steps;
    skip_fresh_candidates(known->names);
    om = known->om;
    return known->unfolded;
  }
  const bool remembered = known != nullptr; // (another y, or too little fuel left): kept
  const std::vector<long> fired_before = fired_;
  const long fuel_before = fuel_used_;
  const long names_before = fresh_candidates_drawn();
  const long runs_before = premise_runs_;
  const long impure_before = impure_attempts_;
  Term unfolded = normalise_premise(pullback(y, sigma, m, var(om, one_form(type_of(m)))));
  if (remembered || premise_runs_ != runs_before + 1 || impure_attempts_ != impure_before)
    return unfolded;
  Unfolding entry{y,
                  sigma,
                  om,
                  unfolded,
                  {},
                  fuel_used_ - fuel_before,
                  fresh_candidates_drawn() - names_before};
  for (std::size_t i = 0; i < fired_.size(); ++i)
    if (fired_[i] != fired_before[i]) entry.fired.emplace_back(i, fired_[i] - fired_before[i]);
  unfoldings_.insert(m, std::move(entry));
  return unfolded;
}

std::optional<std::pair<std::string, Term>>
Machine::jac1_premise(const std::string& y, const Type& sigma, const Term& e, const Term& v_value) {
  // JAC1 (20a only): ONE row of §4.4, never a normalisation (spec §4.5, P19).
  const std::string om = fresh_for("om", {&e, &v_value});
  const Term omega = var(om, one_form(type_of(e)));
  Pullback::Redex row{e, e, false, y, sigma, omega, v_value};
  row.direction_only = true;
  auto r = fire_row(row);
  if (!r) return std::nullopt;
  count(r->rule);
  if (r->contractum->kind == Kind::app) { // row 17 rewrote E into a λ: then its row (18) once
    const Term unfolded = r->contractum->kids[0]->kids[0];
    Pullback::Redex next{unfolded, unfolded, false, y, sigma, omega, v_value};
    next.direction_only = true;
    r = fire_row(next);
    if (!r) return std::nullopt;
    count(r->rule);
  }
  const Term& d = r->contractum;
  if (d->kind != Kind::dualmap) return std::nullopt;
  return std::make_pair(d->name, d->kids[0]);
}

// The premises of rows 9-20 on ((Ω λy:σ.B)·ω) V, in the order the rows take them: the tangent
// variable v, then the premise of the row whose shape B has (none for rows 9-15, 16a, 19a, 20b).
// False when a premise FAILs: no row applies (stuck).
bool Machine::derive_premises(Pullback::Redex& r) {
  const std::string& y = r.y;
  const Term& e = r.e;
  if (r.stage) {
    if (!occurs_free(y, e)) { // 20b
      r.v = fresh_for("v", {&e, &r.omega});
      return true;
    }
    auto s = jac1_premise(y, r.sigma, e, r.v_value); // 20a
    if (!s) return false;
    r.v = std::move(s->first);
    r.premise = std::move(s->second);
    return true;
  }
  r.v = fresh_for("v", {&e, &r.omega, &r.v_value});
  if (!occurs_free(y, e)) return true; // row 9
  switch (e->kind) {
  case Kind::dualmap: { // 16b, 16c: JAC on the λ's body, x stays free
    r.forward = substitute(e->kids[0], y, r.v_value);
    if (e->name == y || !occurs_free(y, e->kids[0])) return true; // 16a
    r.premise = jac_premise(y, r.sigma, e->kids[0], r.v_value, r.v);
    return r.premise.has_value();
  }
  case Kind::pullback: { // 17: unfold at a symbolic point b (ID-11)
    const Term& a = e->kids[1];
    if (!is_atom(a)) return true;
    const Type kappa = e->type;
    const std::string b = fresh_for("b", {&e, &r.omega, &r.v_value});
    const Term n = normalise_premise(app(e, var(b, kappa)));
    Term unfolded;
    if (n->kind == Kind::zero) {
      unfolded = zero(dual(kappa));
    } else if (n->kind == Kind::dualmap && n->kids[1]->kind == Kind::app &&
               alpha_equal(n->kids[1]->kids[0], a)) {
      const Term lx = substitute(e->kids[0], e->name, var(b, kappa));
      unfolded = dualmap(n->name, n->type, n->kids[0], app(a, lx));
    } else {
      return false;
    }
    r.premise = lam(b, kappa, unfolded); // as the paper prints it: row 17 A-normalises the body
    return true;
  }
  case Kind::lam: // 18: JAC on the body, x free, x ∉ FV(V)
    r.premise = jac_premise(y, r.sigma, e->kids[0], r.v_value, r.v);
    return r.premise.has_value();
  case Kind::app: { // 19b, 19c: JAC on V_p's λ at V_p'
    const Term& a1 = e->kids[0];
    const Term& a2 = e->kids[1];
    if (!is_y_atom(a1, y) || !occurs_free(y, a2) || !is_y_atom(a2, y)) return true;
    const Term f = meta_project(r.v_value, a1);
    if (f->kind != Kind::lam) return true; // stuck-2 ("value 2")
    const Term arg = meta_project(r.v_value, a2);
    const Term tv = var(r.v, r.sigma);
    r.v2 = fresh_for("v", {&f, &arg, &tv});
    r.premise = jac_premise(f->name, f->type, f->kids[0], arg, r.v2);
    return r.premise.has_value();
  }
  default:
    return true;
  }
}

// Where a premise FAILs no row of the paper applies (stuck), but an entry of kind `user` (a
// user's rule, which takes no premise) is still offered at the position.
std::optional<Machine::Found> Machine::fire_row(Pullback::Redex& r) {
  const bool premises = derive_premises(r);
  const Rule<Pullback>* rule = premises ? select<Pullback>(r) : nullptr;
  if (!premises)
    for (const Rule<Pullback>* candidate : rules_.book->candidates<Pullback>(Pullback::kind(r)))
      if (candidate->info.kind == RuleKind::user &&
          (!candidate->match || candidate->match(*this, r))) {
        rule = candidate;
        break;
      }
  if (!rule) return std::nullopt;
  Found found{rule->info.position, rule->result(*this, r, rule->info)};
  if (row_observer_) row_observer_(rule->info, r, found.contractum);
  return found;
}

namespace rules {

namespace {

// v_p: the tangent variable along a's path; V_p: the point along it.
Term vp(const Pullback::Redex& r, const Term& a) {
  return path_atom(var(r.v, r.sigma), a);
}
Term Vp(const Pullback::Redex& r, const Term& a) {
  return meta_project(r.v_value, a);
}

// the dual map (λv.S)*·(ω W), W made by w(). [perf] Where the premise JAC1 asks for the row
// (direction_only), the result is (λv.S)*·ω without W: JAC1 (20a, spec §4.5) reads only v and S,
// and W with its application to ω was about half the nodes of rows 13c and 15 at every stage.
template <class MakeW> Term at(const Pullback::Redex& r, Term s, const MakeW& w) {
  if (r.direction_only) return dualmap(r.v, r.sigma, std::move(s), r.omega);
  return dualmap(r.v, r.sigma, std::move(s), app(r.omega, w()));
}

} // namespace

// (9) y ∉ FV(E): 0 (L241, L279)
Term row_9(Machine&, const Pullback::Redex& r, const RuleInfo&) {
  return zero(dual(r.sigma));
}

// (10a) y_p + A, y ∉ FV(A) (+ is AC)
Term row_10a(Machine&, const Pullback::Redex& r, const RuleInfo&) {
  const Term& a1 = r.e->kids[0];
  const Term& a2 = r.e->kids[1];
  if (is_y_atom(a1, r.y)) return at(r, vp(r, a1), [&] { return sum({Vp(r, a1), a2}); });
  return at(r, vp(r, a2), [&] { return sum({a1, Vp(r, a2)}); });
}

// (10b) y_p + y_q
Term row_10b(Machine&, const Pullback::Redex& r, const RuleInfo&) {
  const Term& a1 = r.e->kids[0];
  const Term& a2 = r.e->kids[1];
  return at(r, sum({vp(r, a1), vp(r, a2)}), [&] { return sum({Vp(r, a1), Vp(r, a2)}); });
}

// (11) y
Term row_11(Machine&, const Pullback::Redex& r, const RuleInfo&) {
  return at(r, var(r.v, r.sigma), [&] { return r.v_value; });
}

// (12) y_p
Term row_12(Machine&, const Pullback::Redex& r, const RuleInfo&) {
  return at(r, vp(r, r.e), [&] { return Vp(r, r.e); });
}

// (13a) ⟨y_p, A⟩, y ∉ FV(A)
Term row_13a(Machine&, const Pullback::Redex& r, const RuleInfo&) {
  const Term& a1 = r.e->kids[0];
  const Term& a2 = r.e->kids[1];
  return at(r, pair(vp(r, a1), zero(type_of(a2))), [&] { return pair(Vp(r, a1), a2); });
}

// (13b) ⟨A, y_p⟩, y ∉ FV(A)
Term row_13b(Machine&, const Pullback::Redex& r, const RuleInfo&) {
  const Term& a1 = r.e->kids[0];
  const Term& a2 = r.e->kids[1];
  return at(r, pair(zero(type_of(a1)), vp(r, a2)), [&] { return pair(a1, Vp(r, a2)); });
}

// (13c) ⟨y_p, y_q⟩
Term row_13c(Machine&, const Pullback::Redex& r, const RuleInfo&) {
  const Term& a1 = r.e->kids[0];
  const Term& a2 = r.e->kids[1];
  return at(r, pair(vp(r, a1), vp(r, a2)), [&] { return pair(Vp(r, a1), Vp(r, a2)); });
}

// (14) 𝒥f̲·y_p
Term row_14(Machine&, const Pullback::Redex& r, const RuleInfo&) {
  const Term& e = r.e;
  return at(r, jac(e->name, e->type, vp(r, e->kids[0])),
            [&] { return jac(e->name, e->type, Vp(r, e->kids[0])); });
}

// (15) f̲(y_p): direction v_p, point V_p
Term row_15(Machine&, const Pullback::Redex& r, const RuleInfo&) {
  const Term& e = r.e;
  const Term& a = e->kids[0];
  return at(r, app(jac(e->name, e->type, vp(r, a)), Vp(r, a)),
            [&] { return prim(e->name, e->type, Vp(r, a)); });
}

// (16a) (λx.S)*·y_p, y ∉ FV(λx.S)
Term row_16a(Machine&, const Pullback::Redex& r, const RuleInfo&) {
  const Term& e = r.e;
  const Term& a = e->kids[1];
  return at(r, dualmap(e->name, e->type, e->kids[0], vp(r, a)),
            [&] { return dualmap(e->name, e->type, e->kids[0], Vp(r, a)); });
}

// (16b) (λx.S)*·A, y ∉ FV(A); S' := JAC(y, S, V)
Term row_16b(Machine&, const Pullback::Redex& r, const RuleInfo&) {
  const Term& e = r.e;
  const Term& a = e->kids[1];
  return at(r, dualmap(e->name, e->type, *r.premise, a),
            [&] { return dualmap(e->name, e->type, *r.forward, a); });
}

// (16c) (λx.S)*·y_p: the Jacobian of a bilinear map (L303)
Term row_16c(Machine&, const Pullback::Redex& r, const RuleInfo&) {
  const Term& e = r.e;
  const Term& a = e->kids[1];
  return at(r,
            sum({dualmap(e->name, e->type, *r.forward, vp(r, a)),
                 dualmap(e->name, e->type, *r.premise, Vp(r, a))}),
            [&] { return dualmap(e->name, e->type, *r.forward, Vp(r, a)); });
}

// (17) (Ω λx.L)·A: E unfolded at a symbolic point b into λb.(λu.S)*·(A L[b/x]) (L245), whose
// body is not elementary: A-normalised into a let series (ID-11, erratum 12); then row 18
Term row_17(Machine&, const Pullback::Redex& r, const RuleInfo&) {
  const Term& unfolded = *r.premise;
  return app(
      pullback(r.y, r.sigma, lam(unfolded->name, unfolded->type, anf(unfolded->kids[0])), r.omega),
      r.v_value);
}

// (18) λx.S, D-curry (L309-313); S' := JAC(y, S, V)
Term row_18(Machine&, const Pullback::Redex& r, const RuleInfo&) {
  const Term& e = r.e;
  const auto forward = [&] {
    return lam(e->name, e->type, substitute(e->kids[0], r.y, r.v_value));
  };
  // S[V/y] α-renames a binder, drawing a fresh name, only if V has a free variable: then it is
  // made even where W is not wanted, so that every later fresh name is the one the full row draws.
  if (r.direction_only && !is_closed(r.v_value)) forward();
  return at(r, lam(e->name, e->type, *r.premise), forward);
}

// (19a) y_p A, y ∉ FV(A), D-eval (L319-325)
Term row_19a(Machine&, const Pullback::Redex& r, const RuleInfo&) {
  const Term& a1 = r.e->kids[0];
  const Term& a2 = r.e->kids[1];
  return at(r, app(vp(r, a1), a2), [&] { return app(Vp(r, a1), a2); });
}

// (19b) y_p y_q, V_p = λz.M; S := JAC(z, M, V_q)
Term row_19b(Machine&, const Pullback::Redex& r, const RuleInfo&) {
  const Term& a1 = r.e->kids[0];
  const Term& a2 = r.e->kids[1];
  const Term arg = Vp(r, a2);
  return at(r, sum({app(vp(r, a1), arg), substitute(*r.premise, r.v2, vp(r, a2))}),
            [&] { return app(Vp(r, a1), arg); });
}

// (19c) y_p y_q, V_p = λz.M, JAC(z, M, V_q) → 0
Term row_19c(Machine&, const Pullback::Redex& r, const RuleInfo&) {
  const Term& a1 = r.e->kids[0];
  const Term arg = Vp(r, r.e->kids[1]);
  return at(r, app(vp(r, a1), arg), [&] { return app(Vp(r, a1), arg); });
}

// (20a) ⟨y, E⟩; S := JAC1(y, E, V) → (λv.⟨v,S⟩)*·(ω⟨V,E[V/y]⟩)
Term row_20a(Machine& m, const Pullback::Redex& r, const RuleInfo&) {
  return at(r, pair(var(r.v, r.sigma), *r.premise), [&] {
    // [perf] E is the rest rule 8 built in ⟨y,E⟩, held by that pair alone, the pair by the
    // pullback and that by the redex, which the run drops for the contractum: E's nodes are
    // then edited in place instead of copied (substitute_in_place; the same term).
    if (r.node != nullptr) {
      const Term& f = (*r.node)->kids[0];
      if (f.use_count() == 1 && r.body.use_count() == 1 && !f->keyed_mark.get() &&
          !r.body->keyed_mark.get() && m.holds_alone(*r.node))
        return pair(r.v_value, substitute_in_place(r.e, r.y, r.v_value));
    }
    return pair(r.v_value, substitute(r.e, r.y, r.v_value));
  });
}

// (20b) ⟨y, E⟩, y ∉ FV(E) → (λv.⟨v,0⟩)*·(ω⟨V,E⟩)
Term row_20b(Machine&, const Pullback::Redex& r, const RuleInfo&) {
  return at(r, pair(var(r.v, r.sigma), zero(type_of(r.e))), [&] { return pair(r.v_value, r.e); });
}

} // namespace rules

} // namespace adsem::pullback
