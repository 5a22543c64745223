#include "semantics/delta_reverse/translate.hpp"

#include <functional>

#include "semantics/delta_reverse/derivative_rules.hpp"
#include "syntax/core/depth_guard.hpp"
#include "syntax/delta_reverse/signature.hpp"

namespace adsem::delta_reverse {

namespace {

using TK = TypeNode::Kind;

// The tangent type of R under each translation.
Type tangent_of(Translation t) {
  switch (t) {
  case Translation::dfwd:
    return real_type();
  case Translation::drev1:
    return dense_type();
  case Translation::drev2:
    return delta2_type();
  case Translation::drev:
    return delta_type();
  }
  return real_type();
}

Term zero_tangent(Translation t) {
  switch (t) {
  case Translation::dfwd:
    return real(0.0);
  case Translation::drev1:
    return node(Form::s_zero, {});
  case Translation::drev2:
    return node(Form::d2_zero, {});
  case Translation::drev:
    return node(Form::d_zero, {});
  }
  return real(0.0);
}

// Σ_j ∂_j f × dx_j in the translation's tangent algebra (right-nested), Fig. 3/5/7/9/14.
Term tangent_sum(Translation t, const DerivativeRule& rule, const Variant& variant,
                 const std::vector<Term>& tangents) {
  std::vector<Term> terms;
  for (std::size_t j = 0; j < rule.arity; ++j) {
    std::size_t k = j;
    if (variant.partials_swapped && rule.name == "mulR") k = rule.arity - 1 - j; // mutant
    if (partial_is_one(rule, k)) {
      terms.push_back(tangents[j]);
      continue;
    }
    const Term df = partial_term(rule, k);
    switch (t) {
    case Translation::dfwd:
      terms.push_back(call("mulR", df, tangents[j]));
      break;
    case Translation::drev1:
      terms.push_back(node(Form::s_otimes, {df, tangents[j]}));
      break;
    case Translation::drev2:
      terms.push_back(node(Form::d2_scale, {df, tangents[j]}));
      break;
    case Translation::drev:
      terms.push_back(node(Form::d_scale, {df, tangents[j]}));
      break;
    }
  }
  if (terms.empty()) return zero_tangent(t);
  Term out = terms.back();
  for (std::size_t j = terms.size() - 1; j-- > 0;) {
    switch (t) {
    case Translation::dfwd:
      out = call("addR", terms[j], out);
      break;
    case Translation::drev1:
      out = node(Form::s_oplus, {terms[j], out});
      break;
    case Translation::drev2:
      out = node(Form::d2_add, {terms[j], out});
      break;
    case Translation::drev:
      out = node(Form::d_add, {terms[j], out});
      break;
    }
  }
  return out;
}

// λ(p : dual^n). let x_j = ..., dx_j = ... in body(x, dx): linear destructuring (spec §2.2).
Term dual_lambda(
    Translation t, std::size_t arity,
    const std::function<Term(const std::vector<Term>&, const std::vector<Term>&)>& body) {
  const Type dual = product_type(real_type(), tangent_of(t));
  std::vector<Term> xs, dxs;
  for (std::size_t j = 1; j <= arity; ++j) {
    xs.push_back(var("x" + std::to_string(j)));
    dxs.push_back(var("dx" + std::to_string(j)));
  }
  Term inner = body(xs, dxs);
  if (arity == 1) return lam("p", dual, let("x1", fst(var("p")), let("dx1", snd(var("p")), inner)));
  // arity 2: p : dual * dual
  inner = let("a2", snd(var("p")), let("x2", fst(var("a2")), let("dx2", snd(var("a2")), inner)));
  inner = let("a1", fst(var("p")), let("x1", fst(var("a1")), let("dx1", snd(var("a1")), inner)));
  return lam("p", product_type(dual, dual), inner);
}

Term primal_call(const std::string& op, const std::vector<Term>& xs) {
  return xs.size() == 1 ? call(op, xs[0]) : call(op, xs[0], xs[1]);
}

// The translation of a primitive constant op (Fig. 3, 5, 7, 9, 14; leaves unchanged, L226-227,
// L476-477).
Term translate_prim(Translation t, const std::string& op, const Variant& variant) {
  const bool monadic = t == Translation::drev;
  if (const DerivativeRule* rule = find_derivative_rule(op)) {
    if (rule->arity > 2) throw AdsemError(ErrorKind::usage, op + ": arity above 2 unsupported");
    const Term f = dual_lambda(t, rule->arity, [&](const auto& xs, const auto& dxs) -> Term {
      const Term primal = primal_call(op, xs);
      const Term rhs = tangent_sum(t, *rule, variant, dxs);
      if (!monadic) return pair(primal, rhs);
      // Fig. 9 / Fig. 14: do { d <- deltaLet rhs; pure (f x, Var d) }
      const Term delta = variant.literal_fig14_pure_dy ? var("d") : node(Form::d_var, {var("d")});
      return do_bind("d", delta_let(rhs), pure(pair(primal, delta)));
    });
    return monadic ? pure(f) : f; // Drev{op} = pure (λ...) (Fig. 9)
  }
  if (op == "fromInt") { // leaf -> real: the result carries a zero tangent, no binding
    const Term body = pair(call(op, var("n")), zero_tangent(t));
    return monadic ? pure(lam("n", int_type(), pure(body))) : lam("n", int_type(), body);
  }
  if (op == "ltR") { // real -> leaf: the tangents are dropped (not in the paper, spec §7.3)
    const Type dual = product_type(real_type(), tangent_of(t));
    const Term body = call(op, fst(fst(var("p"))), fst(snd(var("p"))));
    const Type a = product_type(dual, dual);
    return monadic ? pure(lam("p", a, pure(body))) : lam("p", a, body);
  }
  // leaf primitives: unchanged; Drev{op} = pure (λz. pure (op z)) (Fig. 9, L476-477)
  if (!monadic) return prim(op);
  const Type a = prim_type(op)->left;
  return pure(lam("z", a, pure(app(prim(op), var("z")))));
}

class Translator {
public:
  Translator(Translation t, const Term& e, const Variant& v) : t_(t), variant_(v) {
    std::vector<std::string> names = {"p", "x1", "x2", "dx1", "dx2", "a1", "a2", "d", "n", "z"};
    collect_names(e, names);
    fresh_ = FreshNames(std::move(names));
  }

  Type type(const Type& a) {
    switch (a->kind) {
    case TK::real:
      return product_type(real_type(), tangent_of(t_));
    case TK::integer:
      return a; // Dfwd{L} = L (L203); Drev{L} = L [reconstructed] (spec §11 item 2)
    case TK::product:
      return product_type(type(a->left), type(a->right));
    case TK::sum:
      return sum_type(type(a->left), type(a->right));
    case TK::arrow:
      return t_ == Translation::drev ? arrow_type(type(a->left), monad_type(type(a->right)))
                                     : arrow_type(type(a->left), type(a->right));
    default:
      throw AdsemError(ErrorKind::usage,
                       std::string(translation_name(t_)) +
                           " applies to source types only (no nested reverse mode, L872-878)");
    }
  }

  Term term(const Term& e) {
    const DepthGuard guard(depth_, e->pos);
    return t_ == Translation::drev ? monadic(e) : homomorphic(e);
  }

private:
  // Dfwd / Drev1 / Drev2: homomorphic except literals, primitives and binder types (Fig. 3).
  Term homomorphic(const Term& e) {
    const Node& n = *e;
    switch (n.form) {
    case Form::var:
    case Form::integer:
      return e;
    case Form::lam:
      return lam(n.name, type(n.type), term(n.kids[0]), n.pos);
    case Form::app:
      return app(term(n.kids[0]), term(n.kids[1]), n.pos);
    case Form::let:
      return let(n.name, term(n.kids[0]), term(n.kids[1]), n.pos);
    case Form::pair:
      return pair(term(n.kids[0]), term(n.kids[1]), n.pos);
    case Form::fst:
      return fst(term(n.kids[0]), n.pos);
    case Form::snd:
      return snd(term(n.kids[0]), n.pos);
    case Form::inl:
      return inl(type(n.type), term(n.kids[0]), n.pos);
    case Form::inr:
      return inr(type(n.type), term(n.kids[0]), n.pos);
    case Form::case_:
      return case_of(term(n.kids[0]), n.name, term(n.kids[1]), n.name2, term(n.kids[2]), n.pos);
    case Form::real:
      return pair(e, zero_tangent(t_), n.pos);
    case Form::prim:
      return translate_prim(t_, n.name, variant_);
    default:
      throw not_source(n);
    }
  }

  // Drev (Fig. 9, L438-487).
  Term monadic(const Term& e) {
    const Node& n = *e;
    switch (n.form) {
    case Form::var:     // Drev{x} = pure x
    case Form::integer: // Drev{k} = pure k
      return pure(e, n.pos);
    case Form::lam: // Drev{λx. e} = pure (λx. Drev{e})
      return pure(lam(n.name, type(n.type), term(n.kids[0]), n.pos), n.pos);
    case Form::app: { // do { f <- Drev{e1}; x <- Drev{e2}; f x }
      const std::string f = fresh_("f"), x = fresh_("x");
      Term d1 = term(n.kids[0]);
      Term d2 = term(n.kids[1]);
      return do_bind(f, d1, do_bind(x, d2, app(var(f), var(x), n.pos)), n.pos);
    }
    case Form::let: { // do { x <- Drev{e1}; Drev{e2} }
      Term d1 = term(n.kids[0]);
      return do_bind(n.name, d1, term(n.kids[1]), n.pos);
    }
    case Form::pair: { // do { x <- Drev{e1}; y <- Drev{e2}; pure (x, y) }
      const std::string x = fresh_("x"), y = fresh_("y");
      Term d1 = term(n.kids[0]);
      Term d2 = term(n.kids[1]);
      return do_bind(x, d1, do_bind(y, d2, pure(pair(var(x), var(y)))), n.pos);
    }
    case Form::fst:
    case Form::snd:
    case Form::inl:
    case Form::inr: { // do { x <- Drev{e}; pure (op x) }
      const std::string x = fresh_("x");
      Term d = term(n.kids[0]);
      Term body = n.form == Form::fst   ? fst(var(x))
                  : n.form == Form::snd ? snd(var(x))
                  : n.form == Form::inl ? inl(type(n.type), var(x))
                                        : inr(type(n.type), var(x));
      return do_bind(x, d, pure(body), n.pos);
    }
    case Form::case_: { // do { x <- Drev{e0}; case x of inl x1 -> Drev{e1}, inr x2 -> Drev{e2} }
      const std::string x = fresh_("x");
      Term d0 = term(n.kids[0]);
      Term d1 = term(n.kids[1]);
      Term d2 = term(n.kids[2]);
      return do_bind(x, d0, case_of(var(x), n.name, d1, n.name2, d2, n.pos), n.pos);
    }
    case Form::real: // Drev{r} = pure (r, Zero)
      return pure(pair(e, node(Form::d_zero, {})), n.pos);
    case Form::prim:
      return translate_prim(t_, n.name, variant_);
    default:
      throw not_source(n);
    }
  }

  AdsemError not_source(const Node& n) const {
    return AdsemError(ErrorKind::usage,
                      std::string(translation_name(t_)) +
                          " applies to elaborated source terms only (no target forms, no e.i; "
                          "L872-878)",
                      n.pos);
  }

  Translation t_;
  Variant variant_;
  FreshNames fresh_;
  DepthBudget depth_{DepthBudget::default_limit, 0, ErrorKind::eval};
};

} // namespace

const char* translation_name(Translation t) {
  switch (t) {
  case Translation::dfwd:
    return "Dfwd";
  case Translation::drev1:
    return "Drev1";
  case Translation::drev2:
    return "Drev2";
  case Translation::drev:
    return "Drev";
  }
  return "?";
}

Type translate_type(Translation t, const Type& a) {
  Translator tr(t, real(0.0), {});
  return tr.type(a);
}

Type translated_term_type(Translation t, const Type& a) {
  const Type x = translate_type(t, a);
  return t == Translation::drev ? monad_type(x) : x;
}

Term translate(Translation t, const Term& e, const Variant& variant) {
  Translator tr(t, e, variant);
  return tr.term(e);
}

} // namespace adsem::delta_reverse
