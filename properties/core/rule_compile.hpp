#pragma once
// Compiling a user rule (syntax/core/rule_file.hpp): the calculus-independent steps and messages
// every adapter's compile shares.
//
// The side conditions (apply_conditions) are in rule_support.hpp, which this includes.
#include <algorithm>
#include <optional>
#include <regex>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "properties/core/rule_support.hpp"
#include "syntax/core/rule_file.hpp"

namespace adsem::rules {

// Identifiers of either side that match `reserved` (names the generators use) are refused;
// `what` says which names those are ("binders (v0, v1, ...)").
inline void refuse_reserved_names(const RuleDecl& rule, const std::regex& reserved,
                                  const std::string& what) {
  for (const Fragment* side : {&rule.lhs, &rule.rhs})
    for (const std::string& id : identifiers(side->text))
      if (std::regex_match(id, reserved))
        throw AdsemError(
            ErrorKind::parse,
            fmt::format("the name '{}' is reserved for generated {}; rename it", id, what),
            side->pos);
}

// A free name on the left that is not a declared metavariable.
[[noreturn]] inline void fail_undeclared_on_left(const std::string& name,
                                                 std::optional<SourcePos> pos) {
  throw AdsemError(ErrorKind::parse,
                   fmt::format("'{}' is neither bound on the left-hand side nor a declared "
                               "metavariable (declare it: meta {} : T)",
                               name, name),
                   pos);
}

// A free name on the right that is not a metavariable of the left (declared: an unbound
// metavariable).
[[noreturn]] inline void fail_free_on_right(const std::string& name, bool declared,
                                            std::optional<SourcePos> pos) {
  if (declared)
    throw AdsemError(ErrorKind::parse,
                     fmt::format("unbound metavariable '{}' on the right-hand side: it does not "
                                 "occur on the left, so a rewrite would not know what to put there",
                                 name),
                     pos);
  throw AdsemError(ErrorKind::parse,
                   fmt::format("'{}' is neither bound on the right-hand side nor a metavariable "
                               "of the left-hand side",
                               name),
                   pos);
}

// The two sides have different types.
[[noreturn]] inline void fail_sides_differ(const RuleDecl& rule, const std::string& left,
                                           const std::string& right) {
  throw AdsemError(ErrorKind::type,
                   fmt::format("ill-typed rule '{}': the left-hand side has type {} but the "
                               "right-hand side has type {}",
                               rule.name, left, right),
                   rule.rhs.pos);
}

// A replaced transformation clause whose right-hand side does not have the type the
// transformation gives its left-hand side: `expected` and `left` as the calculus words them.
[[noreturn]] inline void fail_clause_type(const RuleDecl& rule, const std::string& expected,
                                          const std::string& left, const std::string& right) {
  throw AdsemError(ErrorKind::type,
                   fmt::format("the clause {} must give {} for a left-hand side of type {}, but "
                               "the right-hand side has type {}",
                               rule.name, expected, left, right),
                   rule.rhs.pos);
}

// Rules are small; a pattern deeper than `limit` is refused before an adapter's recursive walks.
[[noreturn]] inline void fail_too_deep(const Fragment& side, int limit = 500) {
  throw AdsemError(ErrorKind::parse,
                   fmt::format("the pattern nests deeper than {} levels; rules are meant to be "
                               "small",
                               limit),
                   side.pos);
}

// Iterative, so any depth is safe; children(node) gives a node's children (smart pointers, may
// be null).
template <class Ptr, class Children>
void refuse_deep_pattern(const Ptr& root, Children&& children, const Fragment& side,
                         int limit = 500) {
  std::vector<std::pair<decltype(&*root), int>> todo = {{&*root, 1}};
  while (!todo.empty()) {
    const auto [n, depth] = todo.back();
    todo.pop_back();
    if (depth > limit) fail_too_deep(side, limit);
    for (const auto& k : children(*n))
      if (k) todo.emplace_back(&*k, depth + 1);
  }
}

// parse() run located in the rule file, with the parser's "unbound variable 'x'" turned into the
// rule language's located error unbound(x, pos) (fail_undeclared_on_left, fail_free_on_right).
template <class Parse, class Unbound>
auto parse_reporting_unbound(const Fragment& side, Parse&& parse, Unbound&& unbound) {
  return within(side, [&] {
    try {
      return parse();
    } catch (const AdsemError& e) {
      const Diagnostic& d = e.diagnostic();
      const std::string prefix = "unbound variable '";
      if (d.kind != ErrorKind::type || !d.message.starts_with(prefix)) throw;
      unbound(d.message.substr(prefix.size(), d.message.find('\'', prefix.size()) - prefix.size()),
              d.pos);
      throw;
    }
  });
}

// A left-hand side that is a lone variable would rewrite every term.
[[noreturn]] inline void fail_lone_variable(const RuleDecl& rule) {
  throw AdsemError(ErrorKind::parse,
                   "the left-hand side is a lone variable: the rule would rewrite every term",
                   rule.lhs.pos);
}

} // namespace adsem::rules
