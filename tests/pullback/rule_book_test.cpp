// pullback's rule book (semantics/pullback/rules.cpp): no entry is decoration (removing it from a
// copy changes the trace of some term), the semantics name no rule outside the book and no
// mutant at all, and `adsem calculi --json` lists the book with citations and kinds.
#include <algorithm>
#include <filesystem>
#include <functional>
#include <regex>

#include <gtest/gtest.h>

#include <rapidcheck.h>

#include "generators/pullback/terms.hpp"
#include "properties/pullback/frontend.hpp"
#include "properties/pullback/mutants.hpp"
#include "semantics/pullback/primitive_table.hpp"
#include "semantics/pullback/strategy.hpp"
#include "syntax/pullback/printer.hpp"
#include "syntax/pullback/typecheck.hpp"
#include "tests/support/rule_book_checks.hpp"

namespace adsem::pullback::rule_book_test {
namespace {

// Terms on which, together, every fireable rule of the book fires: the examples, the hand-made
// shapes of spec §8.6, and open terms with a foreign atom (16b, 16c, 17, Sigma2, Sigma3).
std::vector<Term> probes() {
  std::vector<Term> terms;
  const std::filesystem::path examples =
      std::filesystem::path(ADSEM_SOURCE_DIR) / "examples" / "pullback";
  for (const auto& file : std::filesystem::directory_iterator(examples)) {
    const Term t = parse_closed(testing::read_text(file.path()));
    if (t->kind != Kind::lam) terms.push_back(t); // function.dppl is for `adsem grad`
  }
  for (const char* source : {
           "(J mult @ [1, 2]) [3, 4]",
           "((Omega \\y:R. \\x:R. mult(<y, x>)) @ (\\h:R->R. (\\k:R->R. k 2)^* @ [1]^*)) 3",
           "((Omega \\y:R. (\\z:R. mult(<z,z>)) y) @ Omega[1]) 3",
           "((Omega \\y:R. (\\z:R. 5) y) @ Omega[1]) 3",
           "<1, 2> + <3, 4>",
           "[1, 2]^* + [3, 4]^*",
           "((\\x:R. x) + (\\x:R. mult(<x, x>))) 3",
           "(zero : R * R).1",
           "((Omega \\y:R. let x = mult(<y, y>) in x) @ Omega[1]) 3",
           "((Omega \\p:R * R. <p.2, p.1>) @ Omega[1, 1]) [2, 3]",
           "((Omega \\p:R * R. p.1 + p.2) @ Omega[1]) [2, 3]",
           "((Omega \\p:R * R. p.1 + 1) @ Omega[1]) [2, 3]",
           "((Omega \\y:R. <y, 1>) @ Omega[1, 1]) 2",
           "((Omega \\y:R. <1, y>) @ Omega[1, 1]) 2",
           "((Omega \\y:R. sin(y)) @ Omega[1]) 2",
           // the context (Ω λy.E)·C: a 1-form that is not a value beside an elementary body
           "((Omega \\y:R. sin(y)) @ ((\\w:Omega R. w) Omega[1])) 2",
           "((Omega \\y:R. 5) @ Omega[1]) 2",
           "((Omega \\y:R. y) @ Omega[1]) 3",
           "((Omega \\p:R * R. p.1) @ Omega[1]) [2, 3]",
           "let x = 1 in x + 2",
           "((zero : R -> R)) 3",
           "<(zero : R), (zero : R)>",
           "J sin @ (zero : R)",
           "(\\v:R. v)^* @ (zero : R^*)",
           "(\\v:R. (zero : R))^* @ [3]^*",
           // Sigma3 on a closed term: covectors over R -> R neither merge (N3) nor transpose (5⁺)
           "(\\x:R->R. x)^* @ ((\\h:R->R. h 2)^* @ [1]^* + (\\h:R->R. h 3)^* @ [1]^*)",
       }) {
    terms.push_back(parse_closed(source));
  }
  const Type rd = dual(real_type());
  const std::vector<std::pair<const char*, std::map<std::string, Type>>> open = {
      {"((Omega \\y:R. (\\x:R. (\\b:R. x) y)^* @ c) @ om) 3", {{"c", rd}, {"om", one_form(rd)}}},
      {"((Omega \\y:R * R^*. (\\x:R. (\\b:R. x) y.1)^* @ y.2) @ om) <3, [2]^*>",
       {{"om", one_form(rd)}}},
      {"(a + b).1", {{"a", real_power(2)}, {"b", real_power(2)}}},
      {"(\\v:R. v)^* @ (a + b)", {{"a", rd}, {"b", rd}}},
      {"((Omega \\y:R. (Omega \\x:R. mult(<x, y>)) @ w) @ om) 3",
       {{"w", one_form(real_type())}, {"om", one_form(one_form(real_type()))}}},
      {"((Omega \\y:R. (\\v:R. v)^* @ (J sin @ y)) @ om) 3", {{"om", one_form(rd)}}},
      {"((Omega \\y:R. (\\x:R. x)^* @ y) @ om) [3]^*", {{"om", one_form(rd)}}},
      {"(\\v:R. v)^* @ ((\\w:R. w)^* @ c)", {{"c", rd}}},
  };
  for (const auto& [source, free] : open)
    terms.push_back(annotate_zeros(parse(source, free)));
  return terms;
}

// Fresh names carry a process-wide number (substitution.hpp): renumbered in order of appearance,
// two runs that differ only in where the counter stood read the same.
std::vector<std::string> renumbered(const std::vector<std::string>& lines) {
  const std::regex fresh(R"(_(\d+))");
  std::map<std::string, std::string> numbers;
  std::vector<std::string> out;
  for (const std::string& line : lines) {
    std::string text;
    auto at = line.cbegin();
    for (std::sregex_iterator it(line.begin(), line.end(), fresh), end; it != end; ++it) {
      text.append(at, (*it)[0].first);
      const auto [n, added] = numbers.emplace((*it)[1].str(), std::to_string(numbers.size()));
      text += "_#" + n->second;
      at = (*it)[0].second;
    }
    text.append(at, line.cend());
    out.push_back(std::move(text));
  }
  return out;
}

// What a run shows: each step "rule: term", the premise steps and the normal form, or the error
// it stopped with (fresh names renumbered).
std::vector<std::string> observe(const Term& t, const Rules& rules) {
  std::vector<std::string> lines;
  try {
    RunOptions o;
    o.trace = true;
    o.fuel = 20'000;
    const Run run = normalise(t, rules, o);
    lines = run.trace;
    lines.push_back("premise steps " + std::to_string(run.premise_steps));
    lines.push_back("normal form " + print(run.result));
  } catch (const AdsemError& e) {
    lines.push_back(std::string("error ") + e.what());
  }
  return renumbered(lines);
}

// Every node of t, each once.
void each_node(const Term& t, const std::function<void(const Term&)>& visit) {
  visit(t);
  for (const Term& k : t->kids)
    each_node(k, visit);
}

// The book's index by operand kind (Combine::operand, Rule::operands) chooses what the side
// conditions alone choose: at every node of every term a run steps through (premises included),
// of the probes and of generated terms, `select` returns the first entry of the node's kind, in
// book order, whose condition holds.
TEST(PullbackRuleBook, TheOperandIndexSelectsWhatTheSideConditionsSelect) {
  std::vector<Term> terms = probes();
  for (int i = 0; i < 300; ++i) {
    const rc::Random rnd(777 + static_cast<std::uint64_t>(i));
    const int size = i % 40;
    terms.push_back(i % 2 == 0 ? gen::first_order_query(false)(rnd, size).value().term()
                               : gen::closed_term()(rnd, size).value());
  }
  const Book& book = *paper_rules();
  Machine m;
  long nodes = 0, skipped = 0;
  const auto check = [&](const Term& node) {
    if (node->kids.empty()) return;
    const Combine::Redex redex{node};
    const Rule<Combine>* by_conditions = nullptr;
    for (const Rule<Combine>* rule : book.candidates<Combine>(node->kind)) {
      if (!rule->match || rule->match(m, redex)) {
        by_conditions = rule;
        break;
      }
    }
    const Rule<Combine>* selected = book.select<Combine>(m, redex);
    ASSERT_EQ(selected, by_conditions) << print(node);
    ++nodes;
    for (const Rule<Combine>* rule : book.candidates<Combine>(node->kind))
      skipped += !rule->operands.empty() &&
                 std::ranges::find(rule->operands, Combine::operand(redex)) == rule->operands.end();
  };
  for (const Term& t : terms) {
    each_node(t, check);
    Machine run({}, RunOptions{.fuel = 5'000});
    run.observe([&](const Term&, const Step& s, bool) { each_node(s.result, check); });
    try {
      (void)run.normalise(t);
    } catch (const AdsemError&) { // out of fuel or a stuck premise: the terms seen are checked
    }
  }
  EXPECT_GT(nodes, 10'000);
  EXPECT_GT(skipped, 1'000); // the declarations do skip entries
}

TEST(PullbackRuleBook, RemovingAnyEntryChangesTheTraceOfSomeTerm) {
  const std::vector<Term> terms = probes();
  const auto unfireable =
      testing::expect_no_entry_is_decoration(*paper_rules(), [&](const BookPtr& book) {
        Rules without;
        without.book = book;
        return std::any_of(terms.begin(), terms.end(), [&](const Term& t) {
          return observe(t, Rules{}) != observe(t, without);
        });
      });
  // the productions of C take no step of their own; without any one of them some run differs too
  ASSERT_EQ(unfireable.size(), 15u);
  for (const std::string& production : unfireable) {
    BookPatch patch;
    patch.name = "without " + production;
    patch.remove(production);
    const Rules without{patch_paper_rules(patch)};
    EXPECT_TRUE(std::any_of(terms.begin(), terms.end(), [&](const Term& t) {
      return observe(t, Rules{}) != observe(t, without);
    })) << production;
  }
}

// A user entry (kind `user`, added after the paper's) is offered where refocusing visits a redex
// position: here the row of ((Ω λy.f y)·ω) 3, f foreign, which the paper leaves stuck (value 1).
TEST(PullbackRuleBook, AUserEntryAfterThePapersIsOfferedAtTheSamePositions) {
  const Type rd = dual(real_type());
  const Term stuck =
      annotate_zeros(parse("((Omega \\y:R. f y) @ om) 3", {{"f", arrow(real_type(), real_type())},
                                                           {"om", one_form(real_type())}}));
  Rule<Pullback> user;
  user.info.name = "foreign-zero";
  user.info.kind = RuleKind::user;
  user.kinds = {Kind::app};
  user.match = [](const Machine&, const Pullback::Redex& r) {
    return !is_atom(r.e->kids[0]) || atom_root(r.e->kids[0]) != r.y;
  };
  user.result = [rd](Machine&, const Pullback::Redex&, const RuleInfo&) { return zero(rd); };
  BookPatch patch;
  patch.name = "user";
  patch.add(user);
  Rules with_user;
  with_user.book = patch_paper_rules(patch);
  EXPECT_EQ(with_user.book->info(with_user.book->size() - 1).name, "foreign-zero");
  const std::vector<std::string> paper = observe(stuck, Rules{});
  ASSERT_EQ(paper.size(), 2u); // no step: stuck
  const std::vector<std::string> user_run = observe(stuck, with_user);
  ASSERT_EQ(user_run.size(), 3u);
  EXPECT_EQ(user_run[0].rfind("foreign-zero: ", 0), 0u) << user_run[0];
  // the paper's entries are tried first: a term the paper reduces keeps its trace
  const Term reduced = parse_closed("((Omega \\y:R. sin(y)) @ Omega[1]) 2");
  EXPECT_EQ(observe(reduced, Rules{}), observe(reduced, with_user));
}

// No rule name is a string literal outside the book, no rule-name constant is left, and no
// mutant is named anywhere in semantics/pullback.
TEST(PullbackRuleBook, TheSemanticsNameNoRuleOutsideTheBookAndNoMutant) {
  testing::SemanticsScan scan;
  // no rule-name constant, no mutant switch, no rule set asked for a name
  scan.forbidden = {R"(\brule::[a-z])", "MUTANT", R"(\.is\()"};
  scan.book_files.insert("contexts.cpp"); // the productions of C are the book's too
  testing::expect_semantics_name_no_rule_and_no_mutant("pullback", *paper_rules(), mutants(), scan);
}

TEST(PullbackRuleBook, CalculiJsonListsTheBookWithCitationsAndKinds) {
  const std::vector<RuleInfo> book = paper_rules()->infos();
  ASSERT_EQ(book.size(), 59u);
  const auto rules = testing::calculi_json_rules("pullback", book);
  // the 15 productions of C first (§3.4 L359), which no step is; then the 44 rules
  for (std::size_t i = 0; i < rules.size(); ++i) {
    EXPECT_EQ(rules[i].contains("unfireable"), i < 15) << book[i].name;
    EXPECT_EQ(rules[i].at("kind") == "context", i < 15) << book[i].name;
  }
  EXPECT_EQ(rules[0].at("name"), "C + P");
  EXPECT_EQ(rules[15].at("name"), "1");
  const auto a_star =
      std::find_if(rules.begin(), rules.end(), [](const auto& r) { return r.at("name") == "A*"; });
  ASSERT_NE(a_star, rules.end());
  EXPECT_EQ(a_star->at("kind"), "transformation");
  const auto row_17 =
      std::find_if(rules.begin(), rules.end(), [](const auto& r) { return r.at("name") == "17"; });
  ASSERT_NE(row_17, rules.end());
  EXPECT_NE(row_17->at("citation").template get<std::string>().find("Fig. 3"), std::string::npos);
}

// A mutant is a patch of the book; a replace keeps every name in place.
TEST(PullbackRuleBook, EveryMutantIsAPatchOfNamedEntries) {
  for (const Mutant& m : mutant_catalogue()) {
    ASSERT_FALSE(m.patch.edits.empty()) << m.def.name;
    EXPECT_EQ(mutant_book(m.def.name), m.book.get());
    const bool removes = std::any_of(m.patch.edits.begin(), m.patch.edits.end(), [](const auto& e) {
      return std::holds_alternative<BookPatch::Remove>(e);
    });
    if (removes) continue; // the rule set as printed: rule 5 without 5⁺
    testing::expect_same_names(*m.book.get(), *paper_rules(), m.def.name);
  }
  EXPECT_EQ(mutant_book(""), paper_rules());
  EXPECT_EQ(rules_for("pullback/constant-pullback-nonzero").book,
            rules_for("constant-pullback-nonzero").book);
}

} // namespace
} // namespace adsem::pullback::rule_book_test
