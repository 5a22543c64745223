#pragma once
// The checks every calculus's rule book passes (tests/<calc>/rule_book_test.cpp): no entry is
// decoration, the semantics name no rule outside the book and no mutant, `adsem calculi --json`
// lists the book, and a mutant's book keeps the paper's names in place.
#include <filesystem>
#include <memory>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "cli/builtin_registry.hpp"
#include "properties/core/property.hpp"
#include "semantics/core/rule_table.hpp"
#include "tests/support/cli_run.hpp"
#include "tests/support/read_text.hpp"

namespace adsem::testing {

// Removes each fireable entry of `paper` in turn; changed(without) says whether the book without
// it shows something else on some probe (a trace, a result, an error). Returns the names of the
// unfireable entries, which are skipped.
template <class Book, class Changed>
std::vector<std::string> expect_no_entry_is_decoration(const Book& paper, const Changed& changed) {
  std::vector<std::string> unfireable;
  for (const RuleInfo& rule : paper.infos()) {
    if (!rule.unfireable.empty()) {
      unfireable.push_back(rule.name);
      continue;
    }
    typename Book::Patch patch;
    patch.name = "without " + rule.name;
    patch.remove(rule.name);
    const auto without = std::make_shared<const Book>(paper.patched(patch));
    EXPECT_TRUE(changed(without)) << rule.name
                                  << " can be removed without changing what any probe shows";
  }
  return unfireable;
}

// The same, where what a book shows is observe(probe, book) on each of `probes` (compared with
// what the paper's book shows, computed once).
template <class Book, class Probe, class Observe>
std::vector<std::string> expect_no_entry_is_decoration_on(const std::shared_ptr<const Book>& paper,
                                                          const std::vector<Probe>& probes,
                                                          const Observe& observe) {
  using Shown = decltype(observe(probes.front(), paper));
  std::vector<Shown> shown;
  for (const Probe& p : probes)
    shown.push_back(observe(p, paper));
  return expect_no_entry_is_decoration(*paper, [&](const std::shared_ptr<const Book>& without) {
    for (std::size_t i = 0; i < probes.size(); ++i)
      if (observe(probes[i], without) != shown[i]) return true;
    return false;
  });
}

// What a file of semantics/<folder> must not contain beyond a rule name or a mutant's name.
struct SemanticsScan {
  std::set<std::string> book_files = {"rules.cpp"}; // where rule names are written
  std::vector<std::string> forbidden = {};          // regular expressions
  std::vector<std::string> forbidden_in_file_names = {"mutant"};
};

// No file of semantics/<folder> has a scan.forbidden_in_file_names word in its name or names one
// of `mutants` (by its name without the "<calc>/" prefix), none outside scan.book_files writes a
// rule name of `book` as a string literal, and none matches a scan.forbidden expression.
template <class Book>
void expect_semantics_name_no_rule_and_no_mutant(const std::string& folder, const Book& book,
                                                 const std::vector<props::MutantDef>& mutants,
                                                 const SemanticsScan& scan = {}) {
  const std::filesystem::path dir = std::filesystem::path(ADSEM_SOURCE_DIR) / "semantics" / folder;
  int files = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    const std::string name = entry.path().filename().string();
    for (const std::string& word : scan.forbidden_in_file_names) {
      EXPECT_EQ(name.find(word), std::string::npos) << name;
    }
    const std::string text = read_text(entry.path());
    ++files;
    for (const std::string& pattern : scan.forbidden) {
      EXPECT_FALSE(std::regex_search(text, std::regex(pattern))) << name << " matches " << pattern;
    }
    for (const props::MutantDef& m : mutants) {
      const std::string short_name = m.name.substr(m.name.find('/') + 1);
      EXPECT_EQ(text.find(short_name), std::string::npos) << name << " names " << short_name;
    }
    if (scan.book_files.contains(name)) continue;
    for (const RuleInfo& rule : book.infos()) {
      EXPECT_EQ(text.find('"' + rule.name + '"'), std::string::npos)
          << name << " names the rule " << rule.name;
    }
  }
  EXPECT_GT(files, 10);
}

// The rules `adsem calculi --json` lists for `calculus`, after checking they are `book`'s listing:
// every entry's name, citation and kind, in order. An empty array when the calculus is missing.
inline nlohmann::json calculi_json_rules(const std::string& calculus,
                                         const std::vector<RuleInfo>& book) {
  const auto run = run_cli(cli::builtin_registry(), {"calculi", "--json"});
  EXPECT_EQ(run.code, 0) << run.err;
  const auto j = nlohmann::json::parse(run.out);
  for (const auto& c : j.at("calculi")) {
    if (c.at("id") != calculus) continue;
    const nlohmann::json& rules = c.at("rules");
    EXPECT_EQ(rules.size(), book.size());
    for (std::size_t i = 0; i < book.size() && i < rules.size(); ++i) {
      EXPECT_EQ(rules[i].at("name"), book[i].name);
      EXPECT_EQ(rules[i].at("citation"), book[i].citation);
      EXPECT_EQ(rules[i].at("kind"), std::string(kind_name(book[i].kind)));
    }
    return rules;
  }
  ADD_FAILURE() << calculus << " is not listed by adsem calculi --json";
  return nlohmann::json::array();
}

// The number of calculi `adsem calculi --json` lists with a rule book (all but cross and the
// model), after checking that each book is listed with a citation and a kind for every entry.
inline int calculi_with_a_cited_book() {
  const auto run = run_cli(cli::builtin_registry(), {"calculi", "--json"});
  EXPECT_EQ(run.code, 0) << run.err;
  const auto j = nlohmann::json::parse(run.out);
  int books = 0;
  for (const auto& c : j.at("calculi")) {
    if (c.at("id") == "cross" || c.at("id") == "model") continue;
    ++books;
    EXPECT_FALSE(c.at("rules").empty()) << c.at("id");
    for (const auto& r : c.at("rules")) {
      EXPECT_FALSE(r.at("citation").template get<std::string>().empty()) << r.at("name");
      EXPECT_TRUE(r.contains("kind")) << r.at("name");
    }
  }
  return books;
}

// A mutant's book has the paper's entries, under their names, in their places.
template <class Book>
void expect_same_names(const Book& mutant, const Book& paper, const std::string& label) {
  ASSERT_EQ(mutant.size(), paper.size()) << label;
  for (std::size_t i = 0; i < mutant.size(); ++i) {
    EXPECT_EQ(mutant.info(i).name, paper.info(i).name) << label;
  }
}

} // namespace adsem::testing
