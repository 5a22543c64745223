#pragma once
// Runs a property body; the outcomes that are not verdicts become counted discards (design.md
// "Partial domains"): a point outside a primitive's domain ("undefined-point"), a box straddling a
// boundary (the Undecided reason), running out of fuel ("fuel"), IEEE overflow
// ("overflow"). Every other error propagates (the campaign reports it as an error).
#include <functional>
#include <string>

#include "properties/core/discards.hpp"
#include "properties/core/property.hpp"
#include "semantics/core/model_errors.hpp"

namespace adsem::props {

inline TrialResult guarded_trial(const std::function<TrialResult()>& body) {
  try {
    return body();
  } catch (const model::Undefined&) {
    return TrialResult::discard("undefined-point");
  } catch (const model::Undecided& e) {
    return TrialResult::discard(e.reason());
  } catch (const AdsemError& e) {
    if (e.diagnostic().kind == ErrorKind::fuel) return TrialResult::discard("fuel");
    if (e.diagnostic().kind == ErrorKind::domain) return TrialResult::discard("undefined-point");
    if (e.diagnostic().message.find("non-finite") != std::string::npos)
      return TrialResult::discard(discards::overflow);
    throw;
  }
}

} // namespace adsem::props
