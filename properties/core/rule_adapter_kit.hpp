#pragma once
// The shape every calculus's check-rule adapter shares (rule_check.hpp RuleAdapter), so that a
// calculus writes only what differs: how it compiles a pattern, draws an instance C[σ(LHS)],
// types the two sides, and runs the semantic checks.
//  - PatternAdapter<Traits> is the RuleAdapter: compile, checks, trial, metavariables, zero
//    variants and `--rules` from a small traits struct;
//  - checked_trial is the trial's common order: a left side that does not type-check is an error
//    (the schema was checked, so a generator bug), type-preservation decides by typing, and the
//    semantic checks discard an ill-typed right side before their body runs;
//  - SemanticBodies dispatches the three semantic checks by name (their one shape is
//    rule_semantic_checks.hpp); rule_checks lists the four.
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "properties/core/rule_check.hpp"
#include "properties/core/rule_semantic_checks.hpp"

namespace adsem::rules {

// What typing says of the two sides of an instance: why one does not type-check (nullopt: it
// does) and, when both do, whether their types agree (printed for the message).
struct SideTyping {
  std::optional<std::string> left_error, right_error;
  bool same_type = true;
  std::string left_type, right_type;
  // How type-preservation names the rewritten program and its expected type (" at T", or "").
  std::string rewritten = "the rewritten program C[σ(RHS)]";
  std::string at;
};

// type-preservation of one instance (every calculus's subject-reduction theorem, extended to the
// user's rule): C[σ(RHS)] type-checks at the type of C[σ(LHS)].
inline props::TrialResult type_preservation(const SideTyping& t) {
  if (t.right_error)
    return props::TrialResult::fail(
        fmt::format("{} does not type-check{}: {}", t.rewritten, t.at, *t.right_error));
  if (!t.same_type)
    return props::TrialResult::fail(
        fmt::format("C[σ(LHS)] has type {} but C[σ(RHS)] has type {}", t.left_type, t.right_type));
  return props::TrialResult::pass();
}

// Both sides typed by `type(term, error)` (nullopt, with the message in `error`, when a side does
// not type-check; the right side only when the left does), and their types compared.
template <class Typed> struct TypedSides {
  std::optional<Typed> left, right;
  SideTyping typing;
};
template <class Term, class TypeFn, class Same, class Print>
auto type_sides(const Term& before, const Term& after, TypeFn&& type, Same&& same, Print&& print) {
  using Typed = typename std::invoke_result_t<TypeFn&, const Term&, std::string&>::value_type;
  TypedSides<Typed> out;
  std::string error;
  out.left = type(before, error);
  if (!out.left) {
    out.typing.left_error = error;
    return out;
  }
  out.right = type(after, error);
  if (!out.right) {
    out.typing.right_error = error;
    return out;
  }
  out.typing.same_type = same(out.right->type, out.left->type);
  if (!out.typing.same_type) {
    out.typing.left_type = print(out.left->type);
    out.typing.right_type = print(out.right->type);
  }
  return out;
}

// One trial of `check` on a drawn instance; `semantic()` runs a semantic check's body.
template <class Semantic>
props::TrialResult checked_trial(const std::string& check, const SideTyping& typing,
                                 Semantic&& semantic) {
  if (typing.left_error)
    return props::TrialResult::error("the instance C[σ(LHS)] does not type-check: " +
                                     *typing.left_error);
  if (check == "type-preservation") return type_preservation(typing);
  if (typing.right_error) return props::TrialResult::discard("rhs-ill-typed");
  return semantic();
}

// The three semantic checks of a calculus, each run on an instance whose sides type-check.
template <class... Args> struct SemanticBodies {
  std::function<props::TrialResult(Args...)> denotation, adequacy, ad;
  props::TrialResult run(const std::string& calculus, const std::string& check,
                         Args... args) const {
    if (check == "denotation-preservation") return denotation(args...);
    if (check == "extended-adequacy") return adequacy(args...);
    if (check == "extended-ad") return ad(args...);
    throw std::logic_error(calculus + " rule adapter: unknown check " + check);
  }
};

// The four checks every calculus's rules get, in this order; `texts` gives each its summary and
// citation (the calculus's theorems).
struct CheckText {
  std::string summary, citation;
};
inline std::vector<RuleCheckDef> rule_checks(CheckText typing, CheckText soundness,
                                             CheckText adequacy, CheckText ad) {
  return {
      {"type-preservation", "typing", std::move(typing.summary), std::move(typing.citation)},
      {"denotation-preservation", "soundness", std::move(soundness.summary),
       std::move(soundness.citation)},
      {"extended-adequacy", "adequacy", std::move(adequacy.summary), std::move(adequacy.citation)},
      {"extended-ad", "ad-correctness", std::move(ad.summary), std::move(ad.citation)}};
}

// A calculus's RuleAdapter from its traits:
//   using Pattern (a CompiledRule with `metas`, each with `name` and `type`);
//   static Pattern compile(const RuleDecl&);
//   static std::vector<RuleCheckDef> checks();
//   static props::TrialResult trial(const Pattern&, const std::string& check,
//                                   const props::PropertyContext&);
//   static std::string type_text(const <metavariable type>&);
// and, where the calculus has them, checks_for(const Pattern&) and compile_file(const RuleFile&).
// The zero variants are the calculus's zero_variants(const Pattern&) (rule_pattern.hpp), found by
// argument-dependent lookup.
template <class Pattern> std::vector<ZeroVariant> zero_variants_of(const Pattern& p) {
  return zero_variants(p);
}
template <class Traits> class PatternAdapter final : public RuleAdapter {
public:
  using Pattern = typename Traits::Pattern;

  std::shared_ptr<const CompiledRule> compile(const RuleDecl& rule) const override {
    return std::make_shared<const Pattern>(Traits::compile(rule));
  }
  std::vector<RuleCheckDef> checks() const override { return Traits::checks(); }
  std::vector<RuleCheckDef> checks_for(const CompiledRule& rule) const override {
    if constexpr (requires { Traits::checks_for(pattern(rule)); })
      return Traits::checks_for(pattern(rule));
    else
      return checks();
  }
  props::TrialResult trial(const CompiledRule& rule, const std::string& check,
                           const props::PropertyContext& context) const override {
    return Traits::trial(pattern(rule), check, context);
  }
  std::vector<std::pair<std::string, std::string>>
  metavariables(const CompiledRule& rule) const override {
    std::vector<std::pair<std::string, std::string>> out;
    for (const auto& m : pattern(rule).metas)
      out.emplace_back(m.name, Traits::type_text(m.type));
    return out;
  }
  std::vector<ZeroVariant> zero_variants(const CompiledRule& rule) const override {
    return zero_variants_of(pattern(rule));
  }
  std::shared_ptr<const props::CompiledRuleFile> compile_file(const RuleFile& file) const override {
    if constexpr (requires { Traits::compile_file(file); })
      return Traits::compile_file(file);
    else
      return RuleAdapter::compile_file(file);
  }

private:
  static const Pattern& pattern(const CompiledRule& rule) {
    return dynamic_cast<const Pattern&>(rule);
  }
};

} // namespace adsem::rules
