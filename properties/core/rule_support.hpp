#pragma once
// Small calculus-independent pieces of a rule adapter (rule_check.hpp): the side conditions of a
// rule applied to its metavariables, the name of the context's free variable, and the one-line
// text a counterexample shows for an instance C[σ(LHS)].
#include <algorithm>
#include <cstddef>
#include <string>
#include <type_traits>
#include <vector>

#include <fmt/format.h>

#include "syntax/core/rule_file.hpp"

namespace adsem::rules {

// The error of a condition `x # M` whose x is not bound around every occurrence of M.
inline std::string not_bound_text(const Condition& c, const std::string& meta) {
  return fmt::format("side condition '{}': '{}' is not bound around every occurrence of {} on "
                     "the left, so the condition says nothing",
                     c.text, c.left.text, meta);
}
template <class Unseen>
std::string unseen_text(Unseen& unseen, const Condition& c, const std::string& meta) {
  if constexpr (std::is_null_pointer_v<std::remove_cvref_t<Unseen>>)
    return not_bound_text(c, meta);
  else
    return unseen(c, meta);
}

// Applies the side conditions of `rule` (syntax/core/rule_file.hpp) to the metavariables of its
// left-hand side. Each Meta has `name` and `binders`, a vector of (variable, type) pairs: the
// variables bound around every occurrence of it on the left. `x # M` removes x from M's binders
// (a located parse error when M is not a metavariable of the left or x is not among its
// binders: the condition would say nothing). `A = B` parses both types with
// parse_type(fragment) and throws a located type error when same_type says they differ;
// `why` ends that message (how the calculus's types compare); unseen(c, meta), when given, words
// the error for an x that is not among M's binders.
template <class Meta, class ParseType, class SameType, class PrintType,
          class Unseen = std::nullptr_t>
void apply_conditions(const RuleDecl& rule, std::vector<Meta>& metas, ParseType&& parse_type,
                      SameType&& same_type, PrintType&& print_type, const std::string& why,
                      Unseen&& unseen = nullptr) {
  for (const Condition& c : rule.conditions) {
    if (c.kind == Condition::Kind::type_equal) {
      const auto a = within(c.left, [&] { return parse_type(c.left); });
      const auto b = within(c.right, [&] { return parse_type(c.right); });
      if (!same_type(a, b))
        throw AdsemError(ErrorKind::type,
                         fmt::format("the side condition '{}' is false: {} and {} are different "
                                     "types ({})",
                                     c.text, print_type(a), print_type(b), why),
                         c.pos);
      continue;
    }
    auto it = std::ranges::find_if(metas, [&](const auto& m) { return m.name == c.right.text; });
    if (it == metas.end())
      throw AdsemError(ErrorKind::parse,
                       fmt::format("side condition '{}': '{}' is not a metavariable of the "
                                   "left-hand side",
                                   c.text, c.right.text),
                       c.right.pos);
    if (std::ranges::none_of(it->binders, [&](const auto& v) { return v.first == c.left.text; }))
      throw AdsemError(ErrorKind::parse, unseen_text(unseen, c, it->name), c.left.pos);
    std::erase_if(it->binders, [&](const auto& v) { return v.first == c.left.text; });
  }
}

// A name for the context's free variable that is none of `taken` (the rule's identifiers), so
// that an instance can never capture it or be captured by it.
inline std::string fresh_context_name(const std::vector<std::string>& taken) {
  const auto free = [&](const std::string& n) {
    return std::ranges::find(taken, n) == taken.end();
  };
  for (const char* candidate : {"a", "b", "c", "u", "w", "p", "q", "r", "s"})
    if (free(candidate)) return candidate;
  for (int k = 0;; ++k)
    if (const std::string name = fmt::format("a{}", k); free(name)) return name;
}

// "σ(LHS)  -->  σ(RHS)   with M := ..., N := ...   in context C[ ]   at a:T = point"
struct InstanceText {
  std::string lhs, rhs;   // σ(LHS), σ(RHS), printed
  std::string assignment; // "M := ..., N := ..." (empty: no metavariables)
  std::string context;    // the context with "[ ]" at the hole
  std::string variable, type;
  std::string point; // "1.5,-2" (point_text)
};
inline std::string instance_text(const InstanceText& in) {
  return fmt::format("{}  -->  {}   with {}   in context {}   at {}:{} = {}", in.lhs, in.rhs,
                     in.assignment.empty() ? "no metavariables" : in.assignment, in.context,
                     in.variable, in.type, in.point);
}

// The coordinates of a point, comma-separated, each shown by `show` (default: fmt's shortest).
template <class Show> std::string point_text(const std::vector<double>& point, Show&& show) {
  std::string out;
  for (const double v : point)
    out += (out.empty() ? "" : ",") + show(v);
  return out;
}
inline std::string point_text(const std::vector<double>& point) {
  return point_text(point, [](double v) { return fmt::format("{}", v); });
}

} // namespace adsem::rules
