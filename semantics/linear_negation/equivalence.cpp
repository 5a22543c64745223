#include "semantics/linear_negation/equivalence.hpp"

namespace adsem::linear_negation {

namespace {

bool exp_let(const Term& t) {
  return t->kind == Kind::let && !t->x.linear;
}
bool binary_former(const Term& t) { // □ ∈ {application, +, ·, pairing}
  return t->kind == Kind::app || t->kind == Kind::add || t->kind == Kind::pair ||
         (t->kind == Kind::prim && t->name == "mul");
}
Term rename_first(const Term& t, const std::string& x, const std::string& y, bool& done) {
  if (done || !occurs_free(x, t)) return t;
  if (t->kind == Kind::var) {
    done = true;
    return var(y);
  }
  std::vector<Term> kids = t->kids;
  for (std::size_t i = 0; i < kids.size() && !done; ++i)
    kids[i] = rename_first(kids[i], x, y, done);
  return rebuild(*t, std::move(kids));
}

void at_root(const Term& t, Names& names, std::vector<EquivStep>& out) {
  if (!exp_let(t)) {
    // (21)/(22) right to left: s[x:=u] □ t → (s □ t)[x:=u]
    if (binary_former(t)) {
      for (int side = 0; side < 2; ++side) {
        const Term& e = t->kids[static_cast<std::size_t>(side)];
        const Term& other = t->kids[static_cast<std::size_t>(1 - side)];
        if (exp_let(e) && !occurs_free(e->x.name, other)) {
          std::vector<Term> kids = t->kids;
          kids[static_cast<std::size_t>(side)] = e->body();
          out.push_back({side == 0 ? "equiv-21" : "equiv-22",
                         rebuild(*e, {rebuild(*t, std::move(kids)), e->bound()})});
        }
      }
    }
    return;
  }
  const Term& body = t->body();
  const Term& u = t->bound();
  const std::string& x = t->x.name;
  // (18) t[x:=u][y:=w] ≡ t[y:=w][x:=u]   (this node is [y := w], body is [x := u])
  if (exp_let(body)) {
    const Term& inner = body;
    if (!occurs_free(x, inner->bound()) && !occurs_free(inner->x.name, u))
      out.push_back(
          {"equiv-18", rebuild(*inner, {rebuild(*t, {inner->body(), u}), inner->bound()})});
    // (19) t[x:=u][y:=w] ≡ t[x:=u[y:=w]] if y ∉ fv(t)
    if (!occurs_free(x, inner->body()))
      out.push_back(
          {"equiv-19", rebuild(*inner, {inner->body(), rebuild(*t, {inner->bound(), u})})});
  }
  // (19) right to left: t[x := u[y:=w]] ≡ t[x:=u][y:=w]
  if (exp_let(u) && !occurs_free(u->x.name, body))
    out.push_back({"equiv-19", rebuild(*u, {rebuild(*t, {body, u->body()}), u->bound()})});
  // (20) t[x:=u] ≡ t_{y/x}[x:=u][y:=u]: one occurrence renamed
  if (free_count(x, body) >= 2) {
    bool done = false;
    Binder y = t->x;
    y.name = names.fresh(x);
    const Term split = rename_first(body, x, y.name, done);
    out.push_back({"equiv-20", let(y, rebuild(*t, {split, u}), rename_bound(u, names))});
  }
  // (21)/(22) left to right: (s □ t)[x:=u] → s[x:=u] □ t if x ∉ fv(t), and symmetrically
  if (binary_former(body)) {
    for (int side = 0; side < 2; ++side) {
      const Term& keep = body->kids[static_cast<std::size_t>(1 - side)];
      if (occurs_free(x, keep)) continue;
      std::vector<Term> kids = body->kids;
      kids[static_cast<std::size_t>(side)] = rebuild(*t, {kids[static_cast<std::size_t>(side)], u});
      out.push_back({side == 0 ? "equiv-21" : "equiv-22", rebuild(*body, std::move(kids))});
    }
  }
}

} // namespace

std::vector<EquivStep> equivalence_steps(const Term& t, Names& names) {
  std::vector<EquivStep> out;
  for_each_subterm(t, [&](const Term& sub, const Plug& plug) {
    std::vector<EquivStep> here;
    at_root(sub, names, here);
    for (auto& s : here)
      out.push_back({s.rule, plug(s.result)});
    return true;
  });
  return out;
}

} // namespace adsem::linear_negation
