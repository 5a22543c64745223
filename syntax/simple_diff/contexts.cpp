// Evaluation contexts and redexes (seed 003 lines 277-306), see contexts.hpp.
#include "syntax/simple_diff/contexts.hpp"

namespace adsem::simple_diff {

namespace {

const Term& child(const Node& n, int i) {
  return i == 0 ? n.a : i == 1 ? n.b : n.c;
}

// The evaluation-position children of n, in evaluation order: a hole may sit in child i only if
// every child before it in this list is a value (<V, E>, V + E, E.rd_V). The `if` guard is a
// boolean hole: if it is pred(M), the hole continues into M.
std::vector<int> evaluation_children(const Node& n) {
  switch (n.kind) {
  case Kind::add:  // E + N | V + E
  case Kind::pair: // <E, N> | <V, E>
    return {0, 1};
  case Kind::op:   // op(E)
  case Kind::fst:  // fst(E)
  case Kind::snd:  // snd(E)
  case Kind::call: // f(E)
  case Kind::let:  // let x = E in N
  case Kind::pred: // pred(E) (E_bool)
  case Kind::if_:  // if E_bool then M else N
    return {0};
  case Kind::rd: // M.rd_E(x.N) | E.rd_V(x.N): the point (b) first, then the cotangent (a)
    return {1, 0};
  default:
    return {};
  }
}

// Is the step from n into child i an evaluation context step (the earlier ones are values)?
bool context_step(const Node& n, int i) {
  const std::vector<int> order = evaluation_children(n);
  for (const int j : order) {
    if (j == i) return true;
    if (!is_value(*child(n, j))) return false;
  }
  return false;
}

bool is_bool_value(const Node& b) {
  return b.kind == Kind::b_true || b.kind == Kind::b_false;
}

void enumerate(const Term& m, Path& path, std::vector<Decomposition>& out) {
  if (is_redex(*m)) out.push_back({path, m});
  for (int i = 0; i < 3; ++i) {
    if (!child(*m, i) || !context_step(*m, i)) continue;
    path.push_back(i);
    enumerate(child(*m, i), path, out);
    path.pop_back();
  }
}

} // namespace

bool is_redex(const Node& m) {
  switch (m.kind) {
  case Kind::add: // V + W
    return is_value(*m.a) && is_value(*m.b);
  case Kind::op:   // op(V)
  case Kind::fst:  // fst(V)
  case Kind::snd:  // snd(V)
  case Kind::call: // f(V)
  case Kind::let:  // let x = V in N
  case Kind::pred: // R_bool = pred(V)
    return is_value(*m.a);
  case Kind::if_: // if b then M else N
    return is_bool_value(*m.a);
  case Kind::letrec:
    return true;
  case Kind::rd: // W.rd_V(x.N)
    return is_value(*m.a) && is_value(*m.b);
  default:
    return false;
  }
}

std::optional<Decomposition> decompose(const Term& m) {
  if (is_value(*m) || is_bool_value(*m)) return std::nullopt;
  Path path;
  Term at = m;
  for (;;) {
    if (is_redex(*at)) return Decomposition{path, at};
    bool moved = false;
    for (const int i : evaluation_children(*at)) {
      if (is_value(*child(*at, i))) continue;
      path.push_back(i);
      at = child(*at, i);
      moved = true;
      break;
    }
    if (!moved) return std::nullopt; // a stuck form outside the grammar (ill-typed)
  }
}

std::vector<Decomposition> all_redex_occurrences(const Term& m) {
  std::vector<Decomposition> out;
  Path path;
  enumerate(m, path, out);
  return out;
}

Term subterm(const Term& m, const Path& hole) {
  Term at = m;
  for (const int i : hole)
    at = child(*at, i);
  return at;
}

Term plug(const Term& m, const Path& hole, const Term& n) {
  if (hole.empty()) return n;
  const Path rest(hole.begin() + 1, hole.end());
  Term kids[3] = {m->a, m->b, m->c};
  kids[hole.front()] = plug(kids[hole.front()], rest, n);
  return with_children(*m, kids[0], kids[1], kids[2]);
}

} // namespace adsem::simple_diff
