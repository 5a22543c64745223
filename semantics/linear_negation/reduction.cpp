// Table 2 of seed 002 (L328-367; spec §4.2-4.4), rule by rule, and the strategies of spec §4.7.
#include "semantics/linear_negation/reduction.hpp"

#include <algorithm>
#include <atomic>
#include <optional>
#include <random>
#include <stdexcept>

#include "semantics/linear_negation/primitives.hpp"
#include "syntax/linear_negation/printer.hpp"

namespace adsem::linear_negation {

const std::vector<std::string>& rule_names() {
  static const std::vector<std::string> names = {
      rule::beta,     rule::pair, rule::subst, rule::gc,     rule::lin_subst, rule::sum,
      rule::sum_pair, rule::mul,  rule::prim,  rule::factor, rule::eta_pair};
  return names;
}

Peeled peel(const Term& t) {
  Peeled p{t, {}};
  std::vector<Term> outer_first;
  Term at = t;
  while (at->tag == Tag::let || at->tag == Tag::let_pair) {
    outer_first.push_back(at);
    at = at->body();
  }
  p.core = at;
  p.frames.assign(outer_first.rbegin(), outer_first.rend());
  return p;
}

Term wrap(Term core, const std::vector<Term>& frames) {
  for (const Term& f : frames)
    core = rebuild(*f, {core, f->bound()});
  return core;
}

bool exponential_stack(const std::vector<Term>& frames) {
  return std::all_of(frames.begin(), frames.end(),
                     [](const Term& f) { return f->tag == Tag::let_pair || !f->x.linear; });
}

namespace {

std::vector<Term> concat(std::initializer_list<const std::vector<Term>*> parts) {
  std::vector<Term> out;
  for (const auto* p : parts)
    out.insert(out.end(), p->begin(), p->end());
  return out;
}

void sum_leaves(const Term& t, std::vector<Term>& out) {
  if (t->tag == Tag::add) {
    sum_leaves(t->left(), out);
    sum_leaves(t->right(), out);
  } else {
    out.push_back(t);
  }
}

Term sum_of(const std::vector<Term>& leaves) {
  Term out = leaves.front();
  for (std::size_t i = 1; i < leaves.size(); ++i)
    out = add(out, leaves[i]);
  return out;
}

// C{x} -> C{v}: the leftmost free occurrence (rule (9) is a micro-step).
std::optional<Term> replace_first(const Term& t, const std::string& x, const Term& v) {
  if (!occurs_free(x, t)) return std::nullopt;
  if (t->tag == Tag::var) return v;
  for (std::size_t i = 0; i < t->kids.size(); ++i) {
    const bool under =
        (t->tag == Tag::lam || t->tag == Tag::let || t->tag == Tag::let_pair) && i == 0;
    if (under && (t->x.name == x || (t->tag == Tag::let_pair && t->y.name == x))) continue;
    if (auto r = replace_first(t->kids[i], x, v)) {
      std::vector<Term> kids = t->kids;
      kids[i] = *r;
      return rebuild(*t, std::move(kids));
    }
  }
  return std::nullopt;
}

// |t| as a tree (what rename_bound builds), counted only up to `limit`.
long size_up_to(const Term& t, long limit) {
  long n = 0;
  std::vector<const Node*> todo{t.get()};
  while (!todo.empty() && n < limit) {
    const Node* at = todo.back();
    todo.pop_back();
    ++n;
    for (const Term& k : at->kids)
      todo.push_back(k.get());
  }
  return n;
}

bool leaf_value(const Term& v) {
  if (v->tag == Tag::var || v->tag == Tag::num) return true;
  return v->tag == Tag::pair && leaf_value(v->left()) && leaf_value(v->right());
}

// A summand (x α t) β with x a variable: its head name, or "".
struct Call {
  std::string head;
  Term argument;
  std::vector<Term> alpha, beta;
};
std::optional<Call> as_call(const Term& leaf) {
  const Peeled outer = peel(leaf);
  if (outer.core->tag != Tag::app) return std::nullopt;
  const Peeled head = peel(outer.core->left());
  if (head.core->tag != Tag::var) return std::nullopt;
  return Call{head.core->name, outer.core->right(), head.frames, outer.frames};
}

bool binds(const std::vector<Term>& frames, const std::string& x) {
  return std::any_of(frames.begin(), frames.end(), [&](const Term& f) {
    return f->x.name == x || (f->tag == Tag::let_pair && f->y.name == x);
  });
}

} // namespace

struct Reducer::Candidate {
  std::vector<int> path;
  std::string rule;
  int cls = 2;              // S_bp priority class (spec §4.7.4), 1 first
  std::size_t i = 0, j = 0; // summand indices for (12), (13), (17)
};

// Receives the redex instances in leftmost-outermost order and keeps what the strategy needs:
// all of them (all_steps), the first (S_lo), the first of the best class (S_bp), or a uniform one
// by reservoir sampling (S_rand). Paths are copied only when kept.
struct Reducer::Sink {
  enum class Mode { all, first, best, sample } mode = Mode::all;
  std::vector<Candidate> kept;
  long seen = 0;
  std::mt19937_64* rng = nullptr;
  bool done = false;

  void offer(const std::vector<int>& path, const char* rule, int cls, std::size_t i,
             std::size_t j) {
    ++seen;
    switch (mode) {
    case Mode::all:
      kept.push_back(Candidate{path, rule, cls, i, j});
      return;
    case Mode::first:
      kept.push_back(Candidate{path, rule, cls, i, j});
      done = true;
      return;
    case Mode::best:
      if (kept.empty() || cls < kept.front().cls) kept.assign(1, Candidate{path, rule, cls, i, j});
      if (cls == 1) done = true;
      return;
    case Mode::sample:
      if (std::uniform_int_distribution<long>(0, seen - 1)(*rng) == 0)
        kept.assign(1, Candidate{path, rule, cls, i, j});
      return;
    }
  }
};

namespace {
// Rule names as small indices for the memo (the order of rule_names()).
std::uint8_t rule_index(const char* rule) {
  const auto& names = rule_names();
  for (std::size_t k = 0; k < names.size(); ++k)
    if (names[k].c_str() == rule || names[k] == rule) return static_cast<std::uint8_t>(k);
  throw std::logic_error(std::string("unknown rule ") + rule);
}
std::uint64_t next_reducer_id() {
  static std::atomic<std::uint64_t> next{1};
  return next++;
}
} // namespace

Reducer::Reducer(const Term& t, RunOptions options)
    : current_(t), options_(std::move(options)), names_(t), rng_state_(options_.seed),
      copy_budget_(options_.fuel, options_.copy_per_step), id_(next_reducer_id()) {
  for (const auto& [x, a] : options_.free_types) {
    names_.reserve(x);
    types_[x] = a;
  }
  learn_types(t);
}

void Reducer::learn_types(const Term& t) {
  if (t->tag == Tag::lam || t->tag == Tag::let) {
    if (t->x.type) types_[t->x.name] = t->x.type;
  } else if (t->tag == Tag::let_pair) {
    if (t->x.type) types_[t->x.name] = t->x.type;
    if (t->y.type) types_[t->y.name] = t->y.type;
  }
  for (const Term& k : t->kids)
    learn_types(k);
}

bool Reducer::is_neg_variable(const std::string& x) {
  auto it = types_.find(x);
  if (it == types_.end()) {
    learn_types(current_);
    it = types_.find(x);
  }
  return it != types_.end() && is_neg(it->second);
}

void Reducer::match_node(const Term& t, bool in_sum, std::vector<Offer>& out) {
  const RuleSet& rules = options_.rules;
  const auto add_candidate = [&](const char* name, int cls, std::size_t i = 0, std::size_t j = 0) {
    out.push_back(Offer{name, cls, i, j});
  };
  const bool numeric = rules.numeric_only;
  switch (t->tag) {
  case Tag::app: // (7) (λx.t)α u → t[x := u]α
    if (!numeric && peel(t->left()).core->tag == Tag::lam) add_candidate(rule::beta, 4);
    return;
  case Tag::let_pair: // (8) s[⟨x,y⟩ := ⟨t,u⟩α] → s[x := t][y := u]α
    if (!numeric && peel(t->bound()).core->tag == Tag::pair) add_candidate(rule::pair, 2);
    return;
  case Tag::let: {
    const Peeled c = peel(t->bound());
    if (t->x.linear) { // (11) t[z^R := vα] → t{v/z}α, v a numeral or a variable
      if (!numeric && (c.core->tag == Tag::num || c.core->tag == Tag::var))
        add_candidate(rule::lin_subst, 2);
      return;
    }
    if (is_value(c.core)) {
      const int uses = free_count(t->x.name, t->body());
      if (uses == 0) { // (10) t[x := vα] → tα
        add_candidate(rule::gc, 2);
      } else { // (9) C{x}[x := vα] → C{v}[x := v]α
        const Term& v = c.core;
        int cls = 7;
        if (leaf_value(v))
          cls = 2;
        else if (v->tag == Tag::lam && !v->x.linear)
          cls = 5;
        else if (v->tag == Tag::lam && v->x.linear && uses == 1)
          cls = 6;
        if (!numeric || v->tag == Tag::num) add_candidate(rule::subst, cls);
      }
    }
    // (16) t[x := ⟨u,u'⟩] → t[x := ⟨y,y'⟩][⟨y,y'⟩ := ⟨u,u'⟩], shares non-trivial components.
    // [EXT] also at a distance, ⟨u,u'⟩α (the pattern ES keeps α for (8)): without it ≡ (19)/(21)
    // could hide a (16) redex, against Lemma 3 (found by equivalence-bisimulation).
    const Term& pr = c.core;
    if (!numeric && rules.eta_pair && pr->tag == Tag::pair &&
        !(leaf_value(pr->left()) && leaf_value(pr->right())) &&
        !(pr->left()->tag == Tag::var && pr->right()->tag == Tag::var))
      add_candidate(rule::eta_pair, 3);
    return;
  }
  case Tag::add: {
    if (in_sum) return; // the maximal sum decides (AC, spec §9 P3)
    std::vector<Term> leaves;
    sum_leaves(t, leaves);
    std::vector<Peeled> peeled;
    for (const Term& l : leaves)
      peeled.push_back(peel(l));
    // the first two numerals and the first two pairs whose stacks hold no linear ES
    std::vector<std::size_t> nums, pairs;
    for (std::size_t i = 0; i < leaves.size(); ++i) {
      if (!exponential_stack(peeled[i].frames)) continue;
      if (peeled[i].core->tag == Tag::num && nums.size() < 2) nums.push_back(i);
      if (!numeric && peeled[i].core->tag == Tag::pair && pairs.size() < 2) pairs.push_back(i);
    }
    if (nums.size() == 2) add_candidate(rule::sum, 2, nums[0], nums[1]);
    if (pairs.size() == 2) add_candidate(rule::sum_pair, 2, pairs[0], pairs[1]);
    if (numeric || !rules.factoring) return;
    // (17): the first two calls of each R^⊥ head whose stacks qualify
    std::map<std::string, std::size_t> first;
    for (std::size_t i = 0; i < leaves.size(); ++i) {
      const auto call = as_call(leaves[i]);
      if (!call) continue;
      const Call& a = *call;
      // side conditions: no stack binds x; [spec §4.4 caveat] only exponential ES move
      if (binds(a.alpha, a.head) || binds(a.beta, a.head) || !exponential_stack(a.alpha) ||
          !exponential_stack(a.beta) || !is_neg_variable(a.head))
        continue;
      const auto [it, fresh] = first.emplace(a.head, i);
      if (!fresh && it->second != leaves.size()) {
        add_candidate(rule::factor, 1, it->second, i);
        it->second = leaves.size(); // one candidate per head
      }
    }
    return;
  }
  case Tag::prim: {
    std::vector<double> args;
    for (const Term& k : t->kids) {
      const Peeled p = peel(k);
      if (p.core->tag != Tag::num) return;
      args.push_back(p.core->value);
    }
    if (t->name == "mul") {
      add_candidate(rule::mul, 2); // (14) r α · q β → (r·q) α β
    } else if (apply_primitive(t->name, args)) {
      add_candidate(rule::prim, 2); // (23) f(r1 α1, …) → ⟦f⟧(r) α1 …
    }
    return;
  }
  default:
    return;
  }
}

void Reducer::enumerate(const Term& t, std::vector<int>& path, bool in_sum, Sink& out) {
  std::vector<Offer> offers;
  match_node(t, in_sum, offers);
  for (const Offer& o : offers)
    out.offer(path, o.rule, o.cls, o.i, o.j);
  for (std::size_t i = 0; i < t->kids.size() && !out.done; ++i) {
    path.push_back(static_cast<int>(i));
    enumerate(t->kids[i], path, t->tag == Tag::add, out);
    path.pop_back();
  }
}

Term Reducer::contract(const Term& t, const Candidate& c) {
  const std::string& r = c.rule;
  if (r == rule::beta) {
    const Peeled f = peel(t->left());
    const Node& l = *f.core;
    return wrap(let(l.x, l.body(), t->right()), f.frames);
  }
  if (r == rule::pair) {
    const Peeled p = peel(t->bound());
    Term a = p.core->left();
    Term b = p.core->right();
    if (options_.rules.duplicate_pair_stack && !p.frames.empty()) {
      // MUTANT equivalence-duplicates-substitution: ⟨t,u⟩α read as ⟨tα, uα⟩
      a = wrap(a, p.frames);
      b = rename_bound(wrap(b, p.frames), names_);
      learn_types(b);
      return let(t->y, let(t->x, t->body(), a), b);
    }
    return wrap(let(t->y, let(t->x, t->body(), a), b), p.frames);
  }
  if (r == rule::subst) {
    const Peeled p = peel(t->bound());
    // spent before copying: a value past the cap is never built
    copy_budget_.spend(size_up_to(p.core, copy_budget_.remaining() + 1), "copying values (rule 9)");
    const Term copy = rename_bound(p.core, names_);
    learn_types(copy);
    copy_volume_ += size_of(copy);
    const Term body = *replace_first(t->body(), t->x.name, copy);
    return wrap(rebuild(*t, {body, p.core}), p.frames);
  }
  if (r == rule::gc) return wrap(t->body(), peel(t->bound()).frames);
  if (r == rule::lin_subst) {
    const Peeled p = peel(t->bound());
    return wrap(substitute(t->body(), t->x.name, p.core), p.frames);
  }
  if (r == rule::eta_pair) {
    const std::string y = names_.fresh(t->x.name);
    const std::string y2 = names_.fresh(t->x.name);
    const Type& a = t->x.type;
    const Binder by = exp_binder(y, a && is_product(a) ? a->left : nullptr);
    const Binder by2 = exp_binder(y2, a && is_product(a) ? a->right : nullptr);
    types_[y] = by.type;
    types_[y2] = by2.type;
    const Term inner = rebuild(*t, {t->body(), pair(var(y), var(y2))});
    return let_pair(by, by2, inner, t->bound());
  }
  if (r == rule::mul || r == rule::prim) {
    std::vector<double> args;
    std::vector<Term> frames;
    for (const Term& k : t->kids) {
      const Peeled p = peel(k);
      args.push_back(p.core->value);
      frames.insert(frames.end(), p.frames.begin(), p.frames.end());
    }
    // Rule (14)'s r·q too goes through the shared primitive table, whose overflow check names the
    // call (semantics/core/overflow.hpp), as every other calculus's arithmetic does.
    const double value = *apply_primitive(t->name, args);
    return wrap(num(value), frames);
  }
  // sums: (12), (13), (17) on summands i < j of the maximal sum
  std::vector<Term> leaves;
  sum_leaves(t, leaves);
  Term merged;
  if (r == rule::sum || r == rule::sum_pair) {
    const Peeled a = peel(leaves[c.i]);
    const Peeled b = peel(leaves[c.j]);
    const Term core = r == rule::sum ? num(a.core->value + b.core->value)
                                     : pair(add(a.core->left(), b.core->left()),
                                            add(a.core->right(), b.core->right()));
    merged = wrap(core, concat({&a.frames, &b.frames}));
  } else { // (17) (x α t) β + (x α' t') β' → x (t + t') α β α' β'
    const Call a = *as_call(leaves[c.i]);
    const Call b = *as_call(leaves[c.j]);
    merged = wrap(app(var(a.head), add(a.argument, b.argument)),
                  concat({&a.alpha, &a.beta, &b.alpha, &b.beta}));
  }
  leaves[c.i] = merged;
  leaves.erase(leaves.begin() + static_cast<long>(c.j));
  return sum_of(leaves);
}

Term Reducer::apply_at(const Term& t, const Candidate& c, std::size_t depth) {
  if (depth == c.path.size()) return contract(t, c);
  std::vector<Term> kids = t->kids;
  const auto k = static_cast<std::size_t>(c.path[depth]);
  kids[k] = apply_at(kids[k], c, depth + 1);
  return rebuild(*t, std::move(kids));
}

// The summary of t's subtree, from its children's summaries and its own redex instances, in the
// order enumerate visits them: the node's own instances, then the children left to right. S_bp
// keeps the first instance of a strictly smaller class (Sink::Mode::best), S_lo the first one.
// Nodes are immutable, so a summary stays valid for this reducer (same rules, same types).
const RedexMemo::Summary& Reducer::summary(const Term& t, bool in_sum) {
  const bool own_context = in_sum && t->tag == Tag::add; // only a sum's redexes see in_sum
  RedexMemo::Summary& slot = own_context ? t->memo.in_sum : t->memo.top;
  if (slot.owner == id_) return slot;
  RedexMemo::Summary out;
  out.owner = id_;
  offers_.clear();
  match_node(t, own_context, offers_);
  out.own = static_cast<std::uint32_t>(offers_.size());
  out.count = out.own;
  for (const Offer& o : offers_) {
    const RedexMemo::Choice c{static_cast<std::uint8_t>(o.cls), rule_index(o.rule), -1,
                              static_cast<std::uint32_t>(o.i), static_cast<std::uint32_t>(o.j)};
    if (out.best.cls == 0 || c.cls < out.best.cls) out.best = c;
    if (out.first.cls == 0) out.first = c;
  }
  for (std::size_t i = 0; i < t->kids.size(); ++i) {
    const RedexMemo::Summary& k = summary(t->kids[i], t->tag == Tag::add);
    out.count += k.count;
    const RedexMemo::Choice c{0, 0, static_cast<std::int32_t>(i), 0, 0};
    if (k.best.cls != 0 && (out.best.cls == 0 || k.best.cls < out.best.cls)) {
      out.best = c;
      out.best.cls = k.best.cls;
    }
    if (out.first.cls == 0 && k.first.cls != 0) {
      out.first = c;
      out.first.cls = k.first.cls;
    }
  }
  slot = out;
  return slot;
}

// Follows the summaries from the root to the chosen redex instance.
std::optional<Reducer::Candidate> Reducer::cached_choice(bool best) {
  const Node* at = current_.get();
  const RedexMemo::Summary* s = &summary(current_, false);
  if ((best ? s->best : s->first).cls == 0) return std::nullopt;
  Candidate c;
  for (;;) {
    const RedexMemo::Choice& ch = best ? s->best : s->first;
    if (ch.child < 0) {
      c.rule = rule_names()[ch.rule];
      c.cls = ch.cls;
      c.i = ch.i;
      c.j = ch.j;
      return c;
    }
    c.path.push_back(ch.child);
    const bool in_sum = at->tag == Tag::add;
    const Term& kid = at->kids[static_cast<std::size_t>(ch.child)];
    at = kid.get();
    s = &summary(kid, in_sum);
  }
}

// S_rand: the reservoir sampling of step_by_enumeration (the same draws from the same generator,
// one per instance in enumeration order), with the instance count read from the summaries; then
// the chosen instance is found by descending along the counts.
std::optional<Reducer::Candidate> Reducer::sampled_choice() {
  const RedexMemo::Summary& root = summary(current_, false);
  std::mt19937_64 rng(rng_state_);
  long kept = -1;
  for (long seen = 1; seen <= static_cast<long>(root.count); ++seen)
    if (std::uniform_int_distribution<long>(0, seen - 1)(rng) == 0) kept = seen - 1;
  rng_state_ = rng();
  if (kept < 0) return std::nullopt;
  auto k = static_cast<std::uint32_t>(kept);
  Candidate c;
  const Term* at = &current_;
  bool in_sum = false;
  for (;;) {
    const RedexMemo::Summary& s = summary(*at, in_sum);
    if (k < s.own) {
      offers_.clear();
      match_node(*at, in_sum && (*at)->tag == Tag::add, offers_);
      const Offer& o = offers_.at(k);
      c.rule = o.rule;
      c.cls = o.cls;
      c.i = o.i;
      c.j = o.j;
      return c;
    }
    k -= s.own;
    const Node& n = **at;
    std::size_t i = 0;
    for (; i < n.kids.size(); ++i) {
      const std::uint32_t here = summary(n.kids[i], n.tag == Tag::add).count;
      if (k < here) break;
      k -= here;
    }
    c.path.push_back(static_cast<int>(i));
    in_sum = n.tag == Tag::add;
    at = &n.kids.at(i);
  }
}

std::optional<Step> Reducer::step() {
  const auto c = options_.strategy == Strategy::random
                     ? sampled_choice()
                     : cached_choice(options_.strategy == Strategy::bp);
  if (!c) return std::nullopt;
  current_ = apply_at(current_, *c, 0);
  return Step{c->rule, current_};
}

std::optional<Step> Reducer::step_by_enumeration() {
  Sink sink;
  // Seeding a Mersenne twister costs more than a small step, so only the random strategy has one.
  std::optional<std::mt19937_64> rng;
  switch (options_.strategy) {
  case Strategy::bp:
    sink.mode = Sink::Mode::best;
    break;
  case Strategy::lo:
    sink.mode = Sink::Mode::first;
    break;
  case Strategy::random:
    sink.mode = Sink::Mode::sample;
    rng.emplace(rng_state_);
    sink.rng = &*rng;
    break;
  }
  std::vector<int> path;
  enumerate(current_, path, false, sink);
  if (rng) rng_state_ = (*rng)();
  if (sink.kept.empty()) return std::nullopt;
  const Candidate& c = sink.kept.front();
  current_ = apply_at(current_, c, 0);
  return Step{c.rule, current_};
}

std::vector<Step> Reducer::all_steps() {
  Sink sink;
  std::vector<int> path;
  enumerate(current_, path, false, sink);
  std::vector<Step> out;
  for (const Candidate& c : sink.kept)
    out.push_back(Step{c.rule, apply_at(current_, c, 0)});
  return out;
}

Run normalise(const Term& t, const RunOptions& options) {
  Reducer r(t, options);
  Run run;
  while (auto s = r.step()) {
    ++run.steps;
    ++run.rule_counts[s->rule];
    if (options.counter) options.counter->add(s->rule);
    if (options.trace) run.trace.push_back(s->rule + ": " + print(s->result));
    if (run.steps >= options.fuel && r.step()) {
      throw AdsemError(ErrorKind::fuel,
                       "no normal form within " + std::to_string(options.fuel) + " steps (fuel)");
    }
  }
  run.result = r.current();
  run.copy_volume = r.copy_volume_;
  return run;
}

Term eta_expand(const Term& t, const Type& type, Names& names) {
  if (is_neg(type)) {
    const std::string y = names.fresh("y");
    return lam(lin_binder(y), app(t, var(y)));
  }
  const std::string y = names.fresh("y");
  return lam(exp_binder(y, type->left), app(t, var(y)));
}

} // namespace adsem::linear_negation
