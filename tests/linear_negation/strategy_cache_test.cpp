// S_bp, S_lo and S_rand read their choice from per-node summaries
// (semantics/linear_negation/reduction.cpp); the full enumeration of every redex instance
// (Reducer::step_by_enumeration, the way all_steps works) is the reference, S_rand with the same
// seed. On generated terms (gen_lin, gen_src's gradient
// wrappers of spec §10.2) and under every rule set of the mutants, both reducers run in lockstep
// and must take the same rule to the same printed term at every step.
#include <gtest/gtest.h>
#include <rapidcheck.h>

#include "generators/linear_negation/enumeration.hpp"
#include "generators/linear_negation/terms.hpp"
#include "properties/linear_negation/mutants.hpp"
#include "semantics/linear_negation/families.hpp"
#include "semantics/linear_negation/program.hpp"
#include "semantics/linear_negation/reduction.hpp"
#include "semantics/linear_negation/transform.hpp"
#include "syntax/linear_negation/printer.hpp"

namespace adsem::linear_negation::strategy_cache_test {
namespace {

// A complexity family's gradient wrapper (Cor. 16) at the point (point, …, point).
Wrapper family_wrapper(const std::string& source, double point) {
  const RealFunction f = real_function(parse_elaborated(source, Mode::source));
  return gradient_wrapper(f.body, f.inputs, std::vector<double>(f.inputs.size(), point));
}

struct Drawn {
  Term term;
  Context free_types;
};

Drawn draw(int i) {
  const rc::Random random(20261122 + static_cast<std::uint64_t>(i));
  const int size = i % 60;
  switch (i % 3) {
  case 0:
    return {gen::closed_linear()(random, size).value().term, {}};
  case 1:
    return {gen::closed_euclidean()(random, size).value().term, {}};
  default: {
    const gen::Source s = gen::source(3)(random, size).value();
    const Wrapper w = gradient_wrapper(s.body, s.inputs, s.point, {}, i % 2 == 0);
    return {elaborate(w.term, w.free_types).term, w.free_types};
  }
  }
}

// The readings of Table 2 and a mutant's patched book.
RunOptions rules_variant(int v) {
  RunOptions o;
  if (v == 1) o.rules.factoring = false;
  if (v == 2) o.rules.numeric_only = true;
  if (v == 3) o.rules.eta_pair = false;
  if (v == 4) o.book = rules_for("linear-negation/equivalence-duplicates-substitution");
  return o;
}

// Every node's measure and free-variable counts are what building it again gives.
void expect_up_to_date(const Term& t, int i) {
  force(*t);
  for (const Term& k : t->kids)
    expect_up_to_date(k, i);
  const Term fresh = rebuild(*t, t->kids);
  EXPECT_EQ(t->size, fresh->size) << "term " << i << ": " << print(t);
  EXPECT_EQ(t->height, fresh->height) << "term " << i << ": " << print(t);
  EXPECT_EQ(t->binders, fresh->binders) << "term " << i << ": " << print(t);
  EXPECT_EQ(t->free_counts(), fresh->free_counts()) << "term " << i << ": " << print(t);
  // the filter of names (9)'s and (11)'s descent skips siblings by may hold more, never fewer
  EXPECT_EQ(fresh->names_seen & ~t->names_seen, 0U) << "term " << i << ": " << print(t);
}

// Returns the number of steps compared. With `focus`, the cached reducer keeps a focus at the
// last redex (Reducer::keep_focus; the paper's book with S_bp and S_lo).
// With `counts`, it keeps the binders' counts (count mode, as normalise runs it), and every node
// of the term is checked after each step.
long expect_lockstep(const Drawn& d, Strategy strategy, RunOptions o, int i, long max_steps = 1000,
                     bool focus = false, bool counts = false) {
  o.strategy = strategy;
  o.seed = 977 * static_cast<std::uint64_t>(i) + 13;
  o.free_types = d.free_types;
  Reducer cached(d.term, o);
  if (focus) cached.keep_focus();
  if (i % 3 != 2) cached.note_counts(); // the changed names read off the rules' notes
  if (counts) cached.keep_counts();
  Reducer reference(d.term, o);
  long n = 0;
  for (; n < max_steps; ++n) {
    const auto a = cached.step();
    const auto b = reference.step_by_enumeration();
    EXPECT_EQ(a.has_value(), b.has_value()) << "term " << i << " step " << n;
    if (!a || !b) break;
    EXPECT_EQ(a->rule, b->rule) << "term " << i << " step " << n << ": " << print(d.term);
    EXPECT_EQ(print(a->result), print(b->result)) << "term " << i << " step " << n;
    if (a->rule != b->rule) break;
    if (counts && !focus) expect_up_to_date(cached.current(), i);
  }
  if (focus) { // the nodes above the focus, brought up to date, are those a fresh build has
    cached.close_focus();
    expect_up_to_date(cached.current(), i);
  }
  return n;
}

TEST(LinearNegationStrategyCache, CachedChoiceIsTheEnumeratedOne) {
  long steps = 0;
  for (int i = 0; i < 120; ++i) {
    const Drawn d = draw(i);
    for (int v = 0; v < 5; ++v) {
      if (v > 0 && i % 4 != 0) continue;
      for (const Strategy s : {Strategy::bp, Strategy::lo, Strategy::random})
        steps += expect_lockstep(d, s, rules_variant(v), i, 1000, i % 2 == 1); // half focused
    }
  }
  std::printf("  %ld steps compared\n", steps);
  EXPECT_GT(steps, 5'000); // the comparison is not vacuous
}

// The complexity families' gradient wrappers (Cor. 16): their redexes lie under long stacks of
// explicit substitutions, so a step brings many path summaries up to date instead of
// recomputing them (Reducer::apply_in_place), or keeps a focus at the last redex (focus.cpp);
// both must still give the enumerated choice.
TEST(LinearNegationStrategyCache, DeepFamiliesTakeTheEnumeratedStep) {
  // S_lo and S_rand duplicate unshared work on these families: only small instances for them
  const struct {
    std::string source;
    double point;
    std::vector<Strategy> strategies;
  } cases[]{
      {family::square_chain(12), 1.0, {Strategy::bp}},
      {family::square_chain_higher_order(10), 1.0, {Strategy::bp}},
      {family::sum_chain(8), 1.0, {Strategy::bp}},
      {family::rnn({0.1, -0.3, 0.2, 0.0, 0.3}), 0.3, {Strategy::bp}},
      // larger terms, with the changed names read off the rules' notes for two of three runs
      {family::sum_chain(30), 1.0, {Strategy::bp}},
      {family::rnn({0.1, -0.3, 0.2, 0.0, 0.3, 0.1, -0.2, 0.2, 0.1, 0.0}), 0.3, {Strategy::bp}},
      {family::square_chain(3), 1.0, {Strategy::lo, Strategy::random}},
      {family::sum_chain(3), 1.0, {Strategy::lo, Strategy::random}},
  };
  long steps = 0;
  int i = 0;
  for (const auto& c : cases) {
    const Wrapper w = family_wrapper(c.source, c.point);
    const Drawn d{w.term, w.free_types};
    for (const Strategy s : c.strategies) {
      steps += expect_lockstep(d, s, RunOptions{}, i, 5000);
      steps += expect_lockstep(d, s, RunOptions{}, i++, 5000, true);
    }
  }
  EXPECT_GT(steps, 1'000);
}

// Every closed term of Table 1 to size 7 (the grammar of `adsem enumerate`), focused, under S_bp
// and S_lo. Unlike the random terms these hold linear ES in the stack of an exponential ES's
// content: an (11) step there that leaves the core the same node, as in
// y1[y1 := 0[w2 := w1][w1 := 1]], or an (8) that moves one there, must make the ES above reread
// whether (9) and (10) may fire (the stack of their bound value exponential ES only).
TEST(LinearNegationStrategyCache, EnumeratedTermsTakeTheEnumeratedStep) {
  const int bound = 7;
  gen::TermEnumeration e(gen::EnumGrammar{}, {bound});
  long steps = 0;
  int i = 0;
  for (const gen::EnumSort& sort : gen::enum_closed_sorts())
    for (int n = 1; n <= bound; ++n)
      for (std::uint64_t k = 0; k < e.count(sort, n); ++k, ++i) {
        const Drawn d{with_unique_binders(e.nth(sort, n, k)), {}};
        for (const Strategy s : {Strategy::bp, Strategy::lo})
          steps += expect_lockstep(d, s, RunOptions{}, i, 1000, true, true);
      }
  EXPECT_GT(steps, 100'000);
}

// S_rand's walk from the root in count mode, as normalise runs it: a (7), (8) or (9) whose redex
// the reducer holds alone writes its (outer) let into that node (Reducer::redex_to_rewrite), its
// body, bound term, count and measure; each step is still the enumerated one and each node what
// building it again gives.
TEST(LinearNegationStrategyCache, RandomStepsKeepingCountsTakeTheEnumeratedStep) {
  std::vector<Drawn> terms;
  for (const std::string& source :
       {family::long_range_let(8), family::sum_chain(6), family::rnn({0.1, -0.3, 0.2})}) {
    const Wrapper w = family_wrapper(source, 0.5);
    terms.push_back({w.term, w.free_types});
  }
  for (int i = 0; i < 60; ++i)
    terms.push_back(draw(i));
  long steps = 0;
  for (std::size_t i = 0; i < terms.size(); ++i)
    steps += expect_lockstep(terms[i], Strategy::random, RunOptions{}, static_cast<int>(i), 3000,
                             false, true);
  std::printf("  %ld steps compared\n", steps);
  EXPECT_GT(steps, 1'000); // not vacuous
}

// normalise as the complexity families run it (the focus, (9)'s copies shared and its descent
// written in place, the nodes above a written one measured and summarised again only until one
// is as before) traces the steps of the full enumeration, on families larger than the lockstep
// above: the wide sum's (9)s cross hundreds of explicit substitutions, the RNN's copy closures.
TEST(LinearNegationStrategyCache, NormalisedFamiliesTraceTheEnumeratedSteps) {
  const struct {
    std::string source;
    double point;
  } cases[]{
      {family::sum_chain(40), 1.0},
      // long enough for a sum's list made from its summands' and a copy of it forced without its
      // spine's lists (syntax/linear_negation/ast.cpp, shared_copy.cpp)
      {family::sum_chain(90), 1.0},
      {family::rnn({0.1, -0.3, 0.2, 0.0, 0.3, 0.1, -0.2, 0.2, 0.1, 0.0, 0.2, -0.1}), 0.3},
      // long enough that (9)'s copies are forced by the choice and keep their originals'
      // summaries (shared_copy.cpp, force)
      {family::long_range_let(40), 1.0},
      {family::rnn(family::rnn_inputs(30)), 0.3},
      // the root's bound term a stack of explicit substitutions, one a level, whose core the
      // focus reads off the nodes below it, each keeping it once found (focus.cpp,
      // core_after_run), while the levels above are written in place
      {family::square_chain(40), 1.0},
      {family::let_series(40), 1.0},
  };
  for (const auto& c : cases) {
    const Wrapper w = family_wrapper(c.source, c.point);
    RunOptions o;
    o.trace = true;
    o.free_types = w.free_types;
    const linear_negation::Run run = normalise(w.term, o);
    Reducer reference(w.term, o);
    std::vector<std::string> trace;
    while (const auto step = reference.step_by_enumeration())
      trace.push_back(step->rule + ": " + print(step->result));
    ASSERT_EQ(run.trace.size(), trace.size()) << c.source;
    for (std::size_t i = 0; i < trace.size(); ++i)
      ASSERT_EQ(run.trace[i], trace[i]) << "step " << i << " of " << c.source;
    EXPECT_GT(trace.size(), 500U); // not vacuous
  }
}

// normalise without a trace reaches the traced run's normal form in as many steps of each rule,
// copying as much: a traced run prints each step's term, which forces (9)'s shared copies, so only
// an untraced one meets (11)'s substitution of a variable at a copy not forced yet, which renames
// the copy instead of forcing it (shared_copy.cpp, substituted_copy). The traced runs take the
// enumerated steps (above).
TEST(LinearNegationStrategyCache, UntracedRunsReachTheTracedNormalForms) {
  const struct {
    std::string source;
    double point;
    Strategy strategy;
  } cases[]{
      {family::sum_chain(40), 1.0, Strategy::bp},
      {family::sum_chain(90), 1.0, Strategy::bp},
      {family::sum_chain(30), 1.0, Strategy::lo},
      {family::rnn(family::rnn_inputs(30)), 0.3, Strategy::bp},
      {family::rnn(family::rnn_inputs(12)), 0.3, Strategy::random},
      {family::long_range_let(60), 1.0, Strategy::random},
  };
  for (const auto& c : cases) {
    const Wrapper w = family_wrapper(c.source, c.point);
    RunOptions o;
    o.strategy = c.strategy;
    o.seed = 7;
    o.free_types = w.free_types;
    const linear_negation::Run untraced = normalise(w.term, o);
    o.trace = true;
    const linear_negation::Run traced = normalise(w.term, o);
    EXPECT_EQ(untraced.steps, traced.steps) << c.source;
    EXPECT_EQ(untraced.rule_counts, traced.rule_counts) << c.source;
    EXPECT_EQ(untraced.copy_volume, traced.copy_volume) << c.source;
    EXPECT_EQ(print(untraced.result), print(traced.result)) << c.source;
    EXPECT_GT(traced.rule_counts.at("lin-subst-11"), 10) << c.source; // not vacuous
  }
}

// normalise under S_rand, as the unique-normal-forms property runs it (count mode: the path above
// each step is brought up to date in place, its binders' counts from the sums of the rules'
// notes, Reducer::apply_in_place), draws the steps of the full enumeration with the same seed: on
// the families' gradient wrappers, whose redexes lie under stacks of explicit substitutions, and
// on generated terms.
TEST(LinearNegationStrategyCache, NormalisedRandomRunsTraceTheEnumeratedSteps) {
  std::vector<Drawn> terms;
  for (const std::string& source : {family::square_chain(4), family::sum_chain(6),
                                    family::long_range_let(8), family::rnn({0.1, -0.3, 0.2})}) {
    const RealFunction f = real_function(parse_elaborated(source, Mode::source));
    const Wrapper w = gradient_wrapper(f.body, f.inputs, std::vector<double>(f.inputs.size(), 0.5));
    terms.push_back({w.term, w.free_types});
  }
  for (int i = 0; i < 90; ++i)
    terms.push_back(draw(i));
  long steps = 0;
  for (std::size_t i = 0; i < terms.size(); ++i) {
    RunOptions o;
    o.strategy = Strategy::random;
    o.seed = 53 * static_cast<std::uint64_t>(i) + 5;
    o.trace = true;
    o.fuel = 5'000;
    o.free_types = terms[i].free_types;
    linear_negation::Run run;
    try {
      run = normalise(terms[i].term, o);
    } catch (const AdsemError&) {
      continue; // out of fuel: the reference would be too
    }
    Reducer reference(terms[i].term, o);
    std::vector<std::string> trace;
    while (const auto step = reference.step_by_enumeration())
      trace.push_back(step->rule + ": " + print(step->result));
    ASSERT_EQ(run.trace.size(), trace.size()) << "term " << i << ": " << print(terms[i].term);
    for (std::size_t n = 0; n < trace.size(); ++n)
      ASSERT_EQ(run.trace[n], trace[n]) << "step " << n << " of term " << i;
    steps += static_cast<long>(trace.size());
  }
  std::printf("  %ld steps compared\n", steps);
  EXPECT_GT(steps, 1'000); // not vacuous
}

// normalise from a set-up shared by several runs (RunSetUp) takes each run's steps, trace and
// result: the runs under every strategy and rule set, from one set-up in turn (each taking over
// the first summaries of the run before where its book and rules are that run's), against runs
// from the term alone, made after them.
TEST(LinearNegationStrategyCache, RunsFromASharedSetUpAreTheRunsAlone) {
  using Outcome = std::tuple<std::string, long, std::map<std::string, long>,
                             std::vector<std::string>, long, std::string>;
  long steps = 0;
  for (int i = 0; i < 90; ++i) {
    const Drawn d = draw(i);
    std::vector<RunOptions> runs;
    for (int v = 0; v < 5; ++v) {
      if (v > 0 && i % 4 != 0) continue;
      for (const Strategy s : {Strategy::bp, Strategy::lo, Strategy::random})
        for (int again = 0; again < 2; ++again) {
          RunOptions o = rules_variant(v);
          o.strategy = s;
          o.seed = 31 * static_cast<std::uint64_t>(i) + 7 + static_cast<std::uint64_t>(again);
          o.free_types = d.free_types;
          o.trace = true;
          o.fuel = 2'000;
          runs.push_back(o);
        }
    }
    const auto outcome = [](auto& from, const RunOptions& o) -> Outcome {
      try {
        const linear_negation::Run r = normalise(from, o);
        return {print(r.result), r.steps, r.rule_counts, r.trace, r.copy_volume, ""};
      } catch (const AdsemError& e) {
        return {"", 0, {}, {}, 0, e.what()};
      }
    };
    RunSetUp set_up(d.term, d.free_types);
    std::vector<Outcome> shared;
    for (const RunOptions& o : runs)
      shared.push_back(outcome(set_up, o));
    for (std::size_t k = 0; k < runs.size(); ++k) {
      const Term& alone = d.term;
      EXPECT_EQ(shared[k], outcome(alone, runs[k])) << "term " << i << " run " << k;
      steps += std::get<1>(shared[k]);
    }
  }
  EXPECT_GT(steps, 5'000);
  RunOptions other;
  other.free_types["x"] = real_type();
  RunSetUp closed(var("x"), {});
  EXPECT_THROW((void)normalise(closed, other), std::invalid_argument);
}

// A node shared by two reducers with different rule sets: each reads only its own summaries.
TEST(LinearNegationStrategyCache, ReducersSharingNodesDoNotMix) {
  for (int i = 0; i < 30; ++i) {
    const Drawn d = draw(i);
    RunOptions with, without;
    with.free_types = without.free_types = d.free_types;
    without.rules.factoring = false;
    without.rules.eta_pair = false;
    Reducer a(d.term, with), a_ref(d.term, with), b(d.term, without), b_ref(d.term, without);
    for (int n = 0; n < 500; ++n) {
      const auto sa = a.step();
      const auto sb = b.step();
      const auto ra = a_ref.step_by_enumeration();
      const auto rb = b_ref.step_by_enumeration();
      ASSERT_EQ(sa.has_value(), ra.has_value());
      ASSERT_EQ(sb.has_value(), rb.has_value());
      if (sa) {
        EXPECT_EQ(print(sa->result), print(ra->result)) << "term " << i;
      }
      if (sb) {
        EXPECT_EQ(print(sb->result), print(rb->result)) << "term " << i;
      }
      if (!sa && !sb) break;
    }
  }
}

// Rules (9) and (11) write the nodes below their redex in place where the reducer holds them
// alone (semantics/linear_negation/occurrence.hpp). A term held from an earlier step shares those
// nodes, which must then be rebuilt instead: every held term still prints as it did after the
// steps that followed, and the steps are those of a reducer whose terms nobody holds.
TEST(LinearNegationStrategyCache, HeldTermsKeepTheirTextAfterLaterSteps) {
  const struct {
    std::string source;
    double point;
  } cases[]{
      {family::sum_chain(8), 1.0},
      {family::square_chain_higher_order(6), 1.0},
      {family::rnn({0.1, -0.3, 0.2, 0.0, 0.3}), 0.3},
  };
  long steps = 0;
  for (const auto& c : cases) {
    const Wrapper w = family_wrapper(c.source, c.point);
    RunOptions o;
    o.free_types = w.free_types;
    Reducer held(w.term, o), alone(w.term, o);
    held.keep_focus();
    alone.keep_focus();
    std::vector<std::pair<Term, std::string>> kept{{w.term, print(w.term)}};
    for (long n = 0; n < 5000; ++n, ++steps) {
      const auto a = held.step();
      const auto b = alone.step();
      ASSERT_EQ(a.has_value(), b.has_value()) << c.source << " step " << n;
      if (!a) break;
      ASSERT_EQ(a->rule, b->rule) << c.source << " step " << n;
      const std::string text = print(a->result);
      ASSERT_EQ(text, print(b->result)) << c.source << " step " << n;
      kept.emplace_back(a->result, text);
    }
    for (const auto& [t, text] : kept)
      EXPECT_EQ(print(t), text) << c.source;
  }
  EXPECT_GT(steps, 500);
}

} // namespace
} // namespace adsem::linear_negation::strategy_cache_test
