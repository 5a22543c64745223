#pragma once
// Rules as data: one abstraction for every rule a paper names (reduction and evaluation rules,
// context rules, the clauses of an AD transformation, and user rules compiled by check-rule).
//
// Read beside PLT Redex: a `reduction-relation` is an ordered list of cases, each
// `(--> pattern term rule-name side-conditions ...)`; rule names, traces and coverage come
// from the cases, and `extend-reduction-relation` replaces a case by name. Here:
//
//   Rule<R>      one case of the relation R: the paper's name, its citation and kind, the node
//                kinds it can match, its side condition `match` and its `result`, in one place.
//   RuleBook     a calculus's rules, one ordered list in paper order (one entry type per
//                relation, held in a variant); lookup by name; per relation, a dispatch index
//                from node kind to the entries that can fire there, built once per book, so
//                choosing a rule costs an array index and a short loop (no allocation).
//   RulePatch    a named list of edits of a book (replace, remove or add an entry): a mutant,
//                or a user's rule file. A patch makes a new book; the semantics never branch on
//                a mutant.
//
// A relation R is a small traits struct supplied by the calculus:
//   using Context = ...;  the machine a rule fires in (fuel, environment, trace)
//   using Redex   = ...;  what the strategy hands the rule: the node and its evaluated premises
//   using Output  = ...;  what the rule produces (a value, a trace term, a boolean, a term)
//   using Kind    = ...;  the node-kind enum the dispatch index is keyed by
//   static constexpr std::size_t kind_count;  number of node kinds
//   static Kind kind(const Redex&);            the redex's node kind
//   static const Node& node(const Redex&);     where the step is (traces, error positions)
// and, for a rule that takes several steps (a whole-term transformation), optionally
//   static constexpr bool counts_own_steps = true;
// and, for rules that carry more than their name, side condition and result (e.g. the priority
// class a strategy orders redexes by), optionally
//   using Extra = ...;                         the type of each entry's `extra`
// and, to let entries declare the kind of one operand their side condition needs, optionally
//   static Kind operand(const Redex&);         that operand's kind (Rule::operands)
// The strategy (evaluator, reducer or transformation walk) decides WHERE a rule is tried; it
// asks the book WHICH rule fires with `select`, takes the step under the entry's name, and calls
// the entry's `result`. No rule name appears at a firing site.
#include <algorithm>
#include <array>
#include <concepts>
#include <cstddef>
#include <functional>
#include <numeric>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <tuple>
#include <variant>
#include <vector>

namespace adsem {

// What kind of rule an entry is (`adsem calculi --json` lists it).
enum class RuleKind {
  evaluation,     // a big-step rule: LHS ⇓ V (simple-diff's O- and S-rules)
  reduction,      // a small-step rule: LHS → RHS, tried where the strategy decomposes
  context,        // a context / congruence rule (S-ctx, O-ctx): where evaluation descends
  transformation, // a clause of an AD transformation (Fig. 6's R-rules, D, T_x, Dfwd, ...)
  user,           // a rule from a user's rule file (check-rule, `--rules`)
  equivalence,    // a rule of a structural equivalence ≡ (both directions), no step of a strategy
};

constexpr std::string_view kind_name(RuleKind kind) {
  switch (kind) {
  case RuleKind::evaluation:
    return "evaluation";
  case RuleKind::reduction:
    return "reduction";
  case RuleKind::context:
    return "context";
  case RuleKind::transformation:
    return "transformation";
  case RuleKind::user:
    return "user";
  case RuleKind::equivalence:
    return "equivalence";
  }
  return "?";
}

// What a reader of the paper needs to find the rule: its name, where it is printed, what it says.
struct RuleInfo {
  std::string name;     // as the paper prints it: "O-add", "R-let", "(9)", "Z3"
  std::string citation; // user-facing: paper, figure or section (and transcript lines)
  RuleKind kind = RuleKind::evaluation;
  std::string summary; // the rule in one line, as printed
  // Non-empty when no step of this implementation is this rule (e.g. a context rule that the
  // compositional reading realises as the premises of every redex rule): the reason. Such an
  // entry is listed, never indexed, and rule coverage does not expect it to fire.
  std::string unfireable = {};
  std::size_t position = 0; // the entry's place in its book (set by the book; rule coverage)
};

// What else a relation's rules carry: R::Extra when R declares it (e.g. a priority class of
// the strategy), nothing otherwise.
template <class R> struct rule_extra { using type = std::monostate; };
template <class R>
requires requires {
  typename R::Extra;
}
struct rule_extra<R> {
  using type = typename R::Extra;
};

template <class R> struct Rule {
  using Context = typename R::Context;
  using Redex = typename R::Redex;
  using Output = typename R::Output;
  using Kind = typename R::Kind;
  using Match = std::function<bool(const Context&, const Redex&)>;
  using Result = std::function<Output(Context&, const Redex&, const RuleInfo& self)>;

  RuleInfo info;
  // The node kinds (as R::kind numbers them) this rule can match; empty: every kind.
  std::vector<Kind> kinds = {};
  // The side condition on a redex of one of those kinds; empty: every such redex matches.
  Match match = {};
  // What the rule produces. `self` is this entry's info (a rule that takes several steps, such as
  // a whole-term transformation, counts them under its own name).
  Result result = {};
  // The relation's extra data for this rule (R::Extra), if it declares any.
  [[no_unique_address]] typename rule_extra<R>::type extra = {};
  // [perf] Where R names an operand (R::operand): the operand kinds at which `match` can hold;
  // empty: any. Implied by `match`, so `select` skips the entry at another operand kind without
  // asking it. A patch's replacement of the entry drops it (the new `match` may read more).
  std::vector<Kind> operands = {};

  bool fireable() const { return info.unfireable.empty() && static_cast<bool>(result); }
};

// True when R's rules count their own steps (the firing site then takes none).
template <class R> inline constexpr bool counts_own_steps = requires {
  requires R::counts_own_steps;
};

// True when R names an operand whose kind entries may declare (Rule::operands).
template <class R> inline constexpr bool names_operand = requires(const typename R::Redex& r) {
  { R::operand(r) } -> std::same_as<typename R::Kind>;
};

template <class... Relations> class RuleBook;

// A named list of edits of a book: replace an entry (keeping its place and name), remove one,
// or add one before a named entry (or at the end). A mutant is one; so is a user's rule file.
template <class Book> struct RulePatch {
  using Entry = typename Book::Entry;
  struct Replace {
    std::string name;
    std::function<Entry(const Entry&)> with; // receives the entry it replaces
  };
  struct Remove {
    std::string name;
  };
  struct Add {
    Entry entry;
    std::string before = {}; // "" = after every entry
  };
  using Edit = std::variant<Replace, Remove, Add>;

  std::string name;
  std::vector<Edit> edits = {};

  // Replace the entry `rule` of relation R by change(old entry); the name and citation stay
  // unless `change` sets them.
  template <class R, class F> RulePatch& replace(std::string rule, F change) {
    edits.push_back(Replace{std::move(rule), [change = std::move(change)](const Entry& old) {
                              return Entry(change(std::get<Rule<R>>(old)));
                            }});
    return *this;
  }
  RulePatch& remove(std::string rule) {
    edits.push_back(Remove{std::move(rule)});
    return *this;
  }
  template <class R> RulePatch& add(Rule<R> rule, std::string before = {}) {
    edits.push_back(Add{Entry(std::move(rule)), std::move(before)});
    return *this;
  }
};

template <class... Relations> class RuleBook {
public:
  using Entry = std::variant<Rule<Relations>...>;
  using Patch = RulePatch<RuleBook>;

  // The entries in paper order. Throws std::logic_error on a repeated name or a fireable-looking
  // entry without a result.
  explicit RuleBook(std::vector<Entry> entries) : entries_(std::move(entries)) {
    for (std::size_t i = 0; i < entries_.size(); ++i) {
      RuleInfo& info = std::visit([](auto& rule) -> RuleInfo& { return rule.info; }, entries_[i]);
      info.position = i;
      for (std::size_t j = 0; j < i; ++j)
        if (this->info(j).name == info.name)
          throw std::logic_error("rule book: the name '" + info.name + "' is used twice");
    }
    (build_index<Relations>(), ...);
    by_name_.resize(entries_.size());
    std::iota(by_name_.begin(), by_name_.end(), std::size_t{0});
    std::ranges::sort(by_name_, std::less<>{},
                      [this](std::size_t i) -> const std::string& { return this->info(i).name; });
  }
  // A book is shared (std::shared_ptr<const RuleBook>) and never copied: its indexes point into
  // its own entries.
  RuleBook(const RuleBook&) = delete;
  RuleBook& operator=(const RuleBook&) = delete;
  RuleBook(RuleBook&&) = default;
  RuleBook& operator=(RuleBook&&) = default;

  std::span<const Entry> entries() const { return entries_; }
  std::size_t size() const { return entries_.size(); }
  const RuleInfo& info(std::size_t position) const {
    return std::visit([](const auto& rule) -> const RuleInfo& { return rule.info; },
                      entries_[position]);
  }
  // The positions in the order of the entries' names, the order of a RuleCounter: counts kept
  // by position are added to a counter in one pass over it (RuleCounter::add_from).
  std::span<const std::size_t> by_name() const { return by_name_; }
  std::vector<RuleInfo> infos() const {
    std::vector<RuleInfo> out;
    out.reserve(entries_.size());
    for (std::size_t i = 0; i < entries_.size(); ++i)
      out.push_back(info(i));
    return out;
  }
  std::optional<std::size_t> position(std::string_view name) const {
    for (std::size_t i = 0; i < entries_.size(); ++i)
      if (info(i).name == name) return i;
    return std::nullopt;
  }
  // The entry `name` of relation R; throws std::logic_error if there is none.
  template <class R> const Rule<R>& get(std::string_view name) const {
    const auto i = position(name);
    const Rule<R>* rule = i ? std::get_if<Rule<R>>(&entries_[*i]) : nullptr;
    if (!rule) throw std::logic_error("rule book: no rule '" + std::string(name) + "' here");
    return *rule;
  }

  // The first entry of R, in book order, that can fire on the redex: its kinds include the
  // redex's kind and its side condition holds. nullptr when no rule applies (the strategy
  // decides what that means: stuck, a value, an error).
  template <class R>
  const Rule<R>* select(const typename R::Context& context, const typename R::Redex& redex) const {
    const Index<R>& index = std::get<Index<R>>(indexes_);
    const auto kind = static_cast<std::size_t>(R::kind(redex));
    const std::vector<const Rule<R>*>* rules = &index.by_kind[kind];
    if constexpr (names_operand<R>)
      rules = &index.by_operand[kind * R::kind_count + static_cast<std::size_t>(R::operand(redex))];
    for (const Rule<R>* rule : *rules)
      if (!rule->match || rule->match(context, redex)) return rule;
    return nullptr;
  }

  // Every entry of R that can fire on a redex of `kind`, in book order: for a strategy that
  // offers all the redex instances at a position (S_rand, unique decomposition), not the first.
  template <class R> std::span<const Rule<R>* const> candidates(typename R::Kind kind) const {
    return std::get<Index<R>>(indexes_).by_kind[static_cast<std::size_t>(kind)];
  }

  // A new book: this one's entries with the patch's edits applied in order. Throws
  // std::logic_error when an edit names an entry the book does not have.
  RuleBook patched(const Patch& patch) const {
    std::vector<Entry> entries(entries_.begin(), entries_.end());
    const auto find = [&](const std::string& name) {
      for (auto it = entries.begin(); it != entries.end(); ++it)
        if (std::visit([](const auto& rule) -> const std::string& { return rule.info.name; },
                       *it) == name)
          return it;
      throw std::logic_error("patch '" + patch.name + "': no rule '" + name + "' to edit");
    };
    for (const auto& edit : patch.edits) {
      if (const auto* replace = std::get_if<typename Patch::Replace>(&edit)) {
        const auto it = find(replace->name);
        *it = replace->with(*it);
        std::visit([](auto& rule) { rule.operands.clear(); }, *it);
      } else if (const auto* remove = std::get_if<typename Patch::Remove>(&edit)) {
        entries.erase(find(remove->name));
      } else {
        const auto& add = std::get<typename Patch::Add>(edit);
        entries.insert(add.before.empty() ? entries.end() : find(add.before), add.entry);
      }
    }
    return RuleBook(std::move(entries));
  }

private:
  template <class R> struct Index {
    std::array<std::vector<const Rule<R>*>, R::kind_count> by_kind;
    // Where R names an operand: by kind × operand kind (kind_count² lists), each entry of the
    // kind's list whose declared operands admit that operand kind.
    std::vector<std::vector<const Rule<R>*>> by_operand;
  };

  template <class R> void build_index() {
    Index<R>& index = std::get<Index<R>>(indexes_);
    for (const Entry& entry : entries_) {
      const Rule<R>* rule = std::get_if<Rule<R>>(&entry);
      if (!rule || !rule->info.unfireable.empty()) continue;
      if (!rule->result)
        throw std::logic_error("rule book: '" + rule->info.name + "' has no result");
      if (rule->kinds.empty())
        for (auto& at : index.by_kind)
          at.push_back(rule);
      else
        for (const typename R::Kind kind : rule->kinds)
          index.by_kind.at(static_cast<std::size_t>(kind)).push_back(rule);
    }
    if constexpr (names_operand<R>) {
      index.by_operand.resize(R::kind_count * R::kind_count);
      for (std::size_t kind = 0; kind < R::kind_count; ++kind)
        for (std::size_t operand = 0; operand < R::kind_count; ++operand)
          for (const Rule<R>* rule : index.by_kind[kind])
            if (rule->operands.empty() ||
                std::ranges::find(rule->operands, static_cast<typename R::Kind>(operand)) !=
                    rule->operands.end())
              index.by_operand[kind * R::kind_count + operand].push_back(rule);
    }
  }

  std::vector<Entry> entries_;
  std::tuple<Index<Relations>...> indexes_;
  std::vector<std::size_t> by_name_;
};

// A book's table, one call per entry: the entry's info (`unfireable` empty unless no step of
// this implementation is the rule), and the entry of relation R.
inline RuleInfo rule_info(std::string name, std::string citation, RuleKind kind,
                          std::string summary, std::string_view unfireable = {}) {
  RuleInfo out;
  out.name = std::move(name);
  out.citation = std::move(citation);
  out.kind = kind;
  out.summary = std::move(summary);
  out.unfireable = std::string(unfireable);
  return out;
}
template <class R>
Rule<R> rule_entry(RuleInfo info, std::vector<typename R::Kind> kinds,
                   typename Rule<R>::Match match, typename Rule<R>::Result result) {
  Rule<R> out;
  out.info = std::move(info);
  out.kinds = std::move(kinds);
  out.match = std::move(match);
  out.result = std::move(result);
  return out;
}

} // namespace adsem
