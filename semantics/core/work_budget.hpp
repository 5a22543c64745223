#pragma once
// The work cap beside fuel: the paper's step count does not bound the work of one step where a
// step builds or copies a term of unbounded size (Manzyuk's T_x, a copied value of rule (9) of
// Brunel-Mazza-Pagani). An evaluator with fuel N allows N * units_per_step units of such work
// (nodes visited, built or copied), so a run with `--fuel N` stops with a fuel error in time and
// memory roughly proportional to N, never unbounded (docs/reliability.md "Resource limits").
#include <string>

#include "syntax/core/diagnostic.hpp"

namespace adsem {

class WorkBudget {
public:
  WorkBudget(long fuel, long units_per_step)
      : cap_(fuel > 0 && units_per_step > 0 && fuel > max_units / units_per_step
                 ? max_units
                 : fuel * units_per_step),
        fuel_(fuel), per_step_(units_per_step) {}

  // Counts `units` of work; past the cap, a fuel error naming what ran over. The count inline at
  // every node a model or reducer visits, the error's message built out of line.
  void spend(long units, const char* what) {
    used_ += units;
    if (used_ > cap_) [[unlikely]]
      throw_over(what);
  }
  // Whether a fuel error is this cap's, not the step count's: a property that reads running out
  // of steps as evidence (no normal form, a cost bound exceeded) must not read this one so.
  static bool ran_over(const Diagnostic& d) {
    return d.kind == ErrorKind::fuel && d.message.find(marker) != std::string::npos;
  }
  long used() const { return used_; }
  long remaining() const { return cap_ - used_; }

private:
  [[noreturn, gnu::noinline, gnu::cold]] void throw_over(const char* what) const {
    throw AdsemError(ErrorKind::fuel,
                     std::string("out of fuel: ") + what + " " + marker + " (" +
                         (per_step_ == 1 ? std::to_string(cap_) + " units"
                                         : std::to_string(per_step_) + " units per step of fuel " +
                                               std::to_string(fuel_)) +
                         ")");
  }

  static constexpr const char* marker = "exceeded the work cap";
  static constexpr long max_units = 1L << 62;
  long cap_;
  long fuel_;
  long per_step_;
  long used_ = 0;
};

} // namespace adsem
