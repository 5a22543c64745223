// A mutant's patched book is built the first time a run asks for it, once, and shared by copies:
// listing the mutants (every start-up) builds none.
#include <gtest/gtest.h>

#include <memory>
#include <thread>
#include <vector>

#include "properties/core/mutant_catalogue.hpp"

namespace adsem::props::built_once_test {
namespace {

TEST(BuiltOnce, BuildsOnFirstAskOnlyAndCopiesShareTheBuild) {
  auto builds = std::make_shared<int>(0);
  const BuiltOnce<int> once([builds] { return ++*builds * 10; });
  EXPECT_EQ(*builds, 0); // declared, not built
  const BuiltOnce<int> copy = once;
  EXPECT_EQ(copy.get(), 10);
  EXPECT_EQ(once.get(), 10);
  EXPECT_EQ(*builds, 1);
}

TEST(BuiltOnce, ThreadsAskingAtOnceGetTheOneBuild) {
  auto builds = std::make_shared<int>(0);
  const BuiltOnce<int> once([builds] { return ++*builds; });
  std::vector<std::thread> threads;
  std::vector<int> seen(4);
  for (int i = 0; i < 4; ++i)
    threads.emplace_back([&, i] { seen[static_cast<std::size_t>(i)] = once.get(); });
  for (std::thread& t : threads)
    t.join();
  EXPECT_EQ(*builds, 1);
  for (const int s : seen)
    EXPECT_EQ(s, 1);
}

} // namespace
} // namespace adsem::props::built_once_test
