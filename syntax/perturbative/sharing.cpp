#include "syntax/perturbative/sharing.hpp"

#include <map>
#include <set>
#include <tuple>
#include <unordered_set>
#include <utility>
#include <vector>

#include "syntax/core/depth_guard.hpp"

namespace adsem::perturbative {

namespace {

// Distinct Simple nodes by address; each application's argument bag is one more node.
struct DagCount {
  std::unordered_set<const Simple*> seen;
  long nodes = 0;
  DepthBudget budget{DepthBudget::default_limit, 0, ErrorKind::eval};
  void bag(const Term& m) {
    ++nodes;
    for (const SimpleP& s : m.items)
      simple(*s);
  }
  void simple(const Simple& s) {
    if (!seen.insert(&s).second) return;
    const DepthGuard guard(budget);
    ++nodes;
    if (s.operand) simple(*s.operand);
    if (s.kind == Kind::app) bag(s.argument);
  }
};

// Hash-consing: every node gets the id of its structure (form, annotations, children's ids); the
// table's size is the number of distinct nodes.
struct HashCons {
  using Key = std::tuple<int, std::string, std::string, int, double, long, long>;
  std::map<Key, long> simples;
  std::map<std::pair<std::string, std::vector<long>>, long> bags; // (type, summand ids)
  std::map<const Simple*, long> memo; // by address, so shared input is visited once
  DepthBudget budget{DepthBudget::default_limit, 0, ErrorKind::eval};

  long bag(const Term& m) {
    std::vector<long> ids;
    for (const SimpleP& s : m.items)
      ids.push_back(simple(*s));
    return bags
        .emplace(std::pair{type_text(m.type), std::move(ids)}, static_cast<long>(bags.size()))
        .first->second;
  }
  long simple(const Simple& s) {
    if (const auto it = memo.find(&s); it != memo.end()) return it->second;
    const DepthGuard guard(budget);
    const long op = s.operand ? simple(*s.operand) : -1;
    const long arg = s.kind == Kind::app ? bag(s.argument) : -1;
    const Key key{static_cast<int>(s.kind),
                  type_text(s.type),
                  s.kind == Kind::lam ? s.name + ":" + type_text(s.binder_type) : s.name,
                  s.index,
                  s.value,
                  op,
                  arg};
    const long id = simples.emplace(key, static_cast<long>(simples.size())).first->second;
    memo.emplace(&s, id);
    return id;
  }
};

} // namespace

long dag_size(const Term& m) {
  DagCount c;
  c.bag(m);
  return c.nodes;
}

long hashconsed_size(const Term& m) {
  HashCons h;
  h.bag(m);
  return static_cast<long>(h.simples.size() + h.bags.size());
}

} // namespace adsem::perturbative
