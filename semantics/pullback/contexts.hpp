#pragma once
// The evaluation contexts of seed 000 §3.4 (L359; spec §4.6) as entries of the rule book, one per
// production of C under the name the paper prints, and the strategy's index of them. Both readers
// of the grammar read this one table: the step function of Lemma 3.8 (strategy.cpp: the children
// it searches at a node, in the productions' order) and the grammar read relationally
// (Machine::decompose, unique decomposition). A mutant edits the contexts as it edits a rule: a
// BookPatch replacing an entry (properties/pullback/mutants.cpp).
#include <array>
#include <cstddef>
#include <span>
#include <vector>

#include "semantics/pullback/relations.hpp"

namespace adsem::pullback {

// The productions of C, in the paper's order (rules.cpp puts them in the book).
std::vector<Book::Entry> context_entries();

// Where a node stands for the productions that read a pullback's body (ID-10): not a pullback,
// or a pullback whose body is a let (its finality is A*'s and rule 7/8's question), elementary, a
// split body ⟨y,E⟩, or none of these (not final).
enum class Standing : unsigned char { other, let_body, elementary, split, not_final };
Standing pullback_standing(const Term& t);
// [perf] Inline: the search asks it at every node it visits, and most are no pullback.
[[gnu::always_inline]] inline Standing standing(const Term& t) {
  return t->kind == Kind::pullback ? pullback_standing(t) : Standing::other;
}

// The book's contexts by node kind, for the strategy: made once per machine.
class Contexts {
public:
  explicit Contexts(const Book& book);

  // The child the step function searches after `after` (-1: the first), or -1 when none is left:
  // the evaluation holes of the kind's productions that hold at `standing`, in the book's order.
  // [perf] Inline, and read from a table made once for nodes of up to `narrow` children: the
  // search asks it at every child of every node it visits.
  [[gnu::always_inline]] int next_kid(const Term& t, int after, Standing at) const {
    const Order& order = orders_[static_cast<std::size_t>(t->kind)][static_cast<std::size_t>(at)];
    const auto kids = t->kids.size();
    if (kids <= narrow && after < static_cast<int>(narrow))
      return order.next[kids][static_cast<std::size_t>(after + 1)];
    return order.after(after, static_cast<int>(kids));
  }

  // The productions of a kind in the book's order (Machine::decompose reads them relationally).
  std::span<const Hole> holes(Kind kind) const {
    const auto k = static_cast<std::size_t>(kind);
    return {holes_[k].data(), hole_counts_[k]};
  }
  // Whether a production of the kind has a C_A hole (A* on that child, at the node).
  bool administrative(Kind kind) const { return administrative_[static_cast<std::size_t>(kind)]; }

  static bool holds(const Hole& hole, Standing at);

private:
  struct Slot {
    int kid = 0;
    bool each_later = false;
    bool covers(int k) const { return k == kid || (each_later && k > kid); }
  };
  static constexpr std::size_t max_slots = 4;
  static constexpr std::size_t standings = 5;
  static constexpr std::size_t narrow = 7;
  struct Order {
    std::array<Slot, max_slots> slots{};
    std::size_t count = 0;
    // next[n][after + 1]: after(after, n), for n ≤ narrow children
    std::array<std::array<signed char, narrow + 1>, narrow + 1> next{};
    int after(int after, int kids) const;
  };
  std::array<std::array<Order, standings>, term_kind_count> orders_{};
  std::array<std::array<Hole, max_slots>, term_kind_count> holes_{};
  std::array<std::size_t, term_kind_count> hole_counts_{};
  std::array<bool, term_kind_count> administrative_{};
};

// The paper's book's, made once.
const Contexts& paper_contexts();

} // namespace adsem::pullback
