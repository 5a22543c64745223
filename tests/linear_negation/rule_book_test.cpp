// linear-negation's rule book (semantics/linear_negation/rules.cpp): no entry is decoration
// (removing it from a copy changes the trace of some term, or D of some source term), the
// semantics name no rule outside the book and no mutant at all, `adsem calculi --json` lists the
// book with citations and kinds, and an entry added after the paper's is offered by the
// strategies with no further code.
#include <algorithm>

#include <gtest/gtest.h>
#include <rapidcheck.h>

#include "generators/linear_negation/terms.hpp"
#include "properties/linear_negation/mutants.hpp"
#include "semantics/linear_negation/equivalence.hpp"
#include "semantics/linear_negation/program.hpp"
#include "semantics/linear_negation/reduction.hpp"
#include "semantics/linear_negation/transform.hpp"
#include "syntax/linear_negation/printer.hpp"
#include "tests/support/rule_book_checks.hpp"

namespace adsem::linear_negation::rule_book_test {
namespace {

// Closed terms on which, together, every rule of Table 2 fires under one strategy or another.
const std::vector<std::string> handwritten = {
    "(\\a:R. (2 * b)[b : R := a]) 5",
    "(((x' y2)[y2 := 4]) + x' 3)[x' := \\a:R. 2 * a]",
    "((k' 1)[(k, k') := ((y1 * y2, \\a:R. y1' (y2 * a) + y2' (y1 * a))[(y1, y1') := X][(y2, y2') "
    ":= X])[X := (x, \\b:R. xd b)]][x := 3])[xd := \\c:R. c]",
    "sin(0.5) + exp(1)",
};

struct Probe {
  Term term;
  Context free_types;
  std::optional<Term> source;        // a source term, for D
  std::vector<std::string> backprop; // the wrapper's xj', for read-back A
  std::optional<gen::Source> graph;  // a computational graph, for bp (Def. 10)
};

std::vector<Probe> probes() {
  std::vector<Probe> out;
  for (const std::string& text : handwritten)
    out.push_back({parse_elaborated(text, Mode::target).term, {}, std::nullopt, {}});
  for (int i = 0; i < 60; ++i) {
    const rc::Random random(20261125 + static_cast<std::uint64_t>(i));
    const int size = i % 40;
    out.push_back({gen::closed_linear()(random, size).value().term, {}, std::nullopt, {}});
    const gen::Source s = gen::source(2)(random, size).value();
    const Wrapper w = gradient_wrapper(s.body, s.inputs, s.point, {}, i % 2 == 0);
    out.push_back({elaborate(w.term, w.free_types).term, w.free_types, s.body, w.backprop});
    out.back().graph = gen::graph(3)(random, size).value();
  }
  // a graph on which every clause of bp fires: a variable, a numeral, a primitive, a let, a sum
  gen::Source g;
  g.body = parse_elaborated("let z = x1 * x2 in z + 2", Mode::source,
                            {{"x1", real_type()}, {"x2", real_type()}})
               .term;
  g.inputs = {"x1", "x2"};
  out.back().graph = g;
  return out;
}

// Read-back A of a wrapper's normal form (its second component when it keeps the primal).
std::string read_back_line(const Probe& p, const Term& normal_form, const Rules& book) {
  const Term sum = normal_form->kind == Kind::pair ? normal_form->right() : normal_form;
  const auto g = read_gradient(book, sum, p.backprop);
  std::string line = "read-back";
  for (const double x : g.value_or(std::vector<double>{}))
    line += " " + std::to_string(x);
  return g ? line : line + " none";
}

// What the book does on a probe: each step "rule: term" under S_bp, S_lo and S_rand, or the error
// it stopped with, D of the source term, read-back A of the wrapper's normal form and Prop. 1's
// seeds of two inputs.
std::vector<std::string> observe(const Probe& p, const RulesPtr& book) {
  std::vector<std::string> lines;
  for (const Strategy s : {Strategy::bp, Strategy::lo, Strategy::random}) {
    RunOptions o;
    o.fuel = 5'000;
    o.trace = true;
    o.strategy = s;
    o.seed = 7;
    o.free_types = p.free_types;
    o.book = book;
    try {
      const Run run = normalise(p.term, o);
      lines.insert(lines.end(), run.trace.begin(), run.trace.end());
      if (!p.backprop.empty()) lines.push_back(read_back_line(p, run.result, *book));
    } catch (const std::exception& e) {
      lines.push_back(std::string("error ") + e.what());
    }
  }
  if (p.source) {
    TransformOptions o;
    o.book = book;
    Names names(*p.source);
    try {
      lines.push_back(print(back(*p.source, names, o)));
    } catch (const std::exception& e) {
      lines.push_back(std::string("error ") + e.what());
    }
    try {
      for (const std::size_t i : {0, 1})
        lines.push_back(print(forward_seed(*book, 0.5, i, 0)));
    } catch (const std::exception& e) {
      lines.push_back(std::string("error ") + e.what());
    }
  }
  Names fresh(p.term);
  for (const EquivStep& e : equivalence_steps(p.term, fresh, *book))
    lines.push_back(e.rule + " ≡ " + print(e.result));
  if (p.graph) {
    Names names(p.graph->body);
    try {
      const Term g = groundify(p.graph->body, names);
      lines.push_back(print(backprop_graph(g, p.graph->inputs, names.fresh("a"), names, *book)));
      lines.push_back(print(forward_graph(g, names, *book)));
    } catch (const std::exception& e) {
      lines.push_back(std::string("error ") + e.what());
    }
  }
  return lines;
}

TEST(LinearNegationRuleBook, RemovingAnyEntryChangesTheTraceOfSomeTerm) {
  const auto observed = [](const Probe& p, const RulesPtr& book) { return observe(p, book); };
  EXPECT_TRUE(testing::expect_no_entry_is_decoration_on(paper_rules(), probes(), observed).empty());
}

// No rule name is a string literal outside the book and no mutant is named anywhere in
// semantics/linear_negation.
TEST(LinearNegationRuleBook, TheSemanticsNameNoRuleOutsideTheBookAndNoMutant) {
  testing::SemanticsScan scan;
  scan.forbidden = {"MUTANT"};
  testing::expect_semantics_name_no_rule_and_no_mutant("linear_negation", *paper_rules(), mutants(),
                                                       scan);
}

TEST(LinearNegationRuleBook, CalculiJsonListsTheBookWithCitationsAndKinds) {
  const auto rules = testing::calculi_json_rules("linear-negation", paper_rules()->infos());
  EXPECT_EQ(rules[0].at("name"), "beta-7");
  EXPECT_EQ(rules[0].at("kind"), "reduction");
  const auto factor = std::find_if(rules.begin(), rules.end(),
                                   [](const auto& r) { return r.at("name") == "factor-17"; });
  ASSERT_NE(factor, rules.end());
  EXPECT_NE(factor->at("citation").template get<std::string>().find("Table 2c"), std::string::npos);
  const auto d_prim = std::find_if(rules.begin(), rules.end(),
                                   [](const auto& r) { return r.at("name") == "D-prim"; });
  ASSERT_NE(d_prim, rules.end());
  EXPECT_EQ(d_prim->at("kind"), "transformation");
  EXPECT_NE(d_prim->at("citation").template get<std::string>().find("Table 3b"), std::string::npos);
}

// A mutant of a rule, a clause of D, the read-back or the seeding is a patch of named entries; its
// book keeps the paper's names in place except for an entry it removes.
TEST(LinearNegationRuleBook, MutantsArePatchesOfNamedEntries) {
  int patched = 0;
  for (const Mutant& m : mutant_catalogue()) {
    if (m.patch.edits.empty()) {
      EXPECT_EQ(m.rules.get(), paper_rules()) << m.def.name;
      continue;
    }
    ++patched;
    EXPECT_NE(m.rules.get(), paper_rules()) << m.def.name;
  }
  EXPECT_EQ(patched, 13); // all but the Prop. 17 oracle
  EXPECT_EQ(rules_for(""), paper_rules());
  EXPECT_EQ(rules_for("linear-negation/linear-factoring-disabled")->size(),
            paper_rules()->size() - 1);
}

// Read-back A (Cor. 16) and Prop. 1's seeding are entries of the book: the gradient of x·y at
// (2, 5) is read as (5, 2), and gradient-read-from-wrong-component, a replacement of read-back-A,
// reads (2, 5); Prop. 1's seed of input 2 for ∂1 is ⟨r2, 0⟩, and paper-literal-prop1-seed, a
// replacement of seed-prop-1, seeds ⟨r2, 1⟩.
TEST(LinearNegationRuleBook, ReadBackAndSeedingAreEntriesThatMutantsReplace) {
  const RealFunction f = real_function(parse_elaborated("\\x:R. \\y:R. x * y", Mode::source));
  const auto gradient = [&](const std::string& mutant) {
    TransformOptions t;
    t.book = rules_for(mutant);
    RuleCounter counter;
    t.counter = &counter;
    const GradientRun g = reduce_gradient(f.body, f.inputs, {2, 5}, RunOptions{}, t);
    EXPECT_EQ(counter.fired.at("read-back-A"), 1) << mutant;
    return g.gradient;
  };
  EXPECT_EQ(gradient(""), (std::vector<double>{5, 2}));
  EXPECT_EQ(gradient("linear-negation/gradient-read-from-wrong-component"),
            (std::vector<double>{2, 5}));
  EXPECT_EQ(print(forward_seed(*paper_rules(), 0.5, 1, 0)), "(0.5, 0)");
  EXPECT_EQ(print(forward_seed(*paper_rules(), 0.5, 0, 0)), "(0.5, 1)");
  EXPECT_EQ(print(forward_seed(*rules_for("linear-negation/paper-literal-prop1-seed"), 0.5, 1, 0)),
            "(0.5, 1)");
}

// An entry of kind user added after the paper's, without a priority class: S_bp offers it, last;
// all_steps and the summaries (S_rand's count) see it with no change to the strategy.
TEST(LinearNegationRuleBook, AnAddedEntryIsOfferedLastWithNoFurtherCode) {
  Rule<Reduction> user;
  user.info.name = "forty-two";
  user.info.kind = RuleKind::user;
  user.kinds = {Kind::num};
  user.match = [](const Reducer&, const Reduction::Redex& r) {
    return r.nth == 0 && r.term->value == 42;
  };
  user.result = [](Reducer&, const Reduction::Redex&, const RuleInfo&) { return num(43); };
  RulesPatch patch;
  patch.name = "user";
  patch.add(user, "D-var"); // after Table 2's rules, before Table 3b's clauses
  RunOptions o;
  o.trace = true;
  o.book = patch_paper_rules(patch);
  const Term t = parse_elaborated("42 + 1", Mode::target).term;
  EXPECT_EQ(normalise(t, o).trace,
            (std::vector<std::string>{"sum-12: 43"})); // (12) is class 2, the user's last
  const Term alone = parse_elaborated("(42, 1)", Mode::target).term;
  const linear_negation::Run run = normalise(alone, o);
  EXPECT_EQ(run.trace, (std::vector<std::string>{"forty-two: (43, 1)"}));
  Reducer r(t, o);
  std::vector<std::string> names;
  for (const Step& s : r.all_steps())
    names.push_back(s.rule);
  EXPECT_EQ(names, (std::vector<std::string>{"sum-12", "forty-two"}));
  o.strategy = Strategy::random;
  for (o.seed = 0; o.seed < 20; ++o.seed)
    if (Reducer(t, o).step()->rule == "forty-two") return; // S_rand draws it too
  ADD_FAILURE() << "S_rand never drew the added entry";
}

} // namespace
} // namespace adsem::linear_negation::rule_book_test
