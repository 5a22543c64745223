// The strategies of spec §4.7 (S_bp, S_lo, S_rand) over the rules of Table 2 (seed 002 L328-367),
// which are the entries of the rule book (rules.cpp): where a rule is tried, and which instance.
#include "semantics/linear_negation/reduction.hpp"

#include "semantics/linear_negation/reducer_parts.hpp"

#include "semantics/linear_negation/free_table.hpp"

#include <algorithm>
#include <atomic>
#include <charconv>
#include <climits>
#include <optional>
#include <random>
#include <stdexcept>
#include <unordered_map>

#include "semantics/core/lazy_mt19937_64.hpp"
#include "semantics/linear_negation/primitives.hpp"
#include "syntax/linear_negation/nesting.hpp"
#include "syntax/linear_negation/printer.hpp"

namespace adsem::linear_negation {

// Two walks down the ES bodies: the first makes them (force) and counts them, the second puts
// each in its place, innermost first, so that no other list is built on the way.
Peeled peel(const Term& t) {
  Peeled out;
  std::size_t depth = 0;
  const Term* at = &t;
  force(**at);
  while (binds_es(**at)) {
    ++depth;
    at = &(*at)->body();
    force(**at);
  }
  out.core = *at;
  out.frames.resize(depth);
  at = &t;
  for (std::size_t i = depth; i-- > 0; at = &(*at)->body())
    out.frames[i] = *at;
  return out;
}

Term wrap(Term core, const std::vector<Term>& frames) {
  for (const Term& f : frames)
    core = rebuild(*f, {core, f->bound()});
  return core;
}

Term sum_of(const std::vector<Term>& leaves) {
  Term out = leaves.front();
  for (std::size_t i = 1; i < leaves.size(); ++i)
    out = add(out, leaves[i]);
  return out;
}

// Receives the redex instances in leftmost-outermost order and keeps what the strategy needs:
// all of them (all_steps), the first (S_lo), the first of the best class (S_bp), or a uniform one
// by reservoir sampling (S_rand). Paths are copied only when kept.
struct Reducer::Sink {
  enum class Mode { all, first, best, sample } mode = Mode::all;
  std::vector<Candidate> kept;
  long seen = 0;
  std::mt19937_64* rng = nullptr;
  bool done = false;

  void offer(const std::vector<int>& path, const Offer& o) {
    ++seen;
    switch (mode) {
    case Mode::all:
      kept.push_back(Candidate{path, o.rule, o.cls, o.nth});
      return;
    case Mode::first:
      kept.push_back(Candidate{path, o.rule, o.cls, o.nth});
      done = true;
      return;
    case Mode::best:
      if (kept.empty() || o.cls < kept.front().cls)
        kept.assign(1, Candidate{path, o.rule, o.cls, o.nth});
      if (o.cls == 1) done = true;
      return;
    case Mode::sample:
      if (std::uniform_int_distribution<long>(0, seen - 1)(*rng) == 0)
        kept.assign(1, Candidate{path, o.rule, o.cls, o.nth});
      return;
    }
  }
};

namespace {
std::uint64_t next_reducer_id() {
  static std::atomic<std::uint64_t> next{1};
  return next++;
}

bool same_choice(const RedexMemo::Choice& a, const RedexMemo::Choice& b) {
  return a.cls == b.cls && a.rule == b.rule && a.child == b.child && a.nth == b.nth;
}

// force, called only for a shared copy not made yet: S_rand's descent and its step's path ask at
// every level, where a call that finds the node made cost more than the test.
void forced(const Node& n) {
  if (n.copy.unforced) force(n);
}
} // namespace

// Whether each binder of (9)'s copies has type R^⊥d, by the number its name ends in, noted as
// the copy names it (eagerly, or when a shared copy is read). The named binders are few (a shared
// copy names its binders only when it is read) while their numbers span every binder (9) reserved
// a number for, Θ(n²) on the RNN family: so the kinds are kept in a hash table by number, not in
// a vector indexed by it (a byte per reserved number: 31 MB at n = 2,000 for 70 thousand named
// binders, and most of the family's peak memory at n = 10,000).
struct Reducer::CopiedBinders : BinderLog {
  enum class Copied : std::uint8_t { unknown, neg, other };
  void named(const Binder& b, long number) override {
    if (b.type) kinds_[number] = is_neg(b.type) ? Copied::neg : Copied::other;
  }
  Copied kind(long number) const {
    const auto found = kinds_.find(number);
    return found == kinds_.end() ? Copied::unknown : found->second;
  }

private:
  std::unordered_map<long, Copied> kinds_;
};

void BinderTypes::set(std::string_view name, const Type& type) {
  const int id = names_.intern(name);
  if (types_.size() < names_.size()) {
    types_.resize(names_.size());
    set_.resize(names_.size(), 0);
  }
  set(id, type);
}

const Type* BinderTypes::find(std::string_view name) const {
  const int id = names_.id(name);
  if (id < 0) return nullptr;
  const auto at = static_cast<std::size_t>(id);
  return at < set_.size() && set_[at] != 0 ? &types_[at] : nullptr;
}

const Type* BinderTypes::find_unique(std::string_view name) const {
  const int id = names_.id(name);
  if (id < 0) return nullptr;
  const auto at = static_cast<std::size_t>(id);
  return at < set_.size() && set_[at] == 1 ? &types_[at] : nullptr;
}

namespace {
// The types of t's binders, into `types`.
void learn_binder_types(const Term& t, BinderTypes& types) {
  if (t->kind == Kind::lam || t->kind == Kind::let) {
    if (t->x.type) types.set(t->x.name, t->x.type);
  } else if (t->kind == Kind::let_pair) {
    if (t->x.type) types.set(t->x.name, t->x.type);
    if (t->y.type) types.set(t->y.name, t->y.type);
  }
  for (const Term& k : t->kids)
    learn_binder_types(k, types);
}

// The binders' types of the term whose free table this is, read off the binder nodes it met, by
// the ids of their names (types made from the table's names: binder_types_of).
void learn_binder_types(const FreeTable& table, BinderTypes& types) {
  table.for_each_binder([&](const Node& n, const std::array<int, 2>& ids) {
    if (n.x.type) types.set(ids[0], n.x.type);
    if (n.kind == Kind::let_pair && n.y.type) types.set(ids[1], n.y.type);
  });
}

// The binder types a run starts from: over its free table's names when it has one.
BinderTypes binder_types_of(const std::optional<FreeTable>* table) {
  return table && *table ? BinderTypes((*table)->name_table()) : BinderTypes();
}

// t's names: off its free table when it has one (the table's walk interned every name of t),
// else by a walk of their own.
Names names_of(const Term& t, const std::optional<FreeTable>* table) {
  return table && *table ? Names((*table)->name_table()) : Names(t);
}

// The names and types a run starts from: the free variables' first, then the binders'.
void learn_free_types(const Context& free_types, Names& names, BinderTypes& types) {
  for (const auto& [x, a] : free_types) {
    names.reserve(x);
    types.set(x, a);
  }
}
} // namespace

RunSetUp::RunSetUp(const Term& t, Context free_types)
    : term_(t), free_types_(std::move(free_types)), table_(FreeTable::of(t)),
      names_(names_of(t, &table_)), types_(binder_types_of(&table_)) {
  learn_free_types(free_types_, names_, types_);
  if (table_)
    learn_binder_types(*table_, types_);
  else
    learn_binder_types(t, types_);
}

Reducer::Reducer(const Term& t, RunOptions options)
    : Reducer(t, std::move(options), nullptr, nullptr) {}

Reducer::Reducer(const Term& t, RunOptions options, const std::optional<FreeTable>& table)
    : Reducer(t, std::move(options), nullptr, &table) {}

Reducer::Reducer(const RunSetUp& set_up, RunOptions options)
    : Reducer(set_up.term_, std::move(options), &set_up, nullptr) {}

Reducer::Reducer(const Term& t, RunOptions options, const RunSetUp* set_up,
                 const std::optional<FreeTable>* table)
    : current_(t), options_(std::move(options)),
      names_(set_up ? set_up->names_ : names_of(t, table)),
      types_(set_up ? set_up->types_ : binder_types_of(table)),
      copied_(make_shared_node<CopiedBinders>()), rng_state_(options_.seed),
      copy_budget_(options_.fuel, options_.copy_per_step),
      search_budget_(std::max(options_.fuel, RunOptions::search_floor), options_.search_per_step),
      id_(next_reducer_id()), known_reads_(options_.book == paper_rules()) {
  for (std::size_t tag = 0; tag < Reduction::kind_count; ++tag)
    if (!options_.book->candidates<Reduction>(static_cast<Kind>(tag)).empty())
      tags_with_entries_ |= std::uint32_t{1} << tag;
  if (set_up) {
    if (options_.free_types != set_up->free_types_)
      throw std::invalid_argument("linear-negation reducer: free types other than its set-up's");
    return;
  }
  learn_free_types(options_.free_types, names_, types_);
  if (table && *table)
    learn_binder_types(**table, types_);
  else
    learn_types(t);
}

void Reducer::learn_types(const Term& t) const {
  learn_binder_types(t, types_);
}

bool Reducer::is_neg_variable(const std::string& x) const {
  // A name of the term that the run did not take at its start was drawn by it (rules name new
  // binders only through names_), and ends in the draw's number, written without leading zeros.
  const auto cut = x.rfind('_');
  if (cut != std::string::npos && cut + 1 < x.size() && x[cut + 1] != '0') {
    std::size_t drawn = 0;
    const char* end = x.data() + x.size();
    const auto [at, error] = std::from_chars(x.data() + cut + 1, end, drawn);
    using Copied = CopiedBinders::Copied;
    const Copied kind = error == std::errc{} && at == end && drawn <= std::size_t{LONG_MAX}
                            ? copied_->kind(static_cast<long>(drawn))
                            : Copied::unknown;
    if (kind != Copied::unknown &&
        (!names_.number_taken(static_cast<long>(drawn)) || !names_.taken(x)))
      return kind == Copied::neg;
  }
  const Type* type = types_.find(x);
  if (type == nullptr) {
    learn_types(current_);
    type = types_.find(x);
  }
  return type != nullptr && is_neg(*type);
}

const Type* Reducer::variable_type(std::string_view x) const {
  if (share_copies_) return nullptr; // a shared copy's binders are kept by number (copied_)
  const Type* type = types_.find_unique(x);
  if (type == nullptr && types_.find(x) == nullptr) {
    learn_types(current_);
    type = types_.find_unique(x);
  }
  return type != nullptr && *type ? type : nullptr;
}

Term Reducer::copy_value(const Term& v) {
  // spent before copying: a value past the cap is never built; below the cap the count is |v|,
  // which is the copy's size too
  const long size = std::min(v->size, copy_budget_.remaining() + 1);
  copy_budget_.spend(size, "copying values (rule 9)");
  copy_volume_ += size;
  // Shared when the names it would draw keep their stems (numbered as a block, or as drawn one by
  // one where a taken name ends in a number of the block); a copy deeper than the renaming's
  // guard is built, so that it stops there as before.
  if (share_copies_ && v->plain_stems && v->height <= max_nesting) {
    if (const auto base = names_.reserve_block(v->binders)) return share_copy(v, *base, copied_);
    return share_copy_drawn(v, names_, copied_);
  }
  return renamed_apart(v);
}

Term Reducer::renamed_apart(const Term& t) {
  // the copy's binders are its only new ones: their types are learnt as they are renamed
  return rename_bound(
      t, names_, [this](const Binder& b) { copied_->named(b, names_.last_drawn()); },
      rename_scratch_);
}

Binder Reducer::fresh_binder(const std::string& base, const Type& a) {
  Binder b = exp_binder(names_.fresh(base), a);
  types_.set(b.name, b.type);
  return b;
}

namespace {
// The renaming of a copy's suspension (inner) followed by outer, the renaming of the names free
// in the sum it is read in (null: none), as copy_of composes them for a copy of a copy. outer is
// not restricted to the names free in the copy: an entry of a name inner renames away is dropped.
void composed_into(const Renaming& inner, const Renaming* outer, Renaming& out) {
  out.clear();
  for (const auto& [from, to] : inner) {
    const std::string* again = outer != nullptr ? renamed_in(*outer, to) : nullptr;
    out.emplace_back(from, again != nullptr ? *again : to);
  }
  if (outer == nullptr) return;
  for (const auto& [from, to] : *outer) {
    const std::string& name = from;
    if (std::any_of(inner.begin(), inner.end(),
                    [&](const auto& e) { return e.first == name || e.second == name; }))
      continue;
    const auto at =
        std::lower_bound(out.begin(), out.end(), name, [](const auto& e, const auto& n) {
          return compare_names(e.first, n) < 0;
        });
    out.emplace(at, name, to);
  }
}
} // namespace

bool listed_within_view(const Term& t, std::vector<Summand>& out, SummandViews& scratch,
                        bool view) {
  scratch.used = 0;
  // left to right, the right operands still to list on a stack (no call per node, and no deep
  // recursion down a long sum's spine)
  auto& todo = scratch.todo;
  todo.clear();
  const Term* at = &t;
  // the renaming of the names free in *at and the unforced copies nested above it (null: none)
  const SummandViews::Viewed* viewed = nullptr;
  for (;;) {
    const Node& n = **at;
    if (n.kind == Kind::add) {
      if (!view) {
        force_sum(n);
      } else if (n.copy.unforced) { // read in its original
        const int depth = viewed != nullptr ? viewed->depth : 0;
        if (depth == max_viewed_copies) return false;
        const Suspension& s = *n.copy.from;
        if (scratch.used == scratch.names.size())
          scratch.names.push_back(std::make_unique<SummandViews::Viewed>());
        SummandViews::Viewed& composed = *scratch.names[scratch.used++];
        composed_into(s.env, viewed != nullptr ? &viewed->names : nullptr, composed.names);
        composed.depth = depth + 1;
        viewed = &composed;
        at = &s.original; // kept while the copy is unforced (no side condition at a sum forces one)
        continue;
      }
      todo.emplace_back(&n.right(), viewed);
      at = &n.left();
      continue;
    }
    const Node* core = &n;
    force(*core);
    while (binds_es(*core)) {
      core = core->body().get();
      force(*core);
    }
    out.push_back(Summand{at, core, viewed != nullptr ? &viewed->names : nullptr});
    if (todo.empty()) return true;
    at = todo.back().first;
    viewed = todo.back().second;
    todo.pop_back();
  }
}

void Reducer::offers_at(const Term& t, bool in_sum, std::vector<Offer>& out,
                        const Term* bound_core) {
  const auto candidates = options_.book->candidates<Reduction>(t->kind);
  if (candidates.empty()) return;
  force(*t);
  Reduction::Redex redex{t, in_sum};
  redex.bound_core = bound_core;
  if (t->kind == Kind::add && !in_sum) { // the maximal sum's summands (AC, spec §9 P3)
    summands_.clear();
    // the paper's side conditions read a summand in a copy's original (Summand::names)
    list_summands(t, summands_, summand_views_, known_reads_);
    search_budget_.spend(static_cast<long>(summands_.size()), "finding redexes");
    redex.summands = summands_;
  }
  for (const Rule<Reduction>* rule : candidates) {
    const Reduction::Extra& extra = rule->extra;
    for (redex.nth = 0; !rule->match || rule->match(*this, redex); ++redex.nth) {
      out.push_back(Offer{rule, extra.class_at(*this, redex), redex.nth});
      // a rule without a side condition, or with one instance a node, has no second
      if (!rule->match || !extra.several_instances) break;
    }
  }
}

void Reducer::enumerate(const Term& t, std::vector<int>& path, bool in_sum, Sink& out) {
  force(*t);
  std::vector<Offer> offers;
  offers_at(t, in_sum, offers);
  for (const Offer& o : offers)
    out.offer(path, o);
  for (std::size_t i = 0; i < t->kids.size() && !out.done; ++i) {
    path.push_back(static_cast<int>(i));
    enumerate(t->kids[i], path, t->kind == Kind::add, out);
    path.pop_back();
  }
}

// The chosen entry's result at the node (the summands as offers_at saw them).
Term Reducer::contract(const Term& t, const Candidate& c) {
  force(*t);
  if (noting_) noted_.clear();
  notes_summed_ = false;
  if (focus_) focus_->touched_hash.clear();
  writes_.clear();
  Reduction::Redex redex{t, false};
  redex.nth = c.nth;
  if (t->kind == Kind::add) { // a chosen sum is maximal
    chosen_summands_.clear();
    list_summands(t, chosen_summands_, summand_views_, false); // built: the contractum reads them
    redex.summands = chosen_summands_;
  }
  return c.rule->result(*this, redex, c.rule->info);
}

Term Reducer::apply_at(const Term& t, const Candidate& c, std::size_t depth) {
  if (depth == c.path.size()) return contract(t, c);
  force(*t);
  std::vector<Term> kids = t->kids;
  const auto k = static_cast<std::size_t>(c.path[depth]);
  kids[k] = apply_at(kids[k], c, depth + 1);
  return rebuild(*t, std::move(kids));
}

// The reach of a path node whose path goes on to its child k, of reach `below`.
Reducer::Reach Reducer::reach_above(const Node& n, std::size_t k, const Reach& below) {
  Reach r{false, false, false, false, false};
  if (binds_es(n) && k == 0) {
    r.core = below.core;
    r.value = below.value;
    r.call = below.call;
    r.summand = below.call;
  } else if (n.kind == Kind::pair) {
    r.pairs = below.pairs;
    r.value = below.pairs;
  } else if (n.kind == Kind::app && k == 0) {
    r.call = below.core;
    r.summand = below.core;
  } else if (n.kind == Kind::add) {
    r.summand = below.summand;
  }
  return r;
}

// Whether n's own redex instances may differ after a step below its child k: n is a node of
// the path and keeps its tag and binders, so its side conditions see the change only where they
// look into the child (Reach) or through the free count of n's binder in its body (touched_).
bool Reducer::rereads(const Node& n, std::size_t k, const Reach& below, bool in_sum) const {
  if (!known_reads_) return true;
  return reads_reach(n, k, below, in_sum) || (binds_in(n, k) && binds_touched(n));
}

// The side conditions of n's entries that look into its child k reach the change.
bool Reducer::reads_reach(const Node& n, std::size_t k, const Reach& below, bool in_sum) {
  switch (n.kind) {
  case Kind::let:
  case Kind::let_pair:
    return k == 1 && below.value;
  case Kind::app:
    return k == 0 && below.core;
  case Kind::prim:
    return below.core;
  case Kind::add:
    return !in_sum && below.summand; // a summand of a larger sum has no instances of its own
  default:
    return false;
  }
}

// An explicit substitution binding a name whose free count the step changed ((9), (10) and (11)
// read it at the binder).
bool Reducer::binds_touched(const Node& n) const {
  if (!binds_es(n)) return false;
  // a step touches a few names: scanned while so few (a comparison for equality looks at the
  // lengths first; the search's ordering comparisons each called memcmp)
  constexpr std::size_t few = 8;
  const auto touched = [&](const std::string& x) {
    return touched_.size() <= few ? std::find(touched_.begin(), touched_.end(), x) != touched_.end()
                                  : std::binary_search(touched_.begin(), touched_.end(), x);
  };
  return touched(n.x.name) || (n.kind == Kind::let_pair && touched(n.y.name));
}

// Where x is in touched_ (sorted), or touched_.size() when the step left its count as it was
// (binds_touched's search, for the name's place). Inlined, as take_touched_counts, into S_rand's
// path (apply_in_place): asked at most binders above a step, nine in ten of which bind none of
// its few names, where the two calls and the out-of-line comparison made most of the cost.
[[gnu::always_inline]] inline std::size_t Reducer::touched_at(const std::string& x) const {
  constexpr std::size_t few = 8;
  const std::size_t count = touched_.size();
  if (count <= few) {
    for (std::size_t i = 0; i < count; ++i)
      if (std::string_view(touched_[i]) == std::string_view(x)) return i;
    return count;
  }
  const auto at = std::lower_bound(touched_.begin(), touched_.end(), x);
  return at != touched_.end() && *at == x ? static_cast<std::size_t>(at - touched_.begin()) : count;
}

// take_noted_counts in count mode, with touched_'s sums of the notes (the names whose sum is not
// 0): whether n is an explicit substitution binding one of them, which rereads (binds_touched).
// Each binder's name is looked for once, where taking the count and the reread's test each
// looked for it, the first among all the step's notes.
[[gnu::always_inline]] inline bool Reducer::take_touched_counts(const Node& n,
                                                                std::size_t k) const {
  if (!binds_in(n, k)) return false;
  bool touched = false;
  for (std::size_t b = 0; b < (n.kind == Kind::let_pair ? 2U : 1U); ++b) {
    const std::size_t at = touched_at(b == 0 ? n.x.name : n.y.name);
    if (at == touched_.size()) continue;
    touched = true;
    if (n.bound_count[b] >= 0) n.bound_count[b] += touched_delta_[at];
  }
  return touched && binds_es(n);
}

// contract, noting for rereads the names whose free count the step changed (most rules only
// move subterms: (7), (8), (12)-(14), (16) and (23) change none).
Term Reducer::contract_noting(const Term& t, const Candidate& c) {
  Term out = contract(t, c);
  if (known_reads_ && touched_by_notes_) {
    touched_from_notes();
  } else if (known_reads_) {
    touched_.clear();
    FreeEntry single_before, single_after;
    const auto before = free_counts_of(*t, single_before);
    const auto after = free_counts_of(*out, single_after);
    auto a = before.begin();
    auto b = after.begin();
    while (a != before.end() || b != after.end()) {
      if (b == after.end() || (a != before.end() && a->first < b->first)) {
        touched_.emplace_back((a++)->first);
      } else if (a == before.end() || b->first < a->first) {
        touched_.emplace_back((b++)->first);
      } else {
        if (a->second != b->second) touched_.emplace_back(a->first);
        ++a;
        ++b;
      }
    }
    touched_delta_.clear();
    if (counts_kept_)
      for (const std::string& x : touched_)
        touched_delta_.push_back(noted_delta(x));
  }
  refresh_written();
  return out;
}

// The nodes the step's result wrote in place below its redex (rule (9)'s path down to the
// occurrence, occurrence.hpp), lowest first, each the child of the next: their summaries are
// brought up to date as apply_in_place brings those above the redex, from the bottom, where the
// lowest one's child was replaced whole. The topmost one's parent is (9)'s redex, an explicit
// substitution, or the last node of the focus's path it went down along (InPlaceWrites::guide),
// so a written node is a summand under a written sum or under that one.
void Reducer::refresh_written() {
  const auto& path = writes_.path;
  // (9)'s changed names are x, bound at the redex, and those free in v, bound above it: with the
  // binders unique (count mode, the only one that writes in place) no written node binds one.
  const bool unique_below = counts_kept_;
  Reach below;
  // The last node's summary is what it was: a node whose own instances stand, made from the same
  // children's summaries, keeps its summary too (it is held by its parent alone), which a (9) of
  // a leaf value, the common case, leaves so a few levels above the occurrence.
  bool as_before = false;
  for (std::size_t j = 0; j < path.size(); ++j) {
    Node& n = *path[j].first;
    const std::size_t k = path[j].second;
    const bool in_sum =
        j + 1 < path.size() ? path[j + 1].first->kind == Kind::add : writes_.top_in_sum();
    RedexMemo::Summary* kept = standing_summary(n, k, below, in_sum, unique_below);
    if (kept == nullptr) {
      as_before = false;
    } else if (as_before) {
      search_budget_.spend(1, "finding redexes"); // what summary_from_own spends
    } else {
      const RedexMemo::Summary before = *kept;
      summary_from_own(n, *kept);
      as_before = same_choice(before.best, kept->best) && same_choice(before.first, kept->first) &&
                  before.count == kept->count;
    }
    below = reach_above(n, k, below);
  }
}

// The names whose count the step changed, from the rules' notes (each name's notes summed). With
// unique binders a name free in the redex changes its count in the term by what it changes in
// the redex; the other names noted are bound in the redex or its contractum, which no node above
// binds, so the nodes above reread what the comparison of the lists made them reread.
void Reducer::touched_from_notes() {
  // The notes come in runs sorted by name (a value's free names are listed in order, (9) notes x
  // before them): one run is summed by name in the pass that finds it sorted, two are read side
  // by side as a merge reads them; only more are sorted whole (the sums, in name order, are the
  // same; merging the notes into one run moved every name of the wide sum's long lists of
  // notes). The names are short: compared inline (compare_names), where a call of memcmp per
  // comparison cost more.
  touched_.clear();
  touched_delta_.clear();
  const auto sum = [&](const std::string& name, int delta) {
    if (delta == 0) return;
    touched_.push_back(name);
    touched_delta_.push_back(delta);
  };
  auto split = noted_.begin();
  if (split != noted_.end()) {
    int delta = split->second;
    for (++split; split != noted_.end(); ++split) {
      const int order = compare_names((split - 1)->first, split->first);
      if (order > 0) break;
      if (order < 0) {
        sum((split - 1)->first, delta);
        delta = 0;
      }
      delta += split->second;
    }
    if (split == noted_.end()) {
      sum(noted_.back().first, delta);
      notes_summed_ = true;
      return;
    }
  }
  const auto before = [](const auto& p, const auto& q) {
    return compare_names(p.first, q.first) < 0;
  };
  const auto same = [](const std::string& p, const std::string& q) {
    return p.size() == q.size() && compare_names(p, q) == 0;
  };
  if (!std::is_sorted(split, noted_.end(), before)) {
    std::sort(noted_.begin(), noted_.end());
    split = noted_.end();
  }
  touched_.clear();
  touched_delta_.clear();
  auto a = noted_.begin();
  auto b = split;
  while (a != split || b != noted_.end()) {
    const std::string& name =
        b == noted_.end() || (a != split && !before(*b, *a)) ? a->first : b->first;
    int delta = 0;
    for (; a != split && same(a->first, name); ++a)
      delta += a->second;
    for (; b != noted_.end() && same(b->first, name); ++b)
      delta += b->second;
    sum(name, delta);
  }
  notes_summed_ = true;
}

void Reducer::note_counts() {
  noting_ = true;
  touched_by_notes_ = known_reads_ && FreeTable::of(current_).has_value();
}

int Reducer::noted_delta(std::string_view name) const {
  int delta = 0;
  for (const auto& [noted, by] : noted_)
    if (noted == name) delta += by;
  return delta;
}

// A path node above a step whose path goes on to its child k: in count mode a binder whose scope
// holds the step takes the change its name's notes sum to (unique binders: the name's count in
// the body changes by what it changes in the redex); otherwise its counts are forgotten.
void Reducer::take_noted_counts(const Node& n, std::size_t k) const {
  if (!counts_kept_) {
    n.forget_bound_counts();
    return;
  }
  if (!binds_in(n, k)) return;
  for (std::size_t b = 0; b < (n.kind == Kind::let_pair ? 2U : 1U); ++b)
    if (n.bound_count[b] >= 0) n.bound_count[b] += noted_delta(b == 0 ? n.x.name : n.y.name);
}

void Reducer::keep_counts() {
  if (counts_kept_ || !known_reads_) return;
  keep_counts_from(FreeTable::of(current_));
}

// keep_counts with the current term's free table (nothing: its binders are not unique).
void Reducer::keep_counts_from(const std::optional<FreeTable>& table) {
  if (counts_kept_ || !known_reads_ || !table) return;
  table->write_binder_counts(current_);
  counts_kept_ = true;
  noting_ = true;
  touched_by_notes_ = true;
}

// apply_at for apply_in_place below a shared node: the rebuilt nodes are new (their summaries
// are computed when asked), and the reach of the rebuilt path is returned to the nodes above.
Term Reducer::rebuild_noting(const Term& t, const Candidate& c, std::size_t depth, Reach& reach) {
  if (depth == c.path.size()) {
    reach = Reach{};
    return contract_noting(t, c);
  }
  force(*t);
  std::vector<Term> kids = t->kids;
  const auto k = static_cast<std::size_t>(c.path[depth]);
  kids[k] = rebuild_noting(kids[k], c, depth + 1, reach);
  reach = reach_above(*t, k, reach);
  if (!counts_kept_) return rebuild(*t, std::move(kids));
  Term out = rebuild_counted(*t, std::move(kids));
  take_noted_counts(*out, k);
  return out;
}

// apply_at without rebuilding what only this reducer holds: a node on the path whose one owner
// is its parent (use_count 1, and so for every node above it, so nothing else reaches it) takes
// its new child in place and forgets its free-variable counts; from the first shared node down,
// the path is rebuilt. The term is the one apply_at builds, but a step on a deep term no longer
// allocates a copy of every node above the redex. A path node's summary is brought up to date
// from its children's when its own redex instances cannot have changed (rereads), and forgotten
// otherwise, so a step no longer runs the side conditions of every node above the redex.
Reducer::Reach Reducer::apply_in_place(Term& slot, const Candidate& c, std::size_t depth,
                                       bool in_sum) {
  // Down the path while each node is held by its parent alone, then the step below, then back up
  // in one loop (a recursion made seven out-of-line calls a level, most of a deep step's path).
  std::vector<Node*>& held = held_path_;
  held.clear();
  Term* at = &slot;
  std::size_t d = depth;
  for (; d < c.path.size() && at->use_count() == 1; ++d) {
    Node& n = const_cast<Node&>(**at); // made non-const (ast.cpp) and held by nobody else
    forced(n);
    held.push_back(&n);
    at = &n.kids[static_cast<std::size_t>(c.path[d])];
  }
  Reach below;
  if (d == c.path.size()) {
    redex_alone_ = at->use_count() == 1;
    // the rules' notes name the changed counts (contract_noting compares no lists of the redex)
    rewrite_redex_ = redex_alone_ && counts_kept_ && touched_by_notes_;
    *at = contract_noting(*at, c);
    redex_alone_ = rewrite_redex_ = false;
    below = Reach{};
  } else {
    *at = rebuild_noting(*at, c, d, below);
  }
  for (std::size_t j = held.size(); j-- > 0;) {
    Node& n = *held[j];
    const auto k = static_cast<std::size_t>(c.path[depth + j]);
    const bool n_in_sum = j == 0 ? in_sum : held[j - 1]->kind == Kind::add;
    n.forget_free_counts();
    // In count mode (the paper's book, unique binders) a binder of the path is looked for once
    // among the step's touched names, for its count and for whether it rereads (an ES binder of
    // one: its summary is forgotten); otherwise its reach alone decides (standing_summary).
    if (!counts_kept_) {
      take_noted_counts(n, k);
      measure(n);
      refresh_summary(n, k, below, n_in_sum, false);
    } else if (!touched_.empty() && binds_in(n, k) && take_touched_counts(n, k)) {
      measure(n);
      n.memo.top.owner = 0;
      n.memo.in_sum.owner = 0;
    } else {
      measure(n);
      refresh_summary(n, k, below, n_in_sum, true);
    }
    below = reach_above(n, k, below);
  }
  return below;
}

// Node n, of context in_sum, had its child k replaced in place, the change of reach `below`:
// its summary is brought up to date from its children's when its own redex instances cannot have
// changed (rereads), and forgotten otherwise (computed again when asked). `untouched`: n binds
// none of the names whose count the step changed (its reach alone decides).
void Reducer::refresh_summary(Node& n, std::size_t k, const Reach& below, bool in_sum,
                              bool untouched) {
  if (RedexMemo::Summary* kept = standing_summary(n, k, below, in_sum, untouched))
    summary_from_own(n, *kept);
}

// refresh_summary's test: n's kept summary when its own instances stand, else null (and the
// summary forgotten).
RedexMemo::Summary* Reducer::standing_summary(Node& n, std::size_t k, const Reach& below,
                                              bool in_sum, bool untouched) {
  const bool own_context = in_sum && n.kind == Kind::add;
  RedexMemo::Summary& kept = own_context ? n.memo.in_sum : n.memo.top;
  (own_context ? n.memo.top : n.memo.in_sum).owner = 0; // a context the node is no longer in
  const bool changed =
      untouched && known_reads_ ? reads_reach(n, k, below, in_sum) : rereads(n, k, below, in_sum);
  if (kept.owner == id_ && !changed) return &kept;
  kept.owner = 0;
  return nullptr;
}

// A kept summary from its own instances, still valid, and its children's summaries.
void Reducer::summary_from_own(const Node& n, RedexMemo::Summary& kept) {
  search_budget_.spend(1, "finding redexes");
  kept.best = kept.own_best;
  kept.first = kept.own_first;
  kept.count = kept.own;
  add_children(n, kept);
}

// The summary of t's subtree, from its children's summaries and its own redex instances, in the
// order enumerate visits them: the node's own instances, then the children left to right. S_bp
// keeps the first instance of a strictly smaller class (Sink::Mode::best), S_lo the first one.
// A summary stays valid for this reducer (same rules, same types) while its node is unchanged;
// apply_in_place brings up to date or forgets those of the nodes it changes.
const RedexMemo::Summary& Reducer::summary_made(const Term& t, bool own_context) {
  RedexMemo::Summary& slot = own_context ? t->memo.in_sum : t->memo.top;
  if (t->copy.unforced) { // a shared copy's redexes are its original's, renamed
    slot = summary(t->copy.from->original, own_context);
    return slot;
  }
  // made in its slot (nothing below t reads t's summary), owned once complete
  own_summary(t, own_context, slot);
  slot.owner = 0; // until its children's are added
  add_children(*t, slot);
  slot.owner = id_;
  return slot;
}

// A summary holding t's own redex instances only (its children's are added by add_children).
void Reducer::own_summary(const Term& t, bool own_context, RedexMemo::Summary& out,
                          const Term* bound_core) {
  out = RedexMemo::Summary{}; // owned once made: a search that runs out of budget leaves none
  if ((tags_with_entries_ >> static_cast<unsigned>(t->kind) & 1U) == 0) {
    // no entry fires on its tag (the variables, numerals, λs and pairs that are most of a small
    // term's nodes): none of its own, without asking offers_at
    search_budget_.spend(1, "finding redexes");
    out.owner = id_;
    return;
  }
  offers_.clear();
  offers_at(t, own_context, offers_, bound_core);
  search_budget_.spend(1 + static_cast<long>(offers_.size()), "finding redexes");
  out.own = static_cast<std::uint32_t>(offers_.size());
  out.count = out.own;
  for (const Offer& o : offers_) {
    const RedexMemo::Choice c{static_cast<std::uint8_t>(o.cls),
                              static_cast<std::uint8_t>(o.rule->info.position), -1,
                              static_cast<std::uint32_t>(o.nth)};
    if (out.best.cls == 0 || c.cls < out.best.cls) out.best = c;
    if (out.first.cls == 0) out.first = c;
  }
  out.own_best = out.best;
  out.own_first = out.first;
  out.owner = id_;
}

// Adds the children's summaries to `out`, which holds n's own instances, in enumeration order.
void Reducer::add_children(const Node& n, RedexMemo::Summary& out) {
  for (std::size_t i = 0; i < n.kids.size(); ++i) {
    const RedexMemo::Summary& k = summary(n.kids[i], n.kind == Kind::add);
    out.count += k.count;
    const RedexMemo::Choice c{0, 0, static_cast<std::int32_t>(i), 0};
    if (k.best.cls != 0 && (out.best.cls == 0 || k.best.cls < out.best.cls)) {
      out.best = c;
      out.best.cls = k.best.cls;
    }
    if (out.first.cls == 0 && k.first.cls != 0) {
      out.first = c;
      out.first.cls = k.first.cls;
    }
  }
}

// Follows the summaries from the root to the chosen redex instance.
std::optional<Reducer::Candidate> Reducer::cached_choice(bool best) {
  const Node* at = current_.get();
  const RedexMemo::Summary* s = &summary(current_, false);
  if ((best ? s->best : s->first).cls == 0) return std::nullopt;
  Candidate c;
  c.path.reserve(static_cast<std::size_t>(current_->height)); // one allocation, not one a doubling
  for (;;) {
    const RedexMemo::Choice& ch = best ? s->best : s->first;
    if (ch.child < 0) {
      c.rule = &std::get<Rule<Reduction>>(options_.book->entries()[ch.rule]);
      c.cls = ch.cls;
      c.nth = ch.nth;
      return c;
    }
    c.path.push_back(ch.child);
    force(*at);
    const bool in_sum = at->kind == Kind::add;
    const Term& kid = at->kids[static_cast<std::size_t>(ch.child)];
    at = kid.get();
    s = &summary(kid, in_sum);
  }
}

// S_rand's reservoir sampling of step_by_enumeration over `count` instances: the same draws from
// the same generator, one per instance in enumeration order, each spent against the search budget.
// The index of the instance kept, or -1 when there is none.
long Reducer::sampled_index(std::uint32_t count) {
  search_budget_.spend(static_cast<long>(count), "finding redexes"); // one draw each
  LazyMt19937_64 rng(rng_state_); // std::mt19937_64's numbers, only as many as are drawn
  // each number's word twisted as it is drawn (LazyMt19937_64::drawing)
  return rng.drawing(static_cast<std::size_t>(count) + 1, [&](auto& numbers) {
    long kept = -1;
    for (long seen = 1; seen <= static_cast<long>(count); ++seen)
      if (std::uniform_int_distribution<long>(0, seen - 1)(numbers) == 0) kept = seen - 1;
    rng_state_ = numbers();
    return kept;
  });
}

// Instance k of node t's own instances (summary s, context in_sum): read off the summary when it
// is the only one, else found again among offers_at's (which spends for a maximal sum's
// summands, so a sum is always looked at again).
Reducer::Candidate Reducer::own_instance(const Term& t, const RedexMemo::Summary& s, bool in_sum,
                                         std::uint32_t k) {
  const bool own_context = in_sum && t->kind == Kind::add;
  Candidate c;
  if (s.own == 1 && t->kind != Kind::add) {
    c.rule = &std::get<Rule<Reduction>>(options_.book->entries()[s.own_first.rule]);
    c.cls = s.own_first.cls;
    c.nth = s.own_first.nth;
    return c;
  }
  offers_.clear();
  offers_at(t, own_context, offers_);
  const Offer& o = offers_.at(k);
  c.rule = o.rule;
  c.cls = o.cls;
  c.nth = o.nth;
  return c;
}

// S_rand: the instance drawn (sampled_index), with the instance count read from the summaries;
// then it is found by descending along the counts.
std::optional<Reducer::Candidate> Reducer::sampled_choice() {
  const long kept = sampled_index(summary(current_, false).count);
  if (kept < 0) return std::nullopt;
  auto k = static_cast<std::uint32_t>(kept);
  std::vector<int> path = std::move(path_buffer_); // the last step's, its allocation reused
  path.clear();
  path.reserve(static_cast<std::size_t>(current_->height));
  const Term* at = &current_;
  bool in_sum = false;
  for (;;) {
    const RedexMemo::Summary& s = summary(*at, in_sum);
    if (k < s.own) {
      Candidate c = own_instance(*at, s, in_sum, k);
      c.path = std::move(path);
      return c;
    }
    k -= s.own;
    const Node& n = **at;
    forced(n);
    std::size_t i = 0;
    for (; i < n.kids.size(); ++i) {
      const std::uint32_t here = summary(n.kids[i], n.kind == Kind::add).count;
      if (k < here) break;
      k -= here;
    }
    path.push_back(static_cast<int>(i));
    in_sum = n.kind == Kind::add;
    at = &n.kids.at(i);
  }
}

// normalise's first search from a set-up, before the first step (which begins with the root's
// summary, so nothing is spent before it): every node of the term summarised, taken over from the
// run before when that run had this book and rule set and the term's nodes still hold its
// summaries, at the cost their making spent; else made here and offered to the runs after.
void Reducer::first_summaries(RunSetUp& set_up) {
  if (set_up.first_owner_ != 0 && set_up.first_book_ == options_.book &&
      set_up.first_rules_ == options_.rules &&
      summarised_by(current_, false, set_up.first_owner_)) {
    take_summaries(current_, false, set_up.first_owner_);
    search_budget_.spend(set_up.first_spend_, "finding redexes");
  } else {
    const long before = search_budget_.used();
    (void)summary(current_, false);
    set_up.first_spend_ = search_budget_.used() - before;
    set_up.first_book_ = options_.book;
    set_up.first_rules_ = options_.rules;
  }
  set_up.first_owner_ = id_;
}

// Whether every node of t holds owner's summary in the context summary() reads it in (a shared
// copy not made yet reads its original's: no).
bool Reducer::summarised_by(const Term& t, bool in_sum, std::uint64_t owner) {
  const RedexMemo::Summary& slot = in_sum && t->kind == Kind::add ? t->memo.in_sum : t->memo.top;
  if (slot.owner != owner || t->copy.unforced) return false;
  return std::all_of(t->kids.begin(), t->kids.end(),
                     [&](const Term& k) { return summarised_by(k, t->kind == Kind::add, owner); });
}

// owner's summaries of t's nodes (summarised_by) become this reducer's.
void Reducer::take_summaries(const Term& t, bool in_sum, std::uint64_t owner) {
  RedexMemo::Summary& slot = in_sum && t->kind == Kind::add ? t->memo.in_sum : t->memo.top;
  if (slot.owner != owner) return; // taken already (a node held twice)
  slot.owner = id_;
  for (const Term& k : t->kids)
    take_summaries(k, t->kind == Kind::add, owner);
}

std::optional<Step> Reducer::step() {
  if (const Rule<Reduction>* fired = advance()) return Step{fired->info.name, current_};
  return std::nullopt;
}

const Rule<Reduction>* Reducer::advance() {
  if (focus_) return focused_step();
  auto c = options_.strategy == Strategy::random ? sampled_choice()
                                                 : cached_choice(options_.strategy == Strategy::bp);
  if (!c) return nullptr;
  apply_in_place(current_, *c, 0, false);
  path_buffer_ = std::move(c->path);
  return c->rule;
}

std::optional<Step> Reducer::step_by_enumeration() {
  Sink sink;
  // Seeding a Mersenne twister costs more than a small step, so only the random strategy has one.
  std::optional<std::mt19937_64> rng;
  switch (options_.strategy) {
  case Strategy::bp:
    sink.mode = Sink::Mode::best;
    break;
  case Strategy::lo:
    sink.mode = Sink::Mode::first;
    break;
  case Strategy::random:
    sink.mode = Sink::Mode::sample;
    rng.emplace(rng_state_);
    sink.rng = &*rng;
    break;
  }
  std::vector<int> path;
  enumerate(current_, path, false, sink);
  if (rng) rng_state_ = (*rng)();
  if (sink.kept.empty()) return std::nullopt;
  const Candidate& c = sink.kept.front();
  current_ = apply_at(current_, c, 0);
  return Step{c.rule->info.name, current_};
}

std::vector<Step> Reducer::all_steps() {
  Sink sink;
  std::vector<int> path;
  enumerate(current_, path, false, sink);
  std::vector<Step> out;
  for (const Candidate& c : sink.kept)
    out.push_back(Step{c.rule->info.name, apply_at(current_, c, 0)});
  return out;
}

std::vector<Reducer::Instance> Reducer::instances() {
  Sink sink;
  std::vector<int> path;
  enumerate(current_, path, false, sink);
  std::vector<Instance> out;
  for (const Candidate& c : sink.kept)
    out.push_back(Instance{c.rule->info.name, c.path});
  return out;
}

namespace {
// How often each entry fired in a run, by entry: the names are written once, at the end, into
// the run's counts and the campaign's counter, instead of a copy of the name and two lookups in
// maps keyed by names every step.
class FiredTally {
public:
  void add(const Rule<Reduction>* rule) {
    for (auto& [entry, times] : fired_)
      if (entry == rule) {
        ++times;
        return;
      }
    fired_.emplace_back(rule, 1);
  }
  void write(std::map<std::string, long>& counts) const {
    for (const auto& [entry, times] : fired_)
      counts[entry->info.name] += times;
  }
  void write(RuleCounter& counter) const {
    for (const auto& [entry, times] : fired_)
      counter.add(entry->info.name, times);
  }

private:
  std::vector<std::pair<const Rule<Reduction>*, long>> fired_; // few entries: a list
};
} // namespace

Run normalise(const Term& t, const RunOptions& options) {
  return Reducer::normalise_from(t, options, nullptr);
}

Run normalise(RunSetUp& set_up, const RunOptions& options) {
  return Reducer::normalise_from(set_up.term(), options, &set_up);
}

Run Reducer::normalise_from(const Term& t, const RunOptions& options, RunSetUp* set_up) {
  std::optional<Reducer> r;
  // t's free table, made once where there is no set-up: the run's names, its binders' types and
  // its counts are read off it (three walks of t before)
  std::optional<FreeTable> table;
  Run run;
  FiredTally fired;
  // Steps to a normal form. With `shallow` it stops (false) once the term is deeper than the
  // default stack takes: the summaries, free-variable lists and (9)'s copy recurse on the term,
  // and one step at most doubles its height (a copied value is no deeper than the term), so the
  // rest runs on the large stack (syntax/linear_negation/nesting.hpp).
  const auto steps = [&](bool shallow) {
    if (!r) {
      if (set_up) {
        r.emplace(*set_up, options);
      } else {
        table = FreeTable::of(t);
        r.emplace(t, options, table);
      }
      r->share_copies_ = r->known_reads_ && options.share_copies;
      // (9) and (10) then read their binder's count off the node
      // the set-up's term, or t, is the run's current one
      r->keep_counts_from(set_up ? set_up->table_ : table);
      table.reset();
      // the focus from the first step: on a campaign's small terms too it takes fewer
      // instructions than the walk from the root (rnn-recurrence 8%, normal-forms-are-values 5%)
      r->keep_focus();
      if (set_up) r->first_summaries(*set_up);
    }
    while (!shallow || r->current()->height <= shallow_nesting) {
      const Rule<Reduction>* rule = r->advance(); // holds no result: the next step writes in place
      if (!rule) return true;
      ++run.steps;
      fired.add(rule);
      if (options.trace) run.trace.push_back(rule->info.name + ": " + print(r->current()));
      if (run.steps >= options.fuel && r->advance()) {
        throw AdsemError(ErrorKind::fuel,
                         "no normal form within " + std::to_string(options.fuel) + " steps (fuel)");
      }
    }
    return false;
  };
  try { // the campaign's rule coverage counts the steps of a run that ends in an error too
    if (t->height > shallow_nesting || !steps(true)) on_large_stack([&] { steps(false); });
  } catch (...) {
    if (options.counter) fired.write(*options.counter);
    throw;
  }
  if (options.counter) fired.write(*options.counter);
  fired.write(run.rule_counts);
  on_stack_for(r->current(), [&] { r->close_focus(); });
  force_all(r->current());
  run.result = r->current();
  run.copy_volume = r->copy_volume_;
  return run;
}

Term eta_expand(const Term& t, const Type& type, Names& names) {
  if (is_neg(type)) {
    const std::string y = names.fresh("y");
    return lam(lin_binder(y), app(t, var(y)));
  }
  const std::string y = names.fresh("y");
  return lam(exp_binder(y, type->left), app(t, var(y)));
}

} // namespace adsem::linear_negation
