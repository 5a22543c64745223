// The model's shortcut for the interval certificate (semantics/simple_diff/denotation.hpp,
// Denoted::decided_everywhere): a walk that met no predicate and no partial primitive is
// certified without running the model over a box. The interval run must agree wherever it is
// skipped (seed 003 Section 5; spec §5.4 "interval certificate").
#include <gtest/gtest.h>
#include <rapidcheck.h>

#include "generators/simple_diff/terms.hpp"
#include "semantics/core/interval_model.hpp"
#include "semantics/simple_diff/denotation.hpp"
#include "semantics/simple_diff/run.hpp"
#include "syntax/simple_diff/derived.hpp"
#include "syntax/simple_diff/printer.hpp"

namespace adsem::simple_diff::certificate_test {
namespace {

using model::Dual;
using model::Interval;

template <class C>
denotation::MEnv<C> at(const gen::OpenTerm& t, const std::vector<Dual<C>>& point) {
  return {{t.x, denotation::unflatten_value<C>(t.t, std::span<const Dual<C>>(point))}};
}

bool decided(const std::string& source) {
  const model::DiffContext context;
  const Typed typed =
      typecheck(parse_term(source, primitives()), primitives(), {{"x", real_type()}});
  const Dual<double> x(0.5);
  return denotation::denote_unless_bottom<double>(typed.term,
                                                  {{"x", denotation::MValue<double>(x)}}, context)
      .decided_everywhere;
}

TEST(SimpleDiffCertificate, DecidedEverywhereOnlyWithoutPartialParts) {
  EXPECT_TRUE(decided("sin(x) * x + 1.rd[x](y:real. y * y)"));
  EXPECT_TRUE(decided("if true then x else log(x)")); // the branch not taken is not met
  EXPECT_FALSE(decided("if x < 0 then 0 else x"));
  EXPECT_FALSE(decided("log(x * x + 1)"));
  EXPECT_FALSE(decided("1.rd[x](y:real. sqrt(exp(y)))"));
  EXPECT_FALSE(decided("log_r(<x, 1>)")); // op_r is partial where op is
}

// On generated terms (and their approximants M^(n), whose f^(0) is a definite ⊥): where the walk
// is decided everywhere, the interval certificate is certified at the first box when the point's
// value is defined, and outside when it is ⊥.
TEST(SimpleDiffCertificate, SkippedCertificatesAgreeWithTheIntervalRun) {
  gen::TermOptions options;
  options.divergent = true;
  const auto g = gen::open_term(options);
  const model::DiffContext context;
  int skipped = 0;
  for (int i = 0; i < 150; ++i) {
    gen::OpenTerm t = g(rc::Random(20261129 + static_cast<std::uint64_t>(i)), 60).value();
    t.term = approximant(t.term, i % 5);
    const std::vector<double> point(static_cast<std::size_t>(type_size(*t.t)), 0.375 + i % 3);
    std::optional<denotation::Denoted<double>> d;
    try {
      const std::vector<Dual<double>> in(point.begin(), point.end());
      d = denotation::denote_unless_bottom<double>(t.term, at<double>(t, in), context);
    } catch (const AdsemError&) {
      continue; // a thrown ⊥ or fuel: the certificate runs as before
    }
    if (!d->decided_everywhere) continue;
    ++skipped;
    const model::Certificate c =
        model::certify_partial(point, [&](const model::Box& box) -> std::optional<std::string> {
          return denotation::denote_unless_bottom<Interval>(
                     t.term, at<Interval>(t, model::as_duals(box)), context)
              .bottom;
        });
    if (d->bottom) {
      EXPECT_EQ(c.status, model::CertificateStatus::outside) << print(t.term);
    } else {
      EXPECT_EQ(c.status, model::CertificateStatus::certified) << print(t.term);
      EXPECT_EQ(c.shrinks, 0) << print(t.term);
    }
  }
  EXPECT_GT(skipped, 10); // the shortcut is taken on some of the draws (17 of 150 here)
}

} // namespace
} // namespace adsem::simple_diff::certificate_test
