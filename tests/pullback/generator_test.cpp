// Generators (spec §10): well typed by construction (strict lin), every template reachable.
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <map>

#include "generators/pullback/terms.hpp"
#include "syntax/pullback/printer.hpp"
#include "syntax/pullback/typecheck.hpp"

namespace adsem::pullback::generator_test {
namespace {

RC_GTEST_PROP(PullbackGenerators, ClosedTermsAreWellTyped, ()) {
  const Term t = *gen::closed_term();
  const auto err = type_error(t, {}, LinMode::strict);
  RC_ASSERT_FALSE(err.has_value());
}

RC_GTEST_PROP(PullbackGenerators, QueriesAreWellTyped, ()) {
  const gen::Query q = *gen::first_order_query();
  RC_ASSERT_FALSE(type_error(q.term(), {}, LinMode::strict).has_value());
  const gen::Query f = *gen::functional_query();
  RC_ASSERT_FALSE(type_error(f.term(), {}, LinMode::strict).has_value());
  const gen::Query s = *gen::symbolic_query();
  RC_ASSERT_FALSE(type_error(s.term(), {{"om", one_form(s.tau)}}, LinMode::strict).has_value());
}

RC_GTEST_PROP(PullbackGenerators, LinearTermsAreLinear, ()) {
  const Term s = *gen::linear_term("x", real_power(2), real_type());
  RC_ASSERT(lin(s, LinMode::strict).contains("x"));
  RC_ASSERT_FALSE(type_error(s, {{"x", real_power(2)}}, LinMode::strict).has_value());
}

TEST(PullbackGenerators, Samples) {
  for (int i = 0; i < 8; ++i)
    std::cout << print(gen::first_order_query()(rc::Random(i + 1), 50).value().term()) << "\n";
}

} // namespace
} // namespace adsem::pullback::generator_test
