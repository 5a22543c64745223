#pragma once
// The three semantic checks of check-rule (denotation-preservation, extended-adequacy,
// extended-ad) have one shape in every calculus:
//  1. the left side's meaning at the point: defined, or a counted discard that says why not
//     (lhs-undefined, fuel, uncertified, overflow, ...);
//  2. the right side's meaning, evaluation or derivative: out of fuel is a counted discard, any
//     other failure where the left is defined is the verdict (a sound rewrite may make a program
//     more defined, never less);
//  3. the two compared as vectors of reals with the tolerance policy (compare_meanings).
// A calculus writes only its callables: which denotation, which evaluator, which gradient.
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "properties/core/discards.hpp"
#include "properties/core/property.hpp"
#include "semantics/core/model_errors.hpp"

namespace adsem::rules {

// What one side of an instance means at the point, or the outcome that stands instead: a counted
// discard (either side) or a failure (the right side, where the left is defined).
template <class T = std::vector<double>> struct Meaning {
  std::optional<T> value;
  props::TrialResult instead;
  Meaning(T v) : value(std::move(v)) {}
  Meaning(props::TrialResult r) : instead(std::move(r)) {}
  explicit operator bool() const { return value.has_value(); }
  const T& operator*() const { return *value; }
};
using Reals = Meaning<std::vector<double>>;

namespace detail {
template <class T> struct MeaningOf { using type = Meaning<T>; };
template <class T> struct MeaningOf<Meaning<T>> { using type = Meaning<T>; };
} // namespace detail

// A value computed by `compute` under a calculus's `guarded` (what is not a verdict becomes a
// counted discard): nullopt, with that discard, when there is none.
template <class T, class Guarded, class F>
std::optional<T> guarded_value(Guarded&& guarded, F&& compute, props::TrialResult& discard) {
  std::optional<T> out;
  const props::TrialResult r = guarded([&] {
    out = compute();
    return props::TrialResult::pass();
  });
  if (!out) discard = r;
  return out;
}

// The same as a Meaning (the left side of a check: its partial domain's discards).
template <class T, class Guarded, class F>
Meaning<T> guarded_meaning(Guarded&& guarded, F&& compute) {
  props::TrialResult discard;
  auto out = guarded_value<T>(guarded, compute, discard);
  if (out) return std::move(*out);
  return discard;
}

// A left side that overflowed leaves nothing to compare against: the counted discard "overflow".
inline Reals finite_or_overflow(Reals m) {
  if (m && !std::ranges::all_of(*m, [](double v) { return std::isfinite(v); }))
    return props::TrialResult::discard(props::discards::overflow);
  return m;
}

// How an error of the right side counts: out of fuel is the discard "fuel", anything else a
// failure (nullopt). A calculus with more budgets or discards passes its own.
inline std::optional<std::string> fuel_discard(const AdsemError& e) {
  if (e.diagnostic().kind == ErrorKind::fuel) return "fuel";
  return std::nullopt;
}

// The right side's meaning where the left is defined: what `compute` returns (a value or a
// Meaning); an error `discard_of` names is that counted discard, any other error (an undefined
// point included) the failure "<failure>: <the error>".
template <class F, class DiscardOf = decltype(&fuel_discard)>
auto right_meaning(const std::string& failure, F&& compute, DiscardOf discard_of = &fuel_discard) {
  using M = typename detail::MeaningOf<std::invoke_result_t<F&>>::type;
  try {
    return M(compute());
  } catch (const model::Undefined& e) {
    return M(props::TrialResult::fail(failure + ": " + e.what()));
  } catch (const AdsemError& e) {
    if (auto reason = discard_of(e)) return M(props::TrialResult::discard(std::move(*reason)));
    return M(props::TrialResult::fail(failure + ": " + e.what()));
  }
}

// What overflowed entries mean when two vectors are compared: an expected entry that is not
// finite leaves nothing to compare against (a counted discard); an actual one is compared (a
// failure against a finite expectation) unless the calculus counts it as a discard too.
enum class Overflow { expected_discards, both_discard };

// The one comparison of the semantic checks: two vectors of reals, entry by entry, with the
// tolerance of `kind` (the two sides may associate sums differently).
inline props::TrialResult compare_meanings(const std::vector<double>& expected,
                                           const std::string& el, const std::vector<double>& actual,
                                           const std::string& al, CheckKind kind,
                                           const props::PropertyContext& context,
                                           Overflow overflow = Overflow::expected_discards) {
  using props::TrialResult;
  if (expected.size() != actual.size())
    return TrialResult::fail(
        fmt::format("{} has {} reals, {} has {}", el, expected.size(), al, actual.size()));
  for (std::size_t i = 0; i < expected.size(); ++i) {
    if (!std::isfinite(expected[i]) ||
        (overflow == Overflow::both_discard && !std::isfinite(actual[i])))
      return TrialResult::discard(props::discards::overflow);
    TrialResult r =
        props::compare_reals(expected[i], fmt::format("{}[{}]", el, i), actual[i],
                             fmt::format("{}[{}]", al, i), kind, context.tolerance(kind));
    if (r.kind != TrialResult::Kind::pass) return r;
  }
  return TrialResult::pass();
}

// How a check names and compares its two sides.
struct Comparison {
  std::string expected, actual; // "⟦C[σ(LHS)]⟧", "⟦C[σ(RHS)]⟧", ...
  CheckKind kind = CheckKind::derivative;
  Overflow overflow = Overflow::expected_discards;
};

// One semantic check: the left side's meaning (or its discard), then the right side's (or its
// discard or failure), then `compare` of the two values.
template <class Left, class Right, class Compare>
props::TrialResult semantic_check(Left&& left, Right&& right, Compare&& compare) {
  const auto l = left();
  if (!l) return l.instead;
  const auto r = right();
  if (!r) return r.instead;
  return compare(*l, *r);
}

// The same for vectors of reals, compared by compare_meanings.
template <class Left, class Right>
props::TrialResult semantic_check(Left&& left, Right&& right, const Comparison& c,
                                  const props::PropertyContext& context) {
  return semantic_check(
      left, right, [&](const std::vector<double>& l, const std::vector<double>& r) {
        return compare_meanings(l, c.expected, r, c.actual, c.kind, context, c.overflow);
      });
}

} // namespace adsem::rules
