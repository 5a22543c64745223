// Spec §6 P20 [proposal; it follows from Thm. 3 because AD computes the derivative of the
// denotation]: two rewrites that keep the denotation, applied everywhere in e,
//  - commuting the operands of + and × (addR/mulR on a pair of pure operands),
//  - let as a β-redex: let x = e1 in e2  ->  (\(x : A). e2) e1,
// leave the gradient of R{e} unchanged up to rounding, and the number of tape bindings exactly
// unchanged (the same real primitive calls run).
#include "properties/delta_reverse/metamorphic.hpp"

#include <fmt/format.h>
#include <rapidcheck.h>

#include "generators/core/uniform.hpp"
#include "properties/delta_reverse/support.hpp"
#include "syntax/delta_reverse/printer.hpp"

namespace adsem::delta_reverse {

namespace {
using props::PropertyContext;
using props::TrialResult;
using namespace support;

// Variables and literals: commuting them cannot change which primitive calls run, or in which
// order (ids would be renumbered otherwise, which is fine for gradients but not for the count).
bool trivial(const Term& t) {
  return t->kind == Kind::var || t->kind == Kind::real;
}

Term rewrite(const Term& t, const Context& gamma, bool commute, bool let_to_beta) {
  const Node& n = *t;
  Context g = gamma;
  std::vector<Term> kids;
  for (std::size_t i = 0; i < n.kids.size(); ++i) {
    Context inner = g;
    if ((n.kind == Kind::lam) || (n.kind == Kind::let && i == 1))
      inner.emplace_back(n.name, n.kind == Kind::lam ? n.type : typecheck(n.kids[0], g).type);
    if (n.kind == Kind::case_ && i > 0) {
      const Type s = typecheck(n.kids[0], g).type;
      inner.emplace_back(i == 1 ? n.name : n.name2, i == 1 ? s->left : s->right);
    }
    kids.push_back(rewrite(n.kids[i], inner, commute, let_to_beta));
  }
  Node copy = n;
  copy.kids = kids;
  if (commute && n.kind == Kind::app && kids[0]->kind == Kind::prim &&
      (kids[0]->name == "addR" || kids[0]->name == "mulR") && kids[1]->kind == Kind::pair &&
      trivial(kids[1]->kids[0]) && trivial(kids[1]->kids[1]))
    copy.kids[1] = pair(kids[1]->kids[1], kids[1]->kids[0]);
  if (let_to_beta && n.kind == Kind::let)
    return app(lam(n.name, typecheck(n.kids[0], g).type, kids[1]), kids[0]);
  return make_shared_node<const Node>(std::move(copy));
}

TrialResult metamorphic(const PropertyContext& context) {
  const Drawn d = draw(context);
  const bool commute = adsem::gen::uniform_in(0, 2) == 0;
  TrialResult r = guarded([&] {
    const Trial trial = prepare(d, context);
    const Term e2 = rewrite(d.program.term, {}, commute, !commute);
    const Program p2{e2, d.program.s, d.program.t};
    const ReverseRun a = reverse(d.program, d.s, trial.dt, Wrapper::seeded, EvalImpl::array,
                                 trial.setup, trial.fuel);
    const ReverseRun b =
        reverse(p2, d.s, trial.dt, Wrapper::seeded, EvalImpl::array, trial.setup, trial.fuel);
    TrialResult c = compare_values(a.gradient, "R{e}", b.gradient,
                                   commute ? "R{e, operands commuted}" : "R{e, lets as β-redexes}",
                                   CheckKind::derivative, context);
    if (c.kind == TrialResult::Kind::pass && a.binds.size() != b.binds.size())
      c = TrialResult::fail(fmt::format("{} bindings before the rewrite, {} after: {}",
                                        a.binds.size(), b.binds.size(), print(e2)));
    return c;
  });
  return on(r, d.m);
}

} // namespace

props::PropertyDef metamorphic_invariance() {
  return props::PropertyDef{
      "delta-reverse",
      "delta-reverse/metamorphic-invariance",
      "ad-correctness",
      "commuting + and × operands, or turning lets into β-redexes, keeps R{e} and the number of "
      "tape bindings",
      "spec §6 P20 [proposal], from Thm. 3 L727-735",
      metamorphic};
}

} // namespace adsem::delta_reverse
