#include "semantics/delta_reverse/arrays.hpp"

#include <cstdint>
#include <vector>

#include "semantics/delta_reverse/translate.hpp"

namespace adsem::delta_reverse {

namespace source_rules {

namespace {
using VK = ValueNode::Kind;

[[noreturn]] void wrong_shape(const std::string& op) {
  throw AdsemError(ErrorKind::eval, "stuck: " + op + " applied to an argument of the wrong shape");
}
} // namespace

Next e_array_op(Machine&, const SourceEval::Redex& r, const RuleInfo&) {
  switch (r.term->kind) {
  case Kind::index:
    return {v_array_op("index")};
  case Kind::build:
    return {v_array_op("build")};
  default: // sumV[A] keeps its constant, whose type A gives the sum of no elements
    return {v_array_op("sumV", r.term)};
  }
}

bool applies_index(const Machine&, const Apply::Redex& r) {
  return r.f->name == "index";
}
bool applies_build(const Machine&, const Apply::Redex& r) {
  return r.f->name == "build";
}
bool applies_sum_v(const Machine&, const Apply::Redex& r) {
  return r.f->name == "sumV";
}

Value apply_index(Machine&, const Apply::Redex& r, const RuleInfo&) {
  const Value& a = r.a;
  if (a->kind != VK::pair || a->a->kind != VK::vector || a->b->kind != VK::integer)
    wrong_shape("index");
  const std::vector<Value>& items = *a->a->items;
  const std::int64_t i = a->b->integer;
  if (i < 0 || i >= static_cast<std::int64_t>(items.size()))
    throw AdsemError(ErrorKind::domain, "index: " + std::to_string(i) +
                                            " is outside a vector of length " +
                                            std::to_string(items.size()));
  return items[static_cast<std::size_t>(i)];
}

Value apply_build(Machine& m, const Apply::Redex& r, const RuleInfo&) {
  const Value& a = r.a;
  if (a->kind != VK::pair || a->a->kind != VK::integer) wrong_shape("build");
  const std::int64_t n = a->a->integer;
  if (n < 0) throw AdsemError(ErrorKind::domain, "build: negative length " + std::to_string(n));
  // each call takes at least one step, so the fuel bounds the vector's length
  std::vector<Value> items;
  for (std::int64_t i = 0; i < n; ++i)
    items.push_back(m.apply(a->b, v_int(i)));
  return v_vector(std::move(items));
}

namespace {
using TK = TypeNode::Kind;

// 0_A: the sum of no elements
Value zero_of(Machine& m, const Type& a) {
  switch (a->kind) {
  case TK::real:
    return v_real(0.0);
  case TK::product:
    return v_pair(zero_of(m, a->left), zero_of(m, a->right));
  case TK::dense:
    m.counters.dense_flops += m.dense_dimension;
    return v_dense(std::vector<double>(static_cast<std::size_t>(m.dense_dimension), 0.0));
  default: // Delta, Delta2
    return v_delta(d_zero());
  }
}

// v + w on an additive type, componentwise
Value plus(Machine& m, const Value& v, const Value& w) {
  if (v->kind != w->kind) wrong_shape("sumV");
  switch (v->kind) {
  case VK::real:
    return v_real(v->real + w->real);
  case VK::pair:
    return v_pair(plus(m, v->a, w->a), plus(m, v->b, w->b));
  case VK::delta:
    return v_delta(d_add(v->delta, w->delta));
  case VK::dense: {
    const std::vector<double>& x = *v->dense;
    const std::vector<double>& y = *w->dense;
    if (x.size() != y.size()) wrong_shape("sumV");
    std::vector<double> out(x.size());
    for (std::size_t i = 0; i < out.size(); ++i)
      out[i] = x[i] + y[i];
    m.counters.dense_flops += static_cast<long>(out.size());
    return v_dense(std::move(out));
  }
  default:
    wrong_shape("sumV");
  }
}
} // namespace

Value sum_items(Machine& m, const Type& a, const std::vector<Value>& items) {
  if (items.empty()) return zero_of(m, a);
  Value sum = items.front();
  for (std::size_t i = 1; i < items.size(); ++i)
    sum = plus(m, sum, items[i]);
  return sum;
}

Value apply_sum_v(Machine& m, const Apply::Redex& r, const RuleInfo&) {
  if (r.a->kind != VK::vector) wrong_shape("sumV");
  return sum_items(m, r.f->body->type, *r.a->items);
}

std::string array_op_detail(const Machine&, const Apply::Redex& r) {
  return r.f->name;
}

bool is_vector(const MonadRun&, const Monad::Redex& r) {
  return r.delta != nullptr && (*r.delta)->kind == VK::vector;
}

RunNext m_sequence(MonadRun& c, const Monad::Redex& r, const RuleInfo&) {
  const std::vector<Value>& computations = *(*r.delta)->items;
  std::vector<Value> results;
  results.reserve(computations.size());
  for (const Value& computation : computations)
    results.push_back(c.machine.run(computation));
  return {v_vector(std::move(results))};
}

} // namespace source_rules

namespace clauses {

namespace {
// The dual numbers a source sumV sums: X{Real}. The translations apply to source terms, whose
// sumV sums reals; a sumV[A] of a target term has no clause.
Type summand(Translator& tr, const Node& n) {
  if (n.type->kind != TypeNode::Kind::real)
    throw AdsemError(ErrorKind::usage,
                     std::string(translation_name(tr.translation())) +
                         " applies to source terms only, whose sumV sums reals",
                     n.pos);
  return tr.type(n.type);
}
} // namespace

Term hom_array_op(Translator& tr, const Redex& r, const RuleInfo&) {
  const Node& n = *r.term;
  switch (n.kind) {
  case Kind::index:
    return index_op(tr.type(n.type), n.pos);
  case Kind::build:
    return build_op(tr.type(n.type), n.pos);
  default:
    return sum_v_op(summand(tr, n), n.pos);
  }
}

Term drev_index(Translator& tr, const Redex& r, const RuleInfo&) {
  const Node& n = *r.term;
  const Type a = tr.type(n.type);
  const std::string p = tr.fresh("p");
  return pure(lam(p, product_type(vector_type(a), int_type()),
                  pure(app(index_op(a, n.pos), var(p), n.pos)), n.pos),
              n.pos);
}

Term drev_build(Translator& tr, const Redex& r, const RuleInfo&) {
  const Node& n = *r.term;
  const Type a = tr.type(n.type);
  const Type computation = monad_type(a);
  const std::string p = tr.fresh("p");
  return pure(lam(p, product_type(int_type(), arrow_type(int_type(), computation)),
                  sequence(a, app(build_op(computation, n.pos), var(p), n.pos), n.pos), n.pos),
              n.pos);
}

Term drev_sum_v(Translator& tr, const Redex& r, const RuleInfo&) {
  const Node& n = *r.term;
  const Type dual = summand(tr, n);
  const std::string v = tr.fresh("v"), p = tr.fresh("p"), d = tr.fresh("d");
  const Term sum = var(p, n.pos);
  return pure(
      lam(v, vector_type(dual),
          let(p, app(sum_v_op(dual, n.pos), var(v, n.pos), n.pos),
              do_bind(d, delta_let(snd(sum, n.pos), n.pos),
                      pure(pair(fst(sum, n.pos), node(Kind::d_var, {var(d, n.pos)}, n.pos), n.pos),
                           n.pos),
                      n.pos),
              n.pos),
          n.pos),
      n.pos);
}

} // namespace clauses

} // namespace adsem::delta_reverse
