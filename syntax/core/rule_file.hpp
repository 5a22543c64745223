#pragma once
// User rule files (`adsem check-rule CALC FILE`): the calculus-independent layer. A rule
// file declares metavariables and named rewrite rules over the calculus's surface syntax:
//
//   file      ::= { line }
//   line      ::= "meta" decl { "," decl }                 metavariables (in force for every
//               | NAME ":" rule                             later rule); an added rule
//               | "replace" PAPER-NAME ":" rule             a paper rule replaced (`--rules`)
//               | "remove" PAPER-NAME                       a paper rule removed (`--rules`)
//   rule      ::= LHS "-->" RHS [ "when" cond { "," cond } ] [ "priority" INT ]
//   decl      ::= IDENT ":" TYPE                            TYPE in the calculus's type syntax
//   cond      ::= IDENT "#" IDENT                           variable x not free in metavariable M
//               | IDENT "not" "free" "in" IDENT             (the same, spelled out)
//               | TYPE "=" TYPE                             a type equality (checked statically)
//
// PAPER-NAME is a rule's name as `adsem calculi --json` lists it (any text up to the ':').
// `priority K` places an added rule in a strategy that orders redexes by class (linear-negation's
// S_bp, classes 1-7); elsewhere it is refused by the calculus.
// A statement starts at column 1; a line that starts with blanks continues the statement above.
// `#` at the start of a line (after blanks) begins a comment line. LHS and RHS are text in the
// calculus's own term syntax (the calculus adapter parses them, treating the declared
// metavariables as typed holes); this layer only cuts the file into pieces and keeps where each
// piece starts, so that an error inside a piece is reported at its line:column in the file.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "syntax/core/diagnostic.hpp"

namespace adsem::rules {

// A piece of the rule file and where it starts.
struct Fragment {
  std::string text;
  SourcePos pos;
};

struct MetaDecl {
  std::string name;
  Fragment type; // in the calculus's type syntax
  SourcePos pos;
};

struct Condition {
  enum class Kind { not_free, type_equal };
  Kind kind = Kind::not_free;
  // not_free: left = the variable, right = the metavariable;
  // type_equal: left, right = the two types, as text
  Fragment left, right;
  std::string text; // as written
  SourcePos pos;
};

struct RuleDecl {
  // What the statement does to the calculus's rules: add a rule (`name: ...`, the only form
  // check-rule checks in isolation), replace the paper rule `name`, or remove it.
  enum class Action { add, replace, remove };
  Action action = Action::add;
  std::string name; // the new rule's name, or the paper rule's (replace, remove)
  SourcePos pos;
  SourcePos name_pos; // where the name is written (after `replace`/`remove`)
  std::string file;   // the rule file as the user named it (set by `--rules`; "" in check-rule)
  Fragment lhs, rhs;
  std::vector<Condition> conditions;
  std::vector<MetaDecl> metas; // the declarations in force (a later one of a name wins)
  std::optional<int> priority; // `priority K`: the strategy class an added rule joins
  SourcePos priority_pos = {}; // where `priority` is written (errors about it)
};

struct RuleFile {
  std::vector<RuleDecl> rules;
};

// Throws AdsemError(ErrorKind::parse) at line:column.
RuleFile parse_rule_file(std::string_view source);

// The position in the file of `inner`, a 1-based position inside fragment.text.
SourcePos locate(const Fragment& fragment, SourcePos inner);

// Runs f (which parses or checks fragment.text) and moves the position of any AdsemError it
// throws from the fragment into the file; an error without a position gets the fragment's.
template <class F> auto within(const Fragment& fragment, F&& f) -> decltype(f()) {
  try {
    return f();
  } catch (const AdsemError& e) {
    Diagnostic d = e.diagnostic();
    d.pos = d.pos ? locate(fragment, *d.pos) : fragment.pos;
    throw AdsemError(std::move(d));
  }
}

// The metavariable declaration of `name` in force for a rule, if any.
const MetaDecl* find_meta(const RuleDecl& rule, std::string_view name);

// `text` with every whole identifier a renamed to b and b to a (for swap mutants).
std::string swap_identifiers(std::string_view text, std::string_view a, std::string_view b);

// The identifiers of `text` (letters, digits, '_' and '\'', not starting with a digit), in order.
std::vector<std::string> identifiers(std::string_view text);

// The rule printed back in the rule language (one line): "name: L --> R when ...",
// "replace name: ...", "remove name".
std::string print_rule(const RuleDecl& rule);

} // namespace adsem::rules
