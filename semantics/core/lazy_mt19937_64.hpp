#pragma once
// std::mt19937_64 seeded with one number, producing the same sequence, but seeding and twisting
// its state only as far as the numbers drawn need. A freshly seeded std::mt19937_64 fills its 312
// words and then twists all of them before its first number; a caller that seeds one per step and
// draws a few numbers (linear-negation's S_rand: one draw per redex instance) spent most of a step
// there. Output k of the first round needs only words 0..k+156 of the seeded state, so a draw of
// c < 156 numbers costs about 157 + c word updates instead of 624. From the 313th number on it
// twists whole rounds as the standard engine does. LazyMt19937_64.MatchesTheStandardEngine
// compares the two.
#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <limits>

namespace adsem {

class LazyMt19937_64 {
public:
  using result_type = std::uint64_t;
  static constexpr result_type min() { return 0; }
  static constexpr result_type max() { return std::numeric_limits<result_type>::max(); }

  explicit LazyMt19937_64(result_type seed) {
    x_[0] = seed;
    seeded_ = 1;
  }

  // Seeds and twists at once the words the first `draws` numbers of the first round read, for a
  // caller that knows how many it draws: two tight loops instead of a word of each per number, and
  // each number is then only tempered (the numbers are the same).
  void prepare(std::size_t draws) {
    const std::size_t upto = std::min(draws, n);
    if (ready_ >= upto) return;
    seed_for_twists(upto);
    for (std::size_t k = ready_; k < upto; ++k)
      x_[k] = twisted(k);
    ready_ = upto;
  }

  // The generator `use` draws from (about `draws` numbers, a caller that knows how many): this
  // engine's numbers, the words they read seeded ahead as prepare seeds them, but each number's
  // word twisted, stored and tempered as it is drawn, the place kept in the generator (one loop
  // over the words, where prepare's twist and each draw through the engine each went over them).
  // A number past those words is the engine's (the same sequence). What `use` returns.
  template <typename Use> decltype(auto) drawing(std::size_t draws, Use&& use) {
    Drawing g(*this, draws);
    struct Give { // the engine takes the place back however `use` ends
      Drawing& g;
      ~Give() { g.give_back(); }
    } give{g};
    return use(g);
  }

  result_type operator()() {
    if (next_ == ready_) advance();
    return temper(x_[next_++]);
  }

private:
  static constexpr std::size_t n = 312, m = 156;

  // drawing's generator: words k_..end_-1 are the next ones, seeded and not yet twisted, each
  // twisted from seeded words alone (before n - m); from end_ on, the engine's own.
  class Drawing {
  public:
    using result_type = LazyMt19937_64::result_type;
    static constexpr result_type min() { return LazyMt19937_64::min(); }
    static constexpr result_type max() { return LazyMt19937_64::max(); }
    Drawing(LazyMt19937_64& e, std::size_t draws) : e_(e) {
      if (e.next_ != e.ready_ || e.ready_ >= n - m) return; // past the words: the engine's
      k_ = e.ready_;
      end_ = std::min(draws, n - m);
      if (k_ < end_) e.seed_for_twists(end_);
    }
    // (inlined into the caller's loop: out of line, the call cost as much as the twist)
    [[gnu::always_inline]] result_type operator()() {
      if (k_ < end_) [[likely]] {
        const result_type word = e_.x_[k_ + m] ^ mix(e_.x_[k_], e_.x_[k_ + 1]);
        e_.x_[k_++] = word;
        return temper(word);
      }
      give_back();
      return e_.number(); // (out of line: the generator's place stays in registers)
    }
    // The engine's place is the generator's (words from k_ on seeded, not twisted).
    void give_back() {
      if (end_ == 0) return;
      e_.next_ = e_.ready_ = k_;
      k_ = end_ = 0;
    }

  private:
    LazyMt19937_64& e_;
    std::size_t k_ = 0, end_ = 0;
  };
  static constexpr result_type matrix = 0xb5026f5aa96619e9ULL;
  static constexpr result_type upper = ~result_type{0} << 31, lower = ~upper;
  static constexpr result_type init_multiplier = 6364136223846793005ULL;

  static result_type mix(result_type hi, result_type lo) {
    const result_type y = (hi & upper) | (lo & lower);
    return (y >> 1) ^ ((y & 1U) != 0 ? matrix : 0);
  }
  // Word j of the seeded state, from word j - 1 (std::mersenne_twister_engine::seed).
  static result_type seeded_after(result_type last, std::size_t j) {
    return init_multiplier * (last ^ (last >> 62)) + j;
  }
  // Word `to` of the seeded state from word from - 1, the words between not written. Eight words
  // a round: the loop's own count and test were a third of each word's instructions.
  static result_type run_through(result_type last, std::size_t from, std::size_t to) {
    std::size_t j = from;
    for (; j + 7 <= to; j += 8)
      for (std::size_t i = 0; i < 8; ++i)
        last = seeded_after(last, j + i);
    for (; j <= to; ++j)
      last = seeded_after(last, j);
    return last;
  }
  static result_type temper(result_type z) {
    z ^= (z >> 29) & 0x5555555555555555ULL;
    z ^= (z << 17) & 0x71d67fffeda60000ULL;
    z ^= (z << 37) & 0xfff7eee000000000ULL;
    z ^= z >> 43;
    return z;
  }
  // The seeded state's words up to index `upto` (inclusive), as std::mersenne_twister_engine::seed.
  // The count and the last word are kept in registers: seeded_ and the words are both 64-bit
  // unsigned, so a store to a word would otherwise make the compiler read seeded_ again.
  void seed_upto(std::size_t upto) {
    std::size_t i = seeded_;
    if (i > upto) return;
    result_type last = x_[i - 1];
    const auto seed_word = [&](std::size_t j) {
      last = seeded_after(last, j);
      x_[j] = last;
    };
    // four words a round: S_rand seeds about 160 words a step, and the loop's own count and test
    // were a third of each word's instructions
    for (; i + 3 <= upto; i += 4) {
      seed_word(i);
      seed_word(i + 1);
      seed_word(i + 2);
      seed_word(i + 3);
    }
    for (; i <= upto; ++i)
      seed_word(i);
    seeded_ = i;
  }
  // The seeded words the twists of words ready_..upto-1 read (0 < upto <= n).
  void seed_for_twists(std::size_t upto) {
    fill_hole();
    // The twists read words 0..upto and m..upto-1+m: the ones between are run through to reach
    // word m without being written (most of a few numbers' seeding), and written only if a later
    // number reads them (fill_hole).
    if (seeded_ <= upto + 1 && upto + 2 < m) {
      seed_upto(upto);
      x_[m - 1] = run_through(x_[upto], upto + 1, m - 1);
      hole_begin_ = upto + 1;
      hole_end_ = m - 1;
      seeded_ = m;
    }
    seed_upto(std::min(upto - 1 + m, n - 1)); // every word the twists read
  }
  [[gnu::noinline]] result_type number() { return (*this)(); }
  // Word k of the first twist, in the order and in place as the standard engine's twist, from
  // seeded words (and, past n - m, the words of this round already twisted).
  result_type twisted(std::size_t k) const {
    if (k < n - m) return x_[k + m] ^ mix(x_[k], x_[k + 1]);
    if (k + 1 < n) return x_[k - (n - m)] ^ mix(x_[k], x_[k + 1]);
    return x_[m - 1] ^ mix(x_[k], x_[0]);
  }
  // The words prepare left unwritten, from the one before them (still as seeded: twists write
  // only the words before ready_, and prepare's hole begins after it).
  void fill_hole() {
    for (std::size_t j = hole_begin_; j < hole_end_; ++j)
      x_[j] = seeded_after(x_[j - 1], j);
    hole_end_ = 0;
  }
  void twist_one(std::size_t k) {
    if (hole_end_ != 0) fill_hole();
    if (k + 1 < n) seed_upto(k < n - m ? k + m : k + 1);
    x_[k] = twisted(k);
  }
  void twist_all() {
    for (std::size_t k = 0; k < n - m; ++k)
      x_[k] = x_[k + m] ^ mix(x_[k], x_[k + 1]);
    for (std::size_t k = n - m; k < n - 1; ++k)
      x_[k] = x_[k - (n - m)] ^ mix(x_[k], x_[k + 1]);
    x_[n - 1] = x_[m - 1] ^ mix(x_[n - 1], x_[0]);
  }

  // The word of the next number: the first round's words one by one, then whole rounds.
  void advance() {
    if (next_ == n) {
      twist_all();
      next_ = 0;
      ready_ = n;
    } else {
      twist_one(ready_++);
    }
  }

  std::array<result_type, n> x_; // filled lazily: words at or past seeded_ are not yet written
  std::size_t seeded_ = 0;
  std::size_t next_ = 0;
  std::size_t ready_ = 0; // the words before it are twisted (this round's numbers, untempered)
  std::size_t hole_begin_ = 0, hole_end_ = 0; // seeded words prepare left unwritten, if any
};

} // namespace adsem
