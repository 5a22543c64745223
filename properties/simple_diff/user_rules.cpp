// A user's rule file joined to simple-diff's rule book (user_rules.hpp): the matcher of a
// compiled left-hand side, the instantiation of its right-hand side, and the file's patch.
#include "properties/simple_diff/user_rules.hpp"

#include <algorithm>
#include <optional>

#include <fmt/format.h>

#include "properties/core/nearest_names.hpp"
#include "properties/simple_diff/mutants.hpp"
#include "properties/simple_diff/rule_adapter.hpp"
#include "semantics/simple_diff/rules.hpp"
#include "semantics/simple_diff/run.hpp"
#include "semantics/simple_diff/symbolic_diff.hpp"
#include "syntax/simple_diff/printer.hpp"

namespace adsem::simple_diff {

namespace {

using Scope = std::vector<std::pair<std::string, std::string>>; // pattern binder -> term binder

const std::string* find_in(const Scope& scope, const std::string& name) {
  for (auto it = scope.rbegin(); it != scope.rend(); ++it)
    if (it->first == name) return &it->second;
  return nullptr;
}

// Whether x occurs free in m (let and rd bind in their body; a letrec's parameter in its body).
bool occurs_free(const Node& m, const std::string& x) {
  switch (m.kind) {
  case NodeKind::var:
    return m.name == x;
  case NodeKind::let:
    return occurs_free(*m.a, x) || (m.name != x && occurs_free(*m.b, x));
  case NodeKind::rd:
    return occurs_free(*m.a, x) || occurs_free(*m.b, x) || (m.param != x && occurs_free(*m.c, x));
  case NodeKind::letrec:
    return (m.param != x && occurs_free(*m.a, x)) || occurs_free(*m.b, x);
  default:
    for (const TermPtr& c : {m.a, m.b, m.c})
      if (c && occurs_free(*c, x)) return true;
    return false;
  }
}

// m with the free occurrences of x renamed to y, a fresh name (so nothing is captured).
TermPtr rename_free(const TermPtr& m, const std::string& x, const std::string& y) {
  if (!occurs_free(*m, x)) return m;
  if (m->kind == NodeKind::var) return mk::var(y, m->pos);
  const bool a_bound = m->kind == NodeKind::letrec && m->param == x;
  const bool b_bound = m->kind == NodeKind::let && m->name == x;
  const bool c_bound = m->kind == NodeKind::rd && m->param == x;
  Node copy = *m;
  if (copy.a && !a_bound) copy.a = rename_free(copy.a, x, y);
  if (copy.b && !b_bound) copy.b = rename_free(copy.b, x, y);
  if (copy.c && !c_bound) copy.c = rename_free(copy.c, x, y);
  if (copy.sugar && !copy.sugar->parts.empty()) copy.sugar = nullptr; // stale parts
  return std::make_shared<const Node>(std::move(copy));
}

// What a compiled rule is: the pattern with both sides elaborated (pair and projection
// annotations filled in by the type checker, so that they can be compared with the term's).
struct Compiled {
  std::shared_ptr<const Pattern> pattern;
  TermPtr lhs, rhs;
};

Compiled elaborate(Pattern p) {
  Compiled out;
  out.lhs = typecheck(p.lhs, primitives(), p.gamma).term;
  out.rhs = typecheck(p.rhs, primitives(), p.gamma).term;
  out.pattern = std::make_shared<const Pattern>(std::move(p));
  return out;
}

// The type of a subterm of the redex: its annotations, the types of the binders around it, ρ for
// the variables the evaluator has bound, φ for function names. nullptr where none of these says
// (a variable of a trace bound outside the redex, when R differentiates it).
class Types {
public:
  Types(const ScopedEnv<Value>* rho, const FunEnv* phi) : rho_(rho), phi_(phi) {}
  std::vector<std::pair<std::string, TypePtr>> vars, funs; // binders around, innermost last

  TypePtr of(const Node& m) {
    switch (m.kind) {
    case NodeKind::var:
      for (auto it = vars.rbegin(); it != vars.rend(); ++it)
        if (it->first == m.name) return it->second;
      if (rho_)
        if (const Value* v = rho_->find(m.name)) return type_of_value(*v);
      return nullptr;
    case NodeKind::constant:
    case NodeKind::add:
      return real_type();
    case NodeKind::unit:
      return unit_type();
    case NodeKind::op:
      return op_arity(m.name).second;
    case NodeKind::let:
      return within({m.name, m.type}, *m.b);
    case NodeKind::pair: {
      TypePtr left = m.ann_left ? m.ann_left : of(*m.a);
      TypePtr right = m.ann_right ? m.ann_right : of(*m.b);
      return left && right ? product_type(left, right) : nullptr;
    }
    case NodeKind::fst:
    case NodeKind::snd: {
      if (m.ann_left && m.ann_right) return m.kind == NodeKind::fst ? m.ann_left : m.ann_right;
      const TypePtr t = of(*m.a);
      if (!t || !t->is_product()) return nullptr;
      return m.kind == NodeKind::fst ? t->left : t->right;
    }
    case NodeKind::if_:
      return of(*m.b);
    case NodeKind::letrec: {
      funs.emplace_back(m.name, m.result_type);
      TypePtr t = of(*m.b);
      funs.pop_back();
      return t;
    }
    case NodeKind::call:
      for (auto it = funs.rbegin(); it != funs.rend(); ++it)
        if (it->first == m.name) return it->second;
      if (phi_)
        if (const ClosurePtr c = lookup(*phi_, m.name)) return c->result_type;
      return nullptr;
    case NodeKind::rd:
      return m.type;
    default:
      return nullptr; // a boolean term
    }
  }

private:
  TypePtr within(std::pair<std::string, TypePtr> binder, const Node& body) {
    vars.push_back(std::move(binder));
    TypePtr t = of(body);
    vars.pop_back();
    return t;
  }
  const ScopedEnv<Value>* rho_;
  const FunEnv* phi_;
};

// First-order matching of an elaborated left-hand side against a term (rule_table.hpp's `match`).
// A metavariable binds a subterm of its declared type (when the term's type is known: see Types),
// the same metavariable twice binds alpha-equivalent subterms, binders match up to renaming (the
// binder map), and a subterm bound to M mentions none of the left's binders around it that M may
// not see (the `x # M` conditions, and binders not around every occurrence of M).
class Matcher {
public:
  Matcher(const Pattern& p, Types types, bool unknown_types_match)
      : p_(p), types_(std::move(types)), lenient_(unknown_types_match) {}

  std::map<std::string, TermPtr> sigma;
  std::map<std::string, std::string> binders; // the left's binder -> the term's

  bool operator()(const TermPtr& pat, const TermPtr& term) { return match(*pat, term); }
  // Binds a binder of the left to the term's (rd's x against the goal's x).
  void bind(const std::string& pattern_name, const std::string& term_name, const TypePtr& t) {
    scope_.emplace_back(pattern_name, term_name);
    binders[pattern_name] = term_name;
    types_.vars.emplace_back(term_name, t);
  }

private:
  bool match(const Node& pat, const TermPtr& term) {
    const Node& n = *term;
    if (pat.kind == NodeKind::var && !find_in(scope_, pat.name)) return meta(pat.name, term);
    if (pat.kind != n.kind) return false;
    switch (pat.kind) {
    case NodeKind::var:
      return *find_in(scope_, pat.name) == n.name;
    case NodeKind::constant:
      return pat.value == n.value;
    case NodeKind::unit:
    case NodeKind::b_true:
    case NodeKind::b_false:
      return true;
    case NodeKind::op:
    case NodeKind::pred:
      return pat.name == n.name && match(*pat.a, n.a);
    case NodeKind::add:
      return match(*pat.a, n.a) && match(*pat.b, n.b);
    case NodeKind::pair:
    case NodeKind::fst:
    case NodeKind::snd:
      if (n.ann_left && n.ann_right &&
          !(type_equal(pat.ann_left, n.ann_left) && type_equal(pat.ann_right, n.ann_right)))
        return false;
      return match(*pat.a, n.a) && (pat.kind != NodeKind::pair || match(*pat.b, n.b));
    case NodeKind::let:
      return type_equal(pat.type, n.type) && match(*pat.a, n.a) &&
             under({{pat.name, n.name, n.type}}, {}, *pat.b, n.b);
    case NodeKind::if_:
      return match(*pat.a, n.a) && match(*pat.b, n.b) && match(*pat.c, n.c);
    case NodeKind::letrec:
      return type_equal(pat.type, n.type) && type_equal(pat.result_type, n.result_type) &&
             pat.limit == n.limit &&
             under({{pat.param, n.param, n.type}}, {{pat.name, n.name, n.result_type}}, *pat.a,
                   n.a) &&
             under({}, {{pat.name, n.name, n.result_type}}, *pat.b, n.b);
    case NodeKind::call: {
      const std::string* f = find_in(scope_, pat.name);
      return (f ? *f : pat.name) == n.name && match(*pat.a, n.a);
    }
    case NodeKind::rd:
      return type_equal(pat.type, n.type) && match(*pat.a, n.a) && match(*pat.b, n.b) &&
             under({{pat.param, n.param, n.type}}, {}, *pat.c, n.c);
    }
    return false;
  }

  struct Binder {
    std::string pattern, term;
    TypePtr type;
  };
  bool under(std::vector<Binder> vars, std::vector<Binder> funs, const Node& pat,
             const TermPtr& term) {
    const auto scope = scope_.size(), tv = types_.vars.size(), tf = types_.funs.size();
    for (const auto& [pb, tb, t] : vars) {
      scope_.emplace_back(pb, tb);
      binders[pb] = tb;
      types_.vars.emplace_back(tb, t);
    }
    for (const auto& [pb, tb, t] : funs) {
      scope_.emplace_back(pb, tb);
      binders[pb] = tb;
      types_.funs.emplace_back(tb, t);
    }
    const bool ok = match(pat, term);
    scope_.resize(scope);
    types_.vars.resize(tv);
    types_.funs.resize(tf);
    return ok;
  }

  bool meta(const std::string& name, const TermPtr& term) {
    if (term->is_boolean()) return false;
    if (const auto it = sigma.find(name); it != sigma.end()) return alpha_equal(it->second, term);
    const auto m = std::ranges::find_if(p_.metas, [&](const auto& v) { return v.name == name; });
    if (m == p_.metas.end()) return false;
    // the left's binders around this occurrence that M may not mention
    for (const auto& [pb, tb] : scope_)
      if (std::ranges::none_of(m->binders, [&](const auto& b) { return b.first == pb; }) &&
          occurs_free(*term, tb))
        return false;
    const TypePtr t = types_.of(*term);
    if (t ? !type_equal(t, m->type) : !lenient_) return false;
    sigma.emplace(name, term);
    return true;
  }

  const Pattern& p_;
  Types types_;
  bool lenient_;
  Scope scope_;
};

// σ(RHS) with every binder of the right fresh, so that it captures nothing; a subterm σ(M) that
// mentions a binder b of the left around M (the term's name for b) is renamed to the right's
// name for b. In a replaced Fig. 6 clause, `W.rd[V](y:S. M)` is the differentiation
// W.R_V(y:S. σ(M)).
class Instantiate {
public:
  Instantiate(Machine& m, const Pattern& p, const Matcher& match, std::optional<DiffGoal> goal)
      : m_(m), p_(p), match_(match), goal_(std::move(goal)) {}

  TermPtr operator()(const TermPtr& rhs) { return run(*rhs); }

private:
  std::string binder(const std::string& name) {
    std::string out = m_.names().fresh(name);
    scope_.emplace_back(name, out);
    return out;
  }
  // σ(M) under the right's binders
  TermPtr meta(const std::string& name) {
    TermPtr out = match_.sigma.at(name);
    const auto m = std::ranges::find_if(p_.metas, [&](const auto& v) { return v.name == name; });
    for (const auto& [b, type] : m->binders) {
      const auto in_term = match_.binders.find(b);
      const std::string* here = find_in(scope_, b);
      if (in_term != match_.binders.end() && here) out = rename_free(out, in_term->second, *here);
    }
    return out;
  }
  TermPtr run(const Node& n) {
    const auto mark = scope_.size();
    TermPtr out = build(n);
    scope_.resize(mark);
    return out;
  }
  TermPtr build(const Node& n) {
    switch (n.kind) {
    case NodeKind::var: {
      if (const std::string* renamed = find_in(scope_, n.name)) return mk::var(*renamed);
      return meta(n.name);
    }
    case NodeKind::let: {
      TermPtr bound = run(*n.a);
      const std::string y = binder(n.name);
      return mk::let(y, n.type, bound, run(*n.b));
    }
    case NodeKind::rd: {
      TermPtr cotangent = run(*n.a), point = run(*n.b);
      if (goal_) { // the differentiation itself, on σ(M)
        const std::string x = binder(n.param);
        return m_.R(DiffGoal{cotangent, point, x, n.type}, meta(n.c->name));
      }
      const std::string x = binder(n.param);
      return mk::rd(cotangent, point, x, n.type, run(*n.c));
    }
    case NodeKind::letrec: {
      const std::string f = binder(n.name);
      const auto outer = scope_.size();
      const std::string x = binder(n.param);
      TermPtr body = run(*n.a);
      scope_.resize(outer);
      return mk::letrec(f, x, n.type, n.result_type, body, run(*n.b), n.limit);
    }
    case NodeKind::call: {
      const std::string* f = find_in(scope_, n.name);
      return mk::call(f ? *f : n.name, run(*n.a));
    }
    default: {
      TermPtr a = n.a ? run(*n.a) : nullptr, b = n.b ? run(*n.b) : nullptr,
              c = n.c ? run(*n.c) : nullptr;
      return with_children(n, a, b, c);
    }
    }
  }

  Machine& m_;
  const Pattern& p_;
  const Matcher& match_;
  std::optional<DiffGoal> goal_;
  Scope scope_;
};

std::string user_citation(const adsem::rules::RuleDecl& rule) {
  return fmt::format("user rule, rule file line {}", rule.pos.line);
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
    Matcher matcher(*c.pattern, Types(&m.rho(), &r.phi), false);
    return matcher(c.lhs, r.term);
  };
  const auto result = [c](Machine& m, const Rewrite::Redex& r, const RuleInfo&) {
    Matcher matcher(*c.pattern, Types(&m.rho(), &r.phi), false);
    matcher(c.lhs, r.term);
    return Instantiate(m, *c.pattern, matcher, std::nullopt)(c.rhs);
  };
  return rule_entry<Rewrite>(std::move(info), {c.lhs->kind}, match, result);
}

// A replaced Fig. 6 clause: the left is W.rd[V](x:T. C), matched against the goal and C. The
// paper's clauses are schemas over every type T (and the types in C); a rule file's pattern has
// one type, so where the user's clause does not match the paper's clause `paper` still applies.
Rule<Derivative> derivative_entry(const Compiled& c, RuleInfo info, const Rule<Derivative>& paper) {
  const auto run = [c](const Derivative::Redex& r, Matcher& matcher) {
    const Node& lhs = *c.lhs;
    if (!type_equal(lhs.type, r.goal.t) || !matcher(lhs.a, r.goal.w) || !matcher(lhs.b, r.goal.v))
      return false;
    matcher.bind(lhs.param, r.goal.x, r.goal.t);
    return matcher(lhs.c, r.term);
  };
  const auto mine = [c, run](const Derivative::Redex& r) {
    Matcher matcher(*c.pattern, Types(nullptr, nullptr), true);
    return run(r, matcher);
  };
  const auto match = [mine, paper = paper.match](const Machine& m,
                                                 const Derivative::Redex& r) -> bool {
    return mine(r) || !paper || paper(m, r);
  };
  const auto result = [c, run, paper = paper.result](Machine& m, const Derivative::Redex& r,
                                                     const RuleInfo& self) {
    Matcher matcher(*c.pattern, Types(nullptr, nullptr), true);
    if (!run(r, matcher)) return paper(m, r, self);
    return Instantiate(m, *c.pattern, matcher, r.goal)(c.rhs);
  };
  return rule_entry<Derivative>(std::move(info), paper.kinds, match, result);
}

[[noreturn]] void fail(const SourcePos& at, const std::string& message) {
  throw AdsemError(ErrorKind::parse, message, at);
}

// Where the paper rule's name is written in `replace NAME: ...` / `remove NAME` (one blank after
// the keyword, as the rule language's examples write it).
SourcePos name_pos(const adsem::rules::RuleDecl& rule) {
  using Action = adsem::rules::RuleDecl::Action;
  const int keyword = rule.action == Action::replace ? 8 : rule.action == Action::remove ? 7 : 0;
  return SourcePos{rule.pos.line, rule.pos.column + keyword};
}

const char* construct(NodeKind kind) {
  switch (kind) {
  case NodeKind::var:
    return "a variable";
  case NodeKind::constant:
    return "a constant";
  case NodeKind::unit:
    return "*";
  case NodeKind::pair:
    return "a pair";
  case NodeKind::add:
    return "+";
  case NodeKind::op:
    return "an operation op(M)";
  case NodeKind::let:
    return "let";
  case NodeKind::fst:
    return "fst";
  case NodeKind::snd:
    return "snd";
  case NodeKind::if_:
    return "if";
  case NodeKind::letrec:
    return "letrec";
  case NodeKind::call:
    return "a call f(M)";
  case NodeKind::rd:
    return "rd";
  default:
    return "a boolean term";
  }
}

void distinct_binders(const Node& n, const adsem::rules::RuleDecl& rule,
                      std::vector<std::string>& seen) {
  for (const std::string* b :
       {n.kind == NodeKind::let || n.kind == NodeKind::letrec ? &n.name : nullptr,
        n.kind == NodeKind::rd || n.kind == NodeKind::letrec ? &n.param : nullptr}) {
    if (!b) continue;
    if (std::ranges::find(seen, *b) != seen.end())
      fail(rule.lhs.pos, fmt::format("the binder '{}' is bound twice on the left-hand side: a rule "
                                     "that joins the semantics needs distinct binders there",
                                     *b));
    seen.push_back(*b);
  }
  for (const TermPtr& c : {n.a, n.b, n.c})
    if (c) distinct_binders(*c, rule, seen);
}

// On the right of a replaced Fig. 6 clause every rd calls the differentiation on a metavariable.
void check_derivative_calls(const Node& n, const adsem::rules::RuleDecl& rule, const Pattern& p) {
  if (n.kind == NodeKind::rd) {
    const bool meta =
        n.c->kind == NodeKind::var &&
        std::ranges::any_of(p.metas, [&](const auto& m) { return m.name == n.c->name; });
    if (!meta)
      fail(rule.rhs.pos, "on the right of a replaced Fig. 6 clause, W.rd[V](x:T. M) calls the "
                         "differentiation W.R_V(x:T. M) and its body must be a metavariable of "
                         "the left-hand side");
  }
  for (const TermPtr& c : {n.a, n.b, n.c})
    if (c) check_derivative_calls(*c, rule, p);
}

std::vector<std::string> paper_names() {
  std::vector<std::string> out;
  for (const RuleInfo& info : paper_rules()->infos())
    out.push_back(info.name);
  return out;
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
    if (const auto at = paper_rules()->position(rule.name)) return *at;
    std::string names;
    for (const std::string& n : props::nearest_names(rule.name, paper_names()))
      names += (names.empty() ? "" : ", ") + n;
    fail(name_pos(rule),
         fmt::format("no paper rule '{}' in simple-diff (nearest: {}; `adsem calculi "
                     "--json` lists them)",
                     rule.name, names));
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
    const NodeKind kind = c.lhs->kind;
    const auto fires_on = [&](const std::vector<NodeKind>& kinds) {
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
      if (kind != NodeKind::rd)
        fail(rule.lhs.pos, fmt::format("a Fig. 6 clause is replaced as W.rd[V](x:T. C) --> ...: "
                                       "the left-hand side must be rd, with the clause's C as its "
                                       "body"));
      const NodeKind clause = c.lhs->c->kind;
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
    : patch_(std::move(patch)), fired_(std::move(fired)), targets_(std::move(targets)) {}

RulesPtr CompiledRules::book(const std::string& mutant, const RulesPtr& base) const {
  const std::lock_guard lock(mutex_);
  RulesPtr& book = books_[mutant];
  if (!book) book = std::make_shared<const Rules>(base->patched(patch_));
  return book;
}

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
  if (user) options.rules = user->compiled_as<CompiledRules>().book(mutant, options.rules);
  return options;
}

std::shared_ptr<const props::CompiledRuleFile>
RuleAdapter::compile_file(const adsem::rules::RuleFile& file) const {
  return compile_rule_file(file);
}

} // namespace adsem::simple_diff
