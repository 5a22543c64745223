// A user's rule file as edits of perturbative's rule book (user_rules.hpp).
#include "properties/perturbative/user_rules.hpp"

#include <algorithm>
#include <regex>

#include <fmt/format.h>

#include "properties/core/property.hpp"
#include "properties/perturbative/rule_adapter.hpp"
#include "properties/perturbative/rule_match.hpp"
#include "semantics/perturbative/transform.hpp"

namespace adsem::perturbative {

namespace {

using adsem::rules::RuleDecl;

[[noreturn]] void fail_at(SourcePos pos, std::string message) {
  throw AdsemError(ErrorKind::parse, std::move(message), pos);
}

// The paper's entry `rule.name`, or a located error listing the three nearest names (or saying
// that the derivative macro is not a step a file can edit).
const Rules::Entry& paper_entry(const RuleDecl& rule) {
  const Rules& book = *paper_rules();
  const Rules::Entry& entry =
      book.entries()[props::paper_rule_position(book, "perturbative", rule)];
  if (std::holds_alternative<Rule<Macro>>(entry))
    fail_at(rule.name_pos, fmt::format("'{}' is the derivative macro (spec §2.7), the term the AD "
                                       "properties build, not a step: a rule file can neither "
                                       "replace nor remove it",
                                       rule.name));
  return entry;
}

std::string citation(const RuleDecl& rule) {
  return props::user_rule_citation(rule);
}

RuleInfo user_info(const RuleDecl& rule, std::string name) {
  return rule_info(std::move(name), citation(rule), RuleKind::user, adsem::rules::print_rule(rule));
}

// The left-hand side of a rule of the Reduction relation: one simple term whose former the
// strategies contract (Fig. 3: an application, a T or a π_k).
Kind redex_form(const Pattern& p, const RuleDecl& rule) {
  if (p.lhs.items.size() != 1)
    fail_at(rule.lhs.pos, "the left-hand side must be one simple term: perturbative reduces a "
                          "simple term at a position (spec §4.7), a sum or 0 is never a redex");
  const Kind kind = p.lhs.items.front()->kind;
  if (kind != Kind::app && kind != Kind::push && kind != Kind::proj)
    fail_at(rule.lhs.pos, "the left-hand side is never a redex: perturbative's strategies "
                          "contract applications, T s and π_k s (Fig. 3; spec §4.7), not a "
                          "λ, an injection, a variable or a constant");
  return kind;
}

Rule<Reduction> reduction_rule(const RuleDecl& rule, std::string name,
                               std::shared_ptr<const Pattern> p) {
  const Kind kind = redex_form(*p, rule);
  return rule_entry<Reduction>(
      user_info(rule, std::move(name)), {kind},
      [p](const Engine&, const Reduction::Redex& r) { return match(*p, r.node).has_value(); },
      [p](Engine&, const Reduction::Redex& r, const RuleInfo&) {
        const auto m = match(*p, r.node);
        return instantiate(m->rhs, m->sigma);
      });
}

// `Tx(M)` in a clause's right-hand side: T_x of the metavariable M, read as the metavariable
// `Tx_M` (same length, so positions in the file stay right). Compiled when a rule file first
// needs it, not at every start-up.
const std::regex& tx_call() {
  static const std::regex call(R"(Tx\(([A-Za-z_][A-Za-z0-9_]*)\))");
  return call;
}
std::string tx_name(const std::string& meta) {
  return "Tx_" + meta;
}

Rule<Tx> clause_rule(const RuleDecl& decl, const Rule<Tx>& paper, Pattern& compiled) {
  if (decl.name == "Tx-x")
    fail_at(decl.name_pos, "T_x x = x changes the variable's type from σ to Tσ, which a pattern "
                           "cannot state; Tx-x cannot be replaced");
  RuleDecl rule = decl;
  PatternOptions options;
  options.lone_metavariable = true;
  options.right_is_tangent = true;
  std::vector<std::string> called;
  for (std::sregex_iterator it(decl.rhs.text.begin(), decl.rhs.text.end(), tx_call()), end;
       it != end; ++it) {
    const std::string meta = (*it)[1];
    const adsem::rules::MetaDecl* m = adsem::rules::find_meta(decl, meta);
    if (!m)
      throw AdsemError(
          ErrorKind::parse, fmt::format("Tx({}): '{}' is not a declared metavariable", meta, meta),
          adsem::rules::locate(decl.rhs, SourcePos{1, static_cast<int>(it->position()) + 1}));
    if (std::ranges::find(called, meta) != called.end()) continue;
    called.push_back(meta);
    const Type t = adsem::rules::within(m->type, [&] { return parse_type(m->type.text); });
    options.right_only.emplace_back(tx_name(meta), tangent_type(t));
  }
  rule.rhs.text = std::regex_replace(decl.rhs.text, tx_call(), "Tx_$1 ");
  compiled = compile_pattern(rule, options);
  compiled.name = decl.name;
  const auto p = std::make_shared<const Pattern>(compiled);
  if (p->lhs.items.size() != 1)
    fail_at(rule.lhs.pos, "the left-hand side of a clause of T_x is one simple term (T_x is "
                          "additive: T_x 0 and T_x (s + N) are the traversal, Fig. 4)");
  const Kind kind = p->lhs.items.front()->kind;
  if (std::ranges::find(paper.kinds, kind) == paper.kinds.end())
    fail_at(rule.lhs.pos, fmt::format("the left-hand side is not a term the clause {} is for "
                                      "(it is selected by the term's former, Fig. 4)",
                                      decl.name));
  const auto paper_match = paper.match;
  return rule_entry<Tx>(
      user_info(decl, decl.name), {kind},
      [p, paper_match](const Engine& engine, const Tx::Redex& r) {
        return (!paper_match || paper_match(engine, r)) && match(*p, r.node).has_value();
      },
      [p, called](Engine& engine, const Tx::Redex& r, const RuleInfo&) {
        auto m = match(*p, r.node);
        const Type& sigma = component(r.tangent_sigma, 2);
        for (const std::string& meta : called)
          m->sigma[tx_name(meta)] =
              transform(engine.book(), r.x, sigma, m->sigma.at(meta), engine.work());
        return instantiate(m->rhs, m->sigma);
      });
}

// The paper's entry, kept after a replacement for the instances the user's pattern misses.
template <class R> Rules::Entry kept(const Rule<R>& paper) {
  Rule<R> out = paper;
  out.info.name += " (paper)";
  return out;
}

// The file's statements as a patch of the paper's book, each pattern and fired name noted.
RulesPatch compile_patch(const adsem::rules::RuleFile& file, std::vector<Pattern>& patterns,
                         std::vector<std::string>& fired) {
  const Rules& book = *paper_rules();
  RulesPatch patch;
  patch.name = "user rules";
  // removals go last: a replaced rule's paper entry is kept before the entry that follows it in
  // the book, which the file may remove
  std::vector<std::string> removed;
  for (const RuleDecl& rule : file.rules) {
    if (rule.priority)
      fail_at(rule.priority_pos,
              "'priority' orders linear-negation's redexes (S_bp); perturbative's "
              "strategies try an added rule after the paper's at each position");
    switch (rule.action) {
    case RuleDecl::Action::remove: {
      const Rules::Entry& entry = paper_entry(rule);
      if (std::holds_alternative<Rule<Tx>>(entry))
        fail_at(rule.name_pos, fmt::format("'{}' is a clause of T_x (Fig. 4): T_x is defined on "
                                           "every term, so a clause can be replaced, not "
                                           "removed",
                                           rule.name));
      removed.push_back(rule.name);
      break;
    }
    case RuleDecl::Action::add: {
      if (book.position(rule.name))
        fail_at(rule.pos, fmt::format("'{}' is the name of a paper rule: write 'replace {}: ...' "
                                      "to change it, or choose another name",
                                      rule.name, rule.name));
      auto p = std::make_shared<const Pattern>(compile_pattern(rule));
      patch.add(reduction_rule(rule, rule.name, p));
      patterns.push_back(*p);
      fired.push_back(rule.name);
      break;
    }
    case RuleDecl::Action::replace: {
      const Rules::Entry& entry = paper_entry(rule);
      const auto position = *book.position(rule.name);
      const std::string next =
          position + 1 < book.size() ? book.info(position + 1).name : std::string();
      if (const auto* paper = std::get_if<Rule<Tx>>(&entry)) {
        if (!paper->info.unfireable.empty())
          fail_at(rule.name_pos,
                  fmt::format("'{}' is not a step: {}", rule.name, paper->info.unfireable));
        Pattern compiled;
        Rule<Tx> user = clause_rule(rule, *paper, compiled);
        patch.replace<Tx>(rule.name, [user](const Rule<Tx>&) { return user; });
        patch.edits.push_back(RulesPatch::Add{kept(*paper), next});
        patterns.push_back(std::move(compiled));
      } else if (std::holds_alternative<Rule<Merge>>(entry)) {
        fail_at(rule.name_pos, "ν merges the summands of a sum (spec §4.5), which a pattern "
                               "cannot match; it can be removed, not replaced");
      } else {
        auto p = std::make_shared<const Pattern>(compile_pattern(rule));
        Rule<Reduction> user = reduction_rule(rule, rule.name, p);
        patch.replace<Reduction>(rule.name, [user](const Rule<Reduction>&) { return user; });
        patch.edits.push_back(RulesPatch::Add{kept(std::get<Rule<Reduction>>(entry)), next});
        patterns.push_back(*p);
      }
      fired.push_back(rule.name);
      break;
    }
    }
  }
  for (const std::string& name : removed)
    patch.remove(name);
  return patch;
}

} // namespace

UserRuleFile::UserRuleFile(const adsem::rules::RuleFile& file)
    : books_(compile_patch(file, patterns_, fired_)) {}

const Semantics& UserRuleFile::semantics(const std::string& mutant) const {
  const std::lock_guard lock(mutex_);
  auto& cached = cache_[mutant];
  if (!cached) {
    auto patched = std::make_unique<Semantics>(perturbative::semantics_for(mutant));
    patched->rules = books_.over(patched->rules);
    cached = std::move(patched);
  }
  return *cached;
}

const Semantics& semantics_for(const std::string& mutant, const props::UserRules* user_rules) {
  if (!user_rules) return semantics_for(mutant);
  return user_rules->compiled_as<UserRuleFile>().semantics(mutant);
}

const Semantics& semantics_for(const props::PropertyContext& context) {
  return semantics_for(context.mutant, context.user_rules.get());
}

std::shared_ptr<const props::CompiledRuleFile>
RuleTraits::compile_file(const adsem::rules::RuleFile& file) {
  return std::make_shared<const UserRuleFile>(file);
}

} // namespace adsem::perturbative
