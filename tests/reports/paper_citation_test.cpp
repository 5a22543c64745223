// Reports cite papers by title: a property's "seed 00N" citation reaches junit.xml with the
// paper's authors and title in its place.
#include <gtest/gtest.h>

#include "report_fixtures.hpp"
#include "reports/junit_writer.hpp"
#include "reports/paper_citation.hpp"

namespace adsem::reports::paper_citation_test {
namespace {

TEST(PaperCitation, NamesThePaperInsteadOfTheWorkingCopy) {
  EXPECT_EQ(paper_citation("seed 003, Thm 6.1, lines 812-830"),
            "Abadi and Plotkin, A Simple Differentiable Programming Language, Thm 6.1, lines "
            "812-830");
  EXPECT_EQ(paper_citation("seed 001 Thm. 3 (L727-735); seed 002 Prop. 2"),
            "Krawiec et al., Provably Correct, Asymptotically Efficient, Higher-Order "
            "Reverse-Mode Automatic Differentiation Thm. 3 (L727-735); Brunel, Mazza and Pagani, "
            "Backpropagation in the Simply Typed Lambda-calculus with Linear Negation Prop. 2");
  // The implementation specs are not the reader's: their clauses are left out.
  EXPECT_EQ(paper_citation("seed 003, Thm. 6.2(1), lines 877-883; Fig. 8; spec P-AD-2, P-10"),
            "Abadi and Plotkin, A Simple Differentiable Programming Language, Thm. 6.2(1), lines "
            "877-883; Fig. 8");
  EXPECT_EQ(paper_citation("seed 004 L55-59, spec §8 E4; Fig. 4"),
            "Manzyuk, A Simply Typed λ-Calculus of Forward Automatic Differentiation L55-59; "
            "Fig. 4");
  EXPECT_EQ(paper_citation("spec §6 P1; seed 003 §4"),
            "Abadi and Plotkin, A Simple Differentiable Programming Language §4");
  EXPECT_EQ(paper_citation("a specification"), "a specification");
  // Text that names no working copy is left as it is.
  EXPECT_EQ(paper_citation("Abadi and Plotkin, §4.2"), "Abadi and Plotkin, §4.2");
  EXPECT_EQ(paper_citation("seed 009 and seed 003_6f30.txt"), "seed 009 and seed 003_6f30.txt");
  EXPECT_EQ(paper_citation(""), "");
}

TEST(PaperCitation, JunitCitesThePaperByTitle) {
  const std::string xml = render_junit(testing::sample_campaign());
  EXPECT_NE(xml.find("citation: Abadi and Plotkin, A Simple Differentiable Programming "
                     "Language, Thm 6.1"),
            std::string::npos);
  EXPECT_EQ(xml.find("seed 003"), std::string::npos);
}

} // namespace
} // namespace adsem::reports::paper_citation_test
