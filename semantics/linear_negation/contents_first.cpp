// seed 002, §6, L632-644 (spec §6 P25): normalise the abstractions an ES shares before (9)
// copies them.
#include "semantics/linear_negation/contents_first.hpp"

#include <utility>
#include <vector>

namespace adsem::linear_negation {

namespace {

struct Walk {
  const RunOptions& options;
  ContentsFirst& out;

  // t with its contents normalised; gamma: the exponential variables bound above t.
  Term go(const Term& t, const Context& gamma) {
    const Node& n = *t;
    if (n.kids.empty()) return t;
    std::vector<Term> kids = n.kids;
    bool changed = false;
    const auto set = [&](std::size_t i, Term k) {
      changed = changed || k != kids[i];
      kids[i] = std::move(k);
    };
    switch (n.kind) {
    case Kind::lam:
      set(0, go(kids[0], bind(gamma, n.x)));
      break;
    case Kind::let:
      set(1,
          n.x.linear || kids[1]->kind != Kind::lam ? go(kids[1], gamma) : normal(kids[1], gamma));
      set(0, go(kids[0], bind(gamma, n.x)));
      break;
    case Kind::let_pair:
      set(1, go(kids[1], gamma));
      set(0, go(kids[0], bind(bind(gamma, n.x), n.y)));
      break;
    default:
      for (std::size_t i = 0; i < kids.size(); ++i)
        set(i, go(kids[i], gamma));
    }
    return changed ? rebuild(n, std::move(kids)) : t;
  }

  static Context bind(const Context& gamma, const Binder& b) {
    Context out = gamma;
    if (!b.linear && b.type) out[b.name] = b.type;
    return out;
  }

  Term normal(const Term& v, const Context& gamma) {
    RunOptions o = options;
    o.trace = false;
    for (const auto& [name, type] : gamma)
      o.free_types.emplace(name, type);
    const Run run = normalise(v, o);
    out.steps += run.steps;
    ++out.contents;
    return run.result;
  }
};

} // namespace

ContentsFirst normalise_contents_first(const Term& t, const RunOptions& options) {
  ContentsFirst out;
  out.term = Walk{options, out}.go(t, {});
  return out;
}

} // namespace adsem::linear_negation
