#include "syntax/pullback/substitution.hpp"

#include <algorithm>
#include <array>
#include <atomic>
#include <cctype>
#include <charconv>
#include <climits>
#include <cstdint>
#include <unordered_map>
#include <utility>

#include "syntax/core/deep_walk.hpp"
#include "syntax/pullback/name_key.hpp"
#include "syntax/pullback/nesting.hpp"

namespace adsem::pullback {

std::string_view fresh_stem(const std::string& base) {
  std::size_t n = base.size();
  while (n > 0 && (std::isdigit(static_cast<unsigned char>(base[n - 1])) || base[n - 1] == '_'))
    --n;
  return n == 0 ? std::string_view("v") : std::string_view(base).substr(0, n);
}

namespace {
std::atomic<long>& fresh_counter() {
  static std::atomic<long> counter{0};
  return counter;
}
} // namespace

long fresh_candidates_drawn() {
  return fresh_counter().load();
}
void skip_fresh_candidates(long n) {
  fresh_counter() += n;
}

std::string next_fresh_candidate(std::string_view stem) {
  const long n = ++fresh_counter();
  // [perf] A short stem (x, w, z: every stem ANF and rule 8 draw from) is written with its number
  // into one buffer and the name made from it at once: appending the three parts cost a length
  // check and a copy each, at every name ANF and rule 8 (seed 000 Fig. 3 L240) draw.
  std::array<char, 48> buffer{};
  constexpr std::size_t digits_room = 24;
  if (stem.size() + 1 + digits_room <= buffer.size()) {
    char* at = std::copy(stem.begin(), stem.end(), buffer.data());
    *at++ = '_';
    at = std::to_chars(at, buffer.data() + buffer.size(), n).ptr;
    return std::string(buffer.data(), at);
  }
  const auto end = std::to_chars(buffer.data(), buffer.data() + digits_room, n).ptr;
  std::string name;
  name.reserve(stem.size() + 1 + static_cast<std::size_t>(end - buffer.data()));
  name.append(stem);
  name.push_back('_');
  name.append(buffer.data(), end);
  return name;
}

std::string fresh_name(const std::string& base, const std::set<std::string>& avoid) {
  return fresh_name_where(base, [&](const std::string& name) { return avoid.count(name) > 0; });
}

std::string fresh_name_free_in(const std::string& base, std::initializer_list<const Term*> terms) {
  return fresh_name_where(base, [&](const std::string& name) {
    for (const Term* t : terms)
      if (occurs_free(name, *t)) return true;
    return false;
  });
}

namespace {

Term rename_var(const Term& t, const std::string& from, const std::string& to);

// t remade with room for its kids and the first `kept` of them (unchanged) copied: a walk
// rebuilding t from its first changed kid on.
SharedNode<Node> remake_from(const Term& t, std::size_t kept) {
  auto n = remake(*t);
  n->kids.reserve(t->kids.size());
  n->kids.assign(t->kids.begin(), t->kids.begin() + static_cast<std::ptrdiff_t>(kept));
  return n;
}

// [perf] The results of one substitution on projection nodes held by more than one parent. An
// atom is a projection path of its root (spec §2.5 ID-1); rule 8 (seed 000 Fig. 3 L240)
// substitutes y := π₁(w) into the rest of the series at every stage, adding one projection at the
// root of every path still to be read. The inputs of a tupled argument are paths over one shared
// spine (pullback::components): a walk that rebuilt every path would make Θ(n·(n−k)) nodes at
// stage k of the wide sum; rebuilding each shared node once keeps the spine shared in the result
// and the work per stage linear in the stage's size. A projection binds nothing, so its result
// depends on the node alone (no fresh name is drawn below it): the terms are those of the full
// walk, only shared. The key is held, so its address cannot be reused within the walk (renamed
// subterms are built and dropped during it).
class SharedProjections {
public:
  // The remembered result for t, or nullptr (t not shared or not seen).
  const Term* find(const Term& t) const {
    if (!worth(t)) return nullptr;
    const auto it = done_.find(t.get());
    return it == done_.end() ? nullptr : &it->second.second;
  }
  // [perf] Always inline: every walk calls it at every node it rebuilds (GCC kept a called copy
  // in Substituter::go once go_in_place sat beside it).
  [[gnu::always_inline]] void remember(const Term& t, const Term& result) {
    if (worth(t)) done_.emplace(t.get(), std::pair<Term, Term>{t, result});
  }

private:
  static bool worth(const Term& t) { return t->kind == Kind::proj && t.use_count() > 1; }
  std::unordered_map<const Node*, std::pair<Term, Term>> done_;
};

class Substituter {
public:
  Substituter(std::string x, Term s) : x_(std::move(x)), s_(std::move(s)) {}

  Term go(const Term& t) {
    if (leaves_default_stack(depth_.depth)) return on_large_stack([&] { return go(t); });
    const DepthGuard guard(depth_);
    if (t->kind == Kind::var) return same_name(t->name, x_) ? s_ : t;
    if (t->kids.empty()) return t;
    // [perf] t comes back unchanged when x is not free in it and none of its binders
    // would capture a free variable of s (such a binder is α-renamed below even where x does not
    // occur; keeping that keeps the terms and fresh names exactly those of the full walk). The
    // facts answer both without walking t, so rule 8 (seed 000 Fig. 3 L240) and the `let` rule
    // pay only for the part of the rest of the series that mentions the variable.
    // [perf] A node whose facts are not made yet (a body the last substitution rebuilt: rule 6,
    // seed 000 §3.4, composes chains of dual maps) is walked without them: the walk is the one
    // the facts only cut short, and a node it rebuilds is replaced, so its facts were made for
    // nothing. A node it keeps gets its facts, so a later substitution into it stops there.
    const bool known_facts = t->facts_slot.get() != nullptr;
    if (known_facts && !occurs_free(x_, t) && no_capture_below(t)) return t;
    if (const Term* known = shared_.find(t)) return *known;
    Term r = walk(t);
    shared_.remember(t, r);
    if (!known_facts && r == t) facts(t);
    return r;
  }

  // go, editing t in place when only the handle t (held alone) holds it (substitute_in_place);
  // edited: set when it did (t's handle is unchanged, its kids or binder name are not).
  [[gnu::noinline]] Term go_in_place(const Term& t, bool& edited) {
    if (t->kids.empty() || t.use_count() != 1 || t->keyed_mark.get()) return go(t);
    if (leaves_default_stack(depth_.depth))
      return on_large_stack([&] { return go_in_place(t, edited); });
    const DepthGuard guard(depth_);
    const bool known_facts = t->facts_slot.get() != nullptr;
    if (known_facts && !occurs_free(x_, t) && no_capture_below(t)) return t; // as go
    edited = walk_in_place(const_cast<Node&>(*t)); // made non-const (ast.cpp), held alone
    if (!known_facts && !edited) facts(t);
    return t;
  }

private:
  // The binder of t's kid i renamed where it would capture a free variable of s: the new name,
  // and the kid with its variable renamed in `renamed` (k then points at it).
  bool rename_binder(const Node& t, std::size_t i, const Term*& k, Term& renamed,
                     std::string& name) {
    if (!binds(t.kind) || i != bound_child(t.kind) || !occurs_free(t.name, s_)) return false;
    // The first fresh name not in FV(s) ∪ FV(body) ∪ {x} (the candidates are tested one by
    // one, so the name is the one fresh_name would draw from that set).
    const Term& body = *k;
    name = fresh_name_where(t.name, [&](const std::string& c) {
      return c == x_ || occurs_free(c, s_) || occurs_free(c, body);
    });
    renamed = rename_var(*k, t.name, name);
    k = &renamed;
    return true;
  }
  static bool shadowed_kid(const Node& t, std::size_t i, const std::string& x) {
    return binds(t.kind) && i == bound_child(t.kind) && same_name(t.name, x);
  }

  Term walk(const Term& t) {
    // The node is remade, and the children copied, only from the first one that changes (most
    // subterms do not), so an unchanged subterm costs no allocation and is returned shared.
    SharedNode<Node> out;
    std::string name;
    bool renamed = false;
    for (std::size_t i = 0; i < t->kids.size(); ++i) {
      const Term* k = &t->kids[i];
      Term renamed_kid;
      if (shadowed_kid(*t, i, x_)) {
        if (out) out->kids.push_back(*k);
        continue;
      }
      renamed = rename_binder(*t, i, k, renamed_kid, name) || renamed;
      Term r = go(*k);
      if (!out && (renamed || r != t->kids[i])) out = remake_from(t, i);
      if (out) out->kids.push_back(std::move(r));
    }
    if (!out) return t;
    if (renamed) out->name = std::move(name);
    return out;
  }

  // [perf] walk, on a node held alone (rule 6's V₂ composed by the last firing, seed 000 §3.4):
  // its changed kids are put into the node instead of into a copy, so that neither a node is
  // made nor the old one freed. Its remembered facts, atom mark and inert mark described the old
  // kids, so they are dropped (facts and atom mark as in the reducer's in-place rebuilds,
  // strategy.cpp). Whether it changed.
  bool walk_in_place(Node& n) {
    bool changed = false;
    const auto edit = [&] {
      if (changed) return;
      changed = true;
      n.facts_slot = FactsSlot{};
      n.atom_mark = AtomMark{};
      n.inert_mark = NodeMark{};
    };
    for (std::size_t i = 0; i < n.kids.size(); ++i) {
      if (shadowed_kid(n, i, x_)) continue;
      const Term* k = &n.kids[i];
      Term renamed_kid;
      std::string name;
      const bool renamed = rename_binder(n, i, k, renamed_kid, name);
      bool kid_edited = false;
      Term r = renamed ? go(*k) : go_in_place(*k, kid_edited);
      if (renamed || kid_edited || r != n.kids[i]) edit();
      if (renamed) n.name = std::move(name);
      if (r != n.kids[i]) n.kids[i] = std::move(r);
    }
    return changed;
  }

  // No binder of t is named after a free variable of s (s closed: trivially).
  bool no_capture_below(const Term& t) const {
    const NodeFacts& fs = facts(s_);
    if (fs.many) return false; // too many names to ask about: walk
    for (const std::string_view y : fs.free)
      if (!binds_no(t, y)) return false;
    return true;
  }
  std::string x_;
  Term s_;
  SharedProjections shared_;
  DepthBudget depth_{max_term_nesting, 0, ErrorKind::eval};
};

Term rename_var(const Term& t, const std::string& from, const std::string& to) {
  // The type of the renamed variable is the type of its occurrences.
  struct Finder {
    static Type type_of_occurrence(const Term& t, const std::string& x) {
      if (t->kind == Kind::var) return t->name == x ? t->type : nullptr;
      if (!occurs_free(x, t)) return nullptr;
      for (std::size_t i = 0; i < t->kids.size(); ++i) {
        if (binds(t->kind) && i == bound_child(t->kind) && t->name == x) continue;
        if (Type ty = type_of_occurrence(t->kids[i], x)) return ty;
      }
      return nullptr;
    }
  };
  const Type ty = Finder::type_of_occurrence(t, from);
  if (!ty) return t;
  Substituter s(from, var(to, ty));
  return s.go(t);
}

// Whether t's facts are made, or cost no record to make: a projection's are its operand's (the
// paths of rule 8's rest, seed 000 Fig. 3 L240, share their spines; walked, a spine is read once
// per path). The walks below read such a node's facts and walk the others.
bool facts_at_hand(const Term& t) {
  return t->facts_slot.get() != nullptr || t->kind == Kind::proj;
}

// The binder fields of facts(t) (a mask of the binder names' bits, their largest fresh-name
// number), gathered without making the facts.
struct BinderSummary {
  std::uint64_t mask = 0;
  std::int64_t number_max = INT64_MIN;
  bool none_named(std::string_view y) const { // binds_no(t, y), the same test
    return (mask & name_bit(y)) == 0 || name_number(y) > number_max;
  }
};

// What rule 8 (seed 000 Fig. 3 L240) asks of the rest of the series about its candidate stage
// name w, answered by its substitution's walk (PairSubstituter with a scan): whether w is free
// in the rest, and the binder fields of the rest's facts (captures_none's question).
struct StageScan {
  explicit StageScan(const std::string& name) : w(name) {}
  const std::string& w;
  bool free = false;
  BinderSummary binders;
  void read(const NodeFacts& f) {
    binders.mask |= f.binder_mask;
    binders.number_max = std::max(binders.number_max, f.binder_number_max);
  }
  void bind(const std::string& name) {
    const NameKey key = name_key(name);
    binders.mask |= key.bit;
    binders.number_max = std::max(binders.number_max, key.number);
  }
};

// t[s1/x1, s2/x2] where no binder of t can capture: only the paths to free x1 / x2 are rebuilt.
class PairSubstituter {
public:
  // How much of a subterm the scan still reads: nothing (read from the facts of a node above),
  // its binders (w bound above), its binders and w.
  enum class Scan { none, binders, all };

  PairSubstituter(const std::string& x1, const Term& s1, const std::string& x2, const Term& s2,
                  StageScan* scan = nullptr)
      : x1_(x1), s1_(s1), x2_(x2), s2_(s2), scan_(scan) {}

  Term go(const Term& t) { return go(t, true, true, scan_ ? Scan::all : Scan::none); }
  // go, editing in place the nodes of t only their parent holds (substitute_in_place); each
  // edit is logged, so that undo() puts the old kids back (the stage's result not kept).
  Term go_in_place(const Term& t) {
    bool edited = false;
    return go_in_place(t, true, true, scan_ ? Scan::all : Scan::none, edited);
  }
  // The nodes edited in place as before the walk (their facts and marks left to be made again).
  void undo() {
    for (auto it = log_.rbegin(); it != log_.rend(); ++it)
      it->node->kids[it->kid] = std::move(it->old);
    log_.clear();
  }

private:
  // first / second: x1 / x2 may still be free here (not shadowed above).
  Term go(const Term& t, bool first, bool second, Scan scan) {
    if (leaves_default_stack(depth_.depth))
      return on_large_stack([&] { return go(t, first, second, scan); });
    const DepthGuard guard(depth_);
    if (t->kind == Kind::var) {
      if (scan == Scan::all && same_name(t->name, scan_->w)) scan_->free = true;
      if (first && same_name(t->name, x1_)) return s1_;
      if (second && same_name(t->name, x2_)) return s2_;
      return t;
    }
    if (t->kids.empty()) return t;
    const bool known_facts = facts_at_hand(t);
    if (!still_free(t, known_facts, first, second, scan)) return t;
    // which of x1, x2 may be free here is part of the key (a shared path may sit under a binder
    // that shadows one of them)
    SharedProjections& shared = shared_[(first ? 2 : 0) + (second ? 1 : 0)];
    if (const Term* known = shared.find(t)) return *known;
    Term r = walk(t, first, second, scan);
    shared.remember(t, r);
    if (!known_facts && r == t) facts(t); // kept: a later substitution stops here
    return r;
  }

  // [perf] As in Substituter::go: a node without facts (rule 8's rest, rebuilt by the last
  // stage's substitution, seed 000 Fig. 3 L240) is walked instead of having its facts made
  // first; the walk finds the same occurrences, and most such nodes are rebuilt. A projection
  // asks its facts anyway (borrowed from its operand, no record made), so that a shared path is
  // remembered under the same key as with facts; the scan reads them too, a path's spine once.
  // Whether x1 or x2 may still be free in t (first and second, and the scan, brought up to t).
  [[gnu::always_inline]] bool still_free(const Term& t, bool known_facts, bool& first, bool& second,
                                         Scan& scan) {
    if (known_facts) {
      const NodeFacts& f = facts(t);
      if (scan != Scan::none) scan_->read(f);
      const FreeHere here = free_here(f, t, first, second, scan == Scan::all);
      if (here.w) scan_->free = true;
      scan = Scan::none;
      first = here.x1;
      second = here.x2;
      return first || second;
    }
    if (scan != Scan::none && binds(t->kind)) scan_->bind(t->name);
    return true;
  }

  // [perf] go on a node only its parent holds, itself held alone (rule 8's rest, which the last
  // stage's substitution built: seed 000 Fig. 3 L240): its changed kids are put into the node
  // instead of into a copy (its facts and marks dropped, as in Substituter::walk_in_place).
  // edited: set when t was edited.
  [[gnu::noinline]] Term go_in_place(const Term& t, bool first, bool second, Scan scan,
                                     bool& edited) {
    if (t->kids.empty() || t.use_count() != 1 || t->keyed_mark.get())
      return go(t, first, second, scan);
    if (leaves_default_stack(depth_.depth))
      return on_large_stack([&] { return go_in_place(t, first, second, scan, edited); });
    const DepthGuard guard(depth_);
    const bool known_facts = facts_at_hand(t);
    if (!still_free(t, known_facts, first, second, scan)) return t;
    Node& n = const_cast<Node&>(*t); // made non-const (ast.cpp), held alone
    for (std::size_t i = 0; i < n.kids.size(); ++i) {
      const bool under = binds(n.kind) && i == bound_child(n.kind);
      const Scan below =
          scan == Scan::all && under && same_name(n.name, scan_->w) ? Scan::binders : scan;
      bool kid_edited = false;
      Term r = go_in_place(n.kids[i], first && !(under && same_name(n.name, x1_)),
                           second && !(under && same_name(n.name, x2_)), below, kid_edited);
      const bool replaced = r != n.kids[i];
      if (!edited && (kid_edited || replaced)) {
        edited = true;
        n.facts_slot = FactsSlot{};
        n.atom_mark = AtomMark{};
        n.inert_mark = NodeMark{};
      }
      if (replaced) {
        log_.push_back({&n, i, std::move(n.kids[i])});
        n.kids[i] = std::move(r);
      }
    }
    if (!known_facts && !edited) facts(t); // kept: a later substitution stops here
    return t;
  }

  // Which of x1, x2 (where still asked) and w (where the scan asks) are free in t, whose facts
  // are f. [perf] The facts' list of free names is read once for the three names: an occurs_free
  // call per name fetched the facts and read the list again (1.7% of pullback/adequacy).
  struct FreeHere {
    bool x1 = false;
    bool x2 = false;
    bool w = false;
  };
  FreeHere free_here(const NodeFacts& f, const Term& t, bool first, bool second, bool ask_w) const {
    if (f.many) // more names than the facts keep: occurs_free asks the kids
      return {first && occurs_free(x1_, t), second && occurs_free(x2_, t),
              ask_w && occurs_free(scan_->w, t)};
    FreeHere here;
    for (const std::string_view name : f.free) {
      here.x1 = here.x1 || (first && same_name(name, x1_));
      here.x2 = here.x2 || (second && same_name(name, x2_));
      here.w = here.w || (ask_w && same_name(name, scan_->w));
    }
    return here;
  }

  Term walk(const Term& t, bool first, bool second, Scan scan) {
    SharedNode<Node> out;
    for (std::size_t i = 0; i < t->kids.size(); ++i) {
      const bool under = binds(t->kind) && i == bound_child(t->kind);
      const Scan below =
          scan == Scan::all && under && same_name(t->name, scan_->w) ? Scan::binders : scan;
      Term r = go(t->kids[i], first && !(under && same_name(t->name, x1_)),
                  second && !(under && same_name(t->name, x2_)), below);
      if (!out && r != t->kids[i]) out = remake_from(t, i);
      if (out) out->kids.push_back(std::move(r));
    }
    if (!out) return t;
    return out;
  }

  const std::string& x1_;
  const Term& s1_;
  const std::string& x2_;
  const Term& s2_;
  StageScan* scan_;
  std::array<SharedProjections, 4> shared_; // by which of x1, x2 may be free
  struct Edit {
    Node* node;
    std::size_t kid;
    Term old;
  };
  std::vector<Edit> log_; // go_in_place's replaced kids, in order
  DepthBudget depth_{max_term_nesting, 0, ErrorKind::eval};
};

// No binder of t is named after a free variable of s (false also when s has too many to ask).
template <class NoBinder> bool captures_none_by(const NoBinder& binds_none, const Term& s) {
  if (s->kind == Kind::var) return binds_none(s->name);
  const NodeFacts& fs = facts(s);
  if (fs.many) return false;
  for (const std::string_view y : fs.free)
    if (!binds_none(y)) return false;
  return true;
}
bool captures_none(const Term& t, const Term& s) {
  return captures_none_by([&t](std::string_view y) { return binds_no(t, y); }, s);
}
bool captures_none(const BinderSummary& t, const Term& s) {
  return captures_none_by([&t](std::string_view y) { return t.none_named(y); }, s);
}

// t[s1/x1, …, sn/xn] where no binder of t can capture and no si mentions an xj: each variable
// is looked up once; a binder named xj hides it in its scope.
class ManySubstituter {
public:
  explicit ManySubstituter(const std::vector<std::pair<std::string, Term>>& by) {
    for (const auto& [x, s] : by)
      by_.emplace(x, Entry{s, 0});
  }

  Term go(const Term& t) {
    if (leaves_default_stack(depth_.depth)) return on_large_stack([&] { return go(t); });
    const DepthGuard guard(depth_);
    if (t->kind == Kind::var) {
      const auto it = by_.find(t->name);
      return it != by_.end() && it->second.hidden == 0 ? it->second.s : t;
    }
    if (t->kids.empty()) return t;
    // a shared path's result depends on the node alone where no x is hidden
    if (const Term* known = hiding_ == 0 ? shared_.find(t) : nullptr) return *known;
    SharedNode<Node> out;
    for (std::size_t i = 0; i < t->kids.size(); ++i) {
      Entry* hidden = nullptr;
      if (binds(t->kind) && i == bound_child(t->kind)) {
        if (const auto it = by_.find(t->name); it != by_.end()) hidden = &it->second;
      }
      if (hidden) {
        ++hidden->hidden;
        ++hiding_;
      }
      Term r = go(t->kids[i]);
      if (hidden) {
        --hidden->hidden;
        --hiding_;
      }
      if (!out && r != t->kids[i]) out = remake_from(t, i);
      if (out) out->kids.push_back(std::move(r));
    }
    Term r = out ? Term(std::move(out)) : t;
    if (hiding_ == 0) shared_.remember(t, r);
    return r;
  }

private:
  struct Entry {
    Term s;
    int hidden; // binders named x around the current node
  };
  std::unordered_map<std::string, Entry> by_;
  int hiding_ = 0; // binders around the current node that hide some x
  SharedProjections shared_;
  DepthBudget depth_{max_term_nesting, 0, ErrorKind::eval};
};

} // namespace

Term substitute(const Term& t, const std::string& x, const Term& s) {
  Substituter sub(x, s);
  return sub.go(t);
}

Term substitute_in_place(const Term& t, const std::string& x, const Term& s) {
  Substituter sub(x, s);
  bool edited = false;
  return sub.go_in_place(t, edited);
}

Term substitute_each(const Term& t, const std::vector<std::pair<std::string, Term>>& by) {
  // In turn equals at once when every step finds only t's own free xi and renames nothing.
  bool simultaneous = true;
  std::set<std::string> names, free;
  for (const auto& [x, s] : by) {
    simultaneous = simultaneous && names.insert(x).second;
    const NodeFacts& fs = facts(s);
    if (s->kind == Kind::var) {
      free.insert(s->name);
    } else {
      simultaneous = simultaneous && !fs.many;
      free.insert(fs.free.begin(), fs.free.end());
    }
  }
  for (const std::string& y : free) {
    simultaneous = simultaneous && !names.contains(y) && binds_no(t, y);
    for (const auto& [x, s] : by)
      simultaneous = simultaneous && binds_no(s, y);
  }
  if (!simultaneous) {
    Term r = t;
    for (const auto& [x, s] : by)
      r = substitute(r, x, s);
    return r;
  }
  ManySubstituter sub(by);
  return sub.go(t);
}

Term substitute_in_turn(const Term& t, const std::string& x1, const Term& s1, const std::string& x2,
                        const Term& s2) {
  // Under these conditions neither walk renames (a binder is renamed only where its name is free
  // in the substituted term), the second walk finds x2 only where t had it free, and so the two
  // walks in turn build the simultaneous substitution.
  const bool simultaneous = x1 != x2 && !occurs_free(x2, s1) && captures_none(t, s1) &&
                            captures_none(t, s2) && captures_none(s1, s2);
  if (!simultaneous) return substitute(substitute(t, x1, s1), x2, s2);
  PairSubstituter sub(x1, s1, x2, s2);
  return sub.go(t);
}

namespace {
Term stage(const Term& rest, const std::string& w, const std::string& x1, const Term& s1,
           const std::string& x2, const Term& s2, bool in_place) {
  if (x1 == x2 || occurs_free(x2, s1) || !captures_none(s1, s2)) {
    if (occurs_free(w, rest)) return nullptr;
    return substitute(substitute(rest, x1, s1), x2, s2);
  }
  // The pair walk with the scan; its result is kept only if the scan then finds the conditions
  // of substitute_in_turn met (no binder of the rest named after a free variable of s1 or s2).
  // A walk in place is undone where it is not.
  StageScan scan(w);
  PairSubstituter sub(x1, s1, x2, s2, &scan);
  Term r = in_place ? sub.go_in_place(rest) : sub.go(rest);
  if (scan.free) {
    sub.undo();
    return nullptr;
  }
  if (captures_none(scan.binders, s1) && captures_none(scan.binders, s2)) return r;
  sub.undo();
  return substitute(substitute(rest, x1, s1), x2, s2);
}
} // namespace

Term substitute_stage(const Term& rest, const std::string& w, const std::string& x1, const Term& s1,
                      const std::string& x2, const Term& s2) {
  return stage(rest, w, x1, s1, x2, s2, false);
}

Term substitute_stage_in_place(const Term& rest, const std::string& w, const std::string& x1,
                               const Term& s1, const std::string& x2, const Term& s2) {
  return stage(rest, w, x1, s1, x2, s2, true);
}

} // namespace adsem::pullback
