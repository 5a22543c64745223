#pragma once
// Regression-checking user rewrite rules (`adsem check-rule CALC FILE`): the
// calculus-independent driver. A calculus that supports user rules provides a RuleAdapter; the
// driver compiles every rule of a file through it (located errors), runs the adapter's checks of
// each rule as properties on the campaign engine (statistics, discards with reasons, shrunk
// counterexamples), and derives automatic mutants of each rule (a side condition dropped, two
// metavariables of one type swapped on the right, a right-hand subterm replaced by zero) to show
// which mutants the checks kill.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "properties/core/property.hpp"
#include "properties/core/user_rules.hpp"
#include "reports/campaign_result.hpp"
#include "syntax/core/rule_file.hpp"

namespace adsem::rules {

// A rule after the adapter parsed and checked it (opaque to the driver).
class CompiledRule {
public:
  virtual ~CompiledRule() = default;
};

struct RuleCheckDef {
  std::string name;     // kebab-case: "type-preservation", "denotation-preservation", ...
  std::string kind;     // property kind: typing, soundness, adequacy, ad-correctness
  std::string summary;  // one sentence
  std::string citation; // the theorem of the paper the check extends to the user's rule
};

// A right-hand side with one subterm replaced by the zero of its type.
struct ZeroVariant {
  std::string where;      // the replaced subterm, printed
  std::string rhs;        // the mutated right-hand side, in the calculus's syntax
  std::string zero = "0"; // the zero put there, printed
};

class RuleAdapter {
public:
  virtual ~RuleAdapter() = default;
  // Parses and checks a rule. Throws AdsemError located in the rule file: parse errors
  // (ErrorKind::parse), unbound or undeclared names (parse), ill-typed schemas (type).
  virtual std::shared_ptr<const CompiledRule> compile(const RuleDecl& rule) const = 0;
  virtual std::vector<RuleCheckDef> checks() const = 0;
  // The checks that apply to one rule (default: all of checks()); a calculus whose AD is defined
  // on a sublanguage only leaves out the AD check for rules outside it (linear-negation).
  virtual std::vector<RuleCheckDef> checks_for(const CompiledRule&) const { return checks(); }
  // One trial of a check (inside a RapidCheck property: draw with *gen).
  virtual props::TrialResult trial(const CompiledRule& rule, const std::string& check,
                                   const props::PropertyContext& context) const = 0;
  // The metavariables of the rule that occur on its left, with their types printed canonically
  // (two metavariables of the same type may be swapped on the right).
  virtual std::vector<std::pair<std::string, std::string>>
  metavariables(const CompiledRule& rule) const = 0;
  virtual std::vector<ZeroVariant> zero_variants(const CompiledRule& rule) const = 0;
  // A whole rule file joined to the calculus's semantics (`--rules`, user_rules.hpp): every rule
  // compiled (located errors as compile()) into entries of kind `user` of the rule book and a
  // patch. The default throws AdsemError(usage): the calculus takes rule files in check-rule only.
  virtual std::shared_ptr<const props::CompiledRuleFile> compile_file(const RuleFile& file) const;
};

struct CheckOptions {
  int trials = 200;        // per check of a user rule
  int mutant_trials = 100; // per check of an automatic mutant
  std::uint64_t seed = 1;
  bool mutants = true;
  int max_zero_mutants = 4;      // per rule
  std::vector<std::string> only; // rule names; empty = all
  std::string command = "adsem"; // how to spell the reproduce command
  std::string calculus_argument; // CALC as the user wrote it (for the reproduce command)
  std::string file_argument;     // FILE as the user wrote it
  // Worker processes at once (CampaignOptions::jobs); 1 runs every check in this process.
  int jobs = 1;
  std::size_t max_resident_bytes = 0; // per worker (CampaignOptions::max_resident_bytes)
};

struct MutantReport {
  std::string name;        // "<rule>~drop-when-1", "<rule>~swap-M-N", "<rule>~zero-2"
  std::string description; // "drop 'x # M'", "swap M and N on the right", "replace 'M * N' by 0"
  std::string rule;        // the mutated rule, printed in the rule language
  std::string status;      // "killed", "survived", "rejected" (no longer compiles)
  std::string rejected;    // the compile error, when rejected
  std::vector<std::string> killed_by; // checks that failed on it
  std::optional<int> trials_to_kill;
};

struct RuleReport {
  std::string name; // "NAME" (an added rule), "replace NAME", "remove NAME"
  SourcePos pos;
  std::string rule;               // printed in the rule language
  reports::CampaignResult result; // one property per check
  bool passed() const { return result.all_passed(); }
  std::vector<MutantReport> mutants;
  // Why the rule was not checked (a `remove`, which has no rewrite to check in isolation);
  // "" when it was.
  std::string not_checked;
};

// Compiles every selected rule first (the first error is thrown, located), then checks them.
// `replace NAME: ...` is checked as a rewrite like an added rule; `remove NAME` is not checked
// (RuleReport::not_checked says so); `priority` is the calculus's (`--rules`) alone.
std::vector<RuleReport> check_rules(const RuleAdapter& adapter, const std::string& calculus_id,
                                    const RuleFile& file, const CheckOptions& options);

// The automatic mutants of a rule, as rules (name, description, rule).
struct RuleMutant {
  std::string name;
  std::string description;
  RuleDecl rule;
};
std::vector<RuleMutant> rule_mutants(const RuleAdapter& adapter, const RuleDecl& rule,
                                     const CompiledRule& compiled, int max_zero_mutants);

nlohmann::json to_json(const RuleReport& report);
// Human-readable report (as campaigns print counterexamples), with the mutants table.
std::string report_text(const std::vector<RuleReport>& reports);

} // namespace adsem::rules
