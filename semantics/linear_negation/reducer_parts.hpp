#pragma once
// The reducer's private pieces that its two files share (reduction.cpp: the walk from the root;
// focus.cpp: the focus kept at the last redex).
#include <algorithm>
#include <array>
#include <cstdint>
#include <memory>
#include <numeric>
#include <string_view>
#include <utility>
#include <vector>

#include "semantics/linear_negation/reduction.hpp"

namespace adsem::linear_negation {

struct Reducer::Candidate {
  std::vector<int> path;
  const Rule<Reduction>* rule = nullptr;
  int cls = 2;         // S_bp priority class (spec §4.7.4), 1 first
  std::size_t nth = 0; // which instance of the rule at the node
  // With the focus: the frame whose own instance it is, fired there without the focus moving
  // (Reducer::frame_choice), or, with a path, the frame whose child after the path (the path's
  // first) holds it (Reducer::side_choice); at_focus: an instance in the focus node's subtree.
  static constexpr std::size_t at_focus = static_cast<std::size_t>(-1);
  std::size_t frame = at_focus;
};

// Where a step's redex lies below a node of its path, in the terms the paper's side conditions
// (rules.cpp) look into a node's children: through ES bodies to a core (core_of: (7), (8),
// (11), (14), (23)), then through pair components (is_value, leaf_value: (9), (10), (16)); a
// summand's call (17) through ES bodies, an application's function and ES bodies again; a
// maximal sum's summands ((12), (13), (17)) through sum operands first. All hold at the redex.
struct Reducer::Reach {
  bool core = true;    // ES bodies only
  bool pairs = true;   // pair components only
  bool value = true;   // ES bodies, then pair components
  bool call = true;    // ES bodies, or ES bodies, an application's function, ES bodies
  bool summand = true; // sum operands, then as `call`
};

// The frames of the focus's path that bind (or open the scope of) each name: the innermost one
// by name, and on each frame the one it hides. Frames are pushed and popped last in, first out,
// so a push or a pop changes one entry and builds no list (a list per name was made and freed
// at every move of the focus through a stack of explicit substitutions). The entries are kept in
// an open-addressed table that allocates only when it grows: the focus crosses hundreds of
// binders a step on the wide sum, and a node-based map allocated and freed one entry each time.
class FramesByName {
public:
  static constexpr std::size_t none = static_cast<std::size_t>(-1);
  // The name's hash, which push and pop take (a frame's names are hashed once for both tables).
  static std::uint32_t hash(std::string_view name) { // FNV-1a: the names are short
    std::uint32_t h = 2166136261U;
    for (const char c : name)
      h = (h ^ static_cast<unsigned char>(c)) * 16777619U;
    return h ^ (h >> 16);
  }
  // Frame i binds the name: the frame it hides (none). (Inlined into the push of every frame,
  // which the compiler stopped doing once the frames' insert shared the code that calls it.)
  [[gnu::always_inline]] std::size_t push(std::string_view name, std::uint32_t h, std::size_t i) {
    if (2 * (used_ + 1) > slots_.size()) grow();
    Slot& s = slots_[place(name, h)];
    if (s.frame != none) return std::exchange(s.frame, i);
    s = Slot{name, i, h};
    ++used_;
    return none;
  }
  // The innermost frame binding the name pops: the frame it hid is the innermost again.
  void pop(std::string_view name, std::uint32_t h, std::size_t hidden) {
    std::size_t at = place(name, h);
    if (hidden != none) {
      slots_[at].frame = hidden;
      return;
    }
    // linear probing's deletion: the entries after it that probed past it move back
    const std::size_t mask = slots_.size() - 1;
    for (std::size_t next = (at + 1) & mask; slots_[next].frame != none; next = (next + 1) & mask) {
      const std::size_t home = slots_[next].hash & mask;
      if (((next - home) & mask) >= ((next - at) & mask)) {
        slots_[at] = slots_[next];
        at = next;
      }
    }
    slots_[at] = Slot{};
    --used_;
  }
  // The entry of the name naming frame `from` names `to` (true), else none changes (false).
  bool replace(std::string_view name, std::uint32_t h, std::size_t from, std::size_t to) {
    if (slots_.empty()) return false;
    Slot& s = slots_[place(name, h)];
    if (s.frame != from || from == none) return false;
    s.frame = to;
    return true;
  }
  // The innermost frame binding the name views it through another node (its frame's node was
  // replaced by one with the same binder): the entry views the name there.
  void repoint(std::string_view name, std::uint32_t h, std::string_view now) {
    Slot& s = slots_[place(name, h)];
    if (s.frame != none) s.name = now;
  }
  std::size_t find(std::string_view name) const { return find(name, hash(name)); }
  std::size_t find(std::string_view name, std::uint32_t h) const {
    if (slots_.empty()) return none;
    return slots_[place(name, h)].frame;
  }

private:
  struct Slot {
    std::string_view name;
    std::size_t frame = none; // none: empty
    std::uint32_t hash = 0;
  };
  // The name's slot, or the empty one where it would go.
  std::size_t place(std::string_view name, std::uint32_t h) const {
    const std::size_t mask = slots_.size() - 1;
    std::size_t at = h & mask;
    while (slots_[at].frame != none && (slots_[at].hash != h || slots_[at].name != name))
      at = (at + 1) & mask;
    return at;
  }
  void grow() {
    std::vector<Slot> old(std::max<std::size_t>(16, 2 * slots_.size()));
    old.swap(slots_);
    for (const Slot& s : old)
      if (s.frame != none) slots_[place(s.name, s.hash)] = s;
  }
  std::vector<Slot> slots_; // a power of two in size, at most half used
  std::size_t used_ = 0;
};

// The focus at the last redex (focus.cpp).
struct Reducer::Frame {
  Term* slot = nullptr;    // the path's node: its parent's child (or the root), held only there
  std::size_t k = 0;       // the child the path goes on to
  bool in_sum = false;     // the node is a summand of a larger sum (its summary's context)
  std::uint8_t before = 0; // key of the node's own instances and of its children before k
  std::uint8_t after = 0;  // key of its children after k
  // 1: the path goes on to an ES body; 2: the node is a summand of a larger sum. reach_above
  // maps a reach the same way at each frame of a run of one of these, and their own instances
  // change only when the step changes the free count of an ES binder (rereads).
  int transparent = 0;
  // The run of the same transparency this one ends (FrameStack::run_top; none: the frame is not
  // transparent).
  std::size_t run = FramesByName::none;
  int side_height = 0; // the root's height from frames 0..this, the path below left out
  // Whether FrameStack::side_names holds the free names of the side only (free_side_names_of),
  // not its Node::names_seen (side_names_of).
  bool free_side = false;
  // (Its filter of the names off the path is FrameStack::side_names, held apart.)
  // FramesByName::hash of its binders' names x and y, made when pushed where the frame binds
  // them in a table (pop_focus takes them out with it: a step pops and pushes several frames)
  std::array<std::uint32_t, 2> name_hash{};
  // The frames this one hides in Focus::binders and Focus::scopes, for its binder x and y (by
  // their keys).
  std::array<std::size_t, 2> hides_binder{FramesByName::none, FramesByName::none};
  std::array<std::size_t, 2> hides_scope{FramesByName::none, FramesByName::none};
};

// The frames of the focus's path, by depth (0: the root's node). The tables by name and the
// frames' links to the frames they hide name a frame by its key (key, depth, by_key), the runs'
// tops by its place in the buffer. A frame leaves the middle of the path (Reducer::drop_frame)
// where it is an explicit substitution near the root (the complexity families' root binder): the
// frames above it move one place on and those below keep theirs, so the references to the frames
// below (the whole path, hundreds of frames) are not renamed; a frame's key is its place, and
// the caller renames the few above. Once a frame enters the middle of the path
// (Reducer::split_frame, the wide sum's inputs, hundreds of frames above and below), the frames
// keep their keys when they move, and the shorter side moves. The places before the first frame
// are left unused until the path is empty.
template <typename Frame> class FrameStack {
public:
  FrameStack() = default;
  FrameStack(const FrameStack&) = delete; // top_ views held_
  FrameStack& operator=(const FrameStack&) = delete;
  // (as a vector's, from the first frame kept where it is held)
  std::size_t size() const { return static_cast<std::size_t>(std::to_address(held_.end()) - top_); }
  bool empty() const { return std::to_address(held_.end()) == top_; }
  Frame& operator[](std::size_t i) { return top_[i]; }
  const Frame& operator[](std::size_t i) const { return top_[i]; }
  Frame& back() { return held_.back(); }
  const Frame& back() const { return held_.back(); }
  // Frame i, pushed next, begins a run: the run, named by the frame's place (no run that goes
  // on below has it: the frames only move on, by drop). Once keyed, a frame above may have moved
  // back to that place (insert): the run is named by a new entry of run_tops_.
  std::size_t new_run(std::size_t i) {
    const std::size_t run = first_ + i;
    if (run_tops_.empty()) return run;
    if (!keyed()) {
      if (run >= run_tops_.size()) run_tops_.resize(2 * run);
      run_tops_[run] = run;
      return run;
    }
    return keyed_run(run);
  }
  // The key of frame i, pushed next (push_back), by which the tables by name and the frames'
  // links name it. Until a frame enters the middle of the path (insert) a frame's key is its
  // place, and a drop moves the frames above one place on, their keys too (the caller renames
  // them in the tables); from then on until the path is empty, a frame that moves keeps its key.
  bool keyed() const { return keyed_; }
  std::size_t new_key(std::size_t i) { return keyed() ? key_for(first_ + i) : first_ + i; }
  void push_back(const Frame& fr, std::size_t key, NameFilter side) {
    held_.push_back(fr);
    sides_.push_back(side);
    top_ = held_.data() + first_;
    if (keyed()) keys_.push_back(key);
  }
  void pop_back() {
    if (keyed()) {
      free_keys_.push_back(keys_.back());
      keys_.pop_back();
    }
    held_.pop_back();
    sides_.pop_back();
    if ((first_ != 0 || !run_tops_.empty()) && empty()) { // the tables name no frame
      held_.clear();
      sides_.clear();
      run_tops_.clear();
      keys_.clear();
      places_.clear();
      free_keys_.clear();
      keyed_ = false;
      first_ = 0;
      top_ = held_.data();
    }
  }
  // Frame i's filter of names off the path: a superset of the names free in its node's children
  // off the path and of those its node binds, by their bits (all of them where the node has other
  // than two children; side_names_of). (9)'s descent along the path goes past a frame without
  // the name's bits in one step (first_naming). Held apart from the frames, eight bytes a frame,
  // so that the descent's scan down a path of thousands of frames reads one cache line per eight.
  NameFilter side_names(std::size_t i) const { return sides_[first_ + i]; }
  void set_side_names(std::size_t i, NameFilter names) { sides_[first_ + i] = names; }
  // The first frame from i on, before `end`, whose side_names hold the name's bits (end if none).
  std::size_t first_naming(std::size_t i, NameFilter bit, std::size_t end) const {
    const NameFilter* side = sides_.data() + first_;
    while (i < end && !holds_bits(side[i], bit))
      ++i;
    return i;
  }
  // Frame i's key, and the depth and the frame of a key.
  std::size_t key(std::size_t i) const { return keyed() ? keys_[first_ + i] : first_ + i; }
  std::size_t depth(std::size_t key) const { return (keyed() ? places_[key] : key) - first_; }
  Frame& by_key(std::size_t key) { return held_[keyed() ? places_[key] : key]; }
  const Frame& by_key(std::size_t key) const { return held_[keyed() ? places_[key] : key]; }
  // The depth of the first frame of the run a transparent frame ends.
  std::size_t run_top(const Frame& fr) const {
    return (run_tops_.empty() ? fr.run : run_tops_[fr.run]) - first_;
  }
  // Frame i leaves the path (its key with it), and the frames above it move one place on, or,
  // once keyed, those on the shorter side of it move one place towards it (those below it one
  // place back).
  void drop(std::size_t i) {
    name_runs();
    if (keyed()) free_keys_.push_back(keys_[first_ + i]);
    const std::size_t n = size();
    if (!keyed() || i < n - 1 - i) {
      std::move_backward(top_, top_ + i, top_ + i + 1);
      NameFilter* side = sides_.data() + first_;
      std::move_backward(side, side + i, side + i + 1);
      if (keyed()) {
        const auto k = keys_.begin() + static_cast<std::ptrdiff_t>(first_);
        std::move_backward(k, k + static_cast<std::ptrdiff_t>(i),
                           k + static_cast<std::ptrdiff_t>(i) + 1);
      }
      ++first_;
      ++top_;
      moved(0, i + 1);
    } else {
      held_.erase(held_.begin() + static_cast<std::ptrdiff_t>(first_ + i));
      sides_.erase(sides_.begin() + static_cast<std::ptrdiff_t>(first_ + i));
      keys_.erase(keys_.begin() + static_cast<std::ptrdiff_t>(first_ + i));
      top_ = held_.data() + first_;
      moved(i, n - 1);
    }
  }
  // The mirror of drop: fr enters the path at depth i with a key of its own, the frames on the
  // shorter side move one place away (those above it one place back, or those from i on one
  // place on). fr is in the run of the frame it goes above (fr.run), or in none.
  void insert(std::size_t i, const Frame& fr, NameFilter side) {
    name_runs();
    if (!keyed()) { // each frame's key its place
      places_.resize(held_.size());
      std::iota(places_.begin(), places_.end(), std::size_t{0});
      keys_ = places_;
      keyed_ = true;
    }
    const std::size_t n = size();
    if (i < n - i) {
      if (first_ == 0) reserve_front();
      --first_;
      --top_;
      std::move(top_ + 1, top_ + i + 1, top_);
      top_[i] = fr;
      NameFilter* sides = sides_.data() + first_;
      std::move(sides + 1, sides + i + 1, sides);
      sides[i] = side;
      const auto k = keys_.begin() + static_cast<std::ptrdiff_t>(first_);
      std::move(k + 1, k + static_cast<std::ptrdiff_t>(i) + 1, k);
      keys_[first_ + i] = key_for(first_ + i);
      moved(0, i + 1);
    } else {
      held_.insert(held_.begin() + static_cast<std::ptrdiff_t>(first_ + i), fr);
      sides_.insert(sides_.begin() + static_cast<std::ptrdiff_t>(first_ + i), side);
      keys_.insert(keys_.begin() + static_cast<std::ptrdiff_t>(first_ + i), key_for(first_ + i));
      top_ = held_.data() + first_;
      moved(i, n + 1);
    }
  }

private:
  // Free places before the first frame for insert: the frames move on by as many places as there
  // are frames (once in so many inserts).
  void reserve_front() {
    name_runs();
    const std::size_t by = std::max<std::size_t>(16, held_.size());
    held_.insert(held_.begin(), by, Frame{});
    sides_.insert(sides_.begin(), by, ~NameFilter{0});
    keys_.insert(keys_.begin(), by, 0);
    first_ += by;
    top_ = held_.data() + first_;
    for (std::size_t& top : run_tops_)
      top += by;
    for (std::size_t& place : places_)
      place += by;
  }
  // (out of line, as key_for: the push of every frame inlines new_run and new_key)
  [[gnu::noinline]] std::size_t keyed_run(std::size_t top) {
    if (run_tops_.size() >= 2 * held_.size() + 64) renumber_runs();
    run_tops_.push_back(top);
    return run_tops_.size() - 1;
  }
  [[gnu::noinline]] std::size_t key_for(std::size_t place) {
    if (free_keys_.empty()) {
      places_.push_back(place);
      return places_.size() - 1;
    }
    const std::size_t key = free_keys_.back();
    free_keys_.pop_back();
    places_[key] = place;
    return key;
  }

  // Frames from..to-1 are at other places: the keys' places, and the first frames of their runs.
  void moved(std::size_t from, std::size_t to) {
    for (std::size_t j = from; j < to; ++j) {
      if (keyed()) places_[keys_[first_ + j]] = first_ + j;
      const std::size_t run = top_[j].run;
      if (run != FramesByName::none && (j == 0 || top_[j - 1].run != run))
        run_tops_[run] = first_ + j;
    }
  }
  void name_runs() {
    if (!run_tops_.empty()) return;
    // each run's first frame where it began until now, its name its place
    run_tops_.resize(held_.size());
    std::iota(run_tops_.begin(), run_tops_.end(), std::size_t{0});
  }
  // The runs named again from 0, top down (their names are as many as the runs begun since the
  // path was last empty).
  void renumber_runs() {
    std::vector<std::size_t> tops;
    std::size_t was = FramesByName::none;
    for (Frame* fr = top_; fr != std::to_address(held_.end()); ++fr) {
      if (fr->run == FramesByName::none) continue;
      if (fr->run != was) {
        was = fr->run;
        tops.push_back(run_tops_[was]);
      }
      fr->run = tops.size() - 1;
    }
    run_tops_ = std::move(tops);
  }
  std::vector<Frame> held_;
  std::vector<NameFilter> sides_;      // by place, as held_: side_names
  std::vector<std::size_t> keys_;      // once keyed, by place: the frame's key
  std::vector<std::size_t> places_;    // by key: the frame's place (or none named: free)
  std::vector<std::size_t> free_keys_; // the keys of no frame
  bool keyed_ = false;
  std::size_t first_ = 0;
  Frame* top_ = nullptr; // held_.data() + first_
  // The place of the first frame of each run of transparent frames, by the run (Frame::run);
  // none made until a frame is dropped (each run's first frame is where the run began).
  std::vector<std::size_t> run_tops_;
};

struct Reducer::Focus {
  // Out of line (focus.cpp): reduction.cpp, whose constructors may destroy a focus, compiled
  // its walk from the root otherwise when the frame stack grew.
  ~Focus();
  FrameStack<Frame> frames;
  // how many frames have each key before and after the path
  std::array<long, last_priority_class + 1> before{}, after{};
  // For each key, a depth above which no frame has it before the path (Reducer::frame_choice
  // seeks the outermost one from there and moves it on): a frame taking the key, or the frames
  // from a depth moving (FrameStack::insert, drop), bring it up; the scan from the root crossed
  // hundreds of frames a step on the complexity families.
  std::array<std::size_t, last_priority_class + 1> before_from{};
  void keyed_before(std::size_t depth, std::uint8_t k) {
    before_from[k] = std::min(before_from[k], depth);
  }
  void moved_from(std::size_t depth) {
    for (std::size_t& from : before_from)
      from = std::min(from, depth);
  }
  std::size_t clean_from = 0;   // the frames from here were pushed since the last step
  std::size_t counted_from = 0; // the frames from here may hold free-variable counts
  // The same when no list was made since the last forgetting (Node::free_lists_made at it was
  // lists_at_forget): the frames from here were pushed since. A step's rereads of binders near
  // the root bring counted_from up there though they rarely make a list (on the RNN at n = 2,000
  // lists were made between 9% of its steps), and forgetting visited every frame below.
  std::size_t pushed_from = 0;
  std::uint64_t lists_at_forget = ~std::uint64_t{0};
  // The frames going on to an ES body, by the binder's name (it views the node's binder): a step
  // that changes the free count of the name makes them reread.
  FramesByName binders;
  std::vector<std::size_t> marked; // the frames to reread after a step
  // Marked frames whose path goes on to an ES's bound term and down a run of ES bodies, with the
  // core under that run (mark_rereads, which crossed the run, finds it from the run's last frame):
  // reread_frame hands it to the side conditions, which walked the run at every step (the
  // sharing chain's gradient grows a stack of n explicit substitutions in its root's bound term).
  std::vector<std::pair<std::size_t, const Term*>> bound_cores;
  // Count mode (Reducer::keeps_counts): the frames going on into a binder's scope (an ES body or
  // an abstraction's), by the binder's name: a step's notes of the name change their count.
  FramesByName scopes;
  // FramesByName::hash of each of the step's touched names (Reducer::touched_), made by
  // apply_noted_counts for both tables (empty: not made for this step's names).
  std::vector<std::uint32_t> touched_hash;
};

inline bool binds_es(const Node& n) {
  return n.kind == Kind::let || n.kind == Kind::let_pair;
}

// The bits of the names n binds.
inline NameFilter bound_bits(const Node& n) {
  NameFilter names = 0;
  if (n.kind == Kind::lam || binds_es(n)) names |= name_bits(n.x.name);
  if (n.kind == Kind::let_pair) names |= name_bits(n.y.name);
  return names;
}

// FrameStack::side_names of node n whose path goes on to child k: from the side's names_seen, or
// with the free names of a small side only (focus.cpp).
inline NameFilter side_names_of(const Node& n, std::size_t k) {
  if (n.kids.size() != 2) return ~NameFilter{0};
  return n.kids[1 - k]->names_seen | bound_bits(n);
}
NameFilter free_side_names_of(const Node& n, std::size_t k);

// Whether the path from n to its child k goes into the scope of n's binders.
inline bool binds_in(const Node& n, std::size_t k) {
  return k == 0 && (n.kind == Kind::lam || binds_es(n));
}

} // namespace adsem::linear_negation
