#pragma once
// How a model evaluation says "no answer" (design.md "Partial domains"; abadi-plotkin spec §5.4:
// ⊥(domain), ⊥(boundary), and "unknown" on boxes).
//  - Undefined: the denotation is definitely undefined here (outside a primitive's open domain, or
//    a partial predicate at its boundary point). It is a user-facing domain error (CLI exit 1);
//    every mode must report it.
//  - Undecided: an evaluation over a box straddles a domain boundary or a branch guard, so the box
//    proves nothing. Properties count it as a discard, never as a pass.
#include "syntax/core/diagnostic.hpp"

#include <stdexcept>
#include <string>
#include <string_view>
#include <variant>

namespace adsem::model {

inline constexpr std::string_view domain_boundary = "domain-boundary";
inline constexpr std::string_view branch_boundary = "branch-boundary";

class Undecided : public std::runtime_error {
public:
  // reason: domain_boundary or branch_boundary; detail: which primitive, which arguments.
  Undecided(std::string_view reason, const std::string& detail)
      : std::runtime_error(std::string(reason) + ": " + detail), reason_(reason) {}
  const std::string& reason() const { return reason_; }

private:
  std::string reason_;
};

inline constexpr std::string_view outside_domain = "domain";
inline constexpr std::string_view at_boundary = "boundary";

class Undefined : public AdsemError {
public:
  // reason: outside_domain or at_boundary (abadi-plotkin spec §5.4 ⊥ reasons).
  Undefined(std::string_view reason, const std::string& message)
      : AdsemError(ErrorKind::domain, message), reason_(reason) {}
  const std::string& reason() const { return reason_; }

private:
  std::string reason_;
};

// A partial primitive's ⊥ or straddled box, reported by value where a throw would unwind a whole
// evaluation (Primitive::domain_failure, Primitive::decide): the exception it stands for.
using DomainFailure = std::variant<Undefined, Undecided>;
[[noreturn]] inline void throw_failure(const DomainFailure& failure) {
  if (const auto* undefined = std::get_if<Undefined>(&failure)) throw *undefined;
  throw std::get<Undecided>(failure);
}

} // namespace adsem::model
