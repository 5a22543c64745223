// linear-negation's rule book (semantics/linear_negation/rules.cpp): no entry is decoration
// (removing it from a copy changes the trace of some term, or D of some source term), the
// semantics name no rule outside the book and no mutant at all, `adsem calculi --json` lists the
// book with citations and kinds, and an entry added after the paper's is offered by the
// strategies with no further code.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <rapidcheck.h>

#include "cli/builtin_registry.hpp"
#include "generators/linear_negation/terms.hpp"
#include "properties/linear_negation/mutants.hpp"
#include "semantics/linear_negation/program.hpp"
#include "semantics/linear_negation/reduction.hpp"
#include "semantics/linear_negation/transform.hpp"
#include "syntax/linear_negation/printer.hpp"
#include "tests/support/cli_run.hpp"

namespace adsem::linear_negation {
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
  std::optional<Term> source; // a source term, for D
};

std::vector<Probe> probes() {
  std::vector<Probe> out;
  for (const std::string& text : handwritten)
    out.push_back({parse_elaborated(text, Mode::target).term, {}, std::nullopt});
  for (int i = 0; i < 60; ++i) {
    const rc::Random random(20261125 + static_cast<std::uint64_t>(i));
    const int size = i % 40;
    out.push_back({gen::closed_linear()(random, size).value().term, {}, std::nullopt});
    const gen::Source s = gen::source(2)(random, size).value();
    const Wrapper w = gradient_wrapper(s.body, s.inputs, s.point, {}, i % 2 == 0);
    out.push_back({elaborate(w.term, w.free_types).term, w.free_types, s.body});
  }
  return out;
}

// What the book does on a probe: each step "rule: term" under S_bp, S_lo and S_rand, or the error
// it stopped with, and D of the source term.
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
  }
  return lines;
}

TEST(LinearNegationRuleBook, RemovingAnyEntryChangesTheTraceOfSomeTerm) {
  const std::vector<Probe> all = probes();
  std::vector<std::vector<std::string>> paper;
  for (const Probe& p : all)
    paper.push_back(observe(p, paper_rules()));
  for (const RuleInfo& rule : paper_rules()->infos()) {
    RulesPatch patch;
    patch.name = "without " + rule.name;
    patch.remove(rule.name);
    const RulesPtr without = patch_paper_rules(patch);
    bool changed = false;
    for (std::size_t i = 0; i < all.size() && !changed; ++i)
      changed = observe(all[i], without) != paper[i];
    EXPECT_TRUE(changed) << rule.name << " can be removed without changing any probe's trace";
  }
}

std::string read(const std::filesystem::path& file) {
  std::ifstream in(file);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// No rule name is a string literal outside the book and no mutant is named anywhere in
// semantics/linear_negation.
TEST(LinearNegationRuleBook, TheSemanticsNameNoRuleOutsideTheBookAndNoMutant) {
  const std::filesystem::path dir =
      std::filesystem::path(ADSEM_SOURCE_DIR) / "semantics" / "linear_negation";
  int files = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    const std::string name = entry.path().filename().string();
    EXPECT_EQ(name.find("mutant"), std::string::npos) << name;
    const std::string text = read(entry.path());
    ++files;
    EXPECT_EQ(text.find("MUTANT"), std::string::npos) << name;
    for (const Mutant& m : mutant_catalogue()) {
      const std::string short_name = m.def.name.substr(m.def.name.find('/') + 1);
      EXPECT_EQ(text.find(short_name), std::string::npos) << name << " names " << short_name;
    }
    if (name == "rules.cpp") continue; // the book: the one place rule names are written
    for (const RuleInfo& rule : paper_rules()->infos())
      EXPECT_EQ(text.find('"' + rule.name + '"'), std::string::npos)
          << name << " names the rule " << rule.name;
  }
  EXPECT_GT(files, 10);
}

TEST(LinearNegationRuleBook, CalculiJsonListsTheBookWithCitationsAndKinds) {
  const auto run = testing::run_cli(cli::builtin_registry(), {"calculi", "--json"});
  ASSERT_EQ(run.code, 0) << run.err;
  const auto j = nlohmann::json::parse(run.out);
  const auto& calculi = j.at("calculi");
  const auto it = std::find_if(calculi.begin(), calculi.end(),
                               [](const auto& c) { return c.at("id") == "linear-negation"; });
  ASSERT_NE(it, calculi.end());
  const auto& rules = it->at("rules");
  const std::vector<RuleInfo> book = paper_rules()->infos();
  ASSERT_EQ(rules.size(), book.size());
  for (std::size_t i = 0; i < book.size(); ++i) {
    EXPECT_EQ(rules[i].at("name"), book[i].name);
    EXPECT_EQ(rules[i].at("citation"), book[i].citation);
    EXPECT_EQ(rules[i].at("kind"), std::string(kind_name(book[i].kind)));
  }
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

// A mutant of a rule is a patch of named entries; its book keeps the paper's names in place
// except for an entry it removes.
TEST(LinearNegationRuleBook, RuleMutantsArePatchesOfNamedEntries) {
  int patched = 0;
  for (const Mutant& m : mutant_catalogue()) {
    if (m.patch.edits.empty()) {
      EXPECT_EQ(m.rules, paper_rules()) << m.def.name;
      continue;
    }
    ++patched;
    EXPECT_NE(m.rules, paper_rules()) << m.def.name;
  }
  EXPECT_EQ(patched, 3);
  EXPECT_EQ(rules_for(""), paper_rules());
  EXPECT_EQ(rules_for("linear-negation/linear-factoring-disabled")->size(),
            paper_rules()->size() - 1);
}

// An entry of kind user added after the paper's, without a priority class: S_bp offers it, last;
// all_steps and the summaries (S_rand's count) see it with no change to the strategy.
TEST(LinearNegationRuleBook, AnAddedEntryIsOfferedLastWithNoFurtherCode) {
  Rule<Reduction> user;
  user.info.name = "forty-two";
  user.info.kind = RuleKind::user;
  user.kinds = {Tag::num};
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
} // namespace adsem::linear_negation
