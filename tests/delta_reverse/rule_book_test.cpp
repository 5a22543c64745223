// delta-reverse's rule book (semantics/delta_reverse/rules.cpp): no entry is decoration (removing
// it from a copy changes the translation, the trace or the gradient of some probe), every entry
// fires and is counted, every step of the machine's cost model is an entry, the semantics name no
// rule outside the book and no mutant at all, and `adsem calculi --json` lists the book with
// citations and kinds.
#include <algorithm>

#include <gtest/gtest.h>

#include "properties/delta_reverse/frontend.hpp"
#include "properties/delta_reverse/mutants.hpp"
#include "semantics/delta_reverse/translate.hpp"
#include "semantics/delta_reverse/wrappers.hpp"
#include "syntax/delta_reverse/parser.hpp"
#include "syntax/delta_reverse/printer.hpp"
#include "tests/support/rule_book_checks.hpp"

namespace adsem::delta_reverse::rule_book_test {
namespace {

constexpr long fuel = 1'000'000;

struct Probe {
  Program program;
  Value s;
};

// Main expressions and points on which, together, every entry of the book fires: every construct
// of Fig. 1 under each translation, fan-out, shared and unread bindings on the tape, sum, product
// and leaf inputs read back, vectors built, indexed and summed.
std::vector<Probe> probes() {
  const auto probe = [](const std::string& source, Value s) {
    return Probe{real_program(parse_closed(source)).program, std::move(s)};
  };
  const Value pair_input = v_pair(v_pair(v_real(2.0), v_real(5.0)), v_pair(v_int(3), v_real(0.5)));
  const std::string sums =
      R"(\(p : (Real + Real) * Real). case fst p of inl a -> a * snd p | inr b -> b + snd p)";
  return {
      probe(R"(\((x : Real, y : Real), (n : Int, z : Real)).
                 let f = \(w : Real). w * 3.0 in
                 let q = inl[Real] (f x) in
                 let r = inr[Real] (snd (y, 2)) in
                 (case q of inl a -> a + y | inr b -> b) * (case r of inl c -> c | inr d -> fromInt d)
                   + fst (z * z, 1.5) * fromInt n)",
            pair_input),
      probe(sums, v_pair(v_inl(v_real(2.0)), v_real(3.0))),
      probe(sums, v_pair(v_inr(v_real(2.0)), v_real(3.0))),
      // a binding the result never reads: eval's Nothing, the sweep's skip
      probe(R"(\(x : Real). let unused = x * x in x * 2.0)", v_real(3.0)),
      // the array extension (§10.2): elements that record bindings, sequenced in index order
      probe(R"(\(x : Real). let v = build[Real] (3, \(i : Int). x * fromInt i) in
                 index[Real] (v, 2) * index[Real] (v, 1))",
            v_real(3.0)),
      // sumV (spec §9.12, an extension): a reduction over a vector, one binding for the sum
      probe(R"(\(x : Real). let v = build[Real] (3, \(i : Int). x * fromInt i) in
                 sumV v * index[Real] (v, 1))",
            v_real(3.0)),
  };
}

// What a probe shows under a book: the four translations of e, for two wrappers the gradient,
// the tape and the traced steps, and reverse #1 and #2's gradients and step counts, or the error
// each stopped with.
std::vector<std::string> observe(const Probe& p, const RulesPtr& rules,
                                 const std::shared_ptr<RuleCounter>& coverage = nullptr) {
  RunSetup setup;
  setup.rules = rules;
  setup.coverage = coverage;
  std::vector<std::string> lines;
  const auto attempt = [&](const std::function<void()>& body) {
    try {
      body();
    } catch (const AdsemError& e) {
      lines.push_back(std::string("error ") + e.what());
    }
  };
  for (const Translation t :
       {Translation::dfwd, Translation::drev1, Translation::drev2, Translation::drev})
    attempt([&] { lines.push_back(print(translate(t, p.program.term, setup))); });
  for (const auto& [wrapper, impl] :
       {std::pair{Wrapper::fig15, EvalImpl::map}, std::pair{Wrapper::seeded, EvalImpl::array}})
    attempt([&] {
      const ReverseRun run = reverse(p.program, p.s, v_real(1.0), wrapper, impl, setup, fuel, true);
      lines.push_back("gradient " + print_value(run.gradient, p.program.s));
      for (const auto& [id, rhs] : run.binds)
        lines.push_back(std::to_string(id) + " = " + print_delta(rhs));
      lines.insert(lines.end(), run.ledger.lines.begin(), run.ledger.lines.end());
    });
  attempt([&] {
    const DenseRun run = reverse1(p.program, p.s, 1.0, setup, fuel);
    lines.push_back("reverse #1 " + print_value(run.gradient, p.program.s) + " in " +
                    std::to_string(run.steps) + " steps");
  });
  attempt([&] {
    const Delta2Run run = reverse2(p.program, p.s, 1.0, setup, fuel);
    lines.push_back("reverse #2 " + print_value(run.gradient, p.program.s) + " in " +
                    std::to_string(run.steps) + " steps");
  });
  return lines;
}

TEST(DeltaReverseRuleBook, RemovingAnyEntryChangesWhatSomeProbeShows) {
  const auto observed = [](const Probe& p, const RulesPtr& book) { return observe(p, book); };
  EXPECT_TRUE(
      adsem::testing::expect_no_entry_is_decoration_on(paper_rules(), probes(), observed).empty());
}

// Rule coverage counts every entry's firings under its name: the clauses of the translations
// (which are no step of the cost model), and the entries that are steps (every step is one).
TEST(DeltaReverseRuleBook, EveryEntryFiresOnTheProbesAndIsCounted) {
  const auto coverage = std::make_shared<RuleCounter>();
  for (const Probe& p : probes())
    observe(p, paper_rules(), coverage);
  for (const RuleInfo& rule : paper_rules()->infos())
    EXPECT_GT(coverage->fired.count(rule.name), 0U) << rule.name << " never fired";
  for (const auto& [name, times] : coverage->fired)
    EXPECT_TRUE(paper_rules()->position(name).has_value()) << name << " is counted but no entry";
  for (const Step step : all_steps())
    EXPECT_TRUE(paper_rules()->position(step_name(step)).has_value())
        << step_name(step) << " is a step of the cost model but no entry";
}

// No rule name is a string literal outside the book (and the cost model's table of step names,
// ledger.cpp), and no mutant is named anywhere in semantics/delta_reverse.
TEST(DeltaReverseRuleBook, TheSemanticsNameNoRuleOutsideTheBookAndNoMutant) {
  adsem::testing::SemanticsScan scan;
  scan.book_files = {"rules.cpp", "ledger.cpp"};
  scan.forbidden = {"Variant"};
  scan.forbidden_in_file_names = {"mutant", "variant"};
  adsem::testing::expect_semantics_name_no_rule_and_no_mutant("delta_reverse", *paper_rules(),
                                                              mutants(), scan);
}

TEST(DeltaReverseRuleBook, CalculiJsonListsTheBookWithCitationsAndKinds) {
  const std::vector<RuleInfo> listed = paper_rules()->infos();
  const auto rules = adsem::testing::calculi_json_rules("delta-reverse", listed);
  for (const RuleInfo& rule : listed) {
    EXPECT_NE(rule.citation.find("Krawiec et al."), std::string::npos) << rule.name;
  }
  EXPECT_EQ(rules[0].at("name"), "Dfwd[x]");
  const auto drev_app = std::find_if(rules.begin(), rules.end(),
                                     [](const auto& r) { return r.at("name") == "Drev[app]"; });
  ASSERT_NE(drev_app, rules.end());
  EXPECT_EQ(drev_app->at("kind"), "transformation");
  EXPECT_NE(drev_app->at("citation").template get<std::string>().find("Fig. 9"), std::string::npos);
  const auto e_app = std::find_if(rules.begin(), rules.end(),
                                  [](const auto& r) { return r.at("name") == "E-App"; });
  ASSERT_NE(e_app, rules.end());
  EXPECT_EQ(e_app->at("kind"), "evaluation");
}

// A mutant is a patch of the book, and its book differs from the paper's only in the entries the
// patch names.
TEST(DeltaReverseRuleBook, EveryMutantIsAPatchOfNamedEntries) {
  ASSERT_EQ(mutant_catalogue().size(), 11U);
  for (const Mutant& m : mutant_catalogue()) {
    ASSERT_FALSE(m.patch.edits.empty()) << m.def.name;
    adsem::testing::expect_same_names(*m.rules.get(), *paper_rules(), m.def.name);
  }
  EXPECT_EQ(setup_for("").rules, paper_rules());
  EXPECT_EQ(setup_for("simple-diff/letrec-dynamic-scope").rules, paper_rules());
  EXPECT_THROW(setup_for("delta-reverse/no-such-mutant"), AdsemError);
}

} // namespace
} // namespace adsem::delta_reverse::rule_book_test
