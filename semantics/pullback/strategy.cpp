#include "semantics/pullback/strategy.hpp"

#include <algorithm>

#include "semantics/pullback/anf.hpp"
#include "syntax/core/deep_walk.hpp"
#include "syntax/pullback/nesting.hpp"
#include "syntax/pullback/printer.hpp"

namespace adsem::pullback {

namespace {

// t with kid i replaced. [perf] Copied straight into its shared block (its facts and atom mark
// start empty, ast.hpp): a copy `Node n = *t` moved in and destroyed cost the node twice, and an
// observed run (step) rebuilds the path to every redex.
Term with_kid(const Term& t, std::size_t i, Term k) {
  auto n = make_shared_node<Node>(*t);
  n->kids[i] = std::move(k);
  return n;
}

// The same, reusing t's node when t is its only handle: run_refocusing's frames hold nodes an
// earlier step built and nothing else shares, and a copy per frame moved up (a node and its kids'
// vector made, the old ones freed) was a large part of rule 8's steps (seed 000 Fig. 3 L240). The
// node is made non-const (ast.cpp); its remembered facts and atom mark describe the old kid, so
// they are dropped. A let is always copied: the let-series memo (is_let_series_remembered) keys
// let nodes by address without holding them.
Term with_kid_reusing(Term&& t, std::size_t i, Term k) {
  if (t.use_count() != 1 || t->kind == Kind::let) return with_kid(t, i, std::move(k));
  Node& n = const_cast<Node&>(*t);
  n.kids[i] = std::move(k);
  n.facts_slot = FactsSlot{};
  n.atom_mark = AtomMark{};
  return std::move(t);
}

constexpr int max_term_depth = max_term_nesting; // as substitution and the printer (nesting.hpp)
constexpr std::size_t inert_limit = 1 << 20;     // entries before the cache restarts

} // namespace

// [perf] Both follow the atom's projections from its root outward, as its path (atom_path)
// lists them, without making the path: rows 10-19 (seed 000 Fig. 3 L240-248) ask both of every
// y-atom they read, and a path is a heap vector as long as the stages read so far.
Term meta_project(const Term& v, const Term& atom) {
  if (atom->kind == Kind::var) return v;
  const Term t = meta_project(v, atom->kids[0]);
  return t->kind == Kind::pair ? t->kids[static_cast<std::size_t>(atom->index - 1)]
                               : proj(atom->index, t);
}

Term path_atom(const Term& root, const Term& atom) {
  if (atom->kind == Kind::var) return root;
  return proj(atom->index, path_atom(root, atom->kids[0]));
}

Machine::Machine(Rules rules, RunOptions options)
    : rules_(std::move(rules)),
      own_contexts_(rules_.book == paper_rules() ? nullptr
                                                 : std::make_unique<const Contexts>(*rules_.book)),
      contexts_(own_contexts_ ? own_contexts_.get() : &paper_contexts()), options_(options),
      fired_(rules_.book->size(), 0) {}

Machine::~Machine() {
  if (!options_.counter) return;
  for (std::size_t i = 0; i < fired_.size(); ++i)
    if (fired_[i] > 0) options_.counter->add(rules_.book->info(i).name, fired_[i]);
}

std::map<std::string, long> Machine::rule_counts() const {
  std::map<std::string, long> out;
  for (std::size_t i = 0; i < fired_.size(); ++i)
    if (fired_[i] > 0) out[rules_.book->info(i).name] += fired_[i];
  return out;
}

void Machine::count(std::size_t rule) {
  ++fired_[rule];
  if (++fuel_used_ > options_.fuel)
    throw AdsemError(ErrorKind::fuel,
                     "out of fuel after " + std::to_string(options_.fuel) + " steps");
}

namespace {
// Sets a flag for one scope (exceptions included) and restores it.
class FlagScope {
public:
  FlagScope(bool& flag, bool value) : flag_(flag), saved_(flag) { flag_ = value; }
  ~FlagScope() { flag_ = saved_; }
  FlagScope(const FlagScope&) = delete;
  FlagScope& operator=(const FlagScope&) = delete;

private:
  bool& flag_;
  bool saved_;
};
// Points holds_alone at a run's context for one scope (a premise's run inside it has its own) and
// restores the enclosing run's.
template <class F> class ContextScope {
public:
  ContextScope(const Term*& focus, const std::vector<F>*& frames, const Term* run_focus,
               const std::vector<F>* run_frames)
      : focus_(focus), frames_(frames), saved_focus_(focus), saved_frames_(frames) {
    focus = run_focus;
    frames = run_frames;
  }
  ~ContextScope() {
    focus_ = saved_focus_;
    frames_ = saved_frames_;
  }
  ContextScope(const ContextScope&) = delete;
  ContextScope& operator=(const ContextScope&) = delete;

private:
  const Term*& focus_;
  const std::vector<F>*& frames_;
  const Term* saved_focus_;
  const std::vector<F>* saved_frames_;
};
} // namespace

std::optional<Step> Machine::step(const Term& t) {
  const FlagScope observed(refocusing_, false);
  std::vector<Frame> frames;
  auto found = search(t, 0, frames);
  if (!found) return std::nullopt;
  Step s{rules_.book->info(found->rule).name, std::move(found->contractum), {}};
  s.path.reserve(frames.size());
  for (const Frame& f : frames)
    s.path.push_back(f.kid);
  for (auto it = frames.rbegin(); it != frames.rend(); ++it)
    s.result = with_kid(it->node, static_cast<std::size_t>(it->kid), std::move(s.result));
  count(found->rule);
  if (observer_) observer_(t, s, premise_depth_ > 0);
  return s;
}

// [perf] normalise without materialising the whole term after each step. After C[r] →
// C[c], the step function applied to C[c] walks down the same frames (their earlier siblings are
// unchanged values) to c: refocusing (Danvy & Nielsen) continues the search at c, and moves up a
// frame (rebuilding that one node) only when c holds no redex, trying the parent's later children
// and then the parent itself, in step's order. The firings, their order and the terms are the
// same as stepping from the root. One exception is kept exact by falling back to the root: when
// an earlier sibling's search ran a failed pullback redex (rows 9-20 draw fresh names and run
// premises even when they fail), stepping from the root runs it again, so we do too.
Term Machine::run_refocusing(const Term& t, long& steps) {
  const FlagScope unobserved(refocusing_, true);
  std::vector<Frame> frames; // the context C, root first
  Term focus = t;
  const ContextScope context(focus_, frames_, &focus, &frames); // a premise's run has its own
  const auto rebuild = [&] {
    for (auto it = frames.rbegin(); it != frames.rend(); ++it)
      focus = with_kid_reusing(std::move(it->node), static_cast<std::size_t>(it->kid),
                               std::move(focus));
    frames.clear();
  };
  const auto fired = [&](Found& f) {
    focus = std::move(f.contractum);
    for (long i = 0; i < f.firings; ++i) {
      count(f.rule);
      ++steps;
    }
    if (!frames.empty() && !frames.back().clean) {
      rebuild(); // search from the root again
      return;
    }
    // [perf] The parent frame still holds the contracted redex as its kid until the search moves
    // up past it. When only the frames hold the parent (it is an earlier contractum, or inside
    // one, not a node of a term above), that redex is released now: else a series of rule 8
    // steps (seed 000 Fig. 3 L240), each firing inside the previous contractum, keeps every
    // earlier version of the rest of the series alive (memory cubic in the wide sum's width).
    // The kid is released in place (the node is made non-const, ast.cpp, and held by nobody
    // else; a copy per step cost 7% of adequacy's CPU): the holed node is only read again to be
    // rebuilt with its new kid (with_kid_reusing). A frame's node is the frames' alone when no
    // one else holds it, or when the frame above is the frames' alone and releases it: from the
    // nearest such frame up the stack, every kid on the path is released, so that moving up
    // rebuilds those nodes in place instead of copying them.
    const auto released = [&](const Frame& f) {
      return f.node->kids[static_cast<std::size_t>(f.kid)] == nullptr;
    };
    std::size_t from = frames.size();
    while (from > 0 && !released(frames[from - 1]) && frames[from - 1].node.use_count() != 1)
      --from;
    if (from == 0) return; // no frame is the frames' alone
    for (std::size_t i = from - 1; i < frames.size(); ++i) {
      if (released(frames[i])) continue;
      if (frames[i].node.use_count() != 1) break; // also held outside the frames
      Node& parent = const_cast<Node&>(*frames[i].node);
      parent.kids[static_cast<std::size_t>(frames[i].kid)] = nullptr;
      parent.facts_slot = FactsSlot{}; // they described (or borrowed from) the released kid
      parent.atom_mark = AtomMark{};
    }
  };
  for (;;) {
    const long impure_before = impure_attempts_;
    const std::size_t height = frames.size();
    if (auto f = search(focus, static_cast<int>(height), frames)) {
      fired(*f);
      continue;
    }
    // focus is inert: up one frame, then the parent's remaining children and the parent itself
    bool done = false;
    bool clean = impure_attempts_ == impure_before;
    while (!done) {
      if (frames.empty()) return focus;
      Frame up = std::move(frames.back());
      frames.pop_back();
      focus =
          with_kid_reusing(std::move(up.node), static_cast<std::size_t>(up.kid), std::move(focus));
      const int depth = static_cast<int>(frames.size());
      clean = clean && up.clean;
      const long before = impure_attempts_;
      const auto search_rest = [&] { return search_kids(focus, up.kid, depth, clean, frames); };
      if (auto f = leaves_default_stack(depth) ? on_large_stack(search_rest) : search_rest()) {
        fired(*f);
        done = true;
      }
      clean = clean && impure_attempts_ == before;
    }
  }
}

Run Machine::normalise(const Term& t) {
  Run run;
  Term current = t;
  const long before = fuel_used_;
  if (observer_ || options_.trace) {
    while (auto s = step(current)) {
      ++run.steps;
      current = s->result;
      if (options_.trace) {
        run.trace.push_back(s->rule + ": " + print(current));
      } else if (observation_wanted_ && !observation_wanted_()) {
        const FlagScope unobserved(observation_over_, true);
        current = run_refocusing(current, run.steps);
        break;
      }
    }
  } else {
    current = run_refocusing(t, run.steps);
  }
  run.result = current;
  run.premise_steps = fuel_used_ - before - run.steps;
  if (options_.rule_counts) run.rule_counts = rule_counts();
  return run;
}

Term Machine::normalise_premise(const Term& t) {
  if (premise_depth_ >= options_.max_premise_depth)
    throw AdsemError(ErrorKind::fuel,
                     "premises nested deeper than " + std::to_string(options_.max_premise_depth));
  ++premise_depth_;
  ++premise_runs_;
  Term current = t;
  try {
    long steps = 0;
    bool observed = premise_observed();
    while (observed) {
      auto s = step(current);
      if (!s) break;
      current = s->result;
      observed = premise_observed();
    }
    if (!observed) current = run_refocusing(current, steps);
  } catch (...) {
    --premise_depth_;
    throw;
  }
  --premise_depth_;
  return current;
}

// ---- the evaluation contexts (spec §4.6/§4.7): the book's, in the deterministic order ----
namespace {

// Values by their constructor, with no redex inside: variables, numerals, covectors, zero, and λs
// (no reduction under λ, CBV).
bool never_reduces(Kind k) {
  return k == Kind::var || k == Kind::num || k == Kind::covec || k == Kind::lam || k == Kind::zero;
}

// Whether the step function tries a redex at t itself once its children hold none. [perf] Not at
// (Ω λy.E)·V nor (Ω λy.⟨y,E⟩)·V: values, whose redex is the application around them.
bool tries_root(const Term& t, Standing at) {
  return !never_reduces(t->kind) && at != Standing::elementary && at != Standing::split;
}

} // namespace

// [perf] Inline: search_kids asks it of each child before it pushes a frame, so that a leaf or
// a subterm found inert before costs neither a call nor a frame.
[[gnu::always_inline]] inline bool Machine::known_inert(const Term& t, int depth) {
  if (t->kids.empty() && depth <= max_term_depth) { // var, num, covec, zero: no redex
    reached_ = std::max(reached_, depth);
    return true;
  }
  if (const int* height = t->inert_mark.get() ? inert_.find(t.get()) : nullptr) {
    // Known to hold no redex; it is skipped only if the walk would not have hit the depth limit.
    if (depth + *height <= max_term_depth) {
      reached_ = std::max(reached_, depth + *height);
      return true;
    }
  }
  return false;
}

// t is the focus (focus_ is its handle) or the kid of the innermost frame's node (the search
// pushed that frame before it went down), or both (the focus, still in its parent's slot). The
// handles the context may hold on a node are those: the focus, its frame, its parent frame's slot.
// Each node from t up the frames, while it is in its parent's slot, must have no other handle
// (the run's root is its caller's too). The walk up is bounded (a deeper one answers no): no
// rule sees a frame above its redex, so none has taken a handle to one.
bool Machine::holds_alone(const Term& t) const {
  if (!refocusing_ || frames_ == nullptr) return false;
  constexpr std::size_t max_walk = 64;
  const std::vector<Frame>& frames = *frames_;
  const Node* n = t.get();
  long handles = &t == focus_ ? 1 : 0;
  long count = t.use_count();
  for (std::size_t i = frames.size(), walked = 0;; --i, ++walked) {
    const bool in_slot =
        i > 0 && frames[i - 1].node->kids[static_cast<std::size_t>(frames[i - 1].kid)].get() == n;
    if (in_slot) ++handles;
    if (count != handles || n->keyed_mark.get()) return false;
    if (!in_slot) return handles > 0;
    if (walked == max_walk) return false;
    const Term& up = frames[i - 1].node;
    n = up.get();
    count = up.use_count();
    handles = 1 + (focus_->get() == n ? 1 : 0); // its frame, and the focus if it is that node
  }
}

std::optional<Machine::Found> Machine::search(const Term& t, int depth,
                                              std::vector<Frame>& frames) {
  if (known_inert(t, depth)) return std::nullopt;
  return search_unknown(t, depth, frames);
}

std::optional<Machine::Found> Machine::search_unknown(const Term& t, int depth,
                                                      std::vector<Frame>& frames) {
  const int reached_before = reached_;
  const long impure_before = impure_attempts_;
  reached_ = depth;
  auto s = search_in(t, depth, frames);
  const int height = reached_ - depth;
  reached_ = std::max(reached_before, reached_);
  if (!s && impure_attempts_ == impure_before) {
    if (inert_.size() > inert_limit) inert_.clear();
    // (an entry left from before an edit in place, substitute_in_place, is replaced)
    inert_.insert_or_assign(t, height);
    t->inert_mark.set(); // known_inert asks the table about marked nodes only
  }
  return s;
}

std::optional<Machine::Found> Machine::search_in(const Term& t, int depth,
                                                 std::vector<Frame>& frames) {
  if (depth > max_term_depth)
    throw AdsemError(ErrorKind::eval, "term nested deeper than " + std::to_string(max_term_depth));
  if (leaves_default_stack(depth))
    return on_large_stack([&] { return search_in(t, depth, frames); });
  return search_kids(t, -1, depth, frames.empty() || frames.back().clean, frames);
}

// The search at t (at depth) from the child after `after` on, then t itself; `clean`: the frames
// above and the children searched before were pure.
std::optional<Machine::Found> Machine::search_kids(const Term& t, int after, int depth, bool clean,
                                                   std::vector<Frame>& frames) {
  const long impure_before = impure_attempts_;
  const Standing at = standing(t);
  for (int k = contexts_->next_kid(t, after, at); k >= 0; k = contexts_->next_kid(t, k, at)) {
    const Term& kid = t->kids[static_cast<std::size_t>(k)];
    if (known_inert(kid, depth + 1)) continue;
    frames.push_back({t, k, clean && impure_attempts_ == impure_before});
    if (auto f = search_unknown(kid, depth + 1, frames)) return f;
    frames.pop_back();
  }
  if (!tries_root(t, at)) return std::nullopt;
  auto found = contract_root(t);
  if (found && refocusing_ && clean && impure_attempts_ == impure_before) {
    // a run of the same rule at this redex, taken at once (Combine::Extra)
    const auto* rule = std::get_if<Rule<Combine>>(&rules_.book->entries()[found->rule]);
    if (rule && rule->extra) found->firings += rule->extra(found->contractum);
  }
  return found;
}

bool Machine::is_value(const Term& t) {
  const auto hit = value_cache_.find(t.get());
  if (hit != value_cache_.end()) return hit->second;
  std::vector<std::vector<int>> out;
  std::vector<int> path;
  decompose(t, path, out);
  value_cache_[t.get()] = out.empty();
  return out.empty();
}

// The context grammar read relationally: every production of the book that holds at t, with its
// side conditions (V = a term with no decomposition), independently of the step function's order.
// A C_A hole is A-normalised by A* at t itself (contract_root), which the root probe finds.
void Machine::decompose(const Term& t, std::vector<int>& path, std::vector<std::vector<int>>& out) {
  if (never_reduces(t->kind)) return;
  const Standing at = standing(t);
  const auto sub = [&](int i) {
    path.push_back(i);
    decompose(t->kids[static_cast<std::size_t>(i)], path, out);
    path.pop_back();
  };
  const auto value = [&](int i) { return is_value(t->kids[static_cast<std::size_t>(i)]); };
  const int kids = static_cast<int>(t->kids.size());
  std::vector<int> opened; // the children opened so far, in the productions' order
  for (const Hole& hole : contexts_->holes(t->kind)) {
    if (hole.grammar != Grammar::evaluation || !Contexts::holds(hole, at)) continue;
    for (int k = hole.kid; k < kids; ++k) {
      if (!hole.values_first || std::ranges::all_of(opened, value)) sub(k);
      opened.push_back(k);
      if (!hole.each_later) break;
    }
  }
  // t is a redex when every child opened is a value (asked in the children's order)
  std::ranges::sort(opened);
  if (std::ranges::all_of(opened, value) && probe_root(t)) out.push_back(path);
}

bool Machine::probe_root(const Term& t) {
  if (const auto hit = root_probes_.find(t.get()); hit != root_probes_.end()) {
    if (options_.counter)
      for (const auto& [rule, n] : hit->second.fired)
        options_.counter->add(rules_.book->info(rule).name, n);
    return hit->second.redex;
  }
  Machine probe(rules_, options_); // premises run on a scratch machine
  RootProbe entry{t, probe.contract_root(t).has_value(), {}};
  for (std::size_t i = 0; i < probe.fired_.size(); ++i)
    if (probe.fired_[i] > 0) entry.fired.emplace_back(i, probe.fired_[i]);
  const bool redex = entry.redex;
  if (root_probes_.size() >= (1U << 16)) root_probes_.clear(); // memory bound
  root_probes_.emplace(t.get(), std::move(entry));
  return redex;
}

std::vector<std::vector<int>> Machine::decompositions(const Term& t) {
  value_cache_.clear();
  std::vector<std::vector<int>> out;
  std::vector<int> path;
  decompose(t, path, out);
  return out;
}

// ---- redexes (spec §4.6 list): the book's entry for r's shape ----
std::optional<Machine::Found> Machine::contract_root(const Term& t) {
  if (const Rule<Combine>* rule = select<Combine>(Combine::Redex{t}))
    return Found{rule->info.position, rule->result(*this, Combine::Redex{t}, rule->info)};
  if (t->kind == Kind::pullback) return pullback_root(t);
  if (contexts_->administrative(t->kind))
    if (auto found = administrative_root(t)) return found;
  if (t->kind != Kind::app) return std::nullopt;
  const Term& f = t->kids[0];
  // ((Ω λy.B)·ω) V with B final and not a let (the let test first: is_final walks a let series)
  if (f->kind != Kind::pullback || f->kids[0]->kind == Kind::let || !is_final(f->kids[0], f->name))
    return std::nullopt;
  ++impure_attempts_; // rows 9-20 draw fresh names and run premises even when they fail
  const Term& body = f->kids[0];
  const bool stage = is_split_body(body, f->name);
  Pullback::Redex row{body,      stage ? body->kids[1] : body, stage, f->name, f->type, f->kids[1],
                      t->kids[1]};
  row.node = &t;
  return fire_row(row);
}

// (A*), (7), (8) on (Ω λy.P)·S (spec §4.2, §4.3). A* is the C_A hole of (Ω λy.C_A)·S, the body:
// tried where the book's contexts open it.
std::optional<Machine::Found> Machine::pullback_root(const Term& t) {
  const Term& body = t->kids[0];
  const PullbackBody::Redex redex{t, body->kind == Kind::let ? is_let_series_remembered(body)
                                                             : is_final(body, t->name)};
  if (contexts_->administrative(Kind::pullback))
    if (const Rule<Anf>* rule = select<Anf>(redex))
      return Found{rule->info.position, rule->result(*this, redex, rule->info)};
  if (const Rule<LetSeries>* rule = select<LetSeries>(redex))
    return Found{rule->info.position, rule->result(*this, redex, rule->info)};
  return std::nullopt;
}

// A C_A hole of another node (a patched context table, e.g. V + C_A as the paper prints it): A*
// on the child while it is not A-normal, i.e. not a let series (Lemma B.1, L760).
std::optional<Machine::Found> Machine::administrative_root(const Term& t) {
  const auto kids = t->kids.size();
  for (const Hole& hole : contexts_->holes(t->kind)) {
    if (hole.grammar != Grammar::administrative) continue;
    for (auto k = static_cast<std::size_t>(hole.kid); k < kids; ++k) {
      const PullbackBody::Redex redex{t, is_let_series(t->kids[k]), k};
      if (const Rule<Anf>* rule = select<Anf>(redex))
        return Found{rule->info.position, rule->result(*this, redex, rule->info)};
      if (!hole.each_later) break;
    }
  }
  return std::nullopt;
}

// [perf] is_let_series (anf.hpp) on a let: is_final(L, y) for a let L is exactly this
// (a let is neither elementary nor a split body). Rule 8 (seed 000 Fig. 3 L240) asks it of the
// rest of the series at every stage, and the substitutions of rule 8 rebuild only the stages that
// mention the variables, so the answers for the shared tail are remembered by node: the walk stops
// at the first node answered before. The answer of a node depends on that immutable node only.
bool Machine::is_let_series_remembered(const Term& t) {
  if (t == told_let_series_) { // rule 8's rest (remember_let_series), at any length
    told_let_series_ = nullptr;
    return true;
  }
  // A short series is walked (the map would cost more than it saves).
  std::size_t length = 0;
  for (const Term* at = &t; (*at)->kind == Kind::let && length <= 32; at = &(*at)->kids[1])
    ++length;
  if (length <= 32) return is_let_series(t);
  std::vector<const Term*> spine;
  bool result = false;
  for (const Term* at = &t;;) {
    const Term& l = *at;
    if (l->kind != Kind::let) break;
    if (const bool* known = let_series_.find(l)) {
      result = *known;
      break;
    }
    spine.push_back(at);
    if (!is_elementary(l->kids[0])) break;
    const Term& body = l->kids[1];
    if (body->kind == Kind::var) {
      result = body->name == l->name;
      break;
    }
    at = &body;
  }
  for (const Term* l : spine)
    let_series_.insert(*l, result);
  return result;
}

Run normalise(const Term& t, const Rules& rules, const RunOptions& options) {
  Machine m(rules, options);
  return m.normalise(t);
}

} // namespace adsem::pullback
