// --time must be a finite number of seconds > 0, and its error quotes the value as typed (it
// used to accept 0, and to answer -1 with a range ending in the largest double, written out).
#include <sstream>

#include <gtest/gtest.h>

#include "cli/app.hpp"
#include "toy_calculus.hpp"

namespace adsem::time_option_test {
namespace {

TEST(TimeOption, MustBeAFiniteNumberOfSecondsAboveZero) {
  const auto registry = testing::toy_registry();
  for (const std::string bad : {"0", "-0", "-1", "0.0", "nan", "inf", "-inf", "1e999", "abc", ""}) {
    std::ostringstream out, err;
    const int code = cli::run(
        {"adsem", "campaign", "toy", "--time", bad, "--no-corpus", "--no-config", "--no-isolate"},
        registry, cli::Io{out, err});
    EXPECT_EQ(code, 2) << "--time '" << bad << "': " << out.str() << err.str();
    EXPECT_NE(err.str().find("--time expects a finite number of seconds > 0 (got '" + bad + "')"),
              std::string::npos)
        << err.str();
  }
}

} // namespace
} // namespace adsem::time_option_test
