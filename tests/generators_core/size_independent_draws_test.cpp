// rc::gen::inRange narrows its range with RapidCheck's size, so a choice or a point drawn with it
// at a campaign's sizes reaches only the start of its range (delta-reverse's eval-correctness drew
// no Add or Let, simple-diff's points no positive value past 0.6). Every draw in generators/ and
// properties/ goes through generators/core/uniform.hpp or rc::gen::resize(rc::kNominalSize, …),
// or says on its line that it grows with the size (a term's depth, a context's length).
#include <filesystem>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "support/read_text.hpp"

namespace adsem::size_independent_draws_test {
namespace {

TEST(SizeIndependentDraws, EveryInRangeDrawIsUniformOrSaysItGrowsWithTheSize) {
  const std::filesystem::path root(ADSEM_SOURCE_DIR);
  int draws = 0;
  for (const char* layer : {"generators", "properties"}) {
    for (const auto& entry : std::filesystem::recursive_directory_iterator(root / layer)) {
      const auto ext = entry.path().extension();
      if (ext != ".cpp" && ext != ".hpp") continue;
      if (entry.path().filename().string().starts_with("uniform.")) continue; // the draws' home
      std::vector<std::string> lines;
      std::string line;
      for (const char c : testing::read_text(entry.path())) {
        if (c != '\n') {
          line += c;
          continue;
        }
        lines.push_back(line);
        line.clear();
      }
      for (std::size_t i = 0; i < lines.size(); ++i) {
        const std::string& l = lines[i];
        const auto at = l.find("rc::gen::inRange");
        if (at == std::string::npos || l.find("//") < at) continue; // a comment's mention
        ++draws;
        bool resized = false; // resize(...) on this line or the two before (a wrapped call)
        for (std::size_t k = i >= 2 ? i - 2 : 0; k <= i; ++k)
          resized = resized || lines[k].find("rc::gen::resize(") != std::string::npos;
        EXPECT_TRUE(resized || l.find("grows with the size") != std::string::npos)
            << entry.path().lexically_relative(root).string() << ":" << i + 1 << ": " << l;
      }
    }
  }
  EXPECT_GT(draws, 5); // the scan found the draws it is about
}

} // namespace
} // namespace adsem::size_independent_draws_test
