// linear-negation's rule book: each rewriting rule of Table 2 (seed 002 L328-367), each rule of its
// structural equivalence (Table 2d, L369-383) and each clause
// of Table 3b's transformation D and of Def. 10's symbolic backpropagation bp once, under the name
// the traces print, with its citation, the node tags it can fire on, its side condition, its S_bp
// priority class and its result, and the read-back of Cor. 16 and the seeding of Prop. 1 that a
// gradient is read with. Listing,
// traces, rule coverage and `adsem calculi --json` read this table; mutants patch it
// (properties/linear_negation/mutants.cpp).
#include <algorithm>
#include <bit>
#include <cstdint>
#include <stdexcept>
#include <string_view>
#include <utility>

#include "semantics/linear_negation/equivalence.hpp"
#include "semantics/linear_negation/primitives.hpp"
#include "semantics/linear_negation/reduction.hpp"
#include "semantics/linear_negation/transform.hpp"
#include "syntax/core/inline_vector.hpp"

namespace adsem::linear_negation {

namespace {

using Redex = Reduction::Redex;

std::string cite(std::string_view where) {
  return "Brunel, Mazza & Pagani, Backpropagation in the Simply Typed Lambda-calculus with Linear "
         "Negation, " +
         std::string(where);
}
constexpr std::string_view T2a = "Table 2a (seed 002 lines 334-354)",
                           T2b = "Table 2b (seed 002 lines 356-362)",
                           T2c = "Table 2c (seed 002 lines 364-367)",
                           T2d = "Table 2d (seed 002 lines 369-383)",
                           S4 = "Section 4, rule (23) (seed 002 lines 387-390)",
                           T3b = "Table 3b (seed 002 lines 453-468)",
                           D10 = "Definition 10 (seed 002 lines 479-517)",
                           S23 = "Section 2.3, forward mode D→ (seed 002 lines 127-140)";

// A rule of Table 2 with one instance per node, of S_bp class `priority_class`.
Rule<Reduction> reduction(RuleInfo i, Kind kind, Rule<Reduction>::Match match,
                          Rule<Reduction>::Result result, int priority_class) {
  Rule<Reduction> out;
  out.info = std::move(i);
  out.kinds = {kind};
  out.match = std::move(match);
  out.result = std::move(result);
  out.extra.priority_class = priority_class;
  return out;
}

Rule<Transform> clause(RuleInfo i, Kind kind, Rule<Transform>::Result result) {
  Rule<Transform> out;
  out.info = std::move(i);
  out.kinds = {kind};
  out.result = std::move(result);
  return out;
}

// ---- the shapes the side conditions read ----

// The core of t under its explicit substitutions (peel without building the stack). Each ES node
// on the way is made, if a shared copy of (9) (force), to read its body; the core is not: a
// copy's node has its tag, binders and name before its children are made, which is what most
// side conditions read of it (one that reads its children makes it first).
const Term& core_of(const Term& t) {
  const Term* at = &t;
  while ((*at)->kind == Kind::let || (*at)->kind == Kind::let_pair) {
    force(**at);
    at = &(*at)->body();
  }
  return *at;
}

// core_of of an explicit substitution's bound term, kept on the redex: the side conditions of
// (8), (9), (10), (11) and (16), and (9)'s class, each read it, and the search asks them all of
// every ES node it summarises. The focus hands it in where it knows it (focus.cpp,
// core_after_run: a frame's bound term a stack of n explicit substitutions).
const Term& bound_core(const Redex& r) {
  if (r.bound_core == nullptr) r.bound_core = &core_of(r.term->bound());
  return *r.bound_core;
}

// is_value of bound_core, kept on the redex the same way: (9)'s and (10)'s side conditions both
// read it of every ES node the search summarises.
bool bound_is_value(const Redex& r) {
  if (r.bound_value < 0) r.bound_value = is_value(bound_core(r)) ? 1 : 0;
  return r.bound_value == 1;
}

bool leaf_value(const Term& v) {
  if (v->kind == Kind::var || v->kind == Kind::num) return true;
  force(*v);
  return v->kind == Kind::pair && leaf_value(v->left()) && leaf_value(v->right());
}

bool numeric_only(const Reducer& m) {
  return m.options().rules.numeric_only;
}

std::vector<Term> concat(std::initializer_list<const std::vector<Term>*> parts) {
  std::vector<Term> out;
  for (const auto* p : parts)
    out.insert(out.end(), p->begin(), p->end());
  return out;
}

// C{x} -> C{v}: the leftmost free occurrence (rule (9) is a micro-step).
std::optional<Term> replace_first(const Term& t, const std::string& x, const Term& v) {
  if (!occurs_free(x, t)) return std::nullopt;
  if (t->kind == Kind::var) return v;
  force(*t);
  for (std::size_t i = 0; i < t->kids.size(); ++i) {
    const bool under =
        (t->kind == Kind::lam || t->kind == Kind::let || t->kind == Kind::let_pair) && i == 0;
    if (under && (t->x.name == x || (t->kind == Kind::let_pair && t->y.name == x))) continue;
    if (auto r = replace_first(t->kids[i], x, v)) {
      std::vector<Term> kids = t->kids;
      kids[i] = *r;
      return rebuild(*t, std::move(kids));
    }
  }
  return std::nullopt;
}

// wrap for a rule's contractum: with the binders' counts kept, each frame keeps its binders'
// counts, changed by what the step noted of their names (a frame of the stack moved out binds
// names free in the value (9) copies or (10) and (11) drop).
Term wrap_noted(const Reducer& m, Term core, const std::vector<Term>& frames) {
  if (!m.keeps_counts()) return wrap(std::move(core), frames);
  for (const Term& f : frames) {
    core = rebuild_counted(*f, {core, f->bound()});
    for (std::size_t b = 0; b < (f->kind == Kind::let_pair ? 2U : 1U); ++b)
      if (core->bound_count[b] >= 0)
        core->bound_count[b] += m.noted_delta(b == 0 ? f->x.name : f->y.name);
  }
  return core;
}

// A new ES node binding x, whose count in the body is known (-1: not known).
Term let_counted(const Binder& x, Term body, Term bound, int count) {
  Term out = let(x, std::move(body), std::move(bound));
  out->bound_count[0] = count;
  return out;
}

// A let t[x := u] with x's count in t written into the redex node n, which the reducer holds
// alone (Reducer::redex_to_rewrite): the let without a node made and the redex's freed. n keeps
// its position, and the shared copy it may have been forced from (its children's names may view
// it); its other fields are a let's already (the application of (7), the let of (9) and the
// let_pair of (8), its y taken out, have no name).
void rewrite_as_let(Node& n, const Binder& x, Term body, Term bound, int count) {
  n.kind = Kind::let;
  n.x = x;
  n.kids = {std::move(body), std::move(bound)};
  n.forget_derived();
  n.bound_count[0] = count;
  measure(n);
}

// A summand (x α t) β with x a variable: its head name, or "".
struct Call {
  std::string head;
  Term argument;
  std::vector<Term> alpha, beta;
};
std::optional<Call> as_call(const Term& leaf) {
  const Peeled outer = peel(leaf);
  if (outer.core->kind != Kind::app) return std::nullopt;
  const Peeled head = peel(outer.core->left());
  if (head.core->kind != Kind::var) return std::nullopt;
  return Call{head.core->name, outer.core->right(), head.frames, outer.frames};
}

// Whether the ES stack above t's core (made by core_of or summands_of) binds none of x (none
// when x is null) and, as `moved` asks, holds exponential ES only: read off the ES nodes, the
// frames of peel(t) without building them ((12), (13) and (17) ask it of the summands of every
// maximal sum the strategy visits, (9) and (10) of the bound value of an ES, after core_of).
bool movable_stack(const Node& t, const std::string* x, MovedStacks moved) {
  for (const Node* at = &t; at->kind == Kind::let || at->kind == Kind::let_pair;
       at = at->body().get()) {
    if (x && (at->x.name == *x || (at->kind == Kind::let_pair && at->y.name == *x))) return false;
    if (moved == MovedStacks::exponential && at->kind == Kind::let && at->x.linear) return false;
  }
  return true;
}

// The summands i < j a rule on two summands of a maximal sum combines.
struct Summands {
  std::size_t i = 0, j = 0;
};

// (12), (13): the first two summands whose core has the tag and whose stack may move (with the
// book's rules: holds no linear ES).
std::optional<Summands> first_two(const Redex& r, Kind kind, MovedStacks moved) {
  if (r.in_sum) return std::nullopt; // the maximal sum decides (AC, spec §9 P3)
  std::optional<std::size_t> first;
  for (std::size_t i = 0; i < r.summands.size(); ++i) {
    if (r.summands[i].core->kind != kind || !movable_stack(**r.summands[i].term, nullptr, moved))
      continue;
    if (first) return Summands{*first, i};
    first = i;
  }
  return std::nullopt;
}

// (17): the first two calls of each R^⊥ head whose stacks qualify, one instance per head, in
// the order of their second summands. A summand's call is read off its core (the redex's),
// so that the side condition, tried on every maximal sum the strategy visits, builds nothing.
// The qualifying calls of a sum of more than a few are grouped by head in a hash table: a sum of
// n calls of n distinct heads (the gradient Σ xj' gj of Cor. 16) is then matched in O(n), not by
// a search of the heads seen for each summand, O(n²), nor by a sort of the heads by name, whose
// O(n log n) comparisons of names were a tenth of the wide family's run. Whether the head has type
// R^⊥d depends on the head alone, so it is asked once per head called at least twice (most sums
// call each head once).
std::vector<Summands> factorable(const Reducer& m, const Redex& r, MovedStacks moved) {
  std::vector<Summands> out;
  if (r.in_sum || !m.options().rules.factoring || numeric_only(m)) return out;
  // two calls need two applications (most sums the search visits have fewer)
  const auto apps = static_cast<std::size_t>(
      std::count_if(r.summands.begin(), r.summands.end(),
                    [](const Summand& s) { return s.core->kind == Kind::app; }));
  if (apps < 2) return out;
  // a head, its first call's summand and its second's (none yet: npos), in order of first call
  // (inline up to eight heads)
  constexpr std::size_t none = std::string::npos;
  struct Head {
    const std::string* name = nullptr;
    std::size_t first = none, second = none;
  };
  InlineVector<Head, 8> heads;
  // a campaign's sums have a few calls: each is compared with the heads seen; more are found in
  // a hash table (open addressing, at most half full: 0 is an empty slot, k the head heads[k - 1])
  const bool scan = apps <= 8;
  const std::size_t width = scan ? 0 : std::bit_ceil(2 * apps);
  const std::size_t mask = width - 1;
  const int shift = scan ? 0 : 64 - std::countr_zero(width); // a slot is read off the high bits
  InlineVector<std::uint32_t, 16> slots(width, 0);
  for (std::size_t i = 0; i < r.summands.size(); ++i) {
    const Summand& outer = r.summands[i]; // (x α t) β: β, and the application
    if (outer.core->kind != Kind::app) continue;
    const Term& alpha = outer.core->left(); // α, and x
    const Term& head = core_of(alpha);
    if (head->kind != Kind::var) continue;
    const std::string& x = head->name;
    // side conditions: no stack binds x; [spec §4.4 caveat] only exponential ES move
    if (!movable_stack(*alpha, &x, moved) || !movable_stack(**outer.term, &x, moved)) continue;
    const std::string& name = name_in_sum(outer, x); // x is free in the sum (its stacks bind none)
    Head* seen = nullptr;
    if (scan) {
      // inline (the names are short: a call of memcmp per pair cost more than the comparison)
      const auto it = std::find_if(heads.begin(), heads.end(), [&](const Head& h) {
        return h.name->size() == name.size() && compare_names(*h.name, name) == 0;
      });
      seen = it != heads.end() ? it : nullptr;
    } else {
      // FNV-1a, inline (the names are short), its bytes spread to the high bits by a Fibonacci
      // multiplication (FNV's prime alone leaves names that differ in one digit in a few slots)
      std::uint64_t hash = 14695981039346656037ULL;
      for (const char c : name)
        hash = (hash ^ static_cast<unsigned char>(c)) * 1099511628211ULL;
      std::size_t at = static_cast<std::size_t>((hash * 0x9E3779B97F4A7C15ULL) >> shift);
      while (slots[at] != 0 && *heads[slots[at] - 1].name != name)
        at = (at + 1) & mask;
      if (slots[at] != 0)
        seen = &heads[slots[at] - 1];
      else
        slots[at] = static_cast<std::uint32_t>(heads.size() + 1);
    }
    if (seen == nullptr)
      heads.push_back(Head{&name, i, none});
    else if (seen->second == none)
      seen->second = i;
  }
  for (const Head& h : heads)
    if (h.second != none && m.is_neg_variable(*h.name)) out.push_back(Summands{h.first, h.second});
  if (out.size() > 1)
    std::sort(out.begin(), out.end(),
              [](const Summands& a, const Summands& b) { return a.j < b.j; });
  return out;
}

// The sum with summands i and j replaced by `merged` (at i).
Term merged_sum(const Redex& r, const Summands& s, Term merged) {
  std::vector<Term> leaves;
  leaves.reserve(r.summands.size());
  for (const Summand& x : r.summands)
    leaves.push_back(*x.term);
  leaves[s.i] = std::move(merged);
  leaves.erase(leaves.begin() + static_cast<long>(s.j));
  return sum_of(leaves);
}

// (14), (23): the primitive's arguments are numerals under stacks that may move, as `moved` asks.
bool numeral_arguments(const Term& t, MovedStacks moved) {
  return std::all_of(t->kids.begin(), t->kids.end(), [moved](const Term& k) {
    return core_of(k)->kind == Kind::num && movable_stack(*k, nullptr, moved);
  });
}

// f(r1 α1, …, rk αk) → ⟦f⟧(r1,…,rk) α1 … αk. Rule (14)'s r·q too goes through the shared
// primitive table, whose overflow check names the call (semantics/core/overflow.hpp), as every
// other calculus's arithmetic does.
Term apply_to_numerals(Reducer& m, const Redex& r, const RuleInfo&) {
  std::vector<double> args;
  std::vector<Term> frames;
  for (const Term& k : r.term->kids) {
    const Peeled p = peel(k);
    args.push_back(p.core->value);
    frames.insert(frames.end(), p.frames.begin(), p.frames.end());
  }
  return wrap_noted(m, num(*apply_primitive(r.term->name, args)), frames);
}

// The occurrences of v's free names, noted with the sign of the step's change: (9) puts a copy of
// v in the body, (10) drops v (Reducer::note_count; the copy's own binders are not noted).
void note_free_names(Reducer& m, const Term& v, int sign) {
  if (!m.notes_counts()) return;
  FreeEntry single;
  for (const auto& [w, c] : free_counts_of(*v, single))
    m.note_count(w, sign * c);
}

// (9)'s S_bp class (spec §4.7.4): leaf values first (2), then non-linear abstractions (5), then a
// linear abstraction used once (6), anything else last (7).
int subst_class(const Reducer&, const Redex& r) {
  const Term& v = bound_core(r);
  if (leaf_value(v)) return 2;
  if (v->kind == Kind::lam && !v->x.linear) return 5;
  if (v->kind == Kind::lam && binder_count(*r.term, 0) == 1) return 6;
  return 7;
}

// (9) and (10) with what the stack α of the bound value, which they move out, may hold: the
// book's move exponential ES only [spec §4.4 caveat, met by (9) and (10): a linear ES [w := u] in
// α would take what was outside the content as its body, not linear in w]; such an α waits for
// (11) to dissolve its linear ES inside the content. MovedStacks::any is Table 2a as printed.
Rule<Reduction> subst_9(MovedStacks moved) {
  Rule<Reduction> subst = reduction(
      rule_info("subst-9", cite(T2a), RuleKind::reduction,
                "(9) C{x}[x := vα] → C{v}[x := v]α, v a value, one occurrence at a time"),
      Kind::let,
      [moved](const Reducer& m, const Redex& r) {
        const Node& t = *r.term;
        return !t.x.linear && bound_is_value(r) && binder_count(t, 0) > 0 &&
               (!numeric_only(m) || bound_core(r)->kind == Kind::num) &&
               movable_stack(*t.bound(), nullptr, moved);
      },
      [](Reducer& m, const Redex& r, const RuleInfo&) {
        const Node& t = *r.term;
        const Peeled p = peel(t.bound());
        const Term copy = m.copy_value(p.core);
        m.note_count(t.x.name, -1); // one occurrence of x replaced by v's copy
        note_free_names(m, p.core, 1);
        if (!m.keeps_counts())
          return wrap(rebuild(t, {*replace_first(t.body(), t.x.name, copy), p.core}), p.frames);
        const int x = binder_count(t, 0);
        const Term body =
            replace_first_counted(t.body(), t.x.name, copy, x, m.in_place_writes(), 1);
        if (Node* own = m.redex_to_rewrite(r.term)) {     // held alone: written, not rebuilt
          m.in_place_writes()->near.emplace_back(own, 0); // its body replaced (focus.cpp)
          rewrite_as_let(*own, t.x, body, p.core, x - 1);
          return wrap_noted(m, r.term, p.frames);
        }
        Term out = rebuild(t, {body, p.core});
        out->bound_count[0] = x - 1;
        return wrap_noted(m, std::move(out), p.frames);
      },
      0);
  subst.extra.class_of = subst_class;
  return subst;
}

Rule<Reduction> gc_10(MovedStacks moved) {
  return reduction(
      rule_info("gc-10", cite(T2a), RuleKind::reduction, "(10) t[x := vα] → tα, x not free in t"),
      Kind::let,
      [moved](const Reducer&, const Redex& r) {
        const Node& t = *r.term;
        return !t.x.linear && bound_is_value(r) && binder_count(t, 0) == 0 &&
               movable_stack(*t.bound(), nullptr, moved);
      },
      [](Reducer& m, const Redex& r, const RuleInfo&) {
        const Peeled p = peel(r.term->bound());
        note_free_names(m, p.core, -1);
        return wrap_noted(m, r.term->body(), p.frames);
      },
      2);
}

// The rules on two summands of a maximal sum, (12), (13) and (17), with what their moved stacks
// may hold: the book's move exponential ES only [spec §4.4 caveat]; MovedStacks::any is Table 2
// as printed (relations.hpp).
Rule<Reduction> sum_12(MovedStacks moved) {
  return reduction(
      rule_info("sum-12", cite(T2a), RuleKind::reduction, "(12) r α + q β → (r+q) α β"), Kind::add,
      [moved](const Reducer&, const Redex& r) {
        return first_two(r, Kind::num, moved).has_value();
      },
      [moved](Reducer& m, const Redex& r, const RuleInfo&) {
        const Summands s = *first_two(r, Kind::num, moved);
        const Peeled a = peel(*r.summands[s.i].term);
        const Peeled b = peel(*r.summands[s.j].term);
        return merged_sum(
            r, s,
            wrap_noted(m, num(a.core->value + b.core->value), concat({&a.frames, &b.frames})));
      },
      2);
}

Rule<Reduction> sum_pair_13(MovedStacks moved) {
  return reduction(
      rule_info("sum-pair-13", cite(T2a), RuleKind::reduction,
                "(13) ⟨t1,t2⟩α + ⟨u1,u2⟩β → ⟨t1+u1, t2+u2⟩ α β"),
      Kind::add,
      [moved](const Reducer& m, const Redex& r) {
        return !numeric_only(m) && first_two(r, Kind::pair, moved).has_value();
      },
      [moved](Reducer& m, const Redex& r, const RuleInfo&) {
        const Summands s = *first_two(r, Kind::pair, moved);
        const Peeled a = peel(*r.summands[s.i].term);
        const Peeled b = peel(*r.summands[s.j].term);
        const Term core =
            pair(add(a.core->left(), b.core->left()), add(a.core->right(), b.core->right()));
        return merged_sum(r, s, wrap_noted(m, core, concat({&a.frames, &b.frames})));
      },
      2);
}

Rule<Reduction> factor_17(MovedStacks moved) {
  Rule<Reduction> factor;
  factor.info = rule_info("factor-17", cite(T2c), RuleKind::reduction,
                          "(17) (x α t) β + (x α' t') β' → x (t + t') α β α' β', x : R^⊥d");
  factor.kinds = {Kind::add};
  factor.match = [moved](const Reducer& m, const Redex& r) {
    return r.nth < factorable(m, r, moved).size();
  };
  factor.result = [moved](Reducer& m, const Redex& r, const RuleInfo&) {
    const Summands s = factorable(m, r, moved).at(r.nth);
    const Call a = *as_call(*r.summands[s.i].term);
    const Call b = *as_call(*r.summands[s.j].term);
    m.note_count(a.head, -1); // two calls of the head become one
    return merged_sum(r, s,
                      wrap_noted(m, app(var(a.head), add(a.argument, b.argument)),
                                 concat({&a.alpha, &a.beta, &b.alpha, &b.beta})));
  };
  factor.extra.priority_class = 1;
  factor.extra.several_instances = true;
  return factor;
}

// (8), (14) and (23) with what the stacks they move out may hold: (8) the stack α of its pair,
// (14) and (23) their arguments' stacks, stacked in turn. The book's move exponential ES only
// [spec §4.4 caveat, met by these three: `y[⟨y,y'⟩ := ⟨w,w⟩[w := 1]]` →(8) puts w in exponential
// ES, `0[w := 1] · 0[w := 1]` →(14) makes a linear ES whose body is not linear in its variable;
// found by enumeration at size 7]; such a stack waits for (11) to dissolve its linear ES.
// MovedStacks::any is Table 2a as printed.
Rule<Reduction> pair_8(MovedStacks moved) {
  return reduction(
      rule_info("pair-8", cite(T2a), RuleKind::reduction,
                "(8) s[⟨x,y⟩ := ⟨t,u⟩α] → s[x := t][y := u]α"),
      Kind::let_pair,
      [moved](const Reducer& m, const Redex& r) {
        return !numeric_only(m) && bound_core(r)->kind == Kind::pair &&
               movable_stack(*r.term->bound(), nullptr, moved);
      },
      [](Reducer& m, const Redex& r, const RuleInfo&) {
        const Node& t = *r.term;
        const Peeled p = peel(t.bound());
        // y's count: unique binders, so y is not free in the first component
        const Term inner = let_counted(t.x, t.body(), p.core->left(), t.bound_count[0]);
        const int y = m.keeps_counts() ? t.bound_count[1] : -1;
        if (Node* own = m.redex_to_rewrite(r.term)) { // the outer let in the redex's node
          const Binder outer = std::exchange(own->y, Binder{});
          own->pos.reset(); // (let_counted's has no position)
          rewrite_as_let(*own, outer, inner, p.core->right(), y);
          return wrap_noted(m, r.term, p.frames);
        }
        return wrap_noted(m, let_counted(t.y, inner, p.core->right(), y), p.frames);
      },
      2);
}

Rule<Reduction> product_14(MovedStacks moved) {
  return reduction(
      rule_info("mul-14", cite(T2a), RuleKind::reduction, "(14) r α · q β → (r·q) α β"), Kind::prim,
      [moved](const Reducer&, const Redex& r) {
        return r.term->name == "mul" && numeral_arguments(r.term, moved);
      },
      apply_to_numerals, 2);
}

Rule<Reduction> prim_23(MovedStacks moved) {
  return reduction(
      rule_info("prim-23", cite(S4), RuleKind::reduction,
                "(23) f(r1 α1, …, rk αk) → ⟦f⟧(r1,…,rk) α1 … αk, in f's domain"),
      Kind::prim,
      [moved](const Reducer&, const Redex& r) {
        if (r.term->name == "mul" || !numeral_arguments(r.term, moved)) return false;
        std::vector<double> args;
        for (const Term& k : r.term->kids)
          args.push_back(core_of(k)->value);
        return apply_primitive(r.term->name, args).has_value();
      },
      apply_to_numerals, 2);
}

std::vector<Rules::Entry> table_2() {
  const auto not_numeric = [](const Reducer& m, const Redex&) { return !numeric_only(m); };
  std::vector<Rules::Entry> out;
  out.push_back(reduction(
      rule_info("beta-7", cite(T2a), RuleKind::reduction, "(7) (λx.t)α u → t[x := u]α"), Kind::app,
      [not_numeric](const Reducer& m, const Redex& r) {
        return not_numeric(m, r) && core_of(r.term->left())->kind == Kind::lam;
      },
      [](Reducer& m, const Redex& r, const RuleInfo&) {
        const Peeled f = peel(r.term->left());
        const Node& l = *f.core;
        if (Node* own = m.redex_to_rewrite(r.term)) { // the application becomes the let
          own->pos.reset();                           // (let_counted's has no position)
          rewrite_as_let(*own, l.x, l.body(), r.term->right(), l.bound_count[0]);
          return wrap_noted(m, r.term, f.frames);
        }
        return wrap_noted(m, let_counted(l.x, l.body(), r.term->right(), l.bound_count[0]),
                          f.frames);
      },
      4));
  out.push_back(pair_8(MovedStacks::exponential));
  out.push_back(subst_9(MovedStacks::exponential));
  out.push_back(gc_10(MovedStacks::exponential));
  out.push_back(reduction(
      rule_info("lin-subst-11", cite(T2a), RuleKind::reduction,
                "(11) t[z^R := vα] → t{v/z}α, v a numeral or a variable"),
      Kind::let,
      [not_numeric](const Reducer& m, const Redex& r) {
        const Kind v = bound_core(r)->kind;
        return r.term->x.linear && not_numeric(m, r) && (v == Kind::num || v == Kind::var);
      },
      [](Reducer& m, const Redex& r, const RuleInfo&) {
        const Peeled p = peel(r.term->bound());
        if (m.notes_counts()) { // z's occurrences become v's (v's own occurrence goes)
          const int z = binder_count(*r.term, 0);
          m.note_count(r.term->x.name, -z);
          if (p.core->kind == Kind::var) m.note_count(p.core->name, z - 1);
        }
        if (!m.keeps_counts())
          return wrap(substitute(r.term->body(), r.term->x.name, p.core), p.frames);
        return wrap_noted(
            m, substitute_counted(r.term->body(), r.term->x.name, p.core, binder_count(*r.term, 0)),
            p.frames);
      },
      2));
  out.push_back(sum_12(MovedStacks::exponential));
  out.push_back(sum_pair_13(MovedStacks::exponential));
  out.push_back(product_14(MovedStacks::exponential));
  // (16) shares non-trivial components. [EXT] also at a distance, ⟨u,u'⟩α (the pattern ES keeps
  // α for (8)): without it ≡ (19)/(21) could hide a (16) redex, against Lemma 3 (found by
  // equivalence-bisimulation).
  out.push_back(reduction(
      rule_info("eta-pair-16", cite(T2b), RuleKind::reduction,
                "(16) t[x := ⟨u,u'⟩] → t[x := ⟨y,y'⟩][⟨y,y'⟩ := ⟨u,u'⟩]"),
      Kind::let,
      [not_numeric](const Reducer& m, const Redex& r) {
        const Term& pr = bound_core(r);
        if (r.term->x.linear || !not_numeric(m, r) || !m.options().rules.eta_pair ||
            pr->kind != Kind::pair)
          return false;
        force(*pr); // its components are read
        return !(leaf_value(pr->left()) && leaf_value(pr->right())) &&
               !(pr->left()->kind == Kind::var && pr->right()->kind == Kind::var);
      },
      [](Reducer& m, const Redex& r, const RuleInfo&) {
        const Node& t = *r.term;
        const Type& a = t.x.type;
        const bool product = a && is_product(a);
        const Binder by = m.fresh_binder(t.x.name, product ? a->left : nullptr);
        const Binder by2 = m.fresh_binder(t.x.name, product ? a->right : nullptr);
        m.note_count(by.name, 1);
        m.note_count(by2.name, 1);
        const Term inner = rebuild_counted(t, {t.body(), pair(var(by.name), var(by2.name))});
        Term out = let_pair(by, by2, inner, t.bound());
        out->bound_count = {1, 1}; // fresh names, used once each
        return out;
      },
      3));
  out.push_back(factor_17(MovedStacks::exponential));
  out.push_back(prim_23(MovedStacks::exponential));
  return out;
}

std::vector<Rules::Entry> table_3b() {
  using T = Transform::Redex;
  std::vector<Rules::Entry> out;
  const auto d = [](std::string name, std::string summary, Kind kind,
                    Rule<Transform>::Result result) {
    return clause(
        rule_info(std::move(name), cite(T3b), RuleKind::transformation, std::move(summary)), kind,
        std::move(result));
  };
  out.push_back(d("D-var", "D(x) = x", Kind::var,
                  [](Differentiator&, const T& r, const RuleInfo&) { return r.term; }));
  out.push_back(d("D-lam", "D(λx^{!A}. t) = λx^{!D(A)}. D(t)", Kind::lam,
                  [](Differentiator& dd, const T& r, const RuleInfo&) {
                    return lam(dd.binder(r.term->x), dd.go(r.term->body()));
                  }));
  out.push_back(d("D-app", "D(t u) = D(t) D(u)", Kind::app,
                  [](Differentiator& dd, const T& r, const RuleInfo&) {
                    return rebuild(*r.term, {dd.go(r.term->left()), dd.go(r.term->right())});
                  }));
  out.push_back(d("D-pair", "D(⟨t, u⟩) = ⟨D(t), D(u)⟩", Kind::pair,
                  [](Differentiator& dd, const T& r, const RuleInfo&) {
                    return rebuild(*r.term, {dd.go(r.term->left()), dd.go(r.term->right())});
                  }));
  out.push_back(d("D-let-pair", "D(t[⟨x, y⟩ := u]) = D(t)[⟨x, y⟩ := D(u)]", Kind::let_pair,
                  [](Differentiator& dd, const T& r, const RuleInfo&) {
                    const Node& t = *r.term;
                    return let_pair(dd.binder(t.x), dd.binder(t.y), dd.go(t.body()),
                                    dd.go(t.bound()));
                  }));
  out.push_back(d("D-let", "D(t[x := u]) = D(t)[x := D(u)]", Kind::let,
                  [](Differentiator& dd, const T& r, const RuleInfo&) {
                    const Node& t = *r.term;
                    return let(dd.binder(t.x), dd.go(t.body()), dd.go(t.bound()));
                  }));
  out.push_back(d("D-num", "D(r) = ⟨r, λa. 0⟩", Kind::num,
                  [](Differentiator& dd, const T& r, const RuleInfo&) {
                    const std::string a = dd.names().fresh("a");
                    return pair(num(r.term->value), lam(lin_binder(a), zero(dd.d())));
                  }));
  out.push_back(d("D-add", "D(t + u) = ⟨x + y, λa. x'a + y'a⟩[⟨x, x'⟩ := D(t)][⟨y, y'⟩ := D(u)]",
                  Kind::add, [](Differentiator& dd, const T& r, const RuleInfo&) {
                    Names& names = dd.names();
                    const std::string x = names.fresh("x"), xp = names.fresh("dx");
                    const std::string y = names.fresh("y"), yp = names.fresh("dy");
                    const std::string a = names.fresh("a");
                    const Term core =
                        pair(add(var(x), var(y)),
                             lam(lin_binder(a), add(app(var(xp), var(a)), app(var(yp), var(a)))));
                    const Term dt = dd.go(r.term->left());
                    const Term du = dd.go(r.term->right());
                    return dd.pattern_frame(y, yp, dd.pattern_frame(x, xp, core, dt), du);
                  }));
  out.push_back(d(
      "D-prim", "D(f(t1..tk)) = ⟨f(x1..xk), λa. Σ xi' (∂f/∂i(x1..xk) · a)⟩[⟨xi, xi'⟩ := D(ti)]…",
      Kind::prim, [](Differentiator& dd, const T& r, const RuleInfo&) {
        const Node& t = *r.term;
        Names& names = dd.names();
        const std::size_t k = t.kids.size();
        std::vector<std::string> xs, xps;
        std::vector<Term> xv;
        for (std::size_t i = 0; i < k; ++i) {
          xs.push_back(names.fresh("x"));
          xps.push_back(names.fresh("dx"));
          xv.push_back(var(xs.back()));
        }
        const std::string a = names.fresh("a");
        std::vector<Term> terms;
        for (std::size_t i = 0; i < k; ++i)
          terms.push_back(app(
              var(xps[i]), mul(derivative_template(t.name, static_cast<int>(i + 1), xv), var(a))));
        Term out = pair(prim(t.name, xv), lam(lin_binder(a), sum_of(terms)));
        for (std::size_t i = 0; i < k; ++i)
          out = dd.pattern_frame(xs[i], xps[i], out, dd.go(t.kids[i]));
        return out;
      }));
  return out;
}

// ---- Def. 10: symbolic backpropagation bp_{x,a}(G) on computational graphs ----

// G ⊕ H (L479-481): 0 ⊕ H = H, G ⊕ 0 = G, else G + H; with + instead, |bp(x1 + … + xn)| is
// quadratic (L843).
Term oplus(const Term& a, const Term& b) {
  if (a->kind == Kind::num && a->value == 0.0) return b;
  if (b->kind == Kind::num && b->value == 0.0) return a;
  return add(a, b);
}

// [x := content] as one frame of a stack α or β (its body filled in by wrap).
Term frame(const std::string& x, const Term& content) {
  return let(exp_binder(x, real_type()), num(0), content);
}

// A clause of a transformation R of computational graphs (bp, D→) on the former `kind`, cited
// `where`.
template <class R>
Rule<R> graph_clause(std::string_view where, std::string name, std::string summary, Kind kind,
                     typename Rule<R>::Result result) {
  Rule<R> r;
  r.info = rule_info(std::move(name), cite(where), RuleKind::transformation, std::move(summary));
  r.kinds = {kind};
  r.result = std::move(result);
  return r;
}

std::vector<Rules::Entry> definition_10() {
  using B = SymbolicBackprop::Redex;
  std::vector<Rules::Entry> out;
  const auto clause = [](auto&&... a) { return graph_clause<SymbolicBackprop>(D10, a...); };
  out.push_back(clause("bp-var", "bp(xi) = ⟨xi, ⟨0, …, a, …, 0⟩⟩", Kind::var,
                       [](Backpropagator&, const B& r, const RuleInfo&) {
                         BpParts p;
                         p.g0 = r.term;
                         for (const std::string& x : r.inputs)
                           p.gi.push_back(x == r.term->name ? var(r.a) : num(0));
                         return p;
                       }));
  out.push_back(clause("bp-num", "bp(r) = ⟨r, 0⟩", Kind::num,
                       [](Backpropagator&, const B& r, const RuleInfo&) {
                         BpParts p;
                         p.g0 = r.term;
                         p.gi.assign(r.inputs.size(), num(0));
                         return p;
                       }));
  // [EXT, spec §4.10a] a repeated argument (z1·z1) sums its partials: Fig. 2's z1·b + z1·b, L187
  out.push_back(clause(
      "bp-prim", "bp(f(y1..yk)) = ⟨f(y), ⟨G1..Gn⟩⟩, Gi = ⊕_{j: yj = xi} ∂f/∂j(y)·a", Kind::prim,
      [](Backpropagator&, const B& r, const RuleInfo&) {
        const Node& g = *r.term;
        BpParts p;
        p.g0 = r.term;
        p.gi.assign(r.inputs.size(), num(0));
        for (std::size_t j = 0; j < g.kids.size(); ++j)
          for (std::size_t i = 0; i < r.inputs.size(); ++i)
            if (g.kids[j]->name == r.inputs[i])
              p.gi[i] =
                  oplus(p.gi[i], mul(derivative_template(g.name, static_cast<int>(j + 1), g.kids),
                                     var(r.a)));
        return p;
      }));
  out.push_back(
      clause("bp-let",
             "bp(F'[z := F'']) = ⟨F'0, ⟨F'1 ⊕ F''1, …⟩ α''[b := H]α'⟩ β'[z := F''0]β'' (H = 0: "
             "⟨F'0, ⟨F'1, …⟩α'⟩ β'[z := F''0]β'')",
             Kind::let, [](Backpropagator& bp, const B& r, const RuleInfo&) {
               const Node& g = *r.term;
               const std::string& z = g.x.name;
               std::vector<std::string> xz = r.inputs; // z appended as input n + 1
               xz.push_back(z);
               BpParts f1 = bp.go(g.body(), xz, r.a);
               const std::string b = bp.names().fresh("b");
               const BpParts f2 = bp.go(g.bound(), r.inputs, b);
               const Term h = f1.gi.back();
               f1.gi.pop_back();
               BpParts p;
               p.g0 = f1.g0;
               if (h->kind == Kind::num && h->value == 0.0) {
                 p.gi = f1.gi;
                 p.alpha = f1.alpha;
               } else {
                 for (std::size_t i = 0; i < r.inputs.size(); ++i)
                   p.gi.push_back(oplus(f1.gi[i], f2.gi[i]));
                 p.alpha = f2.alpha; // α'' [b := H] α'
                 p.alpha.push_back(frame(b, h));
                 p.alpha.insert(p.alpha.end(), f1.alpha.begin(), f1.alpha.end());
               }
               p.beta = f1.beta; // β' [z := F''0] β''
               p.beta.push_back(frame(z, f2.g0));
               p.beta.insert(p.beta.end(), f2.beta.begin(), f2.beta.end());
               return p;
             }));
  // L517 prints β'β' for the stack of the sum: spec erratum 12 reads β'β'' (the sum's stack holds
  // both summands' lets).
  out.push_back(clause("bp-sum", "bp(F' + F'') = ⟨F'0 + F''0, ⟨F'1 ⊕ F''1, …⟩ α'α''⟩ β'β''",
                       Kind::add, [](Backpropagator& bp, const B& r, const RuleInfo&) {
                         const BpParts f1 = bp.go(r.term->left(), r.inputs, r.a);
                         const BpParts f2 = bp.go(r.term->right(), r.inputs, r.a);
                         BpParts p;
                         p.g0 = add(f1.g0, f2.g0);
                         for (std::size_t i = 0; i < r.inputs.size(); ++i)
                           p.gi.push_back(oplus(f1.gi[i], f2.gi[i]));
                         p.alpha = f1.alpha;
                         p.alpha.insert(p.alpha.end(), f2.alpha.begin(), f2.alpha.end());
                         p.beta = f1.beta;
                         p.beta.insert(p.beta.end(), f2.beta.begin(), f2.beta.end());
                         return p;
                       }));
  return out;
}

// ---- Table 2d: the structural equivalence ≡, (18)-(22), both directions, on exponential ES ----

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

// (21) (side 0) or (22) (side 1): (s □ t)[x:=u] ≡ s[x:=u] □ t if x ∉ fv(t), and symmetrically;
// at an exponential ES left to right, at a binary former right to left.
std::vector<Term> distribute(const Term& t, std::size_t side) {
  if (!exp_let(t)) {
    if (!binary_former(t)) return {};
    const Term& e = t->kids[side];
    if (!exp_let(e) || occurs_free(e->x.name, t->kids[1 - side])) return {};
    std::vector<Term> kids = t->kids;
    kids[side] = e->body();
    return {rebuild(*e, {rebuild(*t, std::move(kids)), e->bound()})};
  }
  const Term& body = t->body();
  if (!binary_former(body) || occurs_free(t->x.name, body->kids[1 - side])) return {};
  std::vector<Term> kids = body->kids;
  kids[side] = rebuild(*t, {kids[side], t->bound()});
  return {rebuild(*body, std::move(kids))};
}

std::vector<Rules::Entry> table_2d() {
  using E = Equivalence::Redex;
  const auto rule = [](std::string name, std::string summary, std::vector<Kind> kinds,
                       Rule<Equivalence>::Result result) {
    Rule<Equivalence> r;
    r.info = rule_info(std::move(name), cite(T2d), RuleKind::equivalence, std::move(summary));
    r.kinds = std::move(kinds);
    r.result = std::move(result);
    return r;
  };
  const std::vector<Kind> binary = {Kind::let, Kind::app, Kind::add, Kind::pair, Kind::prim};
  std::vector<Rules::Entry> out;
  // at the node [y := w] whose body is [x := u]
  out.push_back(rule("equiv-18", "t[x := u][y := w] ≡ t[y := w][x := u] (x ∉ fv(w), y ∉ fv(u))",
                     {Kind::let}, [](EquivalenceSteps&, const E& r, const RuleInfo&) {
                       const Term& t = r.term;
                       const Term& inner = t->body();
                       if (!exp_let(t) || !exp_let(inner) ||
                           occurs_free(t->x.name, inner->bound()) ||
                           occurs_free(inner->x.name, t->bound()))
                         return std::vector<Term>{};
                       return std::vector<Term>{rebuild(
                           *inner, {rebuild(*t, {inner->body(), t->bound()}), inner->bound()})};
                     }));
  out.push_back(
      rule("equiv-19", "t[x := u][y := w] ≡ t[x := u[y := w]] (y ∉ fv(t))", {Kind::let},
           [](EquivalenceSteps&, const E& r, const RuleInfo&) {
             const Term& t = r.term;
             std::vector<Term> out;
             if (!exp_let(t)) return out;
             const Term& body = t->body();
             const Term& u = t->bound();
             if (exp_let(body) && !occurs_free(t->x.name, body->body()))
               out.push_back(rebuild(*body, {body->body(), rebuild(*t, {body->bound(), u})}));
             if (exp_let(u) && !occurs_free(u->x.name, body)) // right to left
               out.push_back(rebuild(*u, {rebuild(*t, {body, u->body()}), u->bound()}));
             return out;
           }));
  out.push_back(rule("equiv-20", "t[x := u] ≡ t_{y/x}[x := u][y := u] (one occurrence renamed)",
                     {Kind::let}, [](EquivalenceSteps& steps, const E& r, const RuleInfo&) {
                       const Term& t = r.term;
                       const std::string& x = t->x.name;
                       if (!exp_let(t) || free_count(x, t->body()) < 2) return std::vector<Term>{};
                       Names& names = steps.names();
                       bool done = false;
                       Binder y = t->x;
                       y.name = names.fresh(x);
                       const Term split = rename_first(t->body(), x, y.name, done);
                       return std::vector<Term>{let(y, rebuild(*t, {split, t->bound()}),
                                                    rename_bound(t->bound(), names))};
                     }));
  out.push_back(
      rule("equiv-21", "(s □ t)[x := u] ≡ s[x := u] □ t (x ∉ fv(t))", binary,
           [](EquivalenceSteps&, const E& r, const RuleInfo&) { return distribute(r.term, 0); }));
  out.push_back(
      rule("equiv-22", "(s □ t)[x := u] ≡ s □ t[x := u] (x ∉ fv(s))", binary,
           [](EquivalenceSteps&, const E& r, const RuleInfo&) { return distribute(r.term, 1); }));
  return out;
}

// ---- Sect. 2.3: forward mode D→(G) on computational graphs, inputs of type R × R ----
std::vector<Rules::Entry> section_2_3() {
  using F = ForwardMode::Redex;
  std::vector<Rules::Entry> out;
  const auto clause = [](auto&&... a) { return graph_clause<ForwardMode>(S23, a...); };
  const Type dr = product_type(real_type(), real_type());
  out.push_back(clause("fwd-var", "D→(x) = x", Kind::var,
                       [](ForwardDifferentiator&, const F& r, const RuleInfo&) { return r.term; }));
  // [EXT, spec erratum 17] a numeral's tangent is 0
  out.push_back(clause(
      "fwd-num", "D→(r) = ⟨r, 0⟩", Kind::num,
      [](ForwardDifferentiator&, const F& r, const RuleInfo&) { return pair(r.term, num(0)); }));
  out.push_back(clause("fwd-let", "D→(F[x := G]) = D→(F)[x := D→(G)]", Kind::let,
                       [dr](ForwardDifferentiator& d, const F& r, const RuleInfo&) {
                         const Node& g = *r.term;
                         return let(exp_binder(g.x.name, dr), d.go(g.body()), d.go(g.bound()));
                       }));
  out.push_back(
      clause("fwd-prim", "D→(f(x1..xk)) = ⟨f(z), Σ ∂f/∂i(z)·ti⟩[⟨z1, t1⟩ := x1]…[⟨zk, tk⟩ := xk]",
             Kind::prim, [](ForwardDifferentiator& d, const F& r, const RuleInfo&) {
               const Node& g = *r.term;
               Names& names = d.names();
               std::vector<Term> zs;
               std::vector<std::string> ts;
               for (std::size_t i = 0; i < g.kids.size(); ++i) {
                 zs.push_back(var(names.fresh("z")));
                 ts.push_back(names.fresh("t"));
               }
               std::vector<Term> terms;
               for (std::size_t i = 0; i < zs.size(); ++i)
                 terms.push_back(
                     mul(derivative_template(g.name, static_cast<int>(i + 1), zs), var(ts[i])));
               Term out = pair(prim(g.name, zs), sum_of(terms));
               for (std::size_t i = 0; i < zs.size(); ++i)
                 out = let_pair(exp_binder(zs[i]->name, real_type()),
                                exp_binder(ts[i], real_type()), out, g.kids[i]);
               return out;
             }));
  // [EXT] F + G as the primitive add
  out.push_back(clause("fwd-add",
                       "D→(F + G) = ⟨z1 + z2, t1 + t2⟩[⟨z1, t1⟩ := D→F][⟨z2, t2⟩ := D→G]",
                       Kind::add, [](ForwardDifferentiator& d, const F& r, const RuleInfo&) {
                         Names& names = d.names();
                         const std::string z1 = names.fresh("z"), t1 = names.fresh("t");
                         const std::string z2 = names.fresh("z"), t2 = names.fresh("t");
                         Term out = pair(add(var(z1), var(z2)), add(var(t1), var(t2)));
                         out = let_pair(exp_binder(z1, real_type()), exp_binder(t1, real_type()),
                                        out, d.go(r.term->left()));
                         return let_pair(exp_binder(z2, real_type()), exp_binder(t2, real_type()),
                                         out, d.go(r.term->right()));
                       }));
  return out;
}

// The read-back of Cor. 16 and the seeding of Prop. 1: definitions, after the rules.
std::vector<Rules::Entry> definitions() {
  return {
      rule_entry<ReadBack>(
          rule_info("read-back-A",
                    cite("Corollary 16 and the read-back it calls for (seed 002 lines 562-566), "
                         "read-back A of spec §4.9"),
                    RuleKind::transformation, "Σ_j xj' gj ↦ (g1, …, gn)"),
          {DefinitionKind::read_back}, {},
          [](Definitions&, const ReadBack::Redex& r, const RuleInfo&) {
            return read_back(r.normal_form, r.backprop);
          }),
      rule_entry<Seed>(rule_info("seed-prop-1",
                                 cite("Proposition 1 (seed 002 lines 140-142), forward mode's "
                                      "seeding with spec §4.10b's reading of x_j"),
                                 RuleKind::transformation,
                                 "for ∂_j: x_i := ⟨r_i, 1⟩ if i = j, ⟨r_i, 0⟩ otherwise"),
                       {DefinitionKind::seed}, {},
                       [](Definitions&, const Seed::Redex& r, const RuleInfo&) {
                         return pair(num(r.r), num(r.input == r.direction ? 1 : 0));
                       }),
  };
}

} // namespace

Rule<Reduction> moving_rule(const std::string& name, MovedStacks moved) {
  if (name == "subst-9") return subst_9(moved);
  if (name == "gc-10") return gc_10(moved);
  if (name == "sum-12") return sum_12(moved);
  if (name == "sum-pair-13") return sum_pair_13(moved);
  if (name == "factor-17") return factor_17(moved);
  if (name == "pair-8") return pair_8(moved);
  if (name == "mul-14") return product_14(moved);
  if (name == "prim-23") return prim_23(moved);
  throw AdsemError(ErrorKind::usage, "no rule that moves a stack out is named " + name);
}

const RulesPtr& paper_rules() {
  static const RulesPtr book = [] {
    std::vector<Rules::Entry> entries = table_2();
    for (Rules::Entry& e : table_2d())
      entries.push_back(std::move(e));
    for (Rules::Entry& e : table_3b())
      entries.push_back(std::move(e));
    for (Rules::Entry& e : definition_10())
      entries.push_back(std::move(e));
    for (Rules::Entry& e : section_2_3())
      entries.push_back(std::move(e));
    for (Rules::Entry& e : definitions())
      entries.push_back(std::move(e));
    return std::make_shared<const Rules>(std::move(entries));
  }();
  return book;
}

RulesPtr patch_paper_rules(const RulesPatch& patch) {
  return std::make_shared<const Rules>(paper_rules()->patched(patch));
}

} // namespace adsem::linear_negation
