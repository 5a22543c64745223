#pragma once
// A user's rule file joined to a calculus's semantics (`--rules FILE` of campaign, mutants,
// replay, throughput, eval and reduce). The file (syntax/core/rule_file.hpp) is compiled by the
// calculus's rule adapter (rule_check.hpp, `RuleAdapter::compile_file`) into entries of kind
// `user` of the calculus's rule book and a RulePatch: `name: LHS --> RHS` adds an entry,
// `replace NAME: ...` replaces the paper's entry NAME, `remove NAME` removes it. Every property
// of the calculus then runs on the patched book (after a mutant's patch, when a mutant runs).
//
// Where an added rule is tried (docs/rules.md, "Rules that join the semantics"):
// - small-step reduction (perturbative, pullback, linear-negation): at every position the
//   strategy's decomposition visits, after the paper's rules at that position; linear-negation's
//   added rules join the S_bp order in their `priority` class (default: last);
// - big-step evaluation (simple-diff, delta-reverse's source evaluation): `LHS --> RHS` is the
//   rule "LHS ⇓ V if RHS ⇓ V", tried before the paper's rule for the same construct;
// - transformation clauses (D, Dfwd/Drev, T_x, Fig. 6, A-normalisation): `replace` only.
#include <cstddef>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "syntax/core/rule_file.hpp"

namespace adsem::props {

struct CalculusEntry;
struct PropertyContext;

// What a calculus makes of a rule file. Opaque to the engine: each calculus derives from it
// (its patch of the rule book, and the compiled patterns its targeted generator instantiates) and
// reads it back with `compiled_as`.
class CompiledRuleFile {
public:
  virtual ~CompiledRuleFile() = default;
  // The names under which the file's added and replacing rules fire (traces, rule coverage). A
  // campaign in which one of them never fired fails its health check: "your rule was not tested".
  virtual std::vector<std::string> fired_rule_names() const = 0;
};

struct UserRules {
  std::string file;     // the path as the user wrote it
  std::string hash;     // FNV-1a 64 of the file's bytes, 16 lower-case hex digits
  std::string calculus; // the calculus id it was compiled for
  rules::RuleFile parsed;
  std::shared_ptr<const CompiledRuleFile> compiled;

  template <class T> const T& compiled_as() const { return dynamic_cast<const T&>(*compiled); }
};

// The share of a `--rules` campaign's trials drawn from the calculus's targeted generator (an
// instance of a user rule's left-hand side in a random context), so that the rules are
// exercised; `--set rules.targeted-share=X` (0 to 1) changes it.
inline constexpr double default_targeted_share = 0.25;

// Reads and compiles `path` for `calculus` (through its rule adapter's compile_file). Throws
// AdsemError: io (unreadable), parse (line:column in the file), type, usage (the calculus takes
// no rule files).
std::shared_ptr<const UserRules> load_user_rules(const CalculusEntry& calculus,
                                                 const std::string& path);

// Inside a property body (it draws with RapidCheck's *gen): whether this trial should draw its
// input from the targeted generator — true with the context's targeted share when user rules are
// present, never otherwise (and then it draws nothing, so runs without --rules are unchanged).
bool draw_targeted(const PropertyContext& context);

// The citation of a rule of a user's file in the rule book's listing: "user rule, FILE:LINE".
std::string user_rule_citation(const rules::RuleDecl& rule);

// The paper rule that `replace NAME` / `remove NAME` edits was not found among `names` (the
// book's listing): a parse error at NAME naming the three nearest names.
[[noreturn]] void fail_unknown_paper_rule(std::string_view calculus, const rules::RuleDecl& rule,
                                          std::vector<std::string> names);

// The position of the paper entry a `replace NAME` / `remove NAME` edits in `book`, or the
// located error above.
template <class Book>
std::size_t paper_rule_position(const Book& book, std::string_view calculus,
                                const rules::RuleDecl& rule) {
  if (const auto at = book.position(rule.name)) return *at;
  std::vector<std::string> names;
  for (const auto& info : book.infos())
    names.push_back(info.name);
  fail_unknown_paper_rule(calculus, rule, std::move(names));
}

} // namespace adsem::props
