// Rule (9)'s copy (seed 002 Table 2a, spec §2.8): rename_bound gives every binder of the copy a
// fresh name, in the order the traces print (an ES's bound term, then its binders, then its
// body), keeps free variables shared, and reports each renamed binder with its type (the reducer
// learns them there). And the free-variable counts the side conditions of (9)/(10) read.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include "semantics/linear_negation/reduction.hpp"
#include "syntax/linear_negation/ast.hpp"
#include "syntax/linear_negation/printer.hpp"

namespace adsem::linear_negation::renaming_test {
namespace {

// u[u := λb.b] under λa: the bound term's binder is drawn before the ES's, the body's after.
Term sample() {
  const Term bound = lam(exp_binder("b", real_type()), var("b"));
  const Term body = lam(exp_binder("a", real_type()), app(var("u"), app(var("f"), var("a"))));
  return let(exp_binder("u", arrow_type(real_type(), real_type())), body, bound);
}

TEST(LinearNegationRenaming, FreshNamesInTraceOrder) {
  const Term t = sample();
  Names names(t);
  const Term copy = rename_bound(t, names);
  EXPECT_EQ(print(copy), "(\\a_3:!R. u_2 (f a_3))[u_2:!(R -> R) := \\b_1:!R. b_1]");
  EXPECT_EQ(alpha_key(copy), alpha_key(t));
}

TEST(LinearNegationRenaming, SkipsTakenNamesAndSharesFreeVariables) {
  const Term f = var("f");
  const Term t = lam(exp_binder("a", real_type()), app(f, var("a")));
  Names names(t);
  names.reserve("a_1");
  const Term copy = rename_bound(t, names);
  EXPECT_EQ(copy->x.name, "a_2");
  EXPECT_EQ(copy->body()->left().get(), f.get()); // a free variable is not copied
  EXPECT_EQ(copy->body()->right()->name, "a_2");
}

TEST(LinearNegationRenaming, FreshNamesDrawAsTheWholeTable) {
  // a_1, a_3 and a_4 taken (a_01 and a_x are no draw's names, b_2 another stem's, a a stem)
  const Type r = real_type();
  const Term t = let_pair(
      exp_binder("a_3", r), exp_binder("b_2", r),
      lam(exp_binder("a", r), add(add(var("a_1"), var("a_01")), add(var("a_x"), var("a")))),
      pair(var("a_4"), num(1)));
  Names all(t);
  std::vector<std::string> from_all;
  for (int i = 0; i < 6; ++i)
    from_all.push_back(all.fresh("a"));
  const std::vector<std::string> expected{"a_2", "a_5", "a_6", "a_7", "a_8", "a_9"};
  EXPECT_EQ(from_all, expected);
  EXPECT_EQ(fresh_names(t, "a", 6), expected);
  EXPECT_EQ(fresh_names(t, "b", 2), (std::vector<std::string>{"b_1", "b_3"}));
  EXPECT_TRUE(fresh_names(t, "a", 0).empty());
}

TEST(LinearNegationRenaming, ReportsEachRenamedBinderWithItsType) {
  const Term t = sample();
  Names names(t);
  std::vector<std::pair<std::string, std::string>> seen;
  (void)rename_bound(t, names,
                     [&](const Binder& b) { seen.emplace_back(b.name, type_text(b.type)); });
  const std::vector<std::pair<std::string, std::string>> expected = {
      {"b_1", "R"}, {"u_2", "R -> R"}, {"a_3", "R"}};
  EXPECT_EQ(seen, expected);
}

TEST(LinearNegationRenaming, AReusedMapRenamesAsAFreshOne) {
  const Term t = sample();
  Names names(t);
  RenameScratch scratch;
  EXPECT_EQ(print(rename_bound(t, names, {}, scratch)),
            "(\\a_3:!R. u_2 (f a_3))[u_2:!(R -> R) := \\b_1:!R. b_1]");
  EXPECT_TRUE(scratch.env.empty());
  // a walk that threw leaves its scopes behind: the next one must not rename f by them
  scratch.env.emplace("f", "g");
  EXPECT_EQ(print(rename_bound(t, names, {}, scratch)),
            "(\\a_6:!R. u_5 (f a_6))[u_5:!(R -> R) := \\b_4:!R. b_4]");
}

TEST(LinearNegationRenaming, TheReducerKnowsWhichCopiedBindersAreNegative) {
  // the (17) side condition asks whether a call's head is of type R^⊥d: for a copy's binders
  // the reducer answers from the number their fresh name ends in
  const Term neg = lam(exp_binder("d", neg_type(1)), app(var("d"), num(1)));
  const Term real = lam(exp_binder("e", real_type()), var("e"));
  Reducer r(pair(neg, real), RunOptions{});
  const Term neg_copy = r.copy_value(neg);
  const Term real_copy = r.copy_value(real);
  ASSERT_EQ(neg_copy->x.name, "d_1");
  ASSERT_EQ(real_copy->x.name, "e_2");
  EXPECT_TRUE(r.is_neg_variable("d_1"));
  EXPECT_FALSE(r.is_neg_variable("e_2"));
  EXPECT_TRUE(r.is_neg_variable("d"));
  EXPECT_FALSE(r.is_neg_variable("e"));
  EXPECT_FALSE(r.is_neg_variable("d_2"));  // not a name of the run
  EXPECT_FALSE(r.is_neg_variable("d_01")); // nor is this: the draws have no leading zeros
}

TEST(LinearNegationRenaming, LetPairDrawsXThenY) {
  const Term t = let_pair(exp_binder("p", real_type()), exp_binder("q", real_type()),
                          add(var("p"), var("q")), var("w"));
  Names names(t);
  const Term copy = rename_bound(t, names);
  EXPECT_EQ(copy->x.name, "p_1");
  EXPECT_EQ(copy->y.name, "q_2");
  EXPECT_EQ(print(copy->body()), "p_1 + q_2");
}

TEST(LinearNegationRenaming, FreeCountsLeaveTheBindersOut) {
  // (x + y + z + x)[⟨x, y⟩ := w]: w and z free once, x and y bound
  const Term body = add(add(add(var("x"), var("y")), var("z")), var("x"));
  const Term t = let_pair(exp_binder("x"), exp_binder("y"), body, var("w"));
  EXPECT_EQ(free_count("x", body), 2);
  EXPECT_EQ(free_count("x", t), 0);
  EXPECT_EQ(free_count("y", t), 0);
  EXPECT_EQ(free_count("z", t), 1);
  EXPECT_EQ(free_count("w", t), 1);
  EXPECT_EQ(free_variables(t), (std::set<std::string>{"w", "z"}));
  // the counts do not survive a forgotten child (the reducer's in-place step)
  t->forget_derived();
  EXPECT_EQ(free_count("z", t), 1);
}

// The free occurrences of x in t, counted by walking t (the reference for the cached lists).
int walked_count(const std::string& x, const Term& t) {
  if (t->kind == Kind::var) return t->name == x ? 1 : 0;
  int n = 0;
  for (std::size_t i = 0; i < t->kids.size(); ++i) {
    const bool under =
        (t->kind == Kind::lam || t->kind == Kind::let || t->kind == Kind::let_pair) && i == 0 &&
        (t->x.name == x || (t->kind == Kind::let_pair && t->y.name == x));
    if (!under) n += walked_count(x, t->kids[i]);
  }
  return n;
}

// The sum of v0 … v(n-1) with `extra` added at the end: a child listing many names.
Term wide_sum(int n, const std::vector<std::string>& extra) {
  std::vector<Term> leaves;
  for (int i = 0; i < n; ++i)
    leaves.push_back(var("v" + std::to_string(i)));
  for (const std::string& e : extra)
    leaves.push_back(var(e));
  return sum_of(leaves);
}

TEST(LinearNegationRenaming, FreeCountsOfOneWideChildAndFewOthers) {
  // A node whose one child lists most of its names (a stack of explicit substitutions) has its
  // list made from that child's with the others' few names put in: the same list, name for name.
  const std::vector<std::string> names{"a", "v0", "v17", "v39", "x", "y", "zz", "v5"};
  const Term wide = wide_sum(40, {"x", "y", "v17", "x"});
  const Term small = add(add(var("a"), var("v17")), add(var("x"), var("zz")));
  const std::vector<Term> nodes{
      let_pair(exp_binder("x"), exp_binder("y"), wide, small), // the body wide, its binders out
      let(exp_binder("v5"), small, wide),                      // the bound term wide
      let(exp_binder("v39"), wide, var("x")),                  // a variable beside it
      lam(exp_binder("v0"), wide),
      app(wide, small),
      prim("f", {small, wide, var("a")}),
      prim("g", {var("a"), wide, small, var("v0")}), // more children: merged
  };
  for (const Term& t : nodes) {
    for (const std::string& x : names) {
      EXPECT_EQ(free_count(x, t), walked_count(x, t)) << x << " in " << print(t);
    }
    const auto& list = t->free_counts();
    EXPECT_TRUE(std::is_sorted(list.begin(), list.end(), [](const auto& a, const auto& b) {
      return a.first < b.first;
    })) << print(t);
    std::set<std::string> walked;
    for (const auto& [v, c] : list) {
      EXPECT_EQ(c, walked_count(std::string(v), t)) << v << " in " << print(t);
      walked.insert(std::string(v));
    }
    EXPECT_EQ(walked.size(), list.size()) << print(t); // each name once
  }
}

// A sum nested on the left with the lists of its spine made bottom-up: each a merge of its
// children's lists (the reference for a list made from the summands').
Term merged_a_level_at_a_time(Term sum) {
  std::vector<const Node*> spine;
  for (const Node* s = sum.get(); s->kind == Kind::add; s = s->left().get())
    spine.push_back(s);
  for (auto it = spine.rbegin(); it != spine.rend(); ++it)
    (*it)->free_counts();
  return sum;
}

TEST(LinearNegationRenaming, ALargeSumListsItsNamesWithoutItsSpinesLists) {
  // The list of a sum over many sums whose lists are not made is made from its summands' lists
  // alone: the same list as merged a level at a time, the spine below left without lists.
  const auto sum = [](int n) {
    std::vector<Term> leaves;
    for (int i = 0; i < n; ++i) // repeated names, and summands that are not variables
      leaves.push_back(i % 3 == 0 ? app(var("f" + std::to_string(i % 7)), var("a"))
                                  : var("v" + std::to_string(i % 50)));
    return sum_of(leaves);
  };
  for (const int n : {10, 40, 200}) {
    const Term merged = merged_a_level_at_a_time(sum(n));
    const Term summed = sum(n);
    EXPECT_EQ(summed->free_counts(), merged->free_counts()) << n;
    if (n >= 200) {
      EXPECT_FALSE(summed->left()->left()->free_counts_known()) << n;
    }
    for (const std::string x : {"a", "v1", "v49", "f0", "f6", "zz"})
      EXPECT_EQ(free_count(x, summed), walked_count(x, summed)) << x << " in a sum of " << n;
  }
}

TEST(LinearNegationRenaming, ALargeSumListsSmallSummandsByTheirVariables) {
  // Small summands are read by their variables, their lists not made, a name met again added to
  // its entry: the same list as merged a level at a time, for names that share their first eight
  // characters, a name twice in a summand, and summands that bind or whose list is made.
  const auto sum = [](int n) {
    std::vector<Term> leaves;
    for (int i = 0; i < n; ++i) {
      const std::string x = "cotangent_" + std::to_string(i % 13); // one prefix of eight
      switch (i % 5) {
      case 0: // a binder: its list answers for it
        leaves.push_back(lam(lin_binder("a"), app(var(x), var("a"))));
        break;
      case 1: // a name twice
        leaves.push_back(pair(var(x), app(var(x), var("a"))));
        break;
      case 2: // its list made
        leaves.push_back(app(var("f" + std::to_string(i % 7)), var("a")));
        leaves.back()->free_counts();
        break;
      default:
        leaves.push_back(app(var(x), var(i % 2 == 0 ? "a" : "cotangent")));
      }
    }
    return sum_of(leaves);
  };
  for (const int n : {40, 200}) {
    const Term merged = merged_a_level_at_a_time(sum(n));
    const Term summed = sum(n);
    EXPECT_EQ(summed->free_counts(), merged->free_counts()) << n;
    EXPECT_FALSE(summed->left()->left()->free_counts_known()) << n;
    EXPECT_FALSE(summed->right()->free_counts_known()) << n; // a summand read by its variables
  }
}

} // namespace
} // namespace adsem::linear_negation::renaming_test
