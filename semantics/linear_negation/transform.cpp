#include "semantics/linear_negation/transform.hpp"

#include <map>

#include <stdexcept>

#include "semantics/linear_negation/primitives.hpp"
#include "syntax/linear_negation/nesting.hpp"

namespace adsem::linear_negation {

Type back_type(const Type& a, int d) {
  switch (a->kind) {
  case TypeNode::Kind::real:
    return product_type(real_type(), neg_type(d)); // D(R) = R × R^⊥d
  case TypeNode::Kind::arrow:
    return arrow_type(back_type(a->left, d), back_type(a->right, d));
  case TypeNode::Kind::product:
    return product_type(back_type(a->left, d), back_type(a->right, d));
  case TypeNode::Kind::neg:
    break;
  }
  throw AdsemError(ErrorKind::type, "D is defined on source types only");
}

Binder Differentiator::binder(const Binder& b) const {
  if (!b.type)
    throw AdsemError(ErrorKind::type, "D needs an elaborated term (binder " + b.name + ")");
  return exp_binder(b.name, back_type(b.type, o_.d));
}

Term Differentiator::pattern_frame(const std::string& x, const std::string& xp, const Term& body,
                                   const Term& bound) const {
  return let_pair(exp_binder(x, real_type()), exp_binder(xp, neg_type(o_.d)), body, bound);
}

Term Differentiator::go(const Term& t) {
  const Transform::Redex redex{t};
  const Rule<Transform>* clause = o_.book->select<Transform>(*this, redex);
  if (!clause) throw std::logic_error("D: no clause for this node");
  if (o_.counter) o_.counter->add(clause->info.name);
  return clause->result(*this, redex, clause->info);
}

Term back(const Term& t, Names& names, const TransformOptions& options) {
  return on_stack_for(t, [&] { // D recurses on t (syntax/linear_negation/nesting.hpp)
    Differentiator d(names, options);
    return d.go(t);
  });
}

namespace {
// the wrapper of spec §4.9; substitute and D recurse on t (on the large stack, nesting.hpp)
Wrapper wrapper_of(const Term& t, const std::vector<std::string>& inputs,
                   const std::vector<double>& r, const TransformOptions& options, bool keep_primal);
} // namespace

Wrapper gradient_wrapper(const Term& t, const std::vector<std::string>& inputs,
                         const std::vector<double>& r, const TransformOptions& options,
                         bool keep_primal) {
  if (inputs.size() != r.size()) throw AdsemError(ErrorKind::usage, "one real per input");
  return on_stack_for(t, [&] { return wrapper_of(t, inputs, r, options, keep_primal); });
}

namespace {
Wrapper wrapper_of(const Term& t, const std::vector<std::string>& inputs,
                   const std::vector<double>& r, const TransformOptions& options,
                   bool keep_primal) {
  Names names(t);
  for (const std::string& x : inputs)
    names.reserve(x);
  Wrapper w;
  // rename the D-side copies x̂i (spec §9 P18) and pick the primal and backprop names
  std::vector<std::string> hats, prims;
  std::map<std::string, std::string> to_hats;
  for (const std::string& x : inputs) {
    hats.push_back(names.fresh(x + "h"));
    to_hats.emplace(x, hats.back());
  }
  // one walk for all inputs: substituting one at a time made the free-variable lists of the
  // rebuilt path again per input (Θ(n³) on the wide sum of n inputs)
  const Term source = rename_free(t, to_hats);
  for (const std::string& x : inputs) {
    std::string bp = x + "'";
    if (names.taken(bp)) bp = names.fresh(x + "d");
    w.backprop.push_back(bp);
    names.reserve(bp);
    prims.push_back(names.fresh(x + "p"));
  }
  Term body = back(source, names, options);
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    const std::string a = names.fresh("a");
    const Term v = pair(var(prims[i]), lam(lin_binder(a), app(var(w.backprop[i]), var(a))));
    body = let(exp_binder(hats[i], back_type(real_type(), options.d)), body, v);
  }
  const std::string k = names.fresh("k"), kp = names.fresh("dk");
  const Term call = app(var(kp), num(1));
  Term out = let_pair(exp_binder(k, real_type()), exp_binder(kp, neg_type(options.d)),
                      keep_primal ? pair(var(k), call) : call, body);
  for (std::size_t i = 0; i < inputs.size(); ++i)
    out = let(exp_binder(prims[i], real_type()), out, num(r[i]));
  w.term = out;
  for (const std::string& bp : w.backprop)
    w.free_types[bp] = neg_type(options.d);
  return w;
}
} // namespace

namespace {
bool read_into(const Term& t, const std::vector<std::string>& backprop, std::vector<double>& g) {
  switch (t->kind) {
  case Kind::add:
    return read_into(t->left(), backprop, g) && read_into(t->right(), backprop, g);
  case Kind::num:
    return t->value == 0.0;
  case Kind::pair:
    return read_into(t->left(), backprop, g) && read_into(t->right(), backprop, g) &&
           numeral_reals(t) == std::vector<double>(numeral_reals(t).size(), 0.0) &&
           is_numeral_tuple(t);
  case Kind::app: {
    if (t->left()->kind != Kind::var || t->right()->kind != Kind::num) return false;
    for (std::size_t j = 0; j < backprop.size(); ++j)
      if (backprop[j] == t->left()->name) {
        g[j] += t->right()->value;
        return true;
      }
    return false;
  }
  default:
    return false;
  }
}
} // namespace

std::optional<std::vector<double>> read_back(const Term& normal_form,
                                             const std::vector<std::string>& backprop) {
  std::vector<double> g(backprop.size(), 0.0);
  if (!read_into(normal_form, backprop, g)) return std::nullopt;
  return g;
}

namespace {

// Fires the one entry of a definition's relation R (read-back, seeding) on `redex`.
template <class R>
typename R::Output define(const Rules& book, const typename R::Redex& redex, RuleCounter* counter,
                          std::string_view what) {
  Definitions none;
  const Rule<R>* rule = book.select<R>(none, redex);
  if (!rule) throw AdsemError(ErrorKind::usage, "the rule book has no " + std::string(what));
  if (counter) counter->add(rule->info.name);
  return rule->result(none, redex, rule->info);
}

} // namespace

std::optional<std::vector<double>> read_gradient(const Rules& book, const Term& normal_form,
                                                 const std::vector<std::string>& backprop,
                                                 RuleCounter* counter) {
  return define<ReadBack>(book, {normal_form, backprop}, counter, "read-back of Cor. 16");
}

Term forward_seed(const Rules& book, double r, std::size_t input, std::size_t direction,
                  RuleCounter* counter) {
  return define<Seed>(book, {r, input, direction}, counter, "seeding of Prop. 1");
}

Term injection_wrapper(const Wrapper& w) {
  const int n = static_cast<int>(w.backprop.size());
  Term out = w.term;
  Names names(w.term);
  for (int j = 0; j < n; ++j) {
    const std::string a = names.fresh("a");
    std::vector<Term> items;
    for (int i = 0; i < n; ++i)
      items.push_back(i == j ? var(a) : num(0));
    out = let(exp_binder(w.backprop[static_cast<std::size_t>(j)], neg_type(n)), out,
              lam(lin_binder(a), tuple(items)));
  }
  return out;
}

namespace {
// Cor. 16 end to end; the read-back recurses on the normal form (on the large stack)
GradientRun gradient_run(const Term& t, const std::vector<std::string>& inputs,
                         const std::vector<double>& r, const RunOptions& options,
                         const TransformOptions& transform, bool keep_primal);
} // namespace

GradientRun reduce_gradient(const Term& t, const std::vector<std::string>& inputs,
                            const std::vector<double>& r, const RunOptions& options,
                            const TransformOptions& transform, bool keep_primal) {
  return on_stack_for(t,
                      [&] { return gradient_run(t, inputs, r, options, transform, keep_primal); });
}

namespace {
GradientRun gradient_run(const Term& t, const std::vector<std::string>& inputs,
                         const std::vector<double>& r, const RunOptions& options,
                         const TransformOptions& transform, bool keep_primal) {
  const Wrapper w = gradient_wrapper(t, inputs, r, transform, keep_primal);
  RunOptions o = options;
  o.free_types.insert(w.free_types.begin(), w.free_types.end());
  GradientRun out;
  out.run = normalise(w.term, o);
  Term nf = out.run.result;
  if (keep_primal) {
    if (nf->kind != Kind::pair || nf->left()->kind != Kind::num)
      throw AdsemError(ErrorKind::eval, "the wrapper did not reduce to (value, Σ xj' gj)");
    out.value = nf->left()->value;
    nf = nf->right();
  }
  const auto g = read_gradient(*transform.book, nf, w.backprop, transform.counter);
  if (!g) throw AdsemError(ErrorKind::eval, "read-back: the normal form is not Σ xj' gj");
  out.gradient = *g;
  return out;
}
} // namespace

// ---- computational graphs ----

bool is_ground(const Term& g) {
  switch (g->kind) {
  case Kind::var:
  case Kind::num:
    return true;
  case Kind::let:
    return !g->x.linear && is_ground(g->body()) && is_ground(g->bound());
  case Kind::add:
    return is_ground(g->left()) && is_ground(g->right());
  case Kind::prim:
    for (const Term& k : g->kids)
      if (k->kind != Kind::var) return false;
    return true;
  default:
    return false;
  }
}

Term groundify(const Term& t, Names& names) {
  switch (t->kind) {
  case Kind::var:
  case Kind::num:
    return t;
  case Kind::let:
    return rebuild(*t, {groundify(t->body(), names), groundify(t->bound(), names)});
  case Kind::add:
    return add(groundify(t->left(), names), groundify(t->right(), names));
  case Kind::prim: {
    std::vector<Term> args;
    std::vector<std::pair<std::string, Term>> lets;
    for (const Term& k : t->kids) {
      if (k->kind == Kind::var) {
        args.push_back(k);
        continue;
      }
      const std::string z = names.fresh("z");
      args.push_back(var(z));
      lets.emplace_back(z, groundify(k, names));
    }
    Term out = prim(t->name, args);
    for (const auto& [z, g] : lets)
      out = let(exp_binder(z, real_type()), out, g);
    return out;
  }
  default:
    throw AdsemError(ErrorKind::type, "not a first-order term (computational graph)");
  }
}

BpParts Backpropagator::go(const Term& g, const std::vector<std::string>& inputs,
                           const std::string& a) {
  const SymbolicBackprop::Redex redex{g, inputs, a};
  const Rule<SymbolicBackprop>* clause = book_.select<SymbolicBackprop>(*this, redex);
  if (!clause) throw AdsemError(ErrorKind::type, "bp: not a computational graph");
  if (counter_) counter_->add(clause->info.name);
  return clause->result(*this, redex, clause->info);
}

Term backprop_graph(const Term& g, const std::vector<std::string>& inputs, const std::string& a,
                    Names& names, const Rules& book, RuleCounter* counter) {
  if (!is_ground(g)) throw AdsemError(ErrorKind::type, "bp: not a computational graph");
  Backpropagator bp(names, book, counter);
  const BpParts r = bp.go(g, inputs, a);
  return wrap(pair(r.g0, wrap(tuple(r.gi), r.alpha)), r.beta);
}

Term ForwardDifferentiator::go(const Term& g) {
  const ForwardMode::Redex redex{g};
  const Rule<ForwardMode>* clause = book_.select<ForwardMode>(*this, redex);
  if (!clause) throw AdsemError(ErrorKind::type, "D→: not a computational graph");
  if (counter_) counter_->add(clause->info.name);
  return clause->result(*this, redex, clause->info);
}

Term forward_graph(const Term& g, Names& names, const Rules& book, RuleCounter* counter) {
  ForwardDifferentiator d(names, book, counter);
  return d.go(g);
}

} // namespace adsem::linear_negation
