// Seed 002's §6 efficiency remark (L632-644; spec §6 P25): on the RNN unrolled n times, reducing
// D(L) to its normal form before (9) copies it saves a number of steps linear in n against S_bp,
// which copies first, and both reach the same gradient. Step counts, not time: they are the
// paper's measure and exact (bench/linear_negation_normalise_before_copy.cpp prints the table).
#include <vector>

#include <gtest/gtest.h>

#include "semantics/linear_negation/contents_first.hpp"
#include "semantics/linear_negation/families.hpp"
#include "semantics/linear_negation/program.hpp"
#include "semantics/linear_negation/transform.hpp"

namespace adsem::linear_negation::contents_first_test {
namespace {

struct Steps {
  long copy_first = 0, k = 0, normal_first = 0;
};

Steps steps_at(int n) {
  const RealFunction f =
      real_function(parse_elaborated(family::rnn(family::rnn_inputs(n)), Mode::source));
  const Wrapper w = gradient_wrapper(f.body, f.inputs, std::vector<double>(f.inputs.size(), 0.3));
  RunOptions o;
  o.fuel = 10'000'000;
  o.free_types = w.free_types;
  const Run copy_first = normalise(w.term, o);
  const ContentsFirst contents = normalise_contents_first(w.term, o);
  const Run then = normalise(contents.term, o);
  const auto g = read_back(copy_first.result, w.backprop);
  EXPECT_TRUE(g.has_value()) << n;
  EXPECT_EQ(g, read_back(then.result, w.backprop)) << n;
  EXPECT_GT(contents.steps, 0) << n << ": D(L) is not β-normal (L636)";
  return {copy_first.steps, contents.steps, contents.steps + then.steps};
}

TEST(LinearNegationNormaliseBeforeCopy, SavesStepsLinearInTheCopies) {
  const Steps one = steps_at(1), two = steps_at(2), eight = steps_at(8), forty = steps_at(40);
  // one copy: nothing to save, the same steps in another order
  EXPECT_EQ(one.copy_first, one.normal_first);
  const long per_copy = two.copy_first - two.normal_first;
  EXPECT_GT(per_copy, 0);
  EXPECT_LE(per_copy, two.k); // at most the k steps a copy's reduction repeats
  EXPECT_EQ(eight.copy_first - eight.normal_first, 7 * per_copy);
  EXPECT_EQ(forty.copy_first - forty.normal_first, 39 * per_copy);
  EXPECT_EQ(eight.k, two.k); // D(L) is reduced once, whatever n
}

} // namespace
} // namespace adsem::linear_negation::contents_first_test
