#pragma once
// A calculus as the CLI and the campaign engine see it: identity, the front end for the
// per-term commands (type, eval, reduce, denote, grad), and its properties and mutants.
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "properties/core/complexity.hpp"
#include "properties/core/property.hpp"
#include "semantics/core/rule_table.hpp"

namespace adsem::rules {
class RuleAdapter; // user rewrite rules (rule_check.hpp)
} // namespace adsem::rules

namespace adsem::props {

class InputEnumeration; // enumeration.hpp

struct EvalOptions {
  long fuel = 1'000'000; // step budget; running out throws AdsemError(ErrorKind::fuel)
  bool trace = false;    // collect the rule trace
  std::string mutant;    // "" = the paper's rules
  // A user's rule file (`--rules FILE`, user_rules.hpp) joined to the rules; null = none.
  std::shared_ptr<const UserRules> user_rules = nullptr;
};

struct EvalResult {
  std::string value;                        // surface syntax
  std::optional<std::vector<double>> reals; // flattened reals, when the value is ground
  long steps = 0;
  std::vector<std::string> trace; // one line per step: "rule-name: term" (when asked)
};

struct DenoteResult {
  std::string printed;                       // the model value, printed
  std::vector<double> value;                 // flattened, when ground
  std::vector<std::vector<double>> jacobian; // row per output (with --at)
};

struct GradResult {
  double value = 0.0;
  std::vector<double> gradient;
  std::string mechanism; // which AD mechanism computed it
};

// Per-term commands. Every method takes source text and throws AdsemError (with line:column
// for parse and type errors) on bad input; none of them may crash or hang on any input.
class Frontend {
public:
  virtual ~Frontend() = default;
  virtual std::string type_of(const std::string& source) const = 0;
  virtual EvalResult eval(const std::string& source, const EvalOptions& options) const = 0;
  // Small-step/rule-by-rule run; the default is eval with the trace on.
  virtual EvalResult reduce(const std::string& source, const EvalOptions& options) const;
  virtual DenoteResult denote(const std::string& source,
                              const std::optional<std::vector<double>>& at) const = 0;
  virtual GradResult grad(const std::string& source, const std::vector<double>& at,
                          const std::string& mechanism, const EvalOptions& options) const = 0;
  virtual std::vector<std::string> mechanisms() const { return {}; }
  // The rule trace of a shrunk counterexample's input, for its report card: the record's term
  // (or its `source`, a standalone program) run again with the trace on. The campaign calls it
  // once per shrunk counterexample whose property left the trace empty (counterexample_trace.hpp),
  // never per trial. Empty when the calculus cannot read the input back; the default runs
  // `reduce` on `record.source`, or on `record.term` when there is no source. Throws AdsemError
  // like the other commands when the input does not parse, type-check or run.
  virtual std::vector<std::string> trace_counterexample(const reports::CounterexampleRecord& record,
                                                        const EvalOptions& options) const;
};

struct CalculusEntry {
  std::string id;                   // "simple-diff"
  std::vector<std::string> aliases; // "abadi-plotkin"
  std::string paper;                // title and seed file
  std::string summary;
  std::shared_ptr<const Frontend> frontend; // null for pseudo-calculi without terms
  std::vector<PropertyDef> properties;
  std::vector<MutantDef> mutants;
  // Every construct tag the calculus's generators can produce; a campaign in which no property
  // reached one of them gets a health warning.
  std::vector<std::string> constructs = {};
  // Every named reduction rule, for rule coverage: a rule that never fired is flagged.
  std::vector<std::string> rules = {};
  // The calculus's rule book as it lists itself (name, citation, kind), for `adsem calculi
  // --json`; empty for a calculus whose rules are not yet a table (`rules` alone names them).
  // Set both with use_rule_table.
  std::vector<RuleInfo> rule_table = {};
  // User rewrite rules (`adsem check-rule`); null when the calculus has no adapter.
  std::shared_ptr<const rules::RuleAdapter> rule_adapter = nullptr;
  // The program families of `adsem complexity` (complexity.hpp), built per calculus in
  // properties/<calc>/complexity_families.cpp; empty when the calculus has none.
  std::function<std::vector<ComplexityFamily>()> complexity_families = {};
  // Bounded-exhaustive inputs up to a size bound (enumeration.hpp), for the properties with a
  // check_input; empty when the calculus has no enumeration.
  std::function<std::unique_ptr<InputEnumeration>(int max_size)> enumeration = {};
};

// The calculus's rules are its book's entries: sets `rules` and `rule_table` from the listing.
void use_rule_table(CalculusEntry& entry, std::vector<RuleInfo> table);

class Registry {
public:
  void add(CalculusEntry entry);
  const std::vector<CalculusEntry>& calculi() const { return calculi_; }
  // By id or alias; nullptr when unknown.
  const CalculusEntry* find(const std::string& id_or_alias) const;
  const PropertyDef* find_property(const std::string& full_name) const;
  const MutantDef* find_mutant(const std::string& full_name) const;

private:
  std::vector<CalculusEntry> calculi_;
};

} // namespace adsem::props
