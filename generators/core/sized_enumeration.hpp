#pragma once
// Bounded-exhaustive enumeration of typed terms by size, smallest first: PLT Redex's enumeration
// (`generate-term` with `#:i-th`; New, Fetscher, Findler and McCarthy, "Fair Enumeration
// Combinators", and Fetscher et al., "Making Random Judgments", which compares it with random
// generation) and SmallCheck/LeanCheck's tiers. A calculus writes its typing rules as a grammar
// over *sorts* (a context and a type): for a sort, the productions whose conclusion has that
// sort, each with the nodes it adds and the sorts of its premises. Counts are memoised by (sort,
// size), so "how many terms of size <= K" costs one pass over the sorts reached, and the i-th
// term of a size is decoded from its index (unranking) without building the others: the
// enumeration needs no list of terms in memory and can resume anywhere.
//
// A Grammar supplies
//   using Sort = ...; using Term = ...;
//   std::string key(const Sort&) const;                               // equal sorts, equal keys
//   std::vector<EnumProduction<Sort, Term>> productions(const Sort&) const;
// and every production adds at least one node, so a premise is always smaller than its
// conclusion: the recursion of count and nth is at most `max_size` deep.
#include <cstdint>
#include <functional>
#include <limits>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace adsem::gen {

// Numbers of terms, saturating at the largest value (reported as "at least").
using EnumCount = std::uint64_t;
inline constexpr EnumCount enum_count_saturated = std::numeric_limits<EnumCount>::max();
inline EnumCount add_saturating(EnumCount a, EnumCount b) {
  return a > enum_count_saturated - b ? enum_count_saturated : a + b;
}
inline EnumCount mul_saturating(EnumCount a, EnumCount b) {
  if (a == 0 || b == 0) return 0;
  return a > enum_count_saturated / b ? enum_count_saturated : a * b;
}

// One typing rule read as a way to build a term of a sort: `own` nodes of its own (>= 1), then
// one subterm per premise, of the premise's sort; `build` gets the subterms in premise order.
template <class Sort, class Term> struct EnumProduction {
  std::string name;
  int own = 1;
  std::vector<Sort> premises;
  std::function<Term(const std::vector<Term>&)> build;
};

// The guards of an enumeration (the memory it may hold, the sizes it may be asked about).
struct EnumerationLimits {
  int max_size = 10; // no count or term of a larger size is computed
  // distinct sorts memoised, each with its productions: a bound past it is refused rather than
  // run out of memory (simple-diff: counts to size 16 in 630 MB; size 18 is refused at 780 MB)
  std::size_t max_sorts = 50'000;
};

// A limit of EnumerationLimits was reached (a usage error for the caller: ask for less).
class EnumerationLimitReached : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

// Calls f(parts) for every way of writing `total` as `k` ordered parts each >= 1, the first part
// varying slowest (an odometer: no recursion). k == 0 calls f once when total == 0.
template <class F> void for_each_split(int total, int k, F&& f) {
  if (k == 0) {
    if (total == 0) f(std::vector<int>{});
    return;
  }
  if (total < k) return;
  std::vector<int> parts(static_cast<std::size_t>(k), 1);
  parts.back() = total - (k - 1);
  for (;;) {
    f(parts);
    // the next split: move one unit from the tail into the rightmost part that can still grow
    int j = k - 2;
    for (; j >= 0; --j) {
      int rest = 0;
      for (int i = j + 1; i < k; ++i)
        rest += parts[static_cast<std::size_t>(i)];
      if (rest > k - 1 - j) { // the parts after j can give one unit and stay >= 1
        ++parts[static_cast<std::size_t>(j)];
        for (int i = j + 1; i < k - 1; ++i)
          parts[static_cast<std::size_t>(i)] = 1;
        parts.back() = rest - 1 - (k - 2 - j);
        break;
      }
    }
    if (j < 0) return;
  }
}

// The key of a sort Γ ⊢ _ : A at a binder depth, for grammars whose sorts are that: `text`
// prints a type, Γ is a list of (name, type) pairs.
template <class Gamma, class Type, class TypeText>
std::string typed_sort_key(const Gamma& gamma, const Type& type, int depth, TypeText text) {
  std::string k = text(type) + '|';
  for (const auto& [x, t] : gamma)
    k += x + ':' + text(t) + ',';
  return k + '|' + std::to_string(depth);
}

template <class Grammar> class SizedEnumeration {
public:
  using Sort = typename Grammar::Sort;
  using Term = typename Grammar::Term;
  using Production = EnumProduction<Sort, Term>;

  SizedEnumeration(Grammar grammar, EnumerationLimits limits)
      : grammar_(std::move(grammar)), limits_(limits) {}

  const Grammar& grammar() const { return grammar_; }
  const EnumerationLimits& limits() const { return limits_; }

  // The terms of `sort` with exactly `size` nodes.
  EnumCount count(const Sort& sort, int size) { return count_at(entry(sort), size); }
  // The index-th of them (0-based; index < count(sort, size)).
  Term nth(const Sort& sort, int size, EnumCount index) { return nth_at(entry(sort), size, index); }
  // Sorts memoised so far.
  std::size_t sorts() const { return memo_.size(); }

private:
  struct Entry {
    Sort sort;
    std::vector<Production> productions;
    // per production, the entries of its premises (resolved when first counted)
    std::vector<std::vector<Entry*>> premises;
    std::vector<std::optional<EnumCount>> counts; // by size, 0..max_size
  };

  Entry& entry(const Sort& sort) {
    std::string key = grammar_.key(sort);
    if (auto it = memo_.find(key); it != memo_.end()) return *it->second;
    if (memo_.size() >= limits_.max_sorts)
      throw EnumerationLimitReached("the enumeration reached its limit of " +
                                    std::to_string(limits_.max_sorts) + " sorts");
    auto made = std::make_unique<Entry>();
    made->sort = sort;
    made->productions = grammar_.productions(sort);
    made->premises.resize(made->productions.size());
    made->counts.resize(static_cast<std::size_t>(limits_.max_size) + 1);
    Entry& e = *made;
    memo_.emplace(std::move(key), std::move(made));
    return e;
  }

  const std::vector<Entry*>& premises_of(Entry& e, std::size_t p) {
    std::vector<Entry*>& kids = e.premises[p];
    if (kids.empty() && !e.productions[p].premises.empty())
      for (const Sort& s : e.productions[p].premises)
        kids.push_back(&entry(s)); // unordered_map keeps its elements in place on rehash
    return kids;
  }

  void check_size(int size) const {
    if (size > limits_.max_size)
      throw EnumerationLimitReached("size " + std::to_string(size) + " is over the bound " +
                                    std::to_string(limits_.max_size));
  }

  EnumCount count_at(Entry& e, int size) {
    if (size <= 0) return 0;
    check_size(size);
    std::optional<EnumCount>& memo = e.counts[static_cast<std::size_t>(size)];
    if (memo) return *memo;
    EnumCount total = 0;
    for (std::size_t p = 0; p < e.productions.size(); ++p)
      total = add_saturating(total, production_count(e, p, size));
    memo = total;
    return total;
  }

  // Terms of size `size` built by production p of e: over the splits of the premises' sizes.
  EnumCount production_count(Entry& e, std::size_t p, int size) {
    const int rest = size - e.productions[p].own;
    if (rest < static_cast<int>(e.productions[p].premises.size())) return 0; // each premise >= 1
    const auto& kids = premises_of(e, p);
    EnumCount total = 0;
    for_each_split(rest, static_cast<int>(kids.size()), [&](const std::vector<int>& parts) {
      total = add_saturating(total, split_count(kids, parts));
    });
    return total;
  }

  EnumCount split_count(const std::vector<Entry*>& kids, const std::vector<int>& parts) {
    EnumCount n = 1;
    for (std::size_t i = 0; i < kids.size() && n != 0; ++i)
      n = mul_saturating(n, count_at(*kids[i], parts[i]));
    return n;
  }

  Term nth_at(Entry& e, int size, EnumCount index) {
    check_size(size);
    for (std::size_t p = 0; p < e.productions.size(); ++p) {
      if (size - e.productions[p].own < static_cast<int>(e.productions[p].premises.size()))
        continue;
      const auto& kids = premises_of(e, p);
      std::optional<Term> found;
      for_each_split(size - e.productions[p].own, static_cast<int>(kids.size()),
                     [&](const std::vector<int>& parts) {
                       if (found) return;
                       const EnumCount block = split_count(kids, parts);
                       if (index >= block) {
                         index -= block;
                         return;
                       }
                       // mixed radix over the premises, the first premise varying fastest
                       std::vector<Term> subterms;
                       subterms.reserve(kids.size());
                       for (std::size_t i = 0; i < kids.size(); ++i) {
                         const EnumCount radix = count_at(*kids[i], parts[i]);
                         subterms.push_back(nth_at(*kids[i], parts[i], index % radix));
                         index /= radix;
                       }
                       found = e.productions[p].build(subterms);
                     });
      if (found) return *found;
    }
    throw std::out_of_range("enumeration index past the count of its size");
  }

  Grammar grammar_;
  EnumerationLimits limits_;
  std::unordered_map<std::string, std::unique_ptr<Entry>> memo_;
};

} // namespace adsem::gen
