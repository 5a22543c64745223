#include "properties/delta_reverse/user_clauses.hpp"

#include <algorithm>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "properties/core/rule_compile.hpp"
#include "properties/delta_reverse/user_rules.hpp"
#include "semantics/delta_reverse/translate.hpp"
#include "syntax/delta_reverse/parser.hpp"
#include "syntax/delta_reverse/typecheck.hpp"

namespace adsem::delta_reverse {

namespace {

using adsem::rules::RuleDecl;

// One call T(M) of a right-hand side: the variable standing for it while the side is typed and
// instantiated ("Drev(M)", which no parsed name can be), and M.
struct Call {
  std::string marker;
  std::string meta;
};

struct Clause {
  std::shared_ptr<const Pattern> pattern;
  std::vector<Call> calls; // in the order they occur, each once
};

bool names_translation(const std::string& x) {
  return x == "Dfwd" || x == "Drev1" || x == "Drev2" || x == "Drev";
}

[[noreturn]] void fail_at(const adsem::rules::Fragment& side, const Node& n,
                          const std::string& message) {
  throw AdsemError(ErrorKind::parse, message, adsem::rules::locate(side, n.pos));
}

// The right-hand side with each call T(M) replaced by its marker variable.
Term mark_calls(const RuleDecl& decl, Translation t, const Term& rhs,
                const std::set<std::string>& metas, std::vector<Call>& calls) {
  const std::string own = translation_name(t);
  const std::string how = fmt::format("{} is called on a metavariable of the left-hand side, as "
                                      "{}(M)",
                                      own, own);
  if (rhs->kind == Kind::var && names_translation(rhs->name)) fail_at(decl.rhs, *rhs, how);
  if (rhs->kind == Kind::app && rhs->kids[0]->kind == Kind::var &&
      names_translation(rhs->kids[0]->name)) {
    const Node& f = *rhs->kids[0];
    const Term& arg = rhs->kids[1];
    if (f.name != own)
      fail_at(decl.rhs, f,
              fmt::format("{} is a clause of {}: its right-hand side calls {}, not {}", decl.name,
                          own, own, f.name));
    if (arg->kind != Kind::var || !metas.contains(arg->name)) fail_at(decl.rhs, *arg, how);
    const std::string marker = own + "(" + arg->name + ")";
    if (std::ranges::none_of(calls, [&](const Call& c) { return c.marker == marker; }))
      calls.push_back({marker, arg->name});
    return var(marker, rhs->pos);
  }
  if (rhs->kids.empty()) return rhs;
  Node copy = *rhs;
  for (Term& k : copy.kids)
    k = mark_calls(decl, t, k, metas, calls);
  return make_shared_node<const Node>(std::move(copy));
}

// A translated subterm's type: T{A}, or M Drev{A} (translated_term_type), located at `where`.
Type translated(const adsem::rules::Fragment& where, Translation t, const Type& a) {
  return adsem::rules::within(where, [&] { return translated_term_type(t, a); });
}

Clause compile_clause(const RuleDecl& decl, Translation t, Kind kind) {
  if (!decl.conditions.empty())
    throw AdsemError(ErrorKind::parse,
                     "a clause of a translation takes no side condition: it is selected by the "
                     "construct at the root of its left-hand side",
                     decl.conditions.front().pos);
  const Term lhs = adsem::rules::within(decl.lhs, [&] { return parse_term(decl.lhs.text); });
  const Term rhs_text = adsem::rules::within(decl.rhs, [&] { return parse_term(decl.rhs.text); });
  auto p = std::make_shared<Pattern>();
  p->name = decl.name;
  std::vector<std::string> on_left;
  collect_names(lhs, on_left);
  std::set<std::string> metas;
  for (const adsem::rules::MetaDecl& d : decl.metas) {
    if (std::ranges::find(on_left, d.name) == on_left.end() || metas.contains(d.name)) continue;
    const Type type = adsem::rules::within(d.type, [&] { return parse_type(d.type.text); });
    p->metas.push_back(Metavariable{d.name, type, {}});
    p->gamma.emplace_back(d.name, type);
    metas.insert(d.name);
  }
  const Typed left = adsem::rules::within(decl.lhs, [&] { return typecheck(lhs, p->gamma); });
  if (mentions_target_forms(left.term))
    throw AdsemError(ErrorKind::parse,
                     "the left-hand side of a clause is a source term (Fig. 1): the translations "
                     "apply to source terms only",
                     decl.lhs.pos);
  const bool lone = left.term->kind == Kind::var && metas.contains(left.term->name);
  if (!lone && left.term->kind != kind)
    throw AdsemError(ErrorKind::parse,
                     fmt::format("the clause {} translates one construct of Fig. 1: its left-hand "
                                 "side is that construct (or a lone metavariable, for every such "
                                 "node)",
                                 decl.name),
                     decl.lhs.pos);

  Clause out;
  const Term rhs = mark_calls(decl, t, rhs_text, metas, out.calls);
  // A bare metavariable is its subterm, untranslated: of its own type, except a variable (the
  // clause T[x]), which the translation binds to a value of type T{A}.
  Context gamma_right;
  for (const Metavariable& m : p->metas) {
    const adsem::rules::Fragment& where = adsem::rules::find_meta(decl, m.name)->type;
    gamma_right.emplace_back(
        m.name, kind == Kind::var
                    ? adsem::rules::within(where, [&] { return translate_type(t, m.type); })
                    : m.type);
  }
  for (const Call& c : out.calls) {
    const Metavariable& m =
        *std::ranges::find_if(p->metas, [&](const Metavariable& v) { return v.name == c.meta; });
    gamma_right.emplace_back(c.marker,
                             translated(adsem::rules::find_meta(decl, m.name)->type, t, m.type));
  }
  const Typed right = adsem::rules::within(decl.rhs, [&] { return typecheck(rhs, gamma_right); });
  const Type expected = translated(decl.lhs, t, left.type);
  if (!same_type(right.type, expected))
    adsem::rules::fail_clause_type(decl, "a term of type " + print_type(expected),
                                   print_type(left.type), print_type(right.type));
  p->lhs = left.term;
  p->rhs = right.term;
  p->type = left.type;
  out.pattern = std::move(p);
  return out;
}

// The user's entry in the paper clause's relation and kinds: it matches the left-hand side and
// builds σ(RHS), each T(M) the walk's translation of M's subterm.
template <class R> Rule<R> user_clause(const Rule<R>& paper, RuleInfo info, Clause c) {
  Rule<R> out = paper;
  out.info = std::move(info);
  const auto p = c.pattern;
  out.match = [p](const Translator&, const TranslationClause::Redex& r) {
    PatternMatch m;
    return match_pattern(*p, {}, r.term, m);
  };
  out.result = [p, calls = std::move(c.calls)](Translator& tr, const TranslationClause::Redex& r,
                                               const RuleInfo&) {
    PatternMatch m;
    match_pattern(*p, {}, r.term, m);
    rename_apart(*p, m, [&tr](const std::string& x) { return tr.fresh(x); });
    for (const Call& call : calls)
      m.sigma[call.marker] = tr.term(m.sigma.at(call.meta));
    return instantiate_match(*p, m);
  };
  return out;
}

template <class R>
std::optional<RulesPatch::Edit> replacement(const RuleDecl& decl, const Rules::Entry& paper,
                                            Translation t, const RuleInfo& info) {
  const auto* clause = std::get_if<Rule<R>>(&paper);
  if (clause == nullptr) return std::nullopt;
  const Rule<R> user = user_clause(*clause, info, compile_clause(decl, t, clause->kinds.front()));
  return RulesPatch::Replace{decl.name, [user](const Rules::Entry&) { return Rules::Entry(user); }};
}

} // namespace

bool is_clause(const Rules::Entry& entry) {
  return std::holds_alternative<Rule<Dfwd>>(entry) || std::holds_alternative<Rule<Drev1>>(entry) ||
         std::holds_alternative<Rule<Drev2>>(entry) || std::holds_alternative<Rule<Drev>>(entry);
}

RulesPatch::Edit clause_replacement(const RuleDecl& decl, const Rules::Entry& paper,
                                    RuleInfo info) {
  if (auto e = replacement<Dfwd>(decl, paper, Translation::dfwd, info)) return *e;
  if (auto e = replacement<Drev1>(decl, paper, Translation::drev1, info)) return *e;
  if (auto e = replacement<Drev2>(decl, paper, Translation::drev2, info)) return *e;
  if (auto e = replacement<Drev>(decl, paper, Translation::drev, info)) return *e;
  throw AdsemError(ErrorKind::parse, "'" + decl.name + "' is not a clause of a translation",
                   decl.name_pos);
}

RulesPatch::Edit kept_clause(const Rules& base, std::size_t at) {
  Rules::Entry copy = base.entries()[at];
  std::visit([](auto& rule) { rule.info.name += " (paper)"; }, copy);
  return RulesPatch::Add{std::move(copy), ""};
}

} // namespace adsem::delta_reverse
