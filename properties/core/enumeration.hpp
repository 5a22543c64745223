#pragma once
// Bounded-exhaustive checking: every input of a calculus's enumeration up to a size bound,
// smallest first, fed to the properties that can check one given input
// (PropertyDef::check_input). The enumeration itself is the calculus's typing rules read as a
// grammar (generators/core/sized_enumeration.hpp); this is the run over it, with the campaign's
// guards: the stop flag (SIGINT/SIGTERM), a wall-clock budget and a bound on the inputs.
#include <any>
#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "generators/core/sized_enumeration.hpp"
#include "properties/core/property.hpp"

namespace adsem::props {

class Registry;

// One enumerated input: what check_input takes, and how reports show it.
struct EnumeratedInput {
  std::any input;
  std::function<std::string()> text; // the term in the calculus's syntax, with its point
  int size = 0;                      // the term's size (nodes)
};

// A calculus's enumeration (CalculusEntry::enumeration): terms by exact size, each checked at a
// fixed list of points.
class InputEnumeration {
public:
  virtual ~InputEnumeration() = default;
  // The sort, literals, type universe and points, one line each (docs and `--help`).
  virtual std::vector<std::string> describe() const = 0;
  // Terms of exactly this size (saturating at UINT64_MAX). Throws gen::EnumerationLimitReached
  // when the grammar's memo or size limit is reached.
  virtual std::uint64_t terms(int size) = 0;
  virtual int points() const = 0; // inputs per term
  virtual EnumeratedInput input(int size, std::uint64_t term, int point) = 0;
};

// An InputEnumeration over the terms of one grammar (generators/core/sized_enumeration.hpp),
// memoised up to the size bound: the calculus says how its terms become inputs.
template <class Grammar> class GrammarInputs : public InputEnumeration {
public:
  explicit GrammarInputs(int max_size) : terms_(Grammar{}, gen::EnumerationLimits{max_size}) {}

protected:
  gen::SizedEnumeration<Grammar> terms_;
};

struct EnumerationOptions {
  std::string calculus;
  std::vector<std::string>
      properties; // full names or "<calc>/<suffix>"; empty = all that take part
  int max_size = 6;
  std::string mutant; // full mutant name or ""
  Overrides overrides;
  double seconds = 0;                    // wall-clock budget; <= 0: none
  std::uint64_t max_inputs = 50'000'000; // inputs (terms × points) at most, else a usage error
  const std::atomic<bool>* stop_requested = nullptr; // SIGINT/SIGTERM
  // Called about once a second and after each size: (size, terms of it done, terms of it).
  std::function<void(int, std::uint64_t, std::uint64_t)> on_progress = {};
};

struct EnumerationCounterexample {
  int size = 0;
  std::string input;  // the term with its point
  std::string reason; // the failure's (or error's) one line
  bool error = false; // an error (a bug of adsem or an unexpected exception), not a failure
};

struct EnumerationRow {
  std::string property;
  std::string kind;
  long checked = 0; // passed + failed + errors (discards are not checks)
  long passed = 0;
  long failed = 0;
  long errors = 0;
  std::map<std::string, long> discards; // reason -> inputs
  // The first failure or error in enumeration order: of the smallest size that has one. After
  // it the property is not run on larger sizes (the rest of that size is still checked).
  std::optional<EnumerationCounterexample> first;
};

struct EnumerationResult {
  std::string calculus;
  std::string mutant;
  std::vector<std::string> description;
  int max_size = 0;
  std::vector<std::uint64_t> terms_by_size; // index = size (0 unused)
  int points = 1;
  int completed_size = 0; // every input of sizes <= this was run
  bool complete = false;  // all sizes up to max_size
  std::string stopped_by; // "" | "interrupted" | "time"
  double seconds = 0;
  std::vector<EnumerationRow> rows;
};

// Counts only (nothing is checked): the terms per size of the calculus's enumeration.
std::vector<std::uint64_t> enumeration_counts(const Registry& registry, const std::string& calculus,
                                              int max_size);
// Throws AdsemError(usage) for an unknown calculus, property or mutant, a calculus without an
// enumeration, a property without check_input, or more inputs than max_inputs.
EnumerationResult run_enumeration(const Registry& registry, const EnumerationOptions& options);

} // namespace adsem::props
