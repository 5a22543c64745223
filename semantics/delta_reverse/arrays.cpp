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
  return {v_array_op(r.term->kind == Kind::index ? "index" : "build")};
}

bool applies_index(const Machine&, const Apply::Redex& r) {
  return r.f->name == "index";
}
bool applies_build(const Machine&, const Apply::Redex& r) {
  return r.f->name == "build";
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

Term hom_array_op(Translator& tr, const Redex& r, const RuleInfo&) {
  const Node& n = *r.term;
  return n.kind == Kind::index ? index_op(tr.type(n.type), n.pos)
                               : build_op(tr.type(n.type), n.pos);
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

} // namespace clauses

} // namespace adsem::delta_reverse
