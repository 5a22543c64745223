#include "semantics/perturbative/strategy.hpp"

#include "syntax/core/depth_guard.hpp"
#include "syntax/perturbative/printer.hpp"

namespace adsem::perturbative {

namespace {

// out + part (sum(out, part) copies out: quadratic in a bag's summands)
void append(Bag& out, const Bag& part) {
  out.items.insert(out.items.end(), part.items.begin(), part.items.end());
}

std::string excerpt(std::string text) {
  constexpr std::size_t limit = 2000;
  if (text.size() > limit) text = text.substr(0, limit) + " ...";
  return text;
}

class Normaliser {
public:
  Normaliser(const Rules& rules, const RunOptions& options, Run& run)
      : rules_(rules), options_(options), run_(run) {}

  // norm(Σ s_i) = canon(Σ norm_s(s_i))
  Bag bag(const Bag& m) {
    Bag out = zero(m.type);
    for (const SimpleP& s : m.items)
      append(out, simple(*s));
    while (auto merged = rules_.nu(out)) {
      count(rule::nu, "");
      out = *merged;
    }
    return out;
  }

  Bag simple(const Simple& s) {
    const DepthGuard guard(budget_);
    work_.spend(1, "the term's growth");
    switch (s.form) {
    case Form::var:
    case Form::numeral:
    case Form::primitive:
      return single(std::make_shared<const Simple>(s));
    case Form::lam:
    case Form::inj:
      return with_operand(s, simple(*s.operand));
    case Form::app: {
      const Bag op = simple(*s.operand);
      const Bag argument = bag(s.argument);
      return roots(app(op, argument));
    }
    case Form::push:
    case Form::proj:
      return roots(with_operand(s, simple(*s.operand)));
    }
    return single(std::make_shared<const Simple>(s));
  }

private:
  // Contract each summand at its root (its children are normal) and re-normalise the contractum.
  Bag roots(const Bag& m) {
    Bag out = zero(m.type);
    for (const SimpleP& t : m.items) {
      if (auto c = contract(*t, rules_, &work_)) {
        count(c->rule, options_.trace ? print_simple(*t) : "");
        append(out, bag(c->result));
      } else {
        out.items.push_back(t);
      }
    }
    return out;
  }
  void count(const std::string& rule, const std::string& redex) {
    if (++run_.steps > options_.fuel)
      throw AdsemError(ErrorKind::fuel,
                       "out of fuel after " + std::to_string(options_.fuel) + " steps");
    ++run_.rule_counts[rule];
    if (options_.counter) options_.counter->add(rule);
    if (options_.trace) run_.trace.push_back(redex.empty() ? rule : rule + ": " + excerpt(redex));
  }

  const Rules& rules_;
  const RunOptions& options_;
  Run& run_;
  WorkBudget work_{options_.fuel, options_.work_per_step};
  DepthBudget budget_{DepthBudget::default_limit, 0, ErrorKind::eval};
};

class Stepper {
public:
  Stepper(const Rules& rules, WorkBudget* work) : rules_(rules), work_(work) {}

  std::optional<Step> bag(const Bag& m) {
    for (std::size_t i = 0; i < m.items.size(); ++i) {
      if (auto r = simple(*m.items[i])) {
        Bag out = zero(m.type);
        for (std::size_t k = 0; k < m.items.size(); ++k)
          out = k == i ? sum(out, r->result) : sum(out, single(m.items[k]));
        return Step{r->rule, out};
      }
    }
    if (auto merged = rules_.nu(m)) return Step{rule::nu, *merged};
    return std::nullopt;
  }

  std::optional<Step> simple(const Simple& s) {
    const DepthGuard guard(budget_);
    switch (s.form) {
    case Form::var:
    case Form::numeral:
    case Form::primitive:
      return std::nullopt;
    case Form::lam:
    case Form::inj:
      if (auto r = simple(*s.operand)) return Step{r->rule, with_operand(s, r->result)};
      return std::nullopt;
    case Form::app:
      if (auto r = simple(*s.operand)) return Step{r->rule, with_operand(s, r->result)};
      if (auto r = bag(s.argument)) return Step{r->rule, with_argument(s, r->result)};
      break;
    case Form::push:
    case Form::proj:
      if (auto r = simple(*s.operand)) return Step{r->rule, with_operand(s, r->result)};
      break;
    }
    if (auto c = contract(s, rules_, work_)) return Step{c->rule, c->result};
    return std::nullopt;
  }

private:
  const Rules& rules_;
  WorkBudget* work_;
  DepthBudget budget_{DepthBudget::default_limit, 0, ErrorKind::eval};
};

} // namespace

Run normalise(const Bag& m, const Rules& rules, const RunOptions& options) {
  Run run;
  run.result = Normaliser(rules, options, run).bag(m);
  return run;
}

std::optional<Step> step(const Bag& m, const Rules& rules, WorkBudget* work) {
  return Stepper(rules, work).bag(m);
}

Run reduce_small_step(const Bag& m, const Rules& rules, const RunOptions& options) {
  Run run;
  run.result = m;
  WorkBudget work(options.fuel, options.work_per_step);
  while (auto s = step(run.result, rules, &work)) {
    if (++run.steps > options.fuel)
      throw AdsemError(ErrorKind::fuel,
                       "out of fuel after " + std::to_string(options.fuel) + " steps");
    ++run.rule_counts[s->rule];
    if (options.counter) options.counter->add(s->rule);
    run.result = s->result;
    if (options.trace) run.trace.push_back(s->rule + ": " + excerpt(print(run.result)));
  }
  return run;
}

} // namespace adsem::perturbative
