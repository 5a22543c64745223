#pragma once
// The type system of seed 000 Fig. 2 (L180-187; spec §3.1) with readable located errors.
// The (dual) rule's side condition x ∈ lin(S₁) comes in three modes (spec §2.4, §3.2, ID-3):
//   strict      the paper's lin (let read as its β-redex); for source programs;
//   plus        lin⁺ (let inlined, then analysed); for terms produced by reduction;
//   structural  no linearity condition (linearity is then checked numerically, P7/P8).
// [ID, ours] strict lin also takes lin(0) = all variables and lin(P₁+P₂) = lin(P₁) ∩ lin(P₂): the
// paper's own rule 13a (λv.⟨v_p,0⟩)* and its sums in linear positions need them (spec §2.4 "Gap").
#include <map>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

#include "syntax/pullback/ast.hpp"
#include "syntax/pullback/node_table.hpp"

namespace adsem::pullback {

enum class LinMode { strict, plus, structural };

using Context = std::map<std::string, Type>;

// The type of t in Γ (AdsemError(type) with the position of the offending subterm otherwise).
Type typecheck(const Term& t, const Context& gamma = {}, LinMode mode = LinMode::strict);
// The error message, or nullopt when t is well typed.
std::optional<std::string> type_error(const Term& t, const Context& gamma = {},
                                      LinMode mode = LinMode::strict);

// The types of compound subterms already checked, kept across checks of terms that share nodes:
// a reduction step rebuilds only the path down to its redex and the contractum, so checking every
// term of a run node by node is quadratic while most of each term was checked a step earlier. A
// node is taken from the memo only where checking it again must give the same answer: it was
// checked in this mode, every free variable is bound to the very type it was bound to then, and it
// sits no deeper than then (the depth guard). Only successful checks are remembered, so an
// ill-typed node is checked, and reported, every time it appears.
class CheckMemo {
public:
  explicit CheckMemo(LinMode mode) : mode_(mode) {}
  LinMode mode() const { return mode_; }

  struct Entry {
    Type type;               // the type the check gave
    std::uint32_t first = 0; // its free variables' types: free_types_[first, first + count)
    std::uint32_t count = 0; // (the types facts(node).free were bound to)
    int depth = 0;           // the depth it was checked at
  };
  const Entry* find(const Node* n) const { return entries_.find(n); }
  // The types the free variables of e's node were bound to, in the order of facts(node).free.
  std::span<const Type> free_types(const Entry& e) const {
    return {free_types_.data() + e.first, e.count};
  }
  void remember(const Term& node, Type type, std::span<const Type> free_types, int depth);

private:
  static constexpr std::size_t max_entries = 200'000; // then it starts again (memory bound)
  LinMode mode_;
  NodeTable<Entry> entries_; // holds its nodes: a key's address cannot be reused
  std::vector<Type> free_types_;
};

// typecheck with a memo: the same type, or the same error, as typecheck(t, gamma, memo.mode()).
Type typecheck(const Term& t, const Context& gamma, CheckMemo& memo);

// Linear variables (spec §2.4). `all` stands for 𝒱 (lin⁺(0) = every variable).
struct LinSet {
  bool all = false;
  std::set<std::string> vars;
  bool contains(const std::string& x) const { return all || vars.count(x) > 0; }
};
LinSet lin(const Term& t, LinMode mode = LinMode::strict);

} // namespace adsem::pullback

namespace adsem::pullback {
// Gives every unannotated `zero` the type its position demands (bidirectional reading of the
// (zero) rule, spec §3.2), where the context determines it; `expected` may be null.
Term annotate_zeros(const Term& t, const Type& expected = nullptr);
} // namespace adsem::pullback
