// Rule (9)'s shared copies (seed 002 Table 2a; syntax/linear_negation/shared_copy.cpp): a copy
// made lazily, with a block of numbers, reads as the copy rename_bound builds with the same
// numbers drawn, name for name; a copy of a copy too; and normalise with shared copies takes the
// same steps, prints the same trace and reaches the same normal form as with built copies.
#include <algorithm>
#include <map>
#include <memory>
#include <set>

#include <gtest/gtest.h>
#include <rapidcheck.h>

#include "generators/linear_negation/terms.hpp"

#include "semantics/linear_negation/families.hpp"
#include "semantics/linear_negation/occurrence.hpp"
#include "semantics/linear_negation/program.hpp"
#include "semantics/linear_negation/reduction.hpp"
#include "semantics/linear_negation/transform.hpp"
#include "syntax/linear_negation/ast.hpp"
#include "syntax/linear_negation/printer.hpp"

namespace adsem::linear_negation::shared_copy_test {
namespace {

struct Noted : BinderLog {
  std::vector<std::pair<std::string, long>> seen;
  void named(const Binder& b, long number) override { seen.emplace_back(b.name, number); }
};

// λa. (u f a)[u := λb.b][⟨p, q⟩ := ⟨a, g⟩] : bound terms, ES binders, bodies and free names.
Term sample() {
  const Type r = real_type();
  const Term inner = let(exp_binder("u", arrow_type(r, r)), app(var("u"), app(var("f"), var("a"))),
                         lam(exp_binder("b_70", r), var("b_70")));
  const Term body = let_pair(exp_binder("p", r), exp_binder("q", r), app(inner, var("p")),
                             pair(var("a"), var("g")));
  return lam(exp_binder("a", r), body);
}

TEST(LinearNegationSharedCopy, ReadsAsTheCopyRenameBoundBuilds) {
  const Term v = sample();
  Names eager_names(v);
  const Term eager = rename_bound(v, eager_names);
  Names names(v);
  const auto base = names.reserve_block(v->binders);
  ASSERT_TRUE(base.has_value());
  EXPECT_EQ(names.last_drawn(), eager_names.last_drawn());
  auto noted = make_shared_node<Noted>();
  const Term copy = share_copy(v, *base, noted);
  EXPECT_TRUE(copy->copy.unforced);
  EXPECT_EQ(copy->free_counts(), eager->free_counts()); // before anything is made
  EXPECT_EQ(noted->seen.size(), 1U);                    // only the root's binder is named
  force_all(copy);
  EXPECT_EQ(print(copy), print(eager));
  EXPECT_EQ(copy->size, size_of(eager));
  EXPECT_EQ(noted->seen.size(), static_cast<std::size_t>(v->binders));
}

// A shared copy of v and a shared copy of that copy, numbered as blocks of v's names.
struct TwoCopies {
  Term first, second;
};
TwoCopies copy_twice(const Term& v) {
  Names names(v);
  auto noted = make_shared_node<Noted>();
  const auto block = names.reserve_block(v->binders);
  EXPECT_TRUE(block.has_value());
  const Term first = share_copy(v, block.value_or(0), noted);
  const auto next = names.reserve_block(first->binders);
  EXPECT_TRUE(next.has_value());
  return {first, share_copy(first, next.value_or(0), noted)};
}

TEST(LinearNegationSharedCopy, ACopyOfACopyRenamesTheOriginalOnce) {
  const Term v = sample();
  Names eager_names(v);
  const Term eager = rename_bound(rename_bound(v, eager_names), eager_names);
  const auto [first, second] = copy_twice(v);
  ASSERT_TRUE(second->copy.unforced);
  EXPECT_EQ(second->copy.from->original.get(), v.get()); // not a copy of the unforced copy
  EXPECT_EQ(print(second), print(eager));
  Names once(v);
  EXPECT_EQ(print(first), print(rename_bound(v, once)));
}

// λa. (λb. b) (x1 a) + … + xn a + a: the spine of a long sum lists many more free names than a
// copy renames (the copied λ's binder), so copied_kids looks the renamed names up in each
// child's list instead of scanning it; the copy still reads as rename_bound's, and so does a copy
// of that copy, whose renaming holds the first copy's binders too.
Term long_sum(int n) {
  const Type r = real_type();
  Term sum = app(lam(exp_binder("b", r), var("b")), app(var("x1"), var("a")));
  for (int i = 2; i <= n; ++i)
    sum = add(sum, app(var("x" + std::to_string(i)), var("a")));
  return lam(exp_binder("a", r), add(sum, var("a")));
}

// A copy of v and a copy of that copy, forced, read as rename_bound builds them.
void expect_copies_read_as_rename_bound(const Term& v, int n) {
  Names eager_names(v);
  const Term eager_first = rename_bound(v, eager_names);
  const Term eager = rename_bound(eager_first, eager_names);
  const auto [first, second] = copy_twice(v);
  force_all(second);
  EXPECT_EQ(print(second), print(eager)) << n;
  EXPECT_EQ(second->free_counts(), eager->free_counts()) << n;
  force_all(first);
  EXPECT_EQ(print(first), print(eager_first)) << n;
  EXPECT_EQ(first->free_counts(), eager_first->free_counts()) << n;
}

TEST(LinearNegationSharedCopy, ALongSumReadsAsRenameBoundBuildsIt) {
  for (const int n : {3, 20, 70})
    expect_copies_read_as_rename_bound(long_sum(n), n);
}

TEST(LinearNegationSharedCopy, ALongSumIsCopiedWithoutTheListsOfItsSpine) {
  // With the λ's binder count kept (as the reducer keeps it), forcing the copy reads the renamed
  // names' counts in each spine node off its parent's (its siblings' lists less), so the
  // original's spine below the top lists nothing; the copies read as rename_bound's.
  for (const int n : {70, 300}) {
    const Term v = long_sum(n);
    v->bound_count[0] = free_count("a", v->body());
    EXPECT_EQ(v->bound_count[0], n + 1);
    expect_copies_read_as_rename_bound(v, n);
    EXPECT_FALSE(v->body()->left()->left()->free_counts_known()) << n;
  }
}

TEST(LinearNegationSharedCopy, NumbersDrawnOneByOneReadAsRenameBoundDrawsThem) {
  const Term v = sample();
  // zz_2 takes a number of the block without a binder's stem; b_4 makes fresh skip 4 for λb_70
  // (a is 1, p and q 2 and 3, then the ES's bound term before u)
  const auto taking = [&](Names names) {
    names.reserve("zz_2");
    names.reserve("b_4");
    return names;
  };
  Names eager_names = taking(Names(v));
  const Term eager = rename_bound(v, eager_names);
  Names names = taking(Names(v));
  ASSERT_FALSE(names.reserve_block(v->binders).has_value());
  auto noted = make_shared_node<Noted>();
  const Term copy = share_copy_drawn(v, names, noted);
  EXPECT_TRUE(copy->copy.unforced);
  EXPECT_EQ(names.last_drawn(), eager_names.last_drawn());
  EXPECT_EQ(copy->free_counts(), eager->free_counts());
  force_all(copy);
  EXPECT_EQ(print(copy), print(eager));
  EXPECT_EQ(noted->seen.size(), static_cast<std::size_t>(v->binders));
  EXPECT_NE(print(copy).find("b_5"), std::string::npos); // 4 skipped
  EXPECT_NE(print(copy).find("u_6"), std::string::npos);
}

TEST(LinearNegationSharedCopy, ABlockIsRefusedWhereATakenNameEndsInItsNumbers) {
  const Term v = sample(); // takes b_70
  Names names(v);
  EXPECT_FALSE(names.reserve_block(70).has_value());
  EXPECT_EQ(names.last_drawn(), 0);
  EXPECT_EQ(names.reserve_block(69), std::optional<long>(0));
  EXPECT_FALSE(names.reserve_block(1).has_value());
  EXPECT_EQ(names.fresh("b"), "b_71"); // fresh skips the taken b_70 as before
  EXPECT_EQ(names.reserve_block(3), std::optional<long>(71));
}

// Rule (11)'s substitution of a variable in a shared copy not forced (substituted_copy): the new
// copy, forced, is node for node what forcing the copy and substituting builds (names, binder
// numbers, measures, binder counts, free-variable lists). Each unforced node of a copy of v, down
// to `depth` levels, is substituted for each of its free names, against a twin copy (the same
// numbers) forced whole, where substitute_counted takes the path that forces.
struct SubstitutedCopies {
  int compared = 0; // new copies checked
  int refused = 0;  // v already free: null
};

void expect_same_nodes(const Term& a, const Term& b, const std::string& where) {
  ASSERT_EQ(a->kind, b->kind) << where;
  EXPECT_EQ(a->name, b->name) << where;
  EXPECT_EQ(a->x.name, b->x.name) << where;
  EXPECT_EQ(a->y.name, b->y.name) << where;
  EXPECT_EQ(a->size, b->size) << where;
  EXPECT_EQ(a->height, b->height) << where;
  EXPECT_EQ(a->binders, b->binders) << where;
  EXPECT_EQ(a->plain_stems, b->plain_stems) << where;
  if (a->kind == Kind::lam || a->kind == Kind::let || a->kind == Kind::let_pair) {
    for (std::size_t i = 0; i < 2; ++i)
      if (a->bound_count[i] >= 0 && b->bound_count[i] >= 0) {
        EXPECT_EQ(a->bound_count[i], b->bound_count[i]) << where;
      }
    EXPECT_EQ(binder_count(*a, 0), binder_count(*b, 0)) << where;
  }
  ASSERT_EQ(a->kids.size(), b->kids.size()) << where;
  for (std::size_t i = 0; i < a->kids.size(); ++i)
    expect_same_nodes(a->kids[i], b->kids[i], where);
}

void substitute_below(const Term& u, const Term& twin, int depth, const std::string& v,
                      SubstitutedCopies& out, const std::string& where) {
  if (!u->copy.unforced || depth < 0) return;
  std::vector<std::pair<std::string, int>> free; // (name, count), before anything is made
  for (const FreeEntry& e : u->free_counts())
    free.emplace_back(std::string(e.first), e.second);
  for (const auto& [z, c] : free) {
    if (free.size() > 1) { // to a name free in the copy already: refused
      const std::string& other = free[free[0].first == z ? 1 : 0].first;
      EXPECT_EQ(substituted_copy(*u, z, other, c), nullptr) << where << " " << z;
      ++out.refused;
    }
    const Term by_copy = substituted_copy(*u, z, v, c);
    EXPECT_TRUE(u->copy.unforced); // t is left as it was
    const bool v_free = occurs_free(v, twin);
    if (v_free || by_copy == nullptr) {
      EXPECT_TRUE(v_free && by_copy == nullptr) << where << " " << z;
      ++out.refused;
      continue;
    }
    ASSERT_TRUE(by_copy->copy.unforced);
    const Term forced = substitute_counted(twin, z, var(v), c); // the twin is forced whole
    EXPECT_EQ(by_copy->free_counts(), forced->free_counts()) << where << " " << z;
    force_all(by_copy);
    EXPECT_EQ(print(by_copy), print(forced)) << where << " " << z;
    EXPECT_EQ(print(by_copy), print(substitute(twin, z, var(v)))) << where << " " << z;
    expect_same_nodes(by_copy, forced, where + " " + z);
    ++out.compared;
  }
  force(*u);
  for (std::size_t i = 0; i < u->kids.size(); ++i)
    substitute_below(u->kids[i], twin->kids[i], depth - 1, v, out, where);
}

// Copies of v (and a copy of that copy), each with a forced twin, substituted below.
void substitute_in_copies(const Term& v, int depth, SubstitutedCopies& out,
                          const std::string& where) {
  auto noted = make_shared_node<Noted>();
  // a copy of t numbered as a block of names' numbers, or drawn one by one where a taken name
  // ends in one of them; names as they were before it is made
  const auto copy_of = [&](const Term& t, const Names& names) {
    Names drawn = names;
    const auto block = drawn.reserve_block(t->binders);
    return block ? share_copy(t, *block, noted) : share_copy_drawn(t, drawn, noted);
  };
  const Names names(v);
  const Term first = copy_of(v, names);
  const Term first_twin = copy_of(v, names);
  force_all(first_twin);
  // a name free in the copies (refused) and one that is not
  for (const std::string& to : {std::string("fresh_v"), std::string("g")})
    substitute_below(copy_of(v, names), first_twin, depth, to, out, where + " to " + to);
  Names after = names;
  static_cast<void>(after.reserve_block(v->binders)); // the first copy's numbers
  const Term second = copy_of(first, after);
  const Term second_twin = copy_of(first, after);
  force_all(second_twin);
  substitute_below(second, second_twin, depth, "fresh_v", out, where + " (copy of a copy)");
}

TEST(LinearNegationSharedCopy, ASubstitutedCopyReadsAsTheForcedCopySubstituted) {
  SubstitutedCopies out;
  substitute_in_copies(sample(), 6, out, "sample");
  for (const int n : {3, 20, 70, 300}) {
    substitute_in_copies(long_sum(n), 4, out, "sum " + std::to_string(n));
    const Term v = long_sum(n); // binder counts kept: the copies' renamings are counted
    v->bound_count[0] = free_count("a", v->body());
    substitute_in_copies(v, 4, out, "counted sum " + std::to_string(n));
  }
  for (int i = 0; i < 60; ++i) {
    const rc::Random random(20261201 + static_cast<std::uint64_t>(i));
    const gen::Source s = gen::source(3)(random, i % 40).value();
    Term t = s.body;
    for (auto x = s.inputs.rbegin(); x != s.inputs.rend(); ++x) // λx1. … λxn. body
      t = lam(exp_binder(*x, real_type()), t);
    substitute_in_copies(t, 5, out, "source " + std::to_string(i));
    const Wrapper w = gradient_wrapper(s.body, s.inputs, s.point);
    substitute_in_copies(w.term, 3, out, "wrapper " + std::to_string(i));
  }
  for (const std::string& source : {family::sum_chain(5), family::nested_chain(6),
                                    family::long_range_let(12), family::rnn({0.1, -0.2, 0.3})}) {
    const RealFunction f = real_function(parse_elaborated(source, Mode::source));
    const Wrapper w = gradient_wrapper(f.body, f.inputs, std::vector<double>(f.inputs.size(), 0.3));
    substitute_in_copies(w.term, 3, out, source);
  }
  std::printf("  %d substituted copies compared, %d refused\n", out.compared, out.refused);
  EXPECT_GT(out.compared, 2000);
  EXPECT_GT(out.refused, 1000);
}

// A sum's copy forced down its spine at once (force_sum, as the listing of a maximal sum's
// summands forces it) reads node for node as the copy forced one level at a time (names, binder
// numbers, measures, binder counts, free-variable lists), and holds the original's own nodes
// where forcing does (a summand nothing in which is renamed). Each unforced sum of a copy of v
// down to `depth` levels, and each of its (11)-substituted copies, against a twin forced whole.
void expect_sums_forced_as_one_by_one(const Term& u, const Term& twin, int depth,
                                      const std::set<const Node*>& original, int& compared,
                                      const std::string& where) {
  if (depth < 0) return;
  if (u->copy.unforced && u->kind == Kind::add) {
    std::vector<std::pair<std::string, int>> free;
    for (const FreeEntry& e : u->free_counts())
      free.emplace_back(std::string(e.first), e.second);
    for (const auto& [z, c] : free) // (11)'s renamed copies, whose renaming names z ↦ v
      if (const Term by_copy = substituted_copy(*u, z, "fresh_v", c)) {
        const Term forced = substitute_counted(twin, z, var("fresh_v"), c);
        force_sum(*by_copy);
        force_all(by_copy);
        EXPECT_EQ(print(by_copy), print(forced)) << where << " " << z;
        EXPECT_EQ(by_copy->free_counts(), forced->free_counts()) << where << " " << z;
        expect_same_nodes(by_copy, forced, where + " " + z);
        ++compared;
      }
    const Term spine = u; // a second handle: u's own kids are read below
    force_sum(*spine);
    for (const Term* at = &u; (*at)->kind == Kind::add; at = &(*at)->right()) {
      EXPECT_FALSE((*at)->copy.unforced) << where; // the spine made at once
      EXPECT_TRUE(!(*at)->right()->copy.unforced || (*at)->right()->kind != Kind::add) << where;
    }
    Term whole = u;
    force_all(whole);
    EXPECT_EQ(print(u), print(twin)) << where;
    EXPECT_EQ(u->free_counts(), twin->free_counts()) << where;
    expect_same_nodes(u, twin, where);
    // the nodes forcing shares with the original are shared alike (the twin is another copy of
    // the same original: a node of it in both is one node)
    std::vector<std::pair<const Node*, const Node*>> pairs{{u.get(), twin.get()}};
    while (!pairs.empty()) {
      const auto [a, b] = pairs.back();
      pairs.pop_back();
      EXPECT_EQ(original.contains(a), original.contains(b)) << where;
      if (original.contains(a)) {
        EXPECT_EQ(a, b) << where;
      }
      for (std::size_t i = 0; i < a->kids.size() && i < b->kids.size(); ++i)
        pairs.emplace_back(a->kids[i].get(), b->kids[i].get());
    }
    ++compared;
    return;
  }
  force(*u);
  for (std::size_t i = 0; i < u->kids.size(); ++i)
    expect_sums_forced_as_one_by_one(u->kids[i], twin->kids[i], depth - 1, original, compared,
                                     where);
}

TEST(LinearNegationSharedCopy, ASumForcedDownItsSpineReadsAsForcedLevelByLevel) {
  const Type r = real_type();
  const auto sum_of = [](std::vector<Term> ts) {
    Term s = ts[0];
    for (std::size_t i = 1; i < ts.size(); ++i)
      s = add(s, ts[i]);
    return s;
  };
  // sums nested on either side, summands nothing in which the copy renames, binders below
  const Term mixed =
      lam(exp_binder("a", r),
          sum_of({sum_of({var("x1"), var("x2")}), app(var("x3"), var("a")),
                  add(var("x4"), add(var("x5"), app(lam(exp_binder("b", r), var("b")), var("a")))),
                  let(exp_binder("c", r), add(var("c"), var("a")), var("x6")), var("a")}));
  std::vector<Term> sources = {mixed};
  for (const int n : {3, 20, 70, 300}) {
    sources.push_back(long_sum(n));
    const Term v = long_sum(n);
    v->bound_count[0] = free_count("a", v->body());
    sources.push_back(v);
  }
  for (const std::string& source : {family::sum_chain(40), family::rnn({0.1, -0.2, 0.3})}) {
    const RealFunction f = real_function(parse_elaborated(source, Mode::source));
    sources.push_back(
        gradient_wrapper(f.body, f.inputs, std::vector<double>(f.inputs.size(), 0.3)).term);
  }
  int compared = 0;
  for (std::size_t i = 0; i < sources.size(); ++i) {
    const Term& v = sources[i];
    auto noted = make_shared_node<Noted>();
    const Names names(v);
    const auto copy_of = [&] { // numbered as a block, or drawn one by one
      Names drawn = names;
      const auto block = drawn.reserve_block(v->binders);
      return block ? share_copy(v, *block, noted) : share_copy_drawn(v, drawn, noted);
    };
    std::set<const Node*> original;
    std::vector<const Node*> todo{v.get()};
    while (!todo.empty()) {
      const Node* n = todo.back();
      todo.pop_back();
      if (original.insert(n).second)
        for (const Term& k : n->kids)
          todo.push_back(k.get());
    }
    const Term copy = copy_of();
    const Term twin = copy_of();
    force_all(twin);
    expect_sums_forced_as_one_by_one(copy, twin, 8, original, compared,
                                     "source " + std::to_string(i));
  }
  std::printf("  %d sums forced down their spines compared\n", compared);
  EXPECT_GT(compared, 20);
}

// The search's listing of a sum u whose sums below are unforced copies (list_summands with view)
// reads each summand in its copy's original, named through the copy's renaming: each reads, its
// free names so renamed, as the summand the forced listing of u's twin builds (alpha_key), with
// the same core, and the head of a call free in it named as there (what (17) groups by). u
// itself is left unforced.
// With deep, u nests more copies than the view reads (max_viewed_copies): it is listed forced.
void expect_listed_as_forced(const Term& u, const Term& twin, int& compared,
                             const std::string& where, bool deep = false) {
  SummandViews views;
  std::vector<Summand> viewed;
  list_summands(u, viewed, views, true);
  EXPECT_EQ(u->copy.unforced, !deep) << where;
  force_all(twin);
  std::vector<Summand> forced;
  list_summands(twin, forced, views, false);
  ASSERT_EQ(viewed.size(), forced.size()) << where;
  const auto head_of = [](const Node& core) { // the call's head under its ES stack
    const Node* at = core.left().get();
    while (at->kind == Kind::let || at->kind == Kind::let_pair)
      at = at->body().get();
    return at;
  };
  for (std::size_t i = 0; i < viewed.size(); ++i) {
    const Summand& a = viewed[i];
    const Summand& b = forced[i];
    EXPECT_EQ(b.names, nullptr) << where;
    std::map<std::string, std::string> to;
    if (a.names != nullptr)
      for (const auto& [from, name] : *a.names)
        to[from] = name;
    force_all(*a.term); // (listed forced, a's copies below its core are not made)
    EXPECT_EQ(alpha_key(rename_free(*a.term, to)), alpha_key(*b.term)) << where << " " << i;
    ASSERT_EQ(a.core->kind, b.core->kind) << where << " " << i;
    if (b.core->kind != Kind::app) continue;
    const Node* ha = head_of(*a.core);
    const Node* hb = head_of(*b.core);
    ASSERT_EQ(ha->kind, hb->kind) << where << " " << i;
    if (hb->kind == Kind::var && occurs_free(hb->name, *b.term)) {
      EXPECT_EQ(name_in_sum(a, ha->name), hb->name) << where << " " << i;
    }
  }
  compared += static_cast<int>(viewed.size());
}

// The wide family's chain: level j is λp_j. U_{j-1} + g_j p_j (and a shared copy of a call),
// U_{j-1} the (11)-substituted body of a copy of level j-1 (p_{j-1} and x_{j+1} renamed), left
// unforced. Makes u, U_{j-1} on top of level (level j-1), and its twin, substituted alike, and
// then level j.
void next_level(Term& level, int j, const SharedNode<Noted>& noted, Term& u, Term& twin,
                const std::string& where) {
  const Term copy = share_copy(level, 1000L * j, noted);
  force(*copy);
  const Term& body = copy->body();
  ASSERT_TRUE(body->copy.unforced && body->kind == Kind::add) << where;
  const std::string p = "p" + std::to_string(j);
  const int c = free_count(copy->x.name, body);
  u = substituted_copy(*body, copy->x.name, p, c);
  twin = substituted_copy(*body, copy->x.name, p, c);
  ASSERT_TRUE(u && twin) << where;
  // and a name free in the original, which the levels below leave as it is
  const std::string z = "x" + std::to_string(j + 2);
  if (const int cz = free_count(z, u); cz > 0) {
    u = substituted_copy(*u, z, "q" + std::to_string(j), cz);
    twin = substituted_copy(*twin, z, "q" + std::to_string(j), cz);
    ASSERT_TRUE(u && twin) << where;
  }
  const Term call = share_copy(app(var("h"), long_sum(5)), 1000L * j + 500, noted);
  level =
      lam(exp_binder(p, real_type()), add(add(u, app(var("g" + std::to_string(j)), var(p))), call));
}

TEST(LinearNegationSharedCopy, ASumListedInItsCopysOriginalReadsAsForced) {
  const Type r = real_type();
  const Term mixed = lam(
      exp_binder("a", r),
      add(add(long_sum(20)->body(), let(exp_binder("c", r), add(var("c"), var("a")), var("x6"))),
          add(app(var("x2"), var("a")),
              app(let(exp_binder("d", r), var("x2"), var("a")), var("a")))));
  int compared = 0;
  for (const Term& v : {long_sum(20), long_sum(70), mixed}) {
    auto noted = make_shared_node<Noted>();
    Term level = v;
    for (int j = 1; j <= 6; ++j) {
      const std::string where = print(v).substr(0, 20) + " level " + std::to_string(j);
      Term u, twin;
      next_level(level, j, noted, u, twin, where);
      if (HasFatalFailure()) return;
      expect_listed_as_forced(u, twin, compared, where);
    }
  }
  std::printf("  %d summands listed in copies' originals compared\n", compared);
  EXPECT_GT(compared, 300);
}

// The listing reads at most max_viewed_copies copies nested in one another in their originals:
// on a chain of levels three times as deep, a listing that would read one more forces the top
// copy down its spine (as without the view), and the originals below are let go, with their
// free-variable lists (the wide family's memory grew as n² where every original was kept). Each
// listing reads as the forced twin's, and the top level, forced, prints as its twin.
TEST(LinearNegationSharedCopy, AListingReadsABoundedChainOfCopiesInItsOriginals) {
  auto noted = make_shared_node<Noted>();
  std::vector<WeakNode<const Node>> originals; // of each level's u
  Term level = long_sum(20);
  Term u, twin;
  int compared = 0;
  int nested = 0; // the unforced copies u nests, itself included
  int forced = 0;
  std::size_t most_alive = 0;
  for (int j = 1; j <= 3 * max_viewed_copies; ++j) {
    const std::string where = "level " + std::to_string(j);
    next_level(level, j, noted, u, twin, where);
    if (HasFatalFailure()) return;
    ASSERT_TRUE(u->copy.unforced) << where;
    originals.push_back(u->copy.from->original);
    const bool forcing = ++nested > max_viewed_copies;
    expect_listed_as_forced(u, twin, compared, where, forcing);
    if (forcing) {
      nested = 0;
      ++forced;
    }
    const auto alive = static_cast<std::size_t>(std::count_if(
        originals.begin(), originals.end(), [](const auto& o) { return !o.expired(); }));
    EXPECT_LE(alive, static_cast<std::size_t>(max_viewed_copies) + 1) << where;
    most_alive = std::max(most_alive, alive);
  }
  std::printf("  %d summands compared, at most %zu originals alive\n", compared, most_alive);
  EXPECT_EQ(forced, 2);
  EXPECT_GE(most_alive, static_cast<std::size_t>(max_viewed_copies)); // the view was read
  EXPECT_GT(compared, 1000);
  force_all(u);
  EXPECT_EQ(print(u), print(twin));
  EXPECT_EQ(alpha_key(u), alpha_key(twin));
}

Run run_family(const std::string& source, Strategy strategy, bool share) {
  const RealFunction f = real_function(parse_elaborated(source, Mode::source));
  const Wrapper w = gradient_wrapper(f.body, f.inputs, std::vector<double>(f.inputs.size(), 0.3));
  RunOptions o;
  o.trace = true;
  o.strategy = strategy;
  o.seed = 11;
  o.free_types = w.free_types;
  o.share_copies = share;
  return normalise(w.term, o);
}

TEST(LinearNegationSharedCopy, NormaliseTakesTheSameStepsAsWithBuiltCopies) {
  const std::vector<std::string> sources = {
      family::square_chain(5), family::square_chain_higher_order(4), family::sum_chain(5),
      family::nested_chain(6), family::rnn({0.1, -0.2, 0.3}),
      // large enough that copies are shared and forced by the choice (force keeps the original's
      // summaries)
      family::long_range_let(30), family::rnn(family::rnn_inputs(20))};
  for (const std::string& source : sources)
    for (const Strategy s : {Strategy::bp, Strategy::lo, Strategy::random}) {
      const linear_negation::Run built = run_family(source, s, false);
      const linear_negation::Run shared = run_family(source, s, true);
      EXPECT_EQ(shared.trace, built.trace) << source;
      EXPECT_EQ(shared.copy_volume, built.copy_volume) << source;
      EXPECT_EQ(print(shared.result), print(built.result)) << source;
      EXPECT_FALSE(shared.result->copy.unforced);
    }
}

} // namespace
} // namespace adsem::linear_negation::shared_copy_test
