// A trial whose body throws before it reports its input (an evaluation error, an exception out of
// a mutant's ill-typed rule) is recorded with the values RapidCheck drew for it, shown through
// the showValue overloads that RapidCheck finds by argument-dependent lookup. Without one,
// RapidCheck prints "<???>" (and an address for a shared_ptr), and the report names no term.
// Every type the calculi's properties draw must be shown in the calculus's surface syntax.
#include <string>

#include <gtest/gtest.h>
#include <rapidcheck.h>

#include "cli/builtin_registry.hpp"
#include "generators/delta_reverse/terms.hpp"
#include "generators/linear_negation/terms.hpp"
#include "generators/perturbative/terms.hpp"
#include "generators/pullback/terms.hpp"
#include "generators/simple_diff/terms.hpp"
#include "properties/core/campaign.hpp"

namespace adsem::drawn_values_test {
namespace {

template <typename T> std::string shown(const rc::Gen<T>& g, int seed = 7) {
  const T value = g(rc::Random(static_cast<std::uint64_t>(seed)), 30).value();
  return rc::toString(value);
}

void expect_surface_syntax(const std::string& text, const std::string& expected_part) {
  const std::string unknown = "<" + std::string(3, '?') + ">"; // RapidCheck's "no showValue"
  EXPECT_EQ(text.find(unknown), std::string::npos) << text;
  EXPECT_EQ(text.find("0x"), std::string::npos) << "an address instead of a term: " << text;
  EXPECT_NE(text.find(expected_part), std::string::npos) << text;
}

TEST(DrawnValues, DeltaReverseShowsTermsTypesAndValues) {
  namespace dr = delta_reverse;
  expect_surface_syntax(shown(dr::gen::main_expression()), " : ");
  expect_surface_syntax(shown(dr::gen::closed_term()), " : ");
  expect_surface_syntax(shown(dr::gen::term({}, dr::real_type())), "");
  const dr::Type rr = dr::product_type(dr::real_type(), dr::real_type());
  expect_surface_syntax(shown(dr::gen::value_of(rr)), "(");
}

TEST(DrawnValues, LinearNegationShowsSourcesAndTypedTerms) {
  namespace ln = linear_negation;
  expect_surface_syntax(shown(ln::gen::source()), " at ");
  expect_surface_syntax(shown(ln::gen::graph()), " at ");
  expect_surface_syntax(shown(ln::gen::closed_linear()), " : ");
}

TEST(DrawnValues, PullbackShowsQueriesAndTerms) {
  expect_surface_syntax(shown(pullback::gen::first_order_query()), "Omega");
  expect_surface_syntax(shown(pullback::gen::closed_term()), "");
}

TEST(DrawnValues, SimpleDiffShowsOpenTerms) {
  expect_surface_syntax(shown(simple_diff::gen::open_term()), " |- ");
}

TEST(DrawnValues, PerturbativeShowsTerms) {
  namespace pt = perturbative;
  expect_surface_syntax(shown(pt::gen::closed_term(pt::gen::ground_pool())), " : ");
}

// End to end: Fig. 14's last line as printed is ill-typed, so this mutant's trials end in an
// evaluation error before any property reports its input; the record still shows the term.
TEST(DrawnValues, AnErroringTrialIsReportedWithItsTerm) {
  const props::Registry registry = cli::builtin_registry();
  props::CampaignOptions o;
  o.calculi = {"delta-reverse"};
  o.properties = {"delta-reverse/primal-preservation"};
  o.trials = 50;
  o.seed = 5;
  o.mutant = "delta-reverse/paper-literal-fig14-pure-dy";
  const reports::CampaignResult result = props::run_campaign(registry, o);
  ASSERT_EQ(result.counterexamples.size(), 1u);
  const auto& record = result.counterexamples.front();
  EXPECT_EQ(record.outcome, "error") << record.message;
  expect_surface_syntax(record.term, " -> "); // e : S -> T, then the input values
  EXPECT_EQ(record.term.find("adsem::"), std::string::npos) << "C++ type names: " << record.term;
}

} // namespace
} // namespace adsem::drawn_values_test
