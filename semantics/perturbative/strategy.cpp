#include "semantics/perturbative/strategy.hpp"

#include <algorithm>
#include <unordered_map>

#include "syntax/core/depth_guard.hpp"
#include "syntax/perturbative/printer.hpp"

namespace adsem::perturbative {

namespace {

// out + part (sum(out, part) copies out: quadratic in a bag's summands)
void append(Term& out, const Term& part) {
  out.items.insert(out.items.end(), part.items.begin(), part.items.end());
}

[[noreturn]] void out_of_fuel(long fuel) {
  throw AdsemError(ErrorKind::fuel, "out of fuel after " + std::to_string(fuel) + " steps");
}

// Adds the engine's firings to the run and the campaign's counter when the strategy ends.
class Firings {
public:
  Firings(const Engine& engine, Run& run, RuleCounter* counter)
      : engine_(engine), run_(run), counter_(counter) {}
  ~Firings() {
    engine_.add_firings(run_.rule_counts);
    if (counter_) engine_.add_firings(*counter_);
  }
  Firings(const Firings&) = delete;
  Firings& operator=(const Firings&) = delete;

private:
  const Engine& engine_;
  Run& run_;
  RuleCounter* counter_;
};

class Normaliser {
public:
  Normaliser(const Rules& book, const RunOptions& options, Run& run)
      : options_(options), run_(run), remember_walks_(!options.trace && !has_user_rules(book)),
        engine_(book, &work_, options.trace ? &run.trace : nullptr) {}

  // norm(Σ s_i) = canon(Σ norm_s(s_i))
  Term bag(const Term& m) { return bag(m, false); }
  // `reached_twice`: m is an argument more than one application holds (Argument::shared), so
  // its summands are met once per holder even where the bag alone holds them.
  Term bag(const Term& m, bool reached_twice) {
    Term out = zero(m.type);
    for (const SimpleP& s : m.items)
      append(out, simple(s, reached_twice));
    while (const Rule<Merge>* rule = engine_.select<Merge>({out})) {
      Term merged = rule->result(engine_, {out}, rule->info);
      count(rule->info, "", run_.trace.size());
      out = std::move(merged);
    }
    return out;
  }

  // A simple term this run has already walked is not walked again: its normal form is taken from
  // the walk before (normalisation is a function of the term; the contractum of a step holds its
  // redex's normal parts, and T_x's output shares its subterms, which β copies), but everything the
  // walk counted is counted again: its steps and rule firings, its work and its depth, so that the
  // counts, the fuel and the depth guard read as if it were walked. It is walked after all where
  // the repeat would pass the fuel, the work cap or the depth guard, so that the error is the same;
  // and where a walk is not only a function of the term: when tracing (the trace shows each step)
  // and with user rules (their nesting limit depends on the context). Leaves are walked at once,
  // and a node held once is not in the table (which holds it too).
  Term simple(const SimpleP& p, bool reached_twice = false) {
    const bool leaf =
        p->kind == Kind::var || p->kind == Kind::numeral || p->kind == Kind::primitive;
    if (leaf) return walk(p);
    const bool held_twice = reached_twice || p.use_count() > 1;
    if (held_twice)
      if (const auto it = known_.find(p.get()); it != known_.end() && repeatable(it->second))
        return repeat(it->second);
    const long used = work_.used();
    const long steps = run_.steps;
    const int depth = budget_.depth;
    const int deepest = deepest_;
    deepest_ = depth;
    const std::size_t fired = before_.size();
    const bool shared = held_twice && remember_walks_;
    if (shared) before_.insert(before_.end(), engine_.fired().begin(), engine_.fired().end());
    Term out = walk(p);
    if (out.items.size() == 1 && out.items.front() == p) {
      known_.emplace(p.get(), Known{p, {}, work_.used() - used, deepest_ - depth, 0, {}});
    } else if (shared) {
      Known walked{p, out, work_.used() - used, deepest_ - depth, run_.steps - steps, {}};
      for (std::size_t i = 0; i < engine_.fired().size(); ++i)
        if (const long more = engine_.fired()[i] - before_[fired + i]; more > 0)
          walked.fired.emplace_back(i, more);
      known_.emplace(p.get(), std::move(walked));
    }
    before_.resize(fired);
    deepest_ = std::max(deepest, deepest_);
    return out;
  }

  const Engine& engine() const { return engine_; }

private:
  // Terms are immutable: a leaf, and a node whose operand normalises to itself, is returned as
  // it is instead of rebuilt (the copies were a tenth of an adequacy trial).
  Term walk(const SimpleP& p) {
    const DepthGuard guard(budget_);
    deepest_ = std::max(deepest_, budget_.depth);
    work_.spend(1, growth);
    const Simple& s = *p;
    switch (s.kind) {
    case Kind::var:
    case Kind::numeral:
    case Kind::primitive:
      return single(p);
    case Kind::lam:
    case Kind::inj:
      return with_normal_operand(p, simple(s.operand));
    case Kind::app: {
      const Term op = simple(s.operand);
      const Term argument = bag(s.argument, s.argument.shared());
      const bool same_argument = argument.items == s.argument->items;
      if (same_argument && op.items.size() == 1 && op.items.front() == s.operand)
        return roots(single(p));
      return roots(same_argument ? app(op, s.argument) : app(op, argument));
    }
    case Kind::push:
    case Kind::proj:
      return roots(with_normal_operand(p, simple(s.operand)));
    }
    return single(p);
  }

  // p with its operand replaced by the operand's normal form; p itself when that is the operand.
  static Term with_normal_operand(const SimpleP& p, const Term& operand) {
    if (operand.items.size() == 1 && operand.items.front() == p->operand) return single(p);
    return with_operand(*p, operand);
  }

  // Contract each summand at its root (its children are normal) and re-normalise the contractum.
  Term roots(const Term& m) {
    Term out = zero(m.type);
    for (const SimpleP& t : m.items) {
      const Reduction::Redex redex{*t};
      if (const Rule<Reduction>* rule = engine_.select<Reduction>(redex)) {
        const std::size_t line = run_.trace.size(); // the step's line precedes its T_x clauses
        const Term contractum = rule->result(engine_, redex, rule->info);
        count(rule->info, options_.trace ? print_simple(*t) : "", line);
        const UserNesting nesting(rule->info.kind == RuleKind::user ? &user_nesting_ : nullptr);
        append(out, bag(contractum));
      } else {
        out.items.push_back(t);
      }
    }
    return out;
  }
  // One step of `rule`: against the fuel, recorded, traced at `line` when tracing.
  void count(const RuleInfo& rule, const std::string& redex, std::size_t line) {
    if (++run_.steps > options_.fuel) out_of_fuel(options_.fuel);
    engine_.record(rule);
    if (options_.trace)
      run_.trace.insert(run_.trace.begin() + static_cast<std::ptrdiff_t>(line),
                        trace_line(rule.name, redex));
  }

  // The contractum of a user rule is normalised inside the step that made it; a user rule that
  // loops with the paper's (which the paper's rules never do: SN is conjectured, L32) would
  // nest these calls until the stack overflows, long before the fuel runs out.
  // (A C++ exception unwinds these frames at some 10 µs a level: 256 keeps a loop's trial cheap.)
  static constexpr int user_nesting_limit = 256;
  class UserNesting {
  public:
    explicit UserNesting(int* depth) : depth_(depth) {
      if (depth_ && ++*depth_ > user_nesting_limit)
        throw AdsemError(ErrorKind::fuel,
                         "out of fuel: user rules re-fired " + std::to_string(user_nesting_limit) +
                             " times nested in their own contracta (a loop with the paper's "
                             "rules?)");
    }
    ~UserNesting() {
      if (depth_) --*depth_;
    }
    UserNesting(const UserNesting&) = delete;
    UserNesting& operator=(const UserNesting&) = delete;

  private:
    int* depth_;
  };

  static constexpr const char* growth = "the term's growth";
  // A simple term walked on this run: its normal form (none: the term itself) and what its walk
  // counted. It holds the node, so that its address is not reused while it is a key.
  struct Known {
    SimpleP node;
    Term normal; // empty items and no type: the node is normal
    long work;
    int height;
    long steps;
    std::vector<std::pair<std::size_t, long>> fired; // (position in the book, firings)
  };
  bool repeatable(const Known& k) const {
    return budget_.depth + k.height <= budget_.limit && k.steps <= options_.fuel - run_.steps &&
           k.work <= work_.remaining();
  }
  Term repeat(const Known& k) {
    work_.spend(k.work, growth);
    run_.steps += k.steps;
    for (const auto& [position, count] : k.fired)
      engine_.record(position, count);
    deepest_ = std::max(deepest_, budget_.depth + k.height);
    return k.normal.type ? k.normal : single(k.node);
  }
  static bool has_user_rules(const Rules& book) {
    for (std::size_t i = 0; i < book.size(); ++i)
      if (book.info(i).kind == RuleKind::user) return true;
    return false;
  }

  const RunOptions& options_;
  Run& run_;
  std::unordered_map<const Simple*, Known> known_;
  // Whether a walk that takes steps is remembered (see `simple`), and the firings before each
  // such walk in progress.
  const bool remember_walks_;
  std::vector<long> before_;
  int deepest_ = 0; // the deepest level of the depth guard on the current walk
  int user_nesting_ = 0;
  WorkBudget work_{options_.fuel, options_.work_per_step};
  Engine engine_;
  DepthBudget budget_{DepthBudget::default_limit, 0, ErrorKind::eval};
};

struct Found {
  const RuleInfo* rule;
  Term result; // the whole term after the step
};

// The bag m with its summand i replaced by the bag `stepped`.
Term with_summand(const Term& m, std::size_t i, const Term& stepped) {
  Term out = zero(m.type);
  for (std::size_t k = 0; k < m.items.size(); ++k)
    out = k == i ? sum(out, stepped) : sum(out, single(m.items[k]));
  return out;
}

class Stepper {
public:
  explicit Stepper(Engine& engine) : engine_(engine) {}

  std::optional<Found> bag(const Term& m) {
    for (std::size_t i = 0; i < m.items.size(); ++i) {
      if (auto r = simple(*m.items[i])) return Found{r->rule, with_summand(m, i, r->result)};
    }
    if (const Rule<Merge>* rule = engine_.select<Merge>({m}))
      return Found{&rule->info, rule->result(engine_, {m}, rule->info)};
    return std::nullopt;
  }

  std::optional<Found> simple(const Simple& s) {
    const DepthGuard guard(budget_);
    switch (s.kind) {
    case Kind::var:
    case Kind::numeral:
    case Kind::primitive:
      return std::nullopt;
    case Kind::lam:
    case Kind::inj:
      if (auto r = simple(*s.operand)) return Found{r->rule, with_operand(s, r->result)};
      return std::nullopt;
    case Kind::app:
      if (auto r = simple(*s.operand)) return Found{r->rule, with_operand(s, r->result)};
      if (auto r = bag(s.argument)) return Found{r->rule, with_argument(s, r->result)};
      break;
    case Kind::push:
    case Kind::proj:
      if (auto r = simple(*s.operand)) return Found{r->rule, with_operand(s, r->result)};
      break;
    }
    const Reduction::Redex redex{s};
    if (const Rule<Reduction>* rule = engine_.select<Reduction>(redex))
      return Found{&rule->info, rule->result(engine_, redex, rule->info)};
    return std::nullopt;
  }

private:
  Engine& engine_;
  DepthBudget budget_{DepthBudget::default_limit, 0, ErrorKind::eval};
};

// The Stepper's walk with every redex on the way numbered in pre-order, the node's own before its
// children's, contracting the one numbered `which` (none: counting them all).
class ChosenStepper {
public:
  static constexpr std::size_t none = static_cast<std::size_t>(-1);
  ChosenStepper(Engine& engine, std::size_t which) : engine_(engine), which_(which) {}
  std::size_t seen() const { return seen_; }

  std::optional<Found> bag(const Term& m) {
    if (const Rule<Merge>* rule = engine_.select<Merge>({m}); rule != nullptr && chosen())
      return Found{&rule->info, rule->result(engine_, {m}, rule->info)};
    for (std::size_t i = 0; i < m.items.size(); ++i) {
      if (auto r = simple(*m.items[i])) return Found{r->rule, with_summand(m, i, r->result)};
    }
    return std::nullopt;
  }

  std::optional<Found> simple(const Simple& s) {
    const DepthGuard guard(budget_);
    if (s.kind == Kind::var || s.kind == Kind::numeral || s.kind == Kind::primitive)
      return std::nullopt;
    const Reduction::Redex redex{s};
    if (const Rule<Reduction>* rule = engine_.select<Reduction>(redex); rule && chosen())
      return Found{&rule->info, rule->result(engine_, redex, rule->info)};
    if (auto r = simple(*s.operand)) return Found{r->rule, with_operand(s, r->result)};
    if (s.kind == Kind::app)
      if (auto r = bag(s.argument)) return Found{r->rule, with_argument(s, r->result)};
    return std::nullopt;
  }

private:
  bool chosen() { return seen_++ == which_; }

  Engine& engine_;
  std::size_t which_;
  std::size_t seen_ = 0;
  DepthBudget budget_{DepthBudget::default_limit, 0, ErrorKind::eval};
};

} // namespace

std::size_t redex_count(const Term& m, const Rules& book) {
  Engine engine(book, nullptr);
  ChosenStepper counter(engine, ChosenStepper::none);
  (void)counter.bag(m);
  return counter.seen();
}

std::optional<Step> step_at(const Term& m, const Rules& book, std::size_t which, WorkBudget* work) {
  Engine engine(book, work);
  auto found = ChosenStepper(engine, which).bag(m);
  if (!found) return std::nullopt;
  return Step{found->rule->name, std::move(found->result)};
}

Run normalise(const Term& m, const Rules& book, const RunOptions& options) {
  Run run;
  {
    Normaliser normaliser(book, options, run);
    const Firings firings(normaliser.engine(), run, options.counter);
    run.result = normaliser.bag(m);
  }
  return run;
}

std::optional<Step> step(const Term& m, const Rules& book, WorkBudget* work) {
  Engine engine(book, work);
  auto found = Stepper(engine).bag(m);
  if (!found) return std::nullopt;
  return Step{found->rule->name, std::move(found->result)};
}

Run reduce_small_step(const Term& m, const Rules& book, const RunOptions& options) {
  Run run;
  run.result = m;
  WorkBudget work(options.fuel, options.work_per_step);
  Engine engine(book, &work);
  {
    const Firings firings(engine, run, options.counter);
    while (auto s = Stepper(engine).bag(run.result)) {
      if (++run.steps > options.fuel) out_of_fuel(options.fuel);
      engine.record(*s->rule);
      run.result = s->result;
      if (options.trace) run.trace.push_back(trace_line(s->rule->name, print(run.result)));
    }
  }
  return run;
}

} // namespace adsem::perturbative
