// A focus kept at the last redex of S_bp and S_lo (spec §4.7.4): a zipper over the path from the
// root to it. The redexes of the complexity families lie under an O(n)-deep stack of explicit
// substitutions (the wrappers of seed 002, Cor. 16), and each stage's redexes lie next to the
// last stage's, so walking from the root at every step (reduction.cpp, step) made a run Θ(n²).
// A frame of the path keeps what the strategy reads of the rest of its node: the best key among
// the node's own instances and its children before the path (which come before the focus in the
// order enumerate visits them), and among its children after the path (which come after). The
// nodes of the path are written in place and brought up to date (measure, free-variable counts,
// summary) only when the focus moves above them. The instances, classes and choices are
// reduction.cpp's; tests/linear_negation/strategy_cache_test.cpp runs the focus in lockstep with
// the full enumeration.
#include <algorithm>
#include <array>
#include <stdexcept>
#include <string_view>
#include <unordered_map>
#include <utility>

#include "semantics/linear_negation/reducer_parts.hpp"

namespace adsem::linear_negation {

namespace {

// The better of two keys (0: no redex): S_bp's smaller class, S_lo's any.
std::uint8_t merged(std::uint8_t a, std::uint8_t b) {
  if (a == 0) return b;
  if (b == 0) return a;
  return std::min(a, b);
}

template <typename Counts> void count(Counts& counts, std::uint8_t key, long by) {
  if (key == 0) return;
  if (key >= counts.size())
    throw std::logic_error("linear-negation focus: S_bp class out of range");
  counts[key] += by;
}

template <typename Counts> std::uint8_t lowest(const Counts& counts) {
  for (std::size_t c = 1; c < counts.size(); ++c)
    if (counts[c] > 0) return static_cast<std::uint8_t>(c);
  return 0;
}

// Whether a step at an ES node left the core under its ES bodies the same node: the side
// conditions that read through ES bodies to a core then read what they read before (Reach's
// core and value). The contractum's first few ES bodies are looked for along the old ones (each
// of (8), (10) and (16) puts at most two new ES nodes above a body it keeps, and (9) writes or
// rebuilds the bodies down to the occurrence it replaces); past them, or at a shared copy not
// made yet, the answer is no, which only rereads more. A node the step wrote in place (written)
// is not the node it was: the old bodies go on below it only where it kept its body.
bool same_core(const Term& before, const Term& after, const InPlaceWrites& written) {
  constexpr std::size_t looked = InPlaceWrites::depth;
  std::array<const Node*, looked> fresh{};
  std::size_t m = 0;
  for (const Node* b = after.get(); m < looked && !b->copy.unforced;) {
    fresh[m++] = b;
    if (!binds_es(*b)) break;
    b = b->body().get();
  }
  const Node* a = before.get();
  for (std::size_t i = 0; i < looked && !a->copy.unforced; ++i) {
    if (!written.written(*a) && std::find(fresh.begin(), fresh.begin() + static_cast<long>(m), a) !=
                                    fresh.begin() + static_cast<long>(m))
      return true;
    if (!binds_es(*a)) return false;
    const Node* body = a->body().get();
    if (written.wrote_child(*a, 0) && !written.written(*body)) return false; // replaced
    a = body;
  }
  return false;
}

// Whether an ES binder's own instances may change when its count, now `count` (count mode, -1:
// not known), changed by `delta`: the paper's rules read it only as 0 ((10)), more than 0 ((9))
// or 1 ((9)'s S_bp class 6), so a change between two counts above 1 changes none.
bool reads_count_change(int count, int delta) {
  if (count < 0) return true;
  return std::min(count, 2) != std::min(count - delta, 2);
}

// How far below a frame the focus must be for a step at the frame, or beside the path there, to
// be taken without the focus moving: a few frames pop and push back for little.
constexpr std::size_t far_below = 32;

Node& writable(const Term& t) {
  return const_cast<Node&>(*t); // made non-const (ast.cpp) and held by the path only
}

// rules.cpp's core_of of t, a node below the focus or off its path: each ES node on the way kept
// its core once found (Node::core_below), so that the next walk stops at the first. A node of the
// path may be written in place below without its core forgotten until it leaves the path
// (pop_focus); the nodes below the focus or off the path forget theirs with their free-variable
// counts wherever a step writes below them.
const Term& core_off_path(const Term& t) {
  const Term* at = &t;
  while (binds_es(**at)) {
    force(**at); // as core_of: a shared copy of (9) made
    if (const Term* known = (*at)->core_below()) {
      at = known;
      break;
    }
    at = &(*at)->body();
  }
  for (const Term* es = &t; binds_es(**es) && (*es)->core_below() == nullptr; es = &(*es)->body())
    (*es)->keep_core_below(at);
  return *at;
}

// The root's height from frame i's node (path child k) and its children off the path, as
// push_focus reckons it.
int own_side_height(const Node& n, std::size_t i, std::size_t k) {
  int height = static_cast<int>(i) + 1;
  for (std::size_t j = 0; j < n.kids.size(); ++j)
    if (j != k) height = std::max(height, static_cast<int>(i) + 1 + n.kids[j]->height);
  return height;
}

} // namespace

Reducer::~Reducer() = default;
Reducer::Focus::~Focus() = default;

namespace {
// A side below this size gives its frame the bits of its free names only (a walk), a larger one
// its Node::names_seen, which has the bits of its bound names too.
constexpr long small_side = 16;

// The bits of the names free in t, below the binders in `bound` (a walk of a small subterm).
void add_free_bits(const Node& t, std::array<const std::string*, small_side>& bound,
                   std::size_t binders, NameFilter& out) {
  if (t.kind == Kind::var) {
    for (std::size_t b = 0; b < binders; ++b)
      if (*bound[b] == t.name) return;
    out |= t.names_seen; // the name's bits
    return;
  }
  if (t.copy.unforced) { // no children made: every bit, as its own filter has
    out |= t.names_seen;
    return;
  }
  for (std::size_t i = 0; i < t.kids.size(); ++i) {
    std::size_t in_scope = binders;
    if (i == 0 && (t.kind == Kind::lam || binds_es(t))) {
      bound[in_scope++] = &t.x.name;
      if (t.kind == Kind::let_pair) bound[in_scope++] = &t.y.name;
    }
    add_free_bits(*t.kids[i], bound, in_scope, out);
  }
}

} // namespace

// A side's names_seen has the bits of its bound names too: on the RNN the bound terms, λs of
// about 11 nodes, set 13 of the 64 bits, and about one frame in a hundred let every name through,
// a share of a path that grows with n. A small side is read for its free names, once, when a
// descent first meets the frame (at each push it cost a campaign's small terms 2.5%).
NameFilter free_side_names_of(const Node& n, std::size_t k) {
  if (n.kids.size() != 2) return ~NameFilter{0};
  const Node& side = *n.kids[1 - k];
  if (side.size >= small_side) return side_names_of(n, k);
  std::array<const std::string*, small_side> bound{};
  NameFilter names = 0;
  add_free_bits(side, bound, 0, names);
  return names | bound_bits(n);
}

void Reducer::keep_focus() {
  if (focus_ || !known_reads_ || options_.strategy == Strategy::random) return;
  focus_ = std::make_unique<Focus>();
  keep_counts();
}

void Reducer::close_focus() {
  if (!focus_) return;
  unwind_focus();
  focus_.reset();
}

void Reducer::unwind_focus() {
  while (!focus_->frames.empty())
    pop_focus();
}

// S_bp reads the class of the best instance, S_lo whether there is one.
std::uint8_t Reducer::key(const RedexMemo::Choice& best, const RedexMemo::Choice& first) const {
  if (options_.strategy == Strategy::bp) return best.cls;
  return first.cls == 0 ? 0 : 1;
}

Term& Reducer::focus_slot() {
  const FrameStack<Frame>& frames = focus_->frames;
  if (frames.empty()) return current_;
  return writable(*frames.back().slot).kids[frames.back().k];
}

bool Reducer::focus_in_sum() const {
  const FrameStack<Frame>& frames = focus_->frames;
  return !frames.empty() && (*frames.back().slot)->kind == Kind::add;
}

// Frame fr, of key `at`, enters the tables by name for the binders of its node n that it goes
// on to the scope of.
[[gnu::always_inline]] inline void Reducer::bind_names(Frame& fr, const Node& n, std::size_t at) {
  Focus& f = *focus_;
  const bool binds_y = n.kind == Kind::let_pair && n.y.name != n.x.name;
  const bool scope = counts_kept_ && binds_in(n, fr.k);
  if (fr.transparent == 1 || scope) {
    const std::uint32_t hx = FramesByName::hash(n.x.name);
    const std::uint32_t hy = binds_y ? FramesByName::hash(n.y.name) : 0;
    fr.name_hash = {hx, hy};
    if (fr.transparent == 1) {
      fr.hides_binder[0] = f.binders.push(n.x.name, hx, at);
      if (binds_y) fr.hides_binder[1] = f.binders.push(n.y.name, hy, at);
    }
    if (scope) {
      fr.hides_scope[0] = f.scopes.push(n.x.name, hx, at);
      if (binds_y) fr.hides_scope[1] = f.scopes.push(n.y.name, hy, at);
    }
  }
}

// The innermost frame binding its names, fr (node n), leaves the tables by name.
[[gnu::always_inline]] inline void Reducer::unbind_names(const Frame& fr, const Node& n) {
  Focus& f = *focus_;
  const bool binds_y = n.kind == Kind::let_pair && n.y.name != n.x.name;
  const bool scope = counts_kept_ && binds_in(n, fr.k);
  if (fr.transparent == 1 || scope) {
    const auto [hx, hy] = fr.name_hash;
    if (fr.transparent == 1) {
      if (binds_y) f.binders.pop(n.y.name, hy, fr.hides_binder[1]);
      f.binders.pop(n.x.name, hx, fr.hides_binder[0]);
    }
    if (scope) {
      if (binds_y) f.scopes.pop(n.y.name, hy, fr.hides_scope[1]);
      f.scopes.pop(n.x.name, hx, fr.hides_scope[0]);
    }
  }
}

// The focus node becomes a frame whose path goes on to its child k (a node others hold is
// replaced by its own copy first, as apply_in_place rebuilds below a shared node).
void Reducer::push_focus(std::size_t k) {
  Focus& f = *focus_;
  Term& slot = focus_slot();
  const bool in_sum = focus_in_sum();
  force(*slot);
  if (slot.use_count() != 1) {
    // the copy has the node's tag, binders, counts and children: its summaries are the node's
    // (asked of the copy anew, they ran every side condition at the node again)
    const Node& shared = *slot; // its other holders keep it
    slot = rebuild_counted(shared, shared.kids);
    slot->memo.top = shared.memo.top;
    slot->memo.in_sum = shared.memo.in_sum;
  }
  const RedexMemo::Summary& s = summary(slot, in_sum);
  const Node& n = *slot;
  const std::size_t i = f.frames.size();
  int height = static_cast<int>(i) + 1;
  Frame fr;
  fr.slot = &slot;
  fr.k = k;
  fr.in_sum = in_sum;
  fr.before = key(s.own_best, s.own_first);
  for (std::size_t j = 0; j < n.kids.size(); ++j) {
    if (j == k) continue;
    const RedexMemo::Summary& kid = summary(n.kids[j], n.kind == Kind::add);
    std::uint8_t& side = j < k ? fr.before : fr.after;
    side = merged(side, key(kid.best, kid.first));
    height = std::max(height, static_cast<int>(i) + 1 + n.kids[j]->height);
  }
  if (binds_es(n) && k == 0) fr.transparent = 1;
  if (n.kind == Kind::add && in_sum) fr.transparent = 2;
  const bool run_goes_on =
      fr.transparent != 0 && i > 0 && f.frames.back().transparent == fr.transparent;
  if (run_goes_on) {
    fr.run = f.frames.back().run;
  } else if (fr.transparent != 0) {
    fr.run = f.frames.new_run(i);
  }
  fr.side_height = std::max(i > 0 ? f.frames.back().side_height : 0, height);
  count(f.before, fr.before, 1);
  count(f.after, fr.after, 1);
  f.keyed_before(i, fr.before);
  f.counted_from = std::min(f.counted_from, i);
  f.pushed_from = std::min(f.pushed_from, i);
  search_budget_.spend(1, "finding redexes");
  const std::size_t at = f.frames.new_key(i);
  bind_names(fr, n, at);
  f.frames.push_back(fr, at, side_names_of(n, k));
}

// The last frame's node becomes the focus node: if a step below changed it since it was pushed,
// its measure, free-variable counts and summary are brought up to date, the summary from its own
// instances (kept up to date by reread_frame) and its children's summaries.
void Reducer::pop_focus() {
  Focus& f = *focus_;
  const Frame fr = f.frames.back();
  const std::size_t i = f.frames.size() - 1;
  count(f.before, fr.before, -1);
  count(f.after, fr.after, -1);
  Node& n = writable(*fr.slot);
  unbind_names(fr, n);
  f.frames.pop_back();
  if (i >= f.clean_from) return;
  f.clean_from = i;
  n.forget_free_counts();
  if (!counts_kept_) n.forget_bound_counts();
  measure(n);
  const bool own_context = fr.in_sum && n.kind == Kind::add;
  RedexMemo::Summary& kept = own_context ? n.memo.in_sum : n.memo.top;
  (own_context ? n.memo.top : n.memo.in_sum).owner = 0; // a context the node is no longer in
  if (kept.owner != id_) {
    summary(*fr.slot, fr.in_sum);
    return;
  }
  summary_from_own(n, kept);
}

// The strategy's choice: the best key before the path, in the focus's subtree and after the path
// (in the order enumerate visits them, S_bp's first instance of the smallest class, S_lo's first
// instance). The focus moves up to the frame that holds it, then down along the summaries.
std::optional<Reducer::Candidate> Reducer::focused_choice(bool best) {
  Focus& f = *focus_;
  const std::uint8_t before = lowest(f.before);
  const std::uint8_t after = lowest(f.after);
  const RedexMemo::Summary& here = summary(focus_slot(), focus_in_sum());
  const std::uint8_t at = key(here.best, here.first);
  const std::uint8_t k = merged(merged(before, at), after);
  if (k == 0) return std::nullopt;
  if (before == k) { // the outermost frame with the key before the path
    if (auto c = frame_choice(k, best)) return c;
    for (bool last = false; !last;) {
      last = f.frames.back().before == k && f.before[k] == 1;
      pop_focus();
    }
  } else if (at != k) { // the innermost frame with the key after the path
    if (counts_kept_ && f.frames.size() >= far_below)
      if (auto c = side_choice(k, best)) return c;
    for (bool last = false; !last;) {
      last = f.frames.back().after == k;
      pop_focus();
    }
  }
  for (;;) {
    const RedexMemo::Summary& s = summary(focus_slot(), focus_in_sum());
    const RedexMemo::Choice& ch = best ? s.best : s.first;
    if (ch.child < 0) {
      Candidate c;
      c.rule = &std::get<Rule<Reduction>>(options_.book->entries()[ch.rule]);
      c.cls = ch.cls;
      c.nth = ch.nth;
      return c;
    }
    push_focus(static_cast<std::size_t>(ch.child));
  }
}

const Rule<Reduction>* Reducer::focused_step() {
  // a term someone else holds is not written in place: its path is brought up to date first,
  // and the frames pushed again take their own copies of its nodes
  if (!focus_->frames.empty() && current_.use_count() != 1) unwind_focus();
  const auto c = focused_choice(options_.strategy == Strategy::bp);
  if (!c) return nullptr;
  if (c->frame != Candidate::at_focus) {
    if (c->path.empty()) {
      step_at_frame(*c);
    } else {
      step_beside(*c);
    }
    return c->rule;
  }
  Term& slot = focus_slot();
  redex_alone_ = slot.use_count() == 1;
  // (7), (8) and (9) write their let into a redex held alone, as on the walk from the root: the
  // redex node is then the contractum's, and (9) notes it written (same_core)
  rewrite_redex_ = redex_alone_ && counts_kept_ && touched_by_notes_;
  const Term redex = slot;
  const bool was_es = binds_es(*redex); // (7) makes its application a let
  // (8) and (11) may move a linear ES into the stack over the core or take one out of it, which
  // the side conditions of (8), (9), (10), (14) and (23) read (movable_stack); (9), (10) and (16)
  // at an exponential ES move or add exponential ES only
  const bool exponential_es = redex->kind == Kind::let && !redex->x.linear;
  slot = contract_noting(redex, *c);
  redex_alone_ = rewrite_redex_ = false;
  if (counts_kept_) apply_noted_counts();
  Reach reach;
  if (was_es && same_core(redex, slot, writes_)) {
    reach.core = !exponential_es;
    reach.value = !exponential_es;
  }
  after_focused_step(reach);
  return c->rule;
}

// The first frame whose node may hold a free-variable list: counted_from, or in count mode the
// first frame pushed since the last forgetting when no list was made since (Focus::pushed_from).
// Without count mode the binders' counts are forgotten too, and those are read off lists made
// before without making one.
std::size_t Reducer::forget_from() const {
  const Focus& f = *focus_;
  return counts_kept_ && Node::free_lists_made() == f.lists_at_forget
             ? std::max(f.counted_from, f.pushed_from)
             : f.counted_from;
}

// After forgetting: the frames from counted_from on may hold lists still (valid ones).
void Reducer::forgotten() {
  Focus& f = *focus_;
  f.pushed_from = f.counted_from;
  f.lists_at_forget = Node::free_lists_made();
}

// A step's start of after_focused_step: the path's free-variable counts forgotten, its frames
// dirty.
[[gnu::always_inline]] inline void Reducer::begin_rereads() {
  Focus& f = *focus_;
  const FrameStack<Frame>& frames = f.frames;
  for (std::size_t i = forget_from(); i < frames.size(); ++i) {
    (*frames[i].slot)->forget_free_counts();
    if (!counts_kept_) (*frames[i].slot)->forget_bound_counts();
  }
  f.counted_from = frames.size();
  forgotten();
  f.clean_from = frames.size();
  f.marked.clear();
  f.bound_cores.clear();
}

// begin_rereads for a step at or beside a frame far up, which leaves the frames from kept_from on
// with the same subtrees: their counts and their being up to date stand (forgetting them walked
// the whole path at every such step).
void Reducer::begin_rereads_above(std::size_t kept_from) {
  Focus& f = *focus_;
  const FrameStack<Frame>& frames = f.frames;
  if (kept_from >= frames.size()) {
    begin_rereads();
    return;
  }
  const std::size_t from = forget_from();
  for (std::size_t i = from; i < kept_from; ++i) {
    (*frames[i].slot)->forget_free_counts();
    if (!counts_kept_) (*frames[i].slot)->forget_bound_counts();
  }
  f.counted_from = std::max(from, kept_from); // none above `from`, as forget_from says
  forgotten();
  f.clean_from = std::max(f.clean_from, kept_from);
  f.marked.clear();
  f.bound_cores.clear();
}

// Marks the frames from `from` - 1 up to `to` that the change below frame `from` - 1, of reach
// `reach`, leads to.
[[gnu::always_inline]] inline void Reducer::mark_rereads(std::size_t from, std::size_t to,
                                                         Reach reach) {
  Focus& f = *focus_;
  const FrameStack<Frame>& frames = f.frames;
  std::size_t run_end = FramesByName::none; // the last frame of the run of ES bodies just crossed
  for (std::size_t i = from;
       i > to && (reach.core || reach.pairs || reach.value || reach.call || reach.summand);) {
    const Frame& fr = frames[i - 1];
    const Node& n = **fr.slot;
    if (fr.transparent == 0 && rereads(n, fr.k, reach, fr.in_sum)) {
      f.marked.push_back(i - 1);
      // an ES whose path goes on to its bound term, a run of ES bodies: the core under the run
      if (run_end != FramesByName::none && fr.k == 1 && binds_es(n))
        f.bound_cores.emplace_back(i - 1, &core_after_run(run_end));
    }
    reach = reach_above(n, fr.k, reach);
    run_end = fr.transparent == 1 ? i - 1 : FramesByName::none;
    i = fr.transparent != 0 ? frames.run_top(fr) : i - 1;
  }
}

// core_of of the first node of a run of ES bodies that frame `last` is in: down the frames while
// they go on to an ES body, then off the path (core_off_path) from the focus or from the body of
// a frame whose path goes on to its bound term (the sharing chain's gradient holds its n levels'
// explicit substitutions there, below the level being backpropagated). mark_rereads crosses a
// run from its last frame, unless the change is from a frame within it (step_at_frame).
const Term& Reducer::core_after_run(std::size_t last) {
  const FrameStack<Frame>& frames = focus_->frames;
  std::size_t i = last;
  while (i + 1 < frames.size() && frames[i + 1].transparent == 1)
    ++i;
  const Term& body = (*frames[i].slot)->body();
  if (i + 1 == frames.size() || !binds_es(*body)) return core_off_path(body);
  return core_off_path(body->body()); // frame i + 1 goes on to its bound term
}

// The binders of the names the step touched marked too, and the marked frames reread.
[[gnu::always_inline]] inline void Reducer::finish_rereads() {
  Focus& f = *focus_;
  const FrameStack<Frame>& frames = f.frames;
  for (std::size_t t = 0; t < touched_.size(); ++t) {
    const std::string& x = touched_[t];
    const int delta = counts_kept_ ? touched_delta_[t] : 0;
    const std::size_t first = f.touched_hash.size() == touched_.size()
                                  ? f.binders.find(x, f.touched_hash[t])
                                  : f.binders.find(x);
    for (std::size_t at = first; at != FramesByName::none;) {
      const Node& n = **frames.by_key(at).slot;
      const std::size_t b = n.x.name == x ? 0 : 1;
      if (!counts_kept_ || reads_count_change(n.bound_count[b], delta))
        f.marked.push_back(frames.depth(at));
      at = frames.by_key(at).hides_binder[b];
    }
  }
  std::sort(f.marked.begin(), f.marked.end());
  f.marked.erase(std::unique(f.marked.begin(), f.marked.end()), f.marked.end());
  for (const std::size_t i : f.marked)
    reread_frame(i);
  // the root's height, which the printer and normalise read (the rest waits for the pops)
  if (!frames.empty())
    writable(current_).height =
        std::max(frames.back().side_height, static_cast<int>(frames.size()) + focus_slot()->height);
}

// After a step at the focus: the free-variable counts computed above it are stale, and the
// frames whose own instances may have changed (rereads) reread them. Those are the frames the
// step's reach leads to (a run of transparent frames maps it once and rereads nothing by it)
// and the ES binders of the names whose free count the step changed.
void Reducer::after_focused_step(Reach reach) {
  begin_rereads();
  mark_rereads(focus_->frames.size(), 0, reach);
  finish_rereads();
}

// Count mode: the binders of the path above the step whose names it noted take the change (with
// unique binders, a name's count in a binder's body changes by what it changes in the redex).
void Reducer::apply_noted_counts() {
  Focus& f = *focus_;
  const auto take = [&](const std::string& name, std::uint32_t h, int delta) {
    for (std::size_t place = f.scopes.find(name, h); place != FramesByName::none;) {
      const Frame& fr = f.frames.by_key(place);
      const Node& n = **fr.slot;
      const std::size_t b =
          n.x.name.size() == name.size() && compare_names(n.x.name, name) == 0 ? 0 : 1;
      if (n.bound_count[b] >= 0) n.bound_count[b] += delta;
      place = fr.hides_scope[b];
    }
  };
  // touched_from_notes summed the notes by name: each name is hashed once, for finish_rereads too
  if (notes_summed_) {
    f.touched_hash.resize(touched_.size());
    for (std::size_t t = 0; t < touched_.size(); ++t) {
      f.touched_hash[t] = FramesByName::hash(touched_[t]);
      take(touched_[t], f.touched_hash[t], touched_delta_[t]);
    }
    return;
  }
  for (auto at = noted_.begin(); at != noted_.end();) {
    int delta = 0;
    auto next = at;
    for (; next != noted_.end() && next->first == at->first; ++next)
      delta += next->second;
    if (delta != 0) take(at->first, FramesByName::hash(at->first), delta);
    at = next;
  }
}

// Frame i's own instances again (its side conditions read the path's free-variable counts,
// computed down to the focus), and its key before the path.
void Reducer::reread_frame(std::size_t i) {
  Focus& f = *focus_;
  Frame& fr = f.frames[i];
  const Term& t = *fr.slot;
  const bool own_context = fr.in_sum && t->kind == Kind::add;
  RedexMemo::Summary& kept = own_context ? t->memo.in_sum : t->memo.top;
  const std::uint64_t lists = Node::free_lists_made();
  const Term* bound_core = nullptr;
  for (const auto& [at, core] : f.bound_cores)
    if (at == i) bound_core = core;
  own_summary(t, own_context, kept, bound_core);
  // its lists, if it made any, are of frame i's node and the frames below (those it reads)
  if (!counts_kept_ || Node::free_lists_made() != lists)
    f.counted_from = std::min(f.counted_from, i);
  count(f.before, fr.before, -1);
  fr.before = key(kept.own_best, kept.own_first);
  for (std::size_t j = 0; j < fr.k; ++j) {
    const RedexMemo::Summary& kid = summary(t->kids[j], t->kind == Kind::add);
    fr.before = merged(fr.before, key(kid.best, kid.first));
  }
  count(f.before, fr.before, 1);
  f.keyed_before(i, fr.before);
  f.frames.set_side_names(i, side_names_of(*t, fr.k));
  fr.free_side = false;
}

// Frame i's key after the path again (a step at a frame wrote the child off the path there).
void Reducer::reread_after(std::size_t i) {
  Focus& f = *focus_;
  Frame& fr = f.frames[i];
  const Term& t = *fr.slot;
  count(f.after, fr.after, -1);
  fr.after = 0;
  for (std::size_t j = fr.k + 1; j < t->kids.size(); ++j) {
    const RedexMemo::Summary& kid = summary(t->kids[j], t->kind == Kind::add);
    fr.after = merged(fr.after, key(kid.best, kid.first));
  }
  count(f.after, fr.after, 1);
  f.frames.set_side_names(i, side_names_of(*t, fr.k));
  fr.free_side = false;
}

// Frame `from`'s side height after its child off the path changed, and the frames' below it: a
// height that grew is carried down while it is above theirs, one that shrank is left as it was
// (an overestimate, as drop_frame leaves them: they only choose the large stack). Carrying a
// smaller height down crossed the whole path at every step beside it.
void Reducer::refresh_side_heights(std::size_t from) {
  FrameStack<Frame>& frames = focus_->frames;
  const int height = own_side_height(**frames[from].slot, from, frames[from].k);
  for (std::size_t i = from; i < frames.size() && frames[i].side_height < height; ++i)
    frames[i].side_height = height;
}

// Rules (9) and (10) at the outermost frame with the key before the path, when the choice is its
// own instance (which enumerate visits before its children's): fired there, the focus stays where
// it is. Popping up to it and pushing back down crossed the complexity families' whole stack of
// explicit substitutions at every input (their root binder's (9) and (10), then the β of the
// copied abstraction where the focus was). Only where the frames can follow the step: count mode
// (unique binders, exact counts), an explicit substitution that is no summand, the path going on
// to its body, a value without explicit substitutions: the paper's rules at a non-linear ES node
// of such a value are (9) and (10) ((11) binds a linear name), whose contractum is an explicit
// substitution over the same body, or that body, and for a pair (16), and at a pattern ES of a
// pair only (8), whose contracta are two explicit substitutions over the same body (split_frame:
// the wide sum's (16) at each input's binder, and the (8) of its pair).
std::optional<Reducer::Candidate> Reducer::frame_choice(std::uint8_t k, bool best) {
  const FrameStack<Frame>& frames = focus_->frames;
  if (!counts_kept_ || frames.size() < far_below) return std::nullopt;
  std::size_t& from = focus_->before_from[k];
  std::size_t i = from;
  while (i < frames.size() && frames[i].before != k)
    ++i;
  if (i == frames.size()) throw std::logic_error("linear-negation focus: a frame's key was lost");
  from = i;
  if (frames.size() - i < far_below) return std::nullopt;
  const Frame& fr = frames[i];
  const Term& t = *fr.slot;
  if (fr.transparent != 1 || fr.in_sum || !binds_es(*t) || t.use_count() != 1) return std::nullopt;
  if (t->kind == Kind::let && t->x.linear) return std::nullopt;
  force(*t->bound());
  if (binds_es(*t->bound())) return std::nullopt;
  const bool pair = t->bound()->kind == Kind::pair;
  if (t->kind == Kind::let_pair && !pair) return std::nullopt;
  const RedexMemo::Summary& kept = t->memo.top;
  if (kept.owner != id_ || key(kept.own_best, kept.own_first) != k) return std::nullopt;
  const RedexMemo::Choice& ch = best ? kept.own_best : kept.own_first;
  const auto& rule = std::get<Rule<Reduction>>(options_.book->entries()[ch.rule]);
  if (pair) // split_frame takes the frame's entries out of the tables and puts them in again
    for (const std::size_t hidden :
         {fr.hides_binder[0], fr.hides_binder[1], fr.hides_scope[0], fr.hides_scope[1]})
      if (hidden != FramesByName::none) return std::nullopt;
  Candidate c;
  c.rule = &rule;
  c.cls = ch.cls;
  c.nth = ch.nth;
  c.frame = i;
  return c;
}

// The step at frame i's own instance (frame_choice): the contractum takes the frame's node's place
// and the frames follow. (9) rebuilds the explicit substitution over its body, which it descends
// along the frames below (InPlaceWrites::guide) to the occurrence it replaces: the frame below
// views the new node's body, and the frames from where the descent left the path up to frame i
// reread what the change reaches. (10) puts its body in the node's place: frame i leaves the
// path (drop_frame). The frames above reread as after a step at the focus.
void Reducer::step_at_frame(const Candidate& c) {
  Focus& f = *focus_;
  FrameStack<Frame>& frames = f.frames;
  const std::size_t i = c.frame;
  Term& slot = *frames[i].slot;
  const Term redex = slot; // held until the frames view the contractum
  const Node* const body = redex->body().get();
  struct Along final : InPlaceWrites::Guide {
    FrameStack<Frame>& frames; // (a frame's filter is narrowed the first time it is met)
    std::size_t from;
    Along(FrameStack<Frame>& fs, std::size_t first) : frames(fs), from(first) {}
    std::size_t size() const override { return frames.size() - from; }
    std::pair<const Node*, std::size_t> at(std::size_t g) const override {
      return {frames[from + g].slot->get(), frames[from + g].k};
    }
    std::size_t first_naming(std::size_t g, NameFilter bit) const override {
      for (std::size_t i = from + g;; ++i) {
        i = frames.first_naming(i, bit, frames.size());
        if (i == frames.size() || frames[i].free_side) return i - from;
        Frame& fr = frames[i];
        fr.free_side = true;
        frames.set_side_names(i, free_side_names_of(**fr.slot, fr.k));
        if (holds_bits(frames.side_names(i), bit)) return i - from;
      }
    }
  };
  const Along along(frames, i + 1);
  writes_.guide = &along;
  redex_alone_ = true; // frame_choice: the path holds it alone
  slot = contract_noting(redex, c);
  redex_alone_ = false;
  writes_.guide = nullptr;
  if (writes_.listed != InPlaceWrites::none) // lists made from the path's child there down
    f.counted_from = std::min(f.counted_from, i + 2 + writes_.listed);
  const std::size_t guided = std::exchange(writes_.guided, 0);
  const std::size_t left_by = writes_.left_by;
  writes_.listed = InPlaceWrites::none;
  if (slot.get() != body && binds_es(*slot) && slot->body().get() != body) { // (16), (8)
    split_frame(i, *redex);
    return;
  }
  // the binders above take the notes; the contractum counts its own binder already ((9)), and
  // the frames below bind none of the names noted (unique binders)
  const int own_count = slot->bound_count[0];
  if (counts_kept_) apply_noted_counts();
  writable(slot).bound_count[0] = own_count;
  if (slot.get() == body) { // (10)
    drop_frame(i, *redex);
    return;
  }
  Node& now = writable(slot);
  if (i + 1 < frames.size()) {
    if (now.kind != Kind::let || now.body().get() != body)
      throw std::logic_error("linear-negation focus: (9) at a frame rebuilt the path below it");
    frames[i + 1].slot = &now.kids[0];
  }
  const std::uint32_t hx = FramesByName::hash(now.x.name);
  f.binders.repoint(redex->x.name, hx, now.x.name); // the old node goes with `redex`
  f.scopes.repoint(redex->x.name, hx, now.x.name);
  // the frames below the last one the descent went through hold the same subtrees
  begin_rereads_above(guided > 0 ? i + guided + 1 : frames.size());
  std::size_t j = i; // the last frame the descent went through, the child it took there
  std::size_t s = 0;
  if (guided > 0) {
    j = i + guided;
    s = left_by;
    Reach reach; // the written nodes', from the occurrence up (refresh_written)
    for (const auto& [n, k] : writes_.path)
      reach = reach_above(*n, k, reach);
    const Frame& fr = frames[j];
    const Node& n = **fr.slot;
    if (s != fr.k || rereads(n, s, reach, fr.in_sum)) f.marked.push_back(j);
    mark_rereads(j, i + 1, reach_above(n, s, reach));
  }
  f.marked.push_back(i); // its count, and a new node
  mark_rereads(i, 0, Reach{});
  if (j > i && s != frames[j].k) {
    reread_after(j);
    refresh_side_heights(j);
  }
  finish_rereads();
}

// The choice in a subtree after the path at the innermost frame with the key after it, when that
// frame is far above the focus: the step is taken there without the focus moving (step_beside).
// Popping up to it and pushing back down crossed the RNN's whole stack of explicit substitutions
// whenever a (9) at a frame near the root made a redex in the value of an explicit substitution
// below it ((9)'s descent left the path there): the frames below are the same nodes before and
// after, their keys the same (the subtree is none of theirs). The instance is the one the
// descent from the frame's node would choose: the node's own instances, its children before the
// path and the path's have no key k (no frame has k before the path, none below this one after
// it, the focus node none), so it is in its first child after the path with key k. Count mode
// only (unique binders: the step changes the count of no name bound below the frame), the focus
// at least far_below frames deep.
std::optional<Reducer::Candidate> Reducer::side_choice(std::uint8_t k, bool best) {
  const Focus& f = *focus_;
  const FrameStack<Frame>& frames = f.frames;
  std::size_t i = frames.size();
  for (std::size_t seen = 0; seen < far_below; ++seen)
    if (frames[--i].after == k) return std::nullopt; // near: a few pops
  // far up: the last of the frames with the key after the path, looked for from the root
  i = 0;
  for (long left = f.after[k]; frames[i].after != k || --left > 0;)
    ++i;
  const Frame& fr = frames[i];
  const Node& n = **fr.slot;
  std::size_t beside = fr.k + 1;
  while (beside < n.kids.size()) {
    const RedexMemo::Summary& kid = summary(n.kids[beside], n.kind == Kind::add);
    if (key(kid.best, kid.first) == k) break;
    ++beside;
  }
  if (beside == n.kids.size())
    throw std::logic_error("linear-negation focus: a frame's key after the path is no child's");
  Candidate c;
  c.frame = i;
  c.path.push_back(static_cast<int>(beside));
  const Node* at = n.kids[beside].get();
  const RedexMemo::Summary* s = &summary(n.kids[beside], n.kind == Kind::add);
  for (;;) { // as cached_choice from the root
    const RedexMemo::Choice& ch = best ? s->best : s->first;
    if (ch.child < 0) {
      c.rule = &std::get<Rule<Reduction>>(options_.book->entries()[ch.rule]);
      c.cls = ch.cls;
      c.nth = ch.nth;
      return c;
    }
    c.path.push_back(ch.child);
    force(*at);
    const Term& kid = at->kids[static_cast<std::size_t>(ch.child)];
    const bool in_sum = at->kind == Kind::add;
    at = kid.get();
    s = &summary(kid, in_sum);
  }
}

// The step side_choice chose, beside the path at frame i: taken as the walk from the root takes
// it (apply_in_place, from the frame's child), the frames above reread what its reach leads to,
// frame i its own instances and its key after the path. The frames below view the same nodes.
void Reducer::step_beside(const Candidate& c) {
  Focus& f = *focus_;
  const std::size_t i = c.frame;
  const auto s = static_cast<std::size_t>(c.path[0]);
  Node& n = writable(*f.frames[i].slot);
  const Reach reach = apply_in_place(n.kids[s], c, 1, n.kind == Kind::add);
  if (counts_kept_) apply_noted_counts();
  begin_rereads_above(i + 1); // the frames below hold the same subtrees
  f.marked.push_back(i);      // its child s is another
  mark_rereads(i, 0, reach_above(n, s, reach));
  reread_after(i);
  refresh_side_heights(i);
  finish_rereads();
}

// (16) or (8) at frame i (step_at_frame) left two explicit substitutions over the node's body in
// its place, (16) t[x := ⟨u,u'⟩] → t[x := ⟨y,y'⟩][⟨y,y'⟩ := ⟨u,u'⟩] and (8)
// s[⟨x,y⟩ := ⟨t,u⟩] → s[x := t][y := u] (Table 2): a frame enters the path at depth i for the
// outer one, frame i views the inner one, and the frames below are one down. Popping the frames
// below to fire these at the focus and pushing them back for the (8) under the last of them
// crossed the wide sum's stack of inputs at each input. The frames keep their keys where they
// move (FrameStack::insert); those below keep their lists and their being up to date (the same
// subtrees), and their side heights, one too low until a frame above leaves the path
// (drop_frame's, one too high, make up for it: each (16) and (8) here is followed by the (10)s
// of their binders).
void Reducer::split_frame(std::size_t i, const Node& old) {
  Focus& f = *focus_;
  FrameStack<Frame>& frames = f.frames;
  const Frame gone = frames[i];
  Node& outer = writable(*gone.slot);
  if (!binds_es(outer) || !binds_es(*outer.kids[0]) || outer.kids[0].use_count() != 1 ||
      outer.kids[0]->kids[0].get() != old.kids[0].get())
    throw std::logic_error("linear-negation focus: (16) or (8) at a frame rebuilt the path below");
  Node& inner = writable(outer.kids[0]);
  unbind_names(gone, old); // count mode: it hid no frame (frame_choice)
  if (counts_kept_) apply_noted_counts();
  count(f.before, gone.before, -1);
  count(f.after, gone.after, -1);
  Frame fresh = gone;
  fresh.before = fresh.after = 0;
  frames.insert(i, fresh, frames.side_names(i));
  f.moved_from(i);
  frames[i + 1] = fresh;
  frames[i + 1].slot = &outer.kids[0];
  for (const std::size_t j : {i, i + 1}) {
    Frame& fr = frames[j];
    fr.hides_binder = fr.hides_scope = {FramesByName::none, FramesByName::none};
    bind_names(fr, **fr.slot, frames.key(j));
  }
  if (i + 2 < frames.size()) frames[i + 2].slot = &inner.kids[0];
  if (f.counted_from != FramesByName::none && f.counted_from > i) ++f.counted_from;
  if (f.pushed_from != FramesByName::none && f.pushed_from > i) ++f.pushed_from;
  if (f.clean_from > i) ++f.clean_from;
  outer.forget_free_counts();
  inner.forget_free_counts();
  begin_rereads_above(i + 2); // the frames from i + 2 on hold the same subtrees
  frames[i].side_height = i > 0 ? frames[i - 1].side_height : 0;
  frames[i + 1].side_height = frames[i].side_height;
  refresh_side_heights(i);
  refresh_side_heights(i + 1);
  reread_after(i);
  reread_after(i + 1);
  f.marked.push_back(i); // new nodes
  f.marked.push_back(i + 1);
  mark_rereads(i, 0, Reach{});
  finish_rereads();
}

// (10) at frame i (step_at_frame) left the node's body in its place: the frame leaves the path,
// the frames below are one up, and the frames above reread. The frames above it move one place
// on (FrameStack::drop), and so do the references to them: the entries of their names in the
// tables by name, or the links of the frames hiding them there, and the tops of their runs. The
// frames below keep their places (the frames near the root are few, those below hundreds).
void Reducer::drop_frame(std::size_t i, const Node& old) {
  Focus& f = *focus_;
  FrameStack<Frame>& frames = f.frames;
  const Frame gone = frames[i];
  count(f.before, gone.before, -1);
  count(f.after, gone.after, -1);
  const std::uint32_t hx = FramesByName::hash(old.x.name);
  f.binders.pop(old.x.name, hx, gone.hides_binder[0]);
  f.scopes.pop(old.x.name, hx, gone.hides_scope[0]);
  if (!frames.keyed()) rename_above(i);
  frames.drop(i);
  f.moved_from(i);
  if (i < frames.size()) frames[i].slot = gone.slot;
  if (f.counted_from != FramesByName::none && f.counted_from > i) --f.counted_from;
  if (f.pushed_from != FramesByName::none && f.pushed_from > i) --f.pushed_from;
  if (f.clean_from > i) --f.clean_from;
  begin_rereads_above(i); // the frames from i on hold the same subtrees
  mark_rereads(i, 0, Reach{});
  finish_rereads(); // the frames below keep their side heights, one too high: only an estimate
}

// Before frame i leaves a path whose frames are named by their places (FrameStack::keyed): the
// frames above it move one place on, and so do the references to them, the entries of their
// names in the tables by name, or the links of the frames hiding them there (the frames near the
// root are few, those below hundreds).
void Reducer::rename_above(std::size_t i) {
  Focus& f = *focus_;
  FrameStack<Frame>& frames = f.frames;
  // the one reference to frame j's place in a table for a name it binds: the table's entry,
  // else the link of the frame hiding it
  const auto moved = [&](FramesByName& table, bool scope, std::size_t j, const std::string& v) {
    const std::size_t at = frames.key(j);
    const std::uint32_t h = FramesByName::hash(v);
    if (table.replace(v, h, at, at + 1)) return;
    for (std::size_t q = table.find(v); q != FramesByName::none;) {
      Frame& inner = frames.by_key(q);
      const std::size_t b = (*inner.slot)->x.name == v ? 0 : 1;
      std::size_t& hides = scope ? inner.hides_scope[b] : inner.hides_binder[b];
      if (hides == at) {
        hides = at + 1;
        return;
      }
      q = hides;
    }
    throw std::logic_error("linear-negation focus: a frame's binder is not in its table");
  };
  for (std::size_t j = 0; j < i; ++j) {
    const Frame& fr = frames[j];
    const Node& n = **fr.slot;
    const bool binds_y = n.kind == Kind::let_pair && n.y.name != n.x.name;
    if (fr.transparent == 1) {
      moved(f.binders, false, j, n.x.name);
      if (binds_y) moved(f.binders, false, j, n.y.name);
    }
    if (counts_kept_ && binds_in(n, fr.k)) {
      moved(f.scopes, true, j, n.x.name);
      if (binds_y) moved(f.scopes, true, j, n.y.name);
    }
  }
}

} // namespace adsem::linear_negation
