#include "semantics/delta_reverse/translate.hpp"

#include "syntax/core/deep_walk.hpp"
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
    return node(Kind::s_zero, {});
  case Translation::drev2:
    return node(Kind::d2_zero, {});
  case Translation::drev:
    return node(Kind::d_zero, {});
  }
  return real(0.0);
}

// Σ_j ∂_j f × dx_j in the translation's tangent algebra (right-nested), Fig. 3/5/7/9/14.
Term tangent_sum(Translation t, const DerivativeRule& rule, const std::vector<Term>& tangents) {
  std::vector<Term> terms;
  for (std::size_t j = 0; j < rule.arity; ++j) {
    if (partial_is_one(rule, j)) {
      terms.push_back(tangents[j]);
      continue;
    }
    const Term df = partial_term(rule, j);
    switch (t) {
    case Translation::dfwd:
      terms.push_back(call("mulR", df, tangents[j]));
      break;
    case Translation::drev1:
      terms.push_back(node(Kind::s_otimes, {df, tangents[j]}));
      break;
    case Translation::drev2:
      terms.push_back(node(Kind::d2_scale, {df, tangents[j]}));
      break;
    case Translation::drev:
      terms.push_back(node(Kind::d_scale, {df, tangents[j]}));
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
      out = node(Kind::s_oplus, {terms[j], out});
      break;
    case Translation::drev2:
      out = node(Kind::d2_add, {terms[j], out});
      break;
    case Translation::drev:
      out = node(Kind::d_add, {terms[j], out});
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
Term translate_prim(Translation t, const std::string& op, const clauses::Primitive& how) {
  const bool monadic = t == Translation::drev;
  if (const DerivativeRule* rule = how.derivative(op)) {
    if (rule->arity > 2) throw AdsemError(ErrorKind::usage, op + ": arity above 2 unsupported");
    const Term f = dual_lambda(t, rule->arity, [&](const auto& xs, const auto& dxs) -> Term {
      const Term primal = primal_call(op, xs);
      const Term rhs = tangent_sum(t, *rule, dxs);
      if (!monadic) return pair(primal, rhs);
      // Fig. 9 / Fig. 14: do { d <- deltaLet rhs; pure (f x, Var d) }
      return do_bind("d", delta_let(rhs), pure(pair(primal, how.result_delta(var("d")))));
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

AdsemError not_source(Translation t, const Node& n) {
  return AdsemError(ErrorKind::usage,
                    std::string(translation_name(t)) +
                        " applies to elaborated source terms only (no target forms, no e.i; "
                        "L872-878)",
                    n.pos);
}

} // namespace

Translator::Translator(Translation t, const Term& e, const Rules& rules, RuleCounter* coverage)
    : t_(t), rules_(rules), coverage_(coverage) {
  if (coverage_) fired_.assign(rules_.size(), 0);
  std::vector<std::string> names = {"p", "x1", "x2", "dx1", "dx2", "a1", "a2", "d", "n", "z"};
  collect_names(e, names);
  fresh_ = FreshNames(std::move(names));
}

Translator::~Translator() {
  if (!coverage_) return;
  try {
    for (std::size_t i = 0; i < fired_.size(); ++i)
      if (fired_[i] > 0) coverage_->add(rules_.info(i).name, fired_[i]);
  } catch (...) { // out of memory while counting: the coverage misses this walk's firings
  }
}

Type Translator::type(const Type& a) {
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
  case TK::vector: // Dfwd{Vector A} = Vector Dfwd{A}; Drev{Vector A} = Vector Drev{A} (§10.2)
    return vector_type(type(a->left));
  default:
    throw AdsemError(ErrorKind::usage,
                     std::string(translation_name(t_)) +
                         " applies to source types only (no nested reverse mode, L872-878)");
  }
}

template <class R> Term Translator::walk(const Term& e) {
  const typename R::Redex redex{e};
  const adsem::Rule<R>* clause = rules_.select<R>(*this, redex);
  if (clause == nullptr) throw not_source(t_, *e);
  if (coverage_) ++fired_[clause->info.position];
  return clause->result(*this, redex, clause->info);
}

Term Translator::term(const Term& e) {
  return deeper(depth_, [&] { return term_here(e); });
}

Term Translator::term_here(const Term& e) {
  const DepthGuard guard(depth_, e->pos);
  switch (t_) {
  case Translation::dfwd:
    return walk<Dfwd>(e);
  case Translation::drev1:
    return walk<Drev1>(e);
  case Translation::drev2:
    return walk<Drev2>(e);
  case Translation::drev:
    return walk<Drev>(e);
  }
  throw not_source(t_, *e);
}

namespace clauses {

Term hom_unchanged(Translator&, const Redex& r, const RuleInfo&) {
  return r.term;
}
Term hom_lam(Translator& tr, const Redex& r, const RuleInfo&) {
  const Node& n = *r.term;
  return lam(n.name, tr.type(n.type), tr.term(n.kids[0]), n.pos);
}
Term hom_app(Translator& tr, const Redex& r, const RuleInfo&) {
  const Node& n = *r.term;
  return app(tr.term(n.kids[0]), tr.term(n.kids[1]), n.pos);
}
Term hom_let(Translator& tr, const Redex& r, const RuleInfo&) {
  const Node& n = *r.term;
  return let(n.name, tr.term(n.kids[0]), tr.term(n.kids[1]), n.pos);
}
Term hom_pair(Translator& tr, const Redex& r, const RuleInfo&) {
  const Node& n = *r.term;
  return pair(tr.term(n.kids[0]), tr.term(n.kids[1]), n.pos);
}
Term hom_fst(Translator& tr, const Redex& r, const RuleInfo&) {
  return fst(tr.term(r.term->kids[0]), r.term->pos);
}
Term hom_snd(Translator& tr, const Redex& r, const RuleInfo&) {
  return snd(tr.term(r.term->kids[0]), r.term->pos);
}
Term hom_inl(Translator& tr, const Redex& r, const RuleInfo&) {
  const Node& n = *r.term;
  return inl(tr.type(n.type), tr.term(n.kids[0]), n.pos);
}
Term hom_inr(Translator& tr, const Redex& r, const RuleInfo&) {
  const Node& n = *r.term;
  return inr(tr.type(n.type), tr.term(n.kids[0]), n.pos);
}
Term hom_case(Translator& tr, const Redex& r, const RuleInfo&) {
  const Node& n = *r.term;
  return case_of(tr.term(n.kids[0]), n.name, tr.term(n.kids[1]), n.name2, tr.term(n.kids[2]),
                 n.pos);
}
Term hom_dual_real(Translator& tr, const Redex& r, const RuleInfo&) {
  return pair(r.term, zero_tangent(tr.translation()), r.term->pos);
}

Term drev_pure(Translator&, const Redex& r, const RuleInfo&) {
  return pure(r.term, r.term->pos);
}
Term drev_lam(Translator& tr, const Redex& r, const RuleInfo&) {
  const Node& n = *r.term;
  return pure(lam(n.name, tr.type(n.type), tr.term(n.kids[0]), n.pos), n.pos);
}
namespace {
// Fig. 9's clauses of two subterms: do { a <- da; b <- db; body }, or with the two bindings the
// other way round (Fig. 12's implementation, right to left).
enum class Order { left_first, right_first };
Term bound_in(Order order, const std::string& a, Term da, const std::string& b, Term db, Term body,
              SourcePos pos) {
  if (order == Order::left_first)
    return do_bind(a, std::move(da), do_bind(b, std::move(db), std::move(body)), pos);
  return do_bind(b, std::move(db), do_bind(a, std::move(da), std::move(body)), pos);
}
Term drev_app_in(Translator& tr, const Redex& r, Order order) {
  const Node& n = *r.term;
  const std::string f = tr.fresh("f"), x = tr.fresh("x");
  Term d1 = tr.term(n.kids[0]);
  Term d2 = tr.term(n.kids[1]);
  return bound_in(order, f, std::move(d1), x, std::move(d2), app(var(f), var(x), n.pos), n.pos);
}
Term drev_pair_in(Translator& tr, const Redex& r, Order order) {
  const Node& n = *r.term;
  const std::string x = tr.fresh("x"), y = tr.fresh("y");
  Term d1 = tr.term(n.kids[0]);
  Term d2 = tr.term(n.kids[1]);
  return bound_in(order, x, std::move(d1), y, std::move(d2), pure(pair(var(x), var(y))), n.pos);
}
} // namespace

Term drev_app(Translator& tr, const Redex& r, const RuleInfo&) {
  return drev_app_in(tr, r, Order::left_first);
}
Term drev_let(Translator& tr, const Redex& r, const RuleInfo&) {
  const Node& n = *r.term;
  Term d1 = tr.term(n.kids[0]);
  return do_bind(n.name, d1, tr.term(n.kids[1]), n.pos);
}
Term drev_pair(Translator& tr, const Redex& r, const RuleInfo&) {
  return drev_pair_in(tr, r, Order::left_first);
}
Term drev_unary(Translator& tr, const Redex& r, const RuleInfo&) {
  const Node& n = *r.term;
  const std::string x = tr.fresh("x");
  Term d = tr.term(n.kids[0]);
  Term body = n.kind == Kind::fst   ? fst(var(x))
              : n.kind == Kind::snd ? snd(var(x))
              : n.kind == Kind::inl ? inl(tr.type(n.type), var(x))
                                    : inr(tr.type(n.type), var(x));
  return do_bind(x, d, pure(body), n.pos);
}
Term drev_case(Translator& tr, const Redex& r, const RuleInfo&) {
  const Node& n = *r.term;
  const std::string x = tr.fresh("x");
  Term d0 = tr.term(n.kids[0]);
  Term d1 = tr.term(n.kids[1]);
  Term d2 = tr.term(n.kids[2]);
  return do_bind(x, d0, case_of(var(x), n.name, d1, n.name2, d2, n.pos), n.pos);
}
Term drev_real(Translator&, const Redex& r, const RuleInfo&) {
  return pure(pair(r.term, node(Kind::d_zero, {})), r.term->pos);
}

// Fig. 12's OCaml implementation (L646-725; spec §11 item 12, §9.3): operands right to left,
// and from_float allocates a binding.
Term drev_app_argument_first(Translator& tr, const Redex& r, const RuleInfo&) {
  return drev_app_in(tr, r, Order::right_first);
}
Term drev_pair_right_first(Translator& tr, const Redex& r, const RuleInfo&) {
  return drev_pair_in(tr, r, Order::right_first);
}
Term drev_real_allocating(Translator& tr, const Redex& r, const RuleInfo&) {
  const std::string d = tr.fresh("d");
  return do_bind(d, delta_let(node(Kind::d_zero, {})),
                 pure(pair(r.term, node(Kind::d_var, {var(d)}))), r.term->pos);
}

Result op_clause(Primitive how) {
  return [how = std::move(how)](Translator& tr, const Redex& r, const RuleInfo&) {
    return translate_prim(tr.translation(), r.term->name, how);
  };
}

} // namespace clauses

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
  Translator tr(t, real(0.0), *paper_rules(), nullptr);
  return tr.type(a);
}

Type translated_term_type(Translation t, const Type& a) {
  const Type x = translate_type(t, a);
  return t == Translation::drev ? monad_type(x) : x;
}

Term translate(Translation t, const Term& e, const RunSetup& setup) {
  Translator tr(t, e, *setup.rules, setup.coverage.get());
  return tr.term(e);
}

} // namespace adsem::delta_reverse
