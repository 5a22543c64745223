// The one free-count table of a term (semantics/linear_negation/free_table.hpp) against the
// per-node free-variable lists the side conditions of rules (9) and (10) read today (seed 002,
// Table 2a): the premise that the reducer keeps binders unique, so that free_count(x, body) at
// x's binder is x's count in the whole term, is checked at every step of generated terms and of
// the complexity families' gradient wrappers (Cor. 16).
#include <gtest/gtest.h>
#include <rapidcheck.h>

#include <algorithm>
#include <array>
#include <map>
#include <set>

#include "generators/linear_negation/terms.hpp"
#include "semantics/linear_negation/families.hpp"
#include "semantics/linear_negation/free_table.hpp"
#include "semantics/linear_negation/program.hpp"
#include "semantics/linear_negation/reduction.hpp"
#include "semantics/linear_negation/transform.hpp"
#include "syntax/linear_negation/printer.hpp"

namespace adsem::linear_negation::free_table_test {
namespace {

TEST(LinearNegationFreeTable, CountsEveryOccurrence) {
  const Type r = real_type();
  // λa. (u (u a))[u := λb. b + a]
  const Term t = lam(exp_binder("a", r),
                     let(exp_binder("u", arrow_type(r, r)), app(var("u"), app(var("u"), var("a"))),
                         lam(exp_binder("b", r), add(var("b"), var("a")))));
  const auto table = FreeTable::of(t);
  ASSERT_TRUE(table.has_value());
  EXPECT_EQ(table->count("a"), 2);
  EXPECT_EQ(table->count("u"), 2);
  EXPECT_EQ(table->count("b"), 1);
  EXPECT_EQ(table->count("c"), 0);
  EXPECT_EQ(table->id("c"), -1);
  EXPECT_EQ(table->names(), 3U);
}

TEST(LinearNegationFreeTable, RefusesBindersThatAreNotUnique) {
  const Type r = real_type();
  const Term id = lam(exp_binder("x", r), var("x"));
  EXPECT_FALSE(FreeTable::of(app(id, id)).has_value()) << "bound twice";
  EXPECT_FALSE(FreeTable::of(app(var("x"), lam(exp_binder("x", r), var("x")))).has_value())
      << "free before its binder";
  EXPECT_FALSE(FreeTable::of(app(lam(exp_binder("x", r), var("x")), var("x"))).has_value())
      << "free after its binder";
  EXPECT_FALSE(FreeTable::of(let(exp_binder("x", r), var("x"), var("x"))).has_value())
      << "free in the bound term of its own ES";
  EXPECT_FALSE(FreeTable::of(let_pair(exp_binder("x", r), exp_binder("x", r), var("x"), var("p")))
                   .has_value())
      << "a pattern binding one name twice";
  EXPECT_TRUE(FreeTable::of(app(id, var("y"))).has_value());
}

// At every binder node of t, the table's count is the node's free_count(x, body).
long expect_counts_at_binders(const Term& t, const FreeTable& table, const std::string& where) {
  long checked = 0;
  const auto walk = [&](const auto& self, const Term& n) -> void {
    force(*n);
    if (n->kind == Kind::lam || n->kind == Kind::let || n->kind == Kind::let_pair) {
      EXPECT_EQ(table.count(n->x.name), free_count(n->x.name, n->body()))
          << where << " binder " << n->x.name;
      ++checked;
      if (n->kind == Kind::let_pair) {
        EXPECT_EQ(table.count(n->y.name), free_count(n->y.name, n->body()))
            << where << " binder " << n->y.name;
        ++checked;
      }
    }
    for (const Term& k : n->kids)
      self(self, k);
  };
  walk(walk, t);
  return checked;
}

struct Checked {
  long steps = 0, binders = 0;
  std::map<std::string, long> rules; // the steps whose delta was checked, by rule
};

// A step's change of the table: per name, the count before and after, and whether the term
// knew the name before (a copy's binders, (16)'s fresh binders are new).
struct Change {
  std::string name;
  int before = 0, after = 0;
  bool known = true;
  bool gone = false; // the term after the step neither binds nor mentions the name
  int delta() const { return after - before; }
};
std::vector<Change> changes(const FreeTable& before, const FreeTable& after) {
  std::vector<Change> out;
  for (int i = 0; i < static_cast<int>(before.names()); ++i)
    if (before.count_of(i) != after.count(before.name(i)))
      out.push_back({before.name(i), before.count_of(i), after.count(before.name(i)), true,
                     after.id(before.name(i)) < 0});
  for (int i = 0; i < static_cast<int>(after.names()); ++i)
    if (before.id(after.name(i)) < 0) out.push_back({after.name(i), 0, after.count_of(i), false});
  return out;
}

// The delta of each rule of Table 2 (seed 002) that the table's update per step is to apply: the
// rules that only move subterms change no count; (9) takes one occurrence of x and adds v's free
// names and its copy's binders; (10) drops v's; (11) replaces z's occurrences by v's; (16) names
// two fresh binders used once; (17) merges two occurrences of the R^⊥ head. (11)'s z may not
// occur (a linear binder of a generated term can be unused): v's one occurrence goes then.
void expect_delta_of_rule(const std::string& rule, const std::vector<Change>& c,
                          const std::string& where) {
  const auto count_if = [&c](auto p) { return std::count_if(c.begin(), c.end(), p); };
  const auto fresh = count_if([](const Change& e) { return !e.known; });
  const auto down = count_if([](const Change& e) { return e.known && e.delta() < 0; });
  const auto up = count_if([](const Change& e) { return e.known && e.delta() > 0; });
  if (rule == "subst-9") {
    EXPECT_EQ(count_if([](const Change& e) { return e.delta() < 0; }), 1) << where;
    EXPECT_EQ(count_if([](const Change& e) { return e.delta() == -1; }), 1) << where;
  } else if (rule == "gc-10") {
    EXPECT_EQ(fresh + up, 0) << where;
  } else if (rule == "lin-subst-11") { // z's c occurrences go; a variable v gains c - 1
    EXPECT_EQ(fresh, 0) << where;
    EXPECT_LE(down, 1) << where;
    EXPECT_LE(up, down) << where;
  } else if (rule == "eta-pair-16") {
    EXPECT_EQ(fresh, 2) << where;
    EXPECT_EQ(down + up, 0) << where;
    for (const Change& e : c) {
      EXPECT_EQ(e.after, 1) << where << " " << e.name;
    }
  } else if (rule == "factor-17") {
    ASSERT_EQ(c.size(), 1U) << where;
    EXPECT_EQ(c.front().delta(), -1) << where;
  } else {
    EXPECT_TRUE(c.empty()) << where << " (" << rule << " moves subterms only)";
  }
}

// The changes the rule noted (Reducer::note_count) are the table's, name for name, but for the
// binders of (9)'s copy and of the value (10) drops, which are not noted (a table drops the
// binders that are gone and learns the copy's from the copied value).
void expect_noted(const std::string& rule, const std::vector<std::pair<std::string, int>>& noted,
                  const std::vector<Change>& c, const std::string& where) {
  std::map<std::string, int> by_name, table;
  for (const auto& [name, delta] : noted)
    by_name[name] += delta;
  std::erase_if(by_name, [](const auto& e) { return e.second == 0; });
  for (const Change& e : c)
    if (by_name.contains(e.name) || (e.known && !(rule == "gc-10" && e.gone)) ||
        (!e.known && rule != "subst-9"))
      table[e.name] = e.delta();
  EXPECT_EQ(by_name, table) << where;
}

// Steps t with S_bp; from a term with unique binders, every term of the run keeps them and its
// table agrees with the lists at every binder. A term that starts without them is not checked.
Checked expect_premise_along_run(const Term& t, const Context& free_types, const std::string& what,
                                 long max_steps) {
  Checked out;
  if (!FreeTable::of(t)) return out;
  RunOptions o;
  o.free_types = free_types;
  Reducer r(t, o);
  r.note_counts();
  std::optional<FreeTable> last;
  std::string rule;
  for (long n = 0; n < max_steps; ++n) {
    auto table = FreeTable::of(r.current());
    const std::string where = what + " step " + std::to_string(n);
    EXPECT_TRUE(table.has_value()) << where << ": " << print(r.current());
    if (!table) break;
    out.binders += expect_counts_at_binders(r.current(), *table, where);
    if (last) {
      const std::vector<Change> c = changes(*last, *table);
      expect_delta_of_rule(rule, c, where + " " + rule);
      expect_noted(rule, r.noted_counts(), c, where + " " + rule);
      ++out.rules[rule];
    }
    last = std::move(table);
    ++out.steps;
    const auto s = r.step();
    if (!s) break;
    rule = s->rule;
  }
  return out;
}

TEST(LinearNegationFreeTable, ReductionKeepsBindersUniqueOnGeneratedTerms) {
  Checked total;
  int unique_inputs = 0;
  for (int i = 0; i < 90; ++i) {
    const rc::Random random(20261129 + static_cast<std::uint64_t>(i));
    const int size = i % 40;
    Term t;
    Context free_types;
    if (i % 2 == 0) {
      t = gen::closed_linear()(random, size).value().term;
    } else {
      const gen::Source s = gen::source(3)(random, size).value();
      const Wrapper w = gradient_wrapper(s.body, s.inputs, s.point, {}, i % 4 == 1);
      t = elaborate(w.term, w.free_types).term;
      free_types = w.free_types;
    }
    const Checked c = expect_premise_along_run(t, free_types, "term " + std::to_string(i), 400);
    unique_inputs += c.steps > 0 ? 1 : 0;
    total.steps += c.steps;
    total.binders += c.binders;
    for (const auto& [rule, n] : c.rules)
      total.rules[rule] += n;
  }
  std::printf("  %d inputs with unique binders, %ld steps, %ld binder counts compared\n",
              unique_inputs, total.steps, total.binders);
  EXPECT_GT(unique_inputs, 45); // the comparison is not vacuous
  EXPECT_GT(total.binders, 10'000);
  for (const auto& [rule, n] : total.rules)
    std::printf("  %s: %ld deltas\n", rule.c_str(), n);
  for (const char* rule : {"beta-7", "pair-8", "subst-9", "gc-10", "lin-subst-11", "sum-12",
                           "sum-pair-13", "mul-14", "eta-pair-16", "factor-17", "prim-23"}) {
    EXPECT_GT(total.rules[rule], 0) << rule;
  }
}

TEST(LinearNegationFreeTable, ClosedGradientWrappersAreElaborated) {
  // The properties' closed wrapper (properties/linear_negation, draw_closed) is taken as it is
  // built, with the type of spec §4.9's (k, k' 1): elaborate would give the same term and type.
  for (int i = 0; i < 200; ++i) {
    const rc::Random random(20261130 + static_cast<std::uint64_t>(i));
    const gen::Source s = gen::source(2)(random, i % 100).value();
    const Wrapper w = gradient_wrapper(s.body, s.inputs, s.point, {}, true);
    Term t = w.term;
    const std::vector<std::string> as = fresh_names(t, "a", w.backprop.size());
    for (std::size_t j = 0; j < as.size(); ++j)
      t = let(exp_binder(w.backprop[j], neg_type(1)), t,
              lam(lin_binder(as[j]), mul(num(2), var(as[j]))));
    const Typed e = elaborate(t);
    EXPECT_EQ(e.term.get(), t.get()) << print(t);
    EXPECT_TRUE(same_type(e.type, product_type(real_type(), euclidean(1)))) << print(t);
  }
}

TEST(LinearNegationFreeTable, GeneratedTermsAreElaborated) {
  // The generators give their terms as built, with the type of their construction: elaborate
  // would give the same term and type.
  const auto expect_elaborated = [](const Typed& t, const Context& gamma, bool source) {
    const Typed e = elaborate(t.term, gamma, source);
    EXPECT_EQ(e.term.get(), t.term.get()) << print(t.term);
    EXPECT_TRUE(same_type(e.type, t.type)) << print(t.term) << " : " << type_text(t.type);
  };
  for (int i = 0; i < 600; ++i) {
    const rc::Random random(20261130 + static_cast<std::uint64_t>(i));
    const int size = i % 100;
    expect_elaborated(gen::closed_linear()(random, size).value(), {}, false);
    expect_elaborated(gen::closed_euclidean()(random, size).value(), {}, false);
    for (const gen::Source& s :
         {gen::source(3)(random, size).value(), gen::graph(3)(random, size).value()})
      expect_elaborated({s.body, real_type()}, s.context(), true);
  }
}

TEST(LinearNegationFreeTable, ReductionKeepsBindersUniqueOnTheFamilies) {
  long factored = 0;
  for (const std::string& source :
       {family::sum_chain(6), family::rnn({0.1, -0.3, 0.2}), family::square_chain(5),
        family::square_chain_higher_order(4)}) {
    const RealFunction f = real_function(parse_elaborated(source, Mode::source));
    const Wrapper w = gradient_wrapper(f.body, f.inputs, std::vector<double>(f.inputs.size(), 0.5));
    ASSERT_TRUE(FreeTable::of(w.term).has_value()) << source;
    const Checked c = expect_premise_along_run(w.term, w.free_types, source, 3000);
    EXPECT_GT(c.steps, 20) << source;
    for (const auto& [rule, n] : c.rules)
      factored += rule == "factor-17" ? n : 0;
  }
  EXPECT_GT(factored, 0);
}

// The free occurrences of x in t, by a walk (no free-variable list read).
int occurrences(const Term& t, const std::string& x) {
  force(*t);
  if (t->kind == Kind::var) return t->name == x ? 1 : 0;
  int out = 0;
  for (std::size_t i = 0; i < t->kids.size(); ++i) {
    const bool binder = t->kind == Kind::lam || t->kind == Kind::let || t->kind == Kind::let_pair;
    if (binder && i == 0 && (t->x.name == x || (t->kind == Kind::let_pair && t->y.name == x)))
      continue;
    out += occurrences(t->kids[i], x);
  }
  return out;
}

// Every binder's bound_count that is known equals its count by a walk; returns how many were
// known and how many not.
std::pair<long, long> expect_bound_counts(const Term& t, const std::string& where) {
  std::pair<long, long> known{0, 0};
  const auto walk = [&](const auto& self, const Term& n) -> void {
    force(*n);
    if (n->kind == Kind::lam || n->kind == Kind::let || n->kind == Kind::let_pair) {
      for (int b = 0; b < (n->kind == Kind::let_pair ? 2 : 1); ++b) {
        const std::string& name = b == 0 ? n->x.name : n->y.name;
        const int c = n->bound_count[static_cast<std::size_t>(b)];
        if (c < 0) {
          ++known.second;
          continue;
        }
        ++known.first;
        EXPECT_EQ(c, occurrences(n->body(), name)) << where << " binder " << name;
      }
    }
    for (const Term& k : n->kids)
      self(self, k);
  };
  walk(walk, t);
  return known;
}

TEST(LinearNegationFreeTable, CountBindersCountsEachScope) {
  const Type r = real_type();
  // λa. (u (u a))[u := λb. b + a], and a shadowing x: the inner binder takes its occurrences
  const Term t = lam(exp_binder("a", r),
                     let(exp_binder("u", arrow_type(r, r)), app(var("u"), app(var("u"), var("a"))),
                         lam(exp_binder("b", r), add(var("b"), var("a")))));
  count_binders(t);
  EXPECT_EQ(t->bound_count[0], 2);
  EXPECT_EQ(t->body()->bound_count[0], 2);
  EXPECT_EQ(t->body()->bound()->bound_count[0], 1);
  const Term shadow = lam(exp_binder("x", r), add(var("x"), lam(exp_binder("x", r), var("x"))));
  count_binders(shadow);
  EXPECT_EQ(shadow->bound_count[0], 1);
  EXPECT_EQ(shadow->left()->right()->bound_count[0], 1);
  EXPECT_EQ(binder_count(*let(exp_binder("y", r), add(var("y"), var("y")), num(1)), 0), 2);
}

// The binders' counts read off the table (the reducer's count mode starts so) are count_binders'.
TEST(LinearNegationFreeTable, BinderCountsFromTheTableAreCountBinders) {
  const auto counts = [](const Term& t) {
    std::vector<std::array<int, 2>> out;
    const auto walk = [&](const auto& self, const Node& n) -> void {
      out.push_back(n.bound_count);
      for (const Term& k : n.kids)
        self(self, *k);
    };
    walk(walk, *t);
    return out;
  };
  int compared = 0;
  for (int i = 0; i < 60; ++i) {
    const rc::Random random(20261130 + static_cast<std::uint64_t>(i));
    const Term t = gen::closed_linear()(random, i % 40).value().term;
    const auto table = FreeTable::of(t);
    if (!table) continue;
    table->write_binder_counts(t);
    const auto from_table = counts(t);
    count_binders(t);
    EXPECT_EQ(from_table, counts(t)) << print(t);
    ++compared;
  }
  EXPECT_GT(compared, 30);
}

// A run's names read off the free table (the reducer's start) are the names a walk of the term
// takes: every name of t is taken in both, and both draw the same fresh names.
TEST(LinearNegationFreeTable, NamesOffTheTableAreTheTermsNames) {
  int compared = 0;
  for (int i = 0; i < 60; ++i) {
    const rc::Random random(20261201 + static_cast<std::uint64_t>(i));
    const gen::Source s = gen::source(3)(random, i % 40).value();
    for (const Term& t : {gen::closed_linear()(random, i % 40).value().term, s.closed()}) {
      const auto table = FreeTable::of(t);
      if (!table) continue;
      Names walked(t);
      Names read(table->every_name());
      Names copied(table->name_table());
      for (const std::string& name : table->every_name())
        EXPECT_TRUE(walked.taken(name) && read.taken(name) && copied.taken(name))
            << name << " in " << print(t);
      for (const char* stem : {"x", "a", "z", "_"}) {
        const std::string drawn = walked.fresh(stem);
        EXPECT_EQ(drawn, read.fresh(stem)) << print(t);
        EXPECT_EQ(drawn, copied.fresh(stem)) << print(t);
      }
      ++compared;
    }
  }
  EXPECT_GT(compared, 60);
}

// With the focus, the reducer keeps each binder's count along its steps (count mode): at every
// step of the families' wrappers and of generated terms, each count it knows is the walk's, and
// it knows nearly all of them (a count it does not know is computed from the lists, slowly).
TEST(LinearNegationFreeTable, CountModeKeepsTheBindersCounts) {
  std::vector<std::pair<Term, Context>> inputs;
  for (const std::string& source :
       {family::sum_chain(8), family::rnn({0.1, -0.3, 0.2, 0.3}), family::square_chain(5),
        family::square_chain_higher_order(4)}) {
    const RealFunction f = real_function(parse_elaborated(source, Mode::source));
    const Wrapper w = gradient_wrapper(f.body, f.inputs, std::vector<double>(f.inputs.size(), 0.5));
    inputs.emplace_back(w.term, w.free_types);
  }
  for (int i = 0; i < 40; ++i) {
    const rc::Random random(20261130 + static_cast<std::uint64_t>(i));
    const gen::Source s = gen::source(3)(random, i % 30).value();
    const Wrapper w = gradient_wrapper(s.body, s.inputs, s.point, {}, i % 4 == 1);
    inputs.emplace_back(elaborate(w.term, w.free_types).term, w.free_types);
  }
  long known = 0, unknown = 0, steps = 0, counted_runs = 0;
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    RunOptions o;
    o.free_types = inputs[i].second;
    Reducer r(inputs[i].first, o);
    r.keep_focus();
    if (!r.keeps_counts()) continue;
    ++counted_runs;
    for (long n = 0; n < 3000; ++n) {
      const auto [k, u] = expect_bound_counts(r.current(), "input " + std::to_string(i) + " step " +
                                                               std::to_string(n));
      known += k;
      unknown += u;
      if (!r.step()) break;
      ++steps;
    }
  }
  std::printf("  %ld runs, %ld steps, %ld counts known, %ld not\n", counted_runs, steps, known,
              unknown);
  EXPECT_GT(counted_runs, 30);
  EXPECT_GT(steps, 2'000);
  EXPECT_GT(known, 50 * unknown);
}

// normalise keeps the counts from its first step (count mode without the focus): at every step of
// small generated terms, under S_bp, S_lo and S_rand, each count the reducer knows is the walk's,
// and a step that stays count mode gives the term of a reducer without it.
TEST(LinearNegationFreeTable, CountModeWithoutTheFocus) {
  long counted_runs = 0, steps = 0, known = 0;
  for (int i = 0; i < 90; ++i) {
    const rc::Random random(20261129 + static_cast<std::uint64_t>(i));
    const Term t =
        (i % 2 == 0 ? gen::closed_euclidean() : gen::closed_linear())(random, i % 40).value().term;
    RunOptions o;
    o.strategy = std::array{Strategy::bp, Strategy::lo, Strategy::random}[i % 3];
    o.seed = static_cast<std::uint64_t>(i);
    Reducer counted(t, o);
    Reducer listed(t, o);
    counted.keep_counts();
    if (!counted.keeps_counts()) continue;
    ++counted_runs;
    for (long n = 0; n < 400; ++n) {
      known += expect_bound_counts(counted.current(),
                                   "input " + std::to_string(i) + " step " + std::to_string(n))
                   .first;
      const auto a = counted.step();
      const auto b = listed.step();
      ASSERT_EQ(a.has_value(), b.has_value()) << "input " << i << " step " << n;
      if (!a) break;
      ASSERT_EQ(a->rule, b->rule) << "input " << i << " step " << n;
      ASSERT_EQ(print(a->result), print(b->result)) << "input " << i << " step " << n;
      ++steps;
    }
  }
  std::printf("  %ld runs, %ld steps, %ld counts known\n", counted_runs, steps, known);
  EXPECT_GT(counted_runs, 60);
  EXPECT_GT(steps, 1'000);
}

// The front end renames a shadowing binder (spec §4.1), so a parsed term has a table.
TEST(LinearNegationFreeTable, ParsedTermsAreMadeUnique) {
  const Term t = parse_elaborated("(\\x:R. x * x) ((\\x:R. x) 1)", Mode::source).term;
  const auto table = FreeTable::of(t);
  ASSERT_TRUE(table.has_value()) << print(t);
  EXPECT_EQ(table->names(), 2U) << print(t);
}

// Every node of t with a free-variable list, the originals of unforced copies included.
void listed_nodes(const Term& t, std::set<const Node*>& seen, std::set<const Node*>& listed) {
  if (!t || !seen.insert(t.get()).second) return;
  if (t->free_counts_known()) listed.insert(t.get());
  if (t->copy.unforced && t->copy.from) listed_nodes(t->copy.from->original, seen, listed);
  for (const Term& k : t->kids)
    listed_nodes(k, seen, listed);
}

// The lists free_counts() of t makes, by a walk before and after, and by Node::free_lists_made:
// the two must agree. Returns how many were made.
long expect_lists_counted(const Term& t, const std::string& what) {
  std::set<const Node*> seen, before, after;
  listed_nodes(t, seen, before);
  const std::uint64_t count = Node::free_lists_made();
  (void)t->free_counts();
  (void)t->free_counts(); // read again: nothing made
  const std::uint64_t counted = Node::free_lists_made() - count;
  seen.clear();
  listed_nodes(t, seen, after);
  long fresh = 0;
  for (const Node* n : after)
    fresh += before.count(n) == 0 ? 1 : 0;
  EXPECT_EQ(counted, static_cast<std::uint64_t>(fresh)) << what << ": " << print(t);
  return fresh;
}

struct NoLog : BinderLog {
  void named(const Binder&, long) override {}
};

// Node::free_lists_made counts every list a node keeps, by whichever way it is made (a merge,
// a splice, a sum's summands, an unforced copy's original), and nothing else: the focus's
// forgetting of its path's lists (semantics/linear_negation/focus.cpp, forget_from) skips the
// path when the count has not moved, and a list made without it would be read stale.
TEST(LinearNegationFreeTable, EveryListMadeIsCounted) {
  long made = 0, copies = 0;
  const auto along_run = [&](const Term& t, const Context& free_types, const std::string& what,
                             long max_steps) {
    RunOptions o;
    o.free_types = free_types;
    Reducer r(t, o);
    for (long n = 0; n < max_steps; ++n) {
      made += expect_lists_counted(r.current(), what + " step " + std::to_string(n));
      if (!r.step()) break;
    }
  };
  for (int i = 0; i < 60; ++i) {
    const rc::Random random(20261202 + static_cast<std::uint64_t>(i));
    const Term t = gen::closed_euclidean()(random, i % 60).value().term;
    along_run(t, {}, "term " + std::to_string(i), 200);
    // a shared copy of (9), not forced: its list is its original's, renamed
    Names names(t);
    if (const auto base = names.reserve_block(t->binders)) {
      const Term copy = share_copy(t, *base, make_shared_node<NoLog>());
      if (copy->copy.unforced) {
        ++copies;
        made += expect_lists_counted(pair(copy, t), "a copy of term " + std::to_string(i));
      }
    }
  }
  for (const std::string& source :
       {family::sum_chain(40), family::rnn({0.1, -0.3, 0.2, 0.4}), family::long_range_let(8)}) {
    const RealFunction f = real_function(parse_elaborated(source, Mode::source));
    const Wrapper w = gradient_wrapper(f.body, f.inputs, std::vector<double>(f.inputs.size(), 0.5));
    along_run(w.term, w.free_types, source, 600);
  }
  EXPECT_GT(made, 10'000); // not vacuous
  EXPECT_GT(copies, 20);
}

} // namespace
} // namespace adsem::linear_negation::free_table_test
