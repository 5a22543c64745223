// A user's rule file joined to simple-diff's rule book (user_rules.hpp): each rule an entry of
// the book (its match and result from rule_match.hpp), and the file's patch.
#include "properties/simple_diff/user_rules.hpp"

#include <algorithm>
#include <optional>

#include <fmt/format.h>

#include "properties/simple_diff/mutants.hpp"
#include "properties/simple_diff/rule_adapter.hpp"
#include "properties/simple_diff/rule_match.hpp"
#include "semantics/simple_diff/rules.hpp"
#include "semantics/simple_diff/run.hpp"
#include "semantics/simple_diff/symbolic_diff.hpp"
#include "syntax/simple_diff/printer.hpp"

namespace adsem::simple_diff {

namespace {

// What a compiled rule is: the pattern with both sides elaborated (pair and projection
// annotations filled in by the type checker, so that they can be compared with the term's).
struct Compiled {
  std::shared_ptr<const Pattern> pattern;
  Term lhs, rhs;
};

Compiled elaborate(Pattern p) {
  Compiled out;
  out.lhs = typecheck(p.lhs, primitives(), p.gamma).term;
  out.rhs = typecheck(p.rhs, primitives(), p.gamma).term;
  out.pattern = std::make_shared<const Pattern>(std::move(p));
  return out;
}

std::string user_citation(const adsem::rules::RuleDecl& rule) {
  return props::user_rule_citation(rule);
}

RuleInfo user_info(const adsem::rules::RuleDecl& rule) {
  return rule_info(rule.name, user_citation(rule), RuleKind::user, adsem::rules::print_rule(rule));
}

// Which evaluator a rule of Rewrite fires in.
enum class Judgement { both, ordinary, symbolic };

Rule<Rewrite> rewrite_entry(const Compiled& c, RuleInfo info, Judgement judgement) {
  const auto match = [c, judgement](const Machine& m, const Rewrite::Redex& r) -> bool {
    if (judgement != Judgement::both && r.symbolic != (judgement == Judgement::symbolic))
      return false;
    return match_term(*c.pattern, c.lhs, r.term, m, r.phi).has_value();
  };
  const auto result = [c](Machine& m, const Rewrite::Redex& r, const RuleInfo&) {
    const auto match = match_term(*c.pattern, c.lhs, r.term, m, r.phi);
    return instantiate_rhs(m, *c.pattern, *match, c.rhs, std::nullopt);
  };
  return rule_entry<Rewrite>(std::move(info), {c.lhs->kind}, match, result);
}

// A replaced Fig. 6 clause: the left is W.rd[V](x:T. C), matched against the goal and C. The
// paper's clauses are schemas over every type T (and the types in C); a rule file's pattern has
// one type, so where the user's clause does not match the paper's clause `paper` still applies.
Rule<Derivative> derivative_entry(const Compiled& c, RuleInfo info, const Rule<Derivative>& paper) {
  const auto match = [c, paper = paper.match](const Machine& m,
                                              const Derivative::Redex& r) -> bool {
    return match_goal(*c.pattern, c.lhs, r.goal, r.term) || !paper || paper(m, r);
  };
  const auto result = [c, paper = paper.result](Machine& m, const Derivative::Redex& r,
                                                const RuleInfo& self) {
    const auto match = match_goal(*c.pattern, c.lhs, r.goal, r.term);
    if (!match) return paper(m, r, self);
    return instantiate_rhs(m, *c.pattern, *match, c.rhs, r.goal);
  };
  return rule_entry<Derivative>(std::move(info), paper.kinds, match, result);
}

[[noreturn]] void fail(const SourcePos& at, const std::string& message) {
  throw AdsemError(ErrorKind::parse, message, at);
}

const char* construct(Kind kind) {
  switch (kind) {
  case Kind::var:
    return "a variable";
  case Kind::constant:
    return "a constant";
  case Kind::unit:
    return "*";
  case Kind::pair:
    return "a pair";
  case Kind::add:
    return "+";
  case Kind::op:
    return "an operation op(M)";
  case Kind::let:
    return "let";
  case Kind::fst:
    return "fst";
  case Kind::snd:
    return "snd";
  case Kind::if_:
    return "if";
  case Kind::letrec:
    return "letrec";
  case Kind::call:
    return "a call f(M)";
  case Kind::rd:
    return "rd";
  default:
    return "a boolean term";
  }
}

void distinct_binders(const Node& n, const adsem::rules::RuleDecl& rule,
                      std::vector<std::string>& seen) {
  for (const std::string* b :
       {n.kind == Kind::let || n.kind == Kind::letrec ? &n.name : nullptr,
        n.kind == Kind::rd || n.kind == Kind::letrec ? &n.param() : nullptr}) {
    if (!b) continue;
    if (std::ranges::find(seen, *b) != seen.end())
      fail(rule.lhs.pos, fmt::format("the binder '{}' is bound twice on the left-hand side: a rule "
                                     "that joins the semantics needs distinct binders there",
                                     *b));
    seen.push_back(*b);
  }
  for (const Term& c : {n.a, n.b, n.c})
    if (c) distinct_binders(*c, rule, seen);
}

// On the right of a replaced Fig. 6 clause every rd calls the differentiation on a metavariable.
void check_derivative_calls(const Node& n, const adsem::rules::RuleDecl& rule, const Pattern& p) {
  if (n.kind == Kind::rd) {
    const bool meta = n.c->kind == Kind::var && std::ranges::any_of(p.metas, [&](const auto& m) {
                        return m.name == n.c->name;
                      });
    if (!meta)
      fail(rule.rhs.pos, "on the right of a replaced Fig. 6 clause, W.rd[V](x:T. M) calls the "
                         "differentiation W.R_V(x:T. M) and its body must be a metavariable of "
                         "the left-hand side");
  }
  for (const Term& c : {n.a, n.b, n.c})
    if (c) check_derivative_calls(*c, rule, p);
}

struct FileCompiler {
  RulesPatch patch;
  std::vector<std::string> fired;
  std::vector<std::shared_ptr<const Pattern>> targets;
  bool fast_removed = false; // by `remove R-fast`, or by a replaced Fig. 6 clause

  void add(const adsem::rules::RuleDecl& rule) {
    using Action = adsem::rules::RuleDecl::Action;
    if (rule.priority)
      fail(rule.priority_pos, "'priority' orders the redexes of a small-step strategy "
                              "(linear-negation's S_bp); simple-diff's evaluation is big-step and "
                              "has no priority classes");
    if (rule.action == Action::remove) { // (the parser refuses a name edited twice)
      paper_entry(rule);
      if (rule.name == "R-fast" && fast_removed) return; // a replaced clause removed it
      patch.remove(rule.name);
      fast_removed = fast_removed || rule.name == "R-fast";
      return;
    }
    const Compiled c = compiled(rule);
    if (rule.action == Action::add) {
      if (paper_rules()->position(rule.name))
        fail(rule.pos, fmt::format("'{}' is the name of a paper rule: write `replace {}: ...` to "
                                   "replace it, or give the added rule another name",
                                   rule.name, rule.name));
      patch.add(rewrite_entry(c, user_info(rule), Judgement::both));
      targets.push_back(c.pattern);
    } else {
      replace(rule, c);
    }
    fired.push_back(rule.name);
  }

  Compiled compiled(const adsem::rules::RuleDecl& rule) {
    Pattern p = compile_pattern(rule);
    std::vector<std::string> seen;
    distinct_binders(*p.lhs, rule, seen);
    return elaborate(std::move(p));
  }

  std::size_t paper_entry(const adsem::rules::RuleDecl& rule) {
    return props::paper_rule_position(*paper_rules(), "simple-diff", rule);
  }

  void replace(const adsem::rules::RuleDecl& rule, const Compiled& c) {
    const Rules::Entry& old = paper_rules()->entries()[paper_entry(rule)];
    const RuleInfo& info = paper_rules()->info(paper_entry(rule));
    if (!info.unfireable.empty() || info.kind == RuleKind::context)
      fail(rule.pos, fmt::format("'{}' is a context rule: where evaluation descends is the "
                                 "evaluator's, not a rule a file can replace",
                                 rule.name));
    RuleInfo mine = user_info(rule);
    mine.name = info.name;
    mine.citation =
        fmt::format("{}, replacing {} of {}", user_citation(rule), info.name, info.citation);
    const Kind kind = c.lhs->kind;
    const auto fires_on = [&](const std::vector<Kind>& kinds) {
      if (std::ranges::find(kinds, kind) == kinds.end())
        fail(rule.lhs.pos, fmt::format("the left-hand side is {}, but {} fires on {}",
                                       construct(kind), info.name, construct(kinds.front())));
    };
    if (const auto* o = std::get_if<Rule<Ordinary>>(&old)) {
      fires_on(o->kinds);
      patch.replace<Ordinary>(info.name, [=](const Rule<Ordinary>&) {
        return rewrite_entry(c, mine, Judgement::ordinary);
      });
      targets.push_back(c.pattern);
    } else if (const auto* s = std::get_if<Rule<Symbolic>>(&old)) {
      fires_on(s->kinds);
      patch.replace<Symbolic>(info.name, [=](const Rule<Symbolic>&) {
        return rewrite_entry(c, mine, Judgement::symbolic);
      });
      targets.push_back(c.pattern);
    } else if (const auto* d = std::get_if<Rule<Derivative>>(&old)) {
      if (kind != Kind::rd)
        fail(rule.lhs.pos, fmt::format("a Fig. 6 clause is replaced as W.rd[V](x:T. C) --> ...: "
                                       "the left-hand side must be rd, with the clause's C as its "
                                       "body"));
      const Kind clause = c.lhs->c->kind;
      if (std::ranges::find(d->kinds, clause) == d->kinds.end())
        fail(rule.lhs.pos, fmt::format("the body of the left-hand side is {}, but {} "
                                       "differentiates {}",
                                       construct(clause), info.name, construct(d->kinds.front())));
      check_derivative_calls(*c.rhs, rule, *c.pattern);
      patch.replace<Derivative>(info.name, [=](const Rule<Derivative>& paper) {
        return derivative_entry(c, mine, paper);
      });
      if (!fast_removed) patch.remove("R-fast");
      fast_removed = true;
    } else {
      fail(rule.pos, fmt::format("'{}' decides a boolean term or differentiates a whole trace; "
                                 "a rule file's sides are terms, so it can be removed, not "
                                 "replaced",
                                 rule.name));
    }
  }
};

} // namespace

CompiledRules::CompiledRules(RulesPatch patch, std::vector<std::string> fired,
                             std::vector<std::shared_ptr<const Pattern>> targets)
    : books_(std::move(patch)), fired_(std::move(fired)), targets_(std::move(targets)) {}

std::shared_ptr<const CompiledRules> compile_rule_file(const adsem::rules::RuleFile& file) {
  FileCompiler compiler;
  compiler.patch.name = "rule file";
  for (const adsem::rules::RuleDecl& rule : file.rules)
    compiler.add(rule);
  return std::make_shared<const CompiledRules>(std::move(compiler.patch), std::move(compiler.fired),
                                               std::move(compiler.targets));
}

Options with_rules(Options options, const std::string& mutant, const props::UserRules* user) {
  options = with_mutant(std::move(options), mutant);
  if (user) options.rules = user->compiled_as<CompiledRules>().book(options.rules);
  return options;
}

std::shared_ptr<const props::CompiledRuleFile>
RuleTraits::compile_file(const adsem::rules::RuleFile& file) {
  return compile_rule_file(file);
}

} // namespace adsem::simple_diff
