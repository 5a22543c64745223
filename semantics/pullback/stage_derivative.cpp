#include "semantics/pullback/stage_derivative.hpp"

#include <algorithm>

#include "semantics/core/model_limits.hpp"
#include "semantics/core/pushforward.hpp"
#include "semantics/pullback/denotation.hpp"

namespace adsem::pullback {

namespace {

using V = model::Value<double>;

void add_path(StageReads& reads, const std::vector<std::size_t>& outward) {
  StageReads* at = &reads;
  for (auto it = outward.rbegin(); it != outward.rend() && !at->whole; ++it) {
    const auto item = std::find_if(at->items.begin(), at->items.end(),
                                   [&](const auto& entry) { return entry.first == *it; });
    at =
        item != at->items.end() ? &item->second : &at->items.emplace_back(*it, StageReads{}).second;
  }
  if (at->whole) return;
  at->whole = true;
  at->items.clear(); // read whole: its deeper paths too
}

// Adds t's reads of x to `reads`; false when x occurs free in t other than as a path's root.
bool collect_reads(const Term& t, const std::string& x, StageReads& reads) {
  switch (t->kind) {
  case Kind::var:
    return t->name != x;
  case Kind::proj: {
    std::vector<std::size_t> outward; // the items from t inward to the root
    const Term* root = &t;
    while ((*root)->kind == Kind::proj) {
      outward.push_back(static_cast<std::size_t>((*root)->index - 1));
      root = &(*root)->kids[0];
    }
    if ((*root)->kind != Kind::var) return collect_reads(*root, x, reads);
    if ((*root)->name == x) add_path(reads, outward);
    return true;
  }
  case Kind::lam:
    return t->name == x || collect_reads(t->kids[0], x, reads);
  case Kind::dualmap:
  case Kind::pullback: // the name binds in the body only
    return (t->name == x || collect_reads(t->kids[0], x, reads)) &&
           collect_reads(t->kids[1], x, reads);
  case Kind::let: // the name binds in the body only
    return collect_reads(t->kids[0], x, reads) &&
           (t->name == x || collect_reads(t->kids[1], x, reads));
  default:
    return std::all_of(t->kids.begin(), t->kids.end(),
                       [&](const Term& kid) { return collect_reads(kid, x, reads); });
  }
}

// x with the subtrees `reads` names perturbed as model::perturb perturbs them; the other items
// stay x's (the reader never sees them).
V perturb_reads(const V& x, const V& v, const StageReads& reads, model::Tag e) {
  if (reads.whole) return model::perturb(x, v, e);
  if (reads.items.empty()) return x;
  if (!x.is_tuple() || !v.is_tuple() || x.items().size() != v.items().size())
    return model::perturb(x, v, e); // the whole perturbation, as the reader would see it
  const std::span<const V> xs = x.items(), vs = v.items();
  return V::tuple_of(xs.size(), [&](std::size_t i) {
    const auto read = std::find_if(reads.items.begin(), reads.items.end(),
                                   [i](const auto& entry) { return entry.first == i; });
    if (read == reads.items.end()) return xs[i];
    return perturb_reads(xs[i], vs[i], read->second, e);
  });
}

// Throws what model::perturb(a, da, e) throws, walking a and da in its order without building
// the perturbation: different lengths of tuples, different injections, a real against another
// kind (perturb itself reports that one). The tuples `checked` passed are not walked again.
void check_perturbable(const V& a, const V& da, const CheckedShapes* checked) {
  switch (a.kind()) {
  case model::ValueKind::real:
    if (!da.is_real()) model::perturb(a, da, model::untagged_epsilon);
    return;
  case model::ValueKind::tuple: {
    if (checked && da.is_tuple() &&
        checked->passed(std::get<model::Tuple<double>>(a.node()),
                        std::get<model::Tuple<double>>(da.node())))
      return;
    if (da.items().size() != a.items().size())
      throw AdsemError(ErrorKind::eval, "model: tangent and point have different shapes");
    const std::span<const V> as = a.items(), das = da.items();
    for (std::size_t i = 0; i < as.size(); ++i)
      check_perturbable(as[i], das[i], checked);
    return;
  }
  case model::ValueKind::injection:
    if (da.injection().index != a.injection().index)
      throw AdsemError(ErrorKind::eval, "model: tangent and point are different injections");
    check_perturbable(*a.injection().payload, *da.injection().payload, checked);
    return;
  default: // unit, integer: kept as they are; a function: perturbed pointwise when applied
    return;
  }
}

} // namespace

std::shared_ptr<const StageShape> stage_shape(const Term& body, const std::string& x) {
  StageShape shape{x};
  shape.passes_through =
      body->kind == Kind::pair && body->kids[0]->kind == Kind::var && body->kids[0]->name == x;
  shape.reader = shape.passes_through ? body->kids[1] : body;
  if (!collect_reads(shape.reader, x, shape.reads)) return nullptr;
  return std::make_shared<const StageShape>(std::move(shape));
}

V stage_derivative(const StageShape& shape, const model::Env<double>& env, const V& point,
                   const V& v, const DenoteContext& context) {
  const model::Tag e = context.diff.fresh_tag();
  // model::perturb walks the whole point before the body runs: its shape errors come first
  check_perturbable(point, v, context.checked_shapes);
  if (context.checked_shapes && point.is_tuple() && v.is_tuple())
    context.checked_shapes->remember(std::get<model::Tuple<double>>(point.node()),
                                     std::get<model::Tuple<double>>(v.node()));
  const model::Env<double> inner =
      model::extend<double>(env, shape.x, perturb_reads(point, v, shape.reads, e));
  if (!shape.passes_through)
    return model::extract(denote<double>(shape.reader, inner, context), e, model::Part::tangent,
                          context.diff);
  V read;
  {
    // ⟨x, Q⟩ and its x, visited as denote_node visits them (the same units and nesting)
    const model::NodeVisit pair_visit(context.limits);
    { const model::NodeVisit var_visit(context.limits); }
    read = denote<double>(shape.reader, inner, context);
  }
  // D(x ↦ x)·v = v (seed 000 §4.2): the passed-through tangent is the direction itself
  return V::pair(v, model::extract(read, e, model::Part::tangent, context.diff));
}

} // namespace adsem::pullback
