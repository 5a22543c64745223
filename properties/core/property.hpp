#pragma once
// A property is a named check run on random inputs. Its body runs inside a RapidCheck property,
// so it draws inputs with `*gen` (RapidCheck's generators; shrinking comes with them) and returns
// a TrialResult saying what happened. The campaign engine (campaign.hpp) turns results into
// statistics, counterexample records and replay tokens.
#include <any>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "reports/campaign_result.hpp"
#include "semantics/core/rule_counter.hpp"
#include "semantics/core/tolerance.hpp"

namespace adsem::props {

struct UserRules; // a rule file joined to the semantics (user_rules.hpp)

// Key/value option overrides (from `--set key=value` or a replay token), e.g.
// "tolerance.derivative.rtol" -> "1e-6". Properties read them through PropertyContext.
using Overrides = std::map<std::string, std::string>;

// What one trial of a property observed. Build it with the named constructors.
struct TrialResult {
  enum class Kind { pass, fail, discard, error };
  Kind kind = Kind::pass;
  // discard: the reason, a short stable kebab-case word counted in reports
  //   ("undefined-point", "branch-boundary", "fuel", "non-differentiable", ...);
  // fail/error: one line saying what went wrong.
  std::string reason;

  // The input, for reports (fill these in every trial: sizes and tags feed the statistics).
  std::string term;              // surface syntax
  std::string type;              // surface syntax
  int size = 0;                  // term size (nodes)
  std::vector<std::string> tags; // constructs the input contains ("rd", "letrec", "if", ...)

  // For failures of numeric comparisons: the two values, |a-b| and the tolerance used.
  std::optional<reports::ComputedValue> expected;
  std::optional<reports::ComputedValue> actual;
  std::optional<double> discrepancy;
  std::optional<Tolerance> tolerance;
  std::string tolerance_kind;
  std::vector<std::string> trace; // rule names / steps leading to the failure (an excerpt)
  // The input as a standalone program of the calculus (what `adsem type CALC` accepts), when the
  // input is one term; failure corpora re-check it so that a stale entry is reported.
  std::string source;
  // Reduction rules that fired in this trial (rule name -> times), for the rule-coverage table.
  RuleCounts rules_fired;

  static TrialResult pass() { return {}; }
  static TrialResult discard(std::string why) {
    TrialResult r;
    r.kind = Kind::discard;
    r.reason = std::move(why);
    return r;
  }
  static TrialResult fail(std::string why) {
    TrialResult r;
    r.kind = Kind::fail;
    r.reason = std::move(why);
    return r;
  }
  static TrialResult error(std::string what) {
    TrialResult r;
    r.kind = Kind::error;
    r.reason = std::move(what);
    return r;
  }
  // Whether a report will show this trial's input: only failures and errors become records;
  // passes and discards feed the statistics (size, tags), so their term text need not be printed
  // (measured: printing every trial's term cost 5-30% of a fast campaign).
  bool shows_input() const { return kind == Kind::fail || kind == Kind::error; }
  // Fill the input fields (term, type, size, tags) in one call.
  TrialResult& on(std::string term_text, std::string type_text, int term_size,
                  std::vector<std::string> construct_tags = {}) {
    term = std::move(term_text);
    type = std::move(type_text);
    size = term_size;
    tags = std::move(construct_tags);
    return *this;
  }
};

// Compare two reals under the tolerance policy; on disagreement, a failing result carrying both
// values, the discrepancy and the tolerance; otherwise pass.
TrialResult compare_reals(double expected, std::string expected_label, double actual,
                          std::string actual_label, CheckKind kind, Tolerance tol);
// The same for two sums (dot products, chain-rule results): the bound scales with the magnitudes
// of the summed terms (tolerance.hpp, SumWithMagnitude), which a failure's reason prints.
TrialResult compare_sums(SumWithMagnitude expected, std::string expected_label,
                         SumWithMagnitude actual, std::string actual_label, CheckKind kind,
                         Tolerance tol);

// What a property body may read: the active mutant and option overrides.
struct PropertyContext {
  std::string mutant; // "" = un-mutated; otherwise the full mutant name "<calc>/<mutant>"
  Overrides overrides;
  // A user's rule file (`--rules FILE`), compiled for this calculus; null = the paper's rules.
  // The calculus runs its properties on its book patched by the mutant, then by these rules.
  std::shared_ptr<const UserRules> user_rules = nullptr;
  // Where the calculus's machine counts rule firings (the engine harvests it after each trial
  // into TrialResult::rules_fired); null outside campaigns.
  std::shared_ptr<RuleCounter> rule_counter = nullptr;

  bool mutant_is(const std::string& full_name) const { return mutant == full_name; }
  // Tolerance for a check kind, after overrides "tolerance.<kind>.rtol|atol".
  Tolerance tolerance(CheckKind kind) const;
  // An integer/real option with a default ("fuel", "probes", ...).
  long option_int(const std::string& key, long fallback) const;
  double option_real(const std::string& key, double fallback) const;

  // Optional (crash isolation): the campaign engine sets this when trials run in a
  // child process, so that a body that reports its input before evaluating it has that input in
  // the record of a trial that crashes or hangs. Bodies call report_input; it costs nothing when
  // unset.
  std::function<void(const std::string& term, const std::string& source)> on_input = {};
  void report_input(const std::string& term, const std::string& source = "") const {
    if (on_input) on_input(term, source);
  }
  // The same, printed only when someone needs the text (measured: printing every trial's term
  // cost 5% of a fast campaign). In process the engine keeps the thunk and prints it only for a
  // body that throws; an isolated worker prints it at once, since a crash leaves no one to print.
  // The thunk must own what it prints (capture by value).
  using InputText = std::function<std::pair<std::string, std::string>()>;
  std::function<void(InputText)> on_lazy_input = {};
  void report_input_lazily(InputText text) const {
    if (on_lazy_input) {
      on_lazy_input(std::move(text));
    } else if (on_input) {
      const auto [term, source] = text();
      on_input(term, source);
    }
  }
};

struct PropertyDef {
  std::string calculus; // calculus id, e.g. "simple-diff"
  std::string name;     // full stable name "<calculus>/<property>" (kebab-case)
  std::string kind;     // typing, round-trip, subject-reduction, adequacy, soundness,
                        // ad-correctness, cost, golden, ...
  std::string summary;  // one sentence
  std::string citation; // "seed 003, Thm 6.1, lines 812-830"
  // Runs one trial. Called inside a RapidCheck property: draw inputs with `*gen`.
  std::function<TrialResult(const PropertyContext&)> body;
  int default_max_size = 50; // RapidCheck size ceiling for this property
  // Constructs this property's generator is meant to reach (construct tags). A health check
  // warns when a campaign never saw one; empty = only the tags the trials report are checked.
  std::vector<std::string> expected_tags = {};
  // Optional: the property's check of one given input, for bounded-exhaustive enumeration
  // (enumeration.hpp). `input` holds the calculus's input type (simple-diff: simple_diff::Trial);
  // the random body draws its input and calls the same check, so both paths run one function.
  // Empty: the property does not take part in enumeration.
  std::function<TrialResult(const PropertyContext&, const std::any& input)> check_input = {};
};

struct MutantDef {
  std::string calculus;
  std::string name;      // full stable name "<calculus>/<mutant>"
  std::string bug_class; // perturbation-confusion, overwrite-not-accumulate, transpose, ...
  std::string summary;   // what is wrong, one sentence
  // Properties expected to kill it (documentation and the kill-matrix test use it).
  std::vector<std::string> expected_killers;
};

} // namespace adsem::props
