// The type checker's memo (syntax/pullback/typecheck.hpp CheckMemo) must give the answer of a
// check from scratch: the same type or the same error, on every term of generated runs, under the
// paper's rules and under every mutant's (mutants make ill-typed reducts).
#include <gtest/gtest.h>
#include <rapidcheck.h>

#include "generators/pullback/terms.hpp"
#include "properties/pullback/mutants.hpp"
#include "properties/pullback/support.hpp"
#include "semantics/pullback/strategy.hpp"
#include "syntax/pullback/printer.hpp"
#include "syntax/pullback/typecheck.hpp"

namespace adsem::pullback::check_memo_test {
namespace {

Term generated(int i) {
  const rc::Random rnd(977 + static_cast<std::uint64_t>(i));
  const int size = i % 40;
  switch (i % 4) {
  case 0:
    return gen::first_order_query(false)(rnd, size).value().term();
  case 1:
    return gen::functional_query()(rnd, size).value().term();
  case 2:
    return gen::open_query()(rnd, size).value().term();
  default:
    return gen::closed_term()(rnd, size).value();
  }
}

Context context_of(const Term& t) {
  Context g;
  for (const auto& [x, ty] : support::free_var_types(t))
    g[x] = ty;
  return g;
}

// The type's text, or the error's.
std::string verdict(const std::function<Type()>& check) {
  try {
    return "type " + type_text(check());
  } catch (const AdsemError& e) {
    return "error " + e.diagnostic().render();
  }
}

TEST(PullbackCheckMemo, SameVerdictAsACheckFromScratchOnEveryStep) {
  long compared = 0, errors = 0;
  std::vector<BookPtr> books = {paper_rules()};
  for (const Mutant& m : mutant_catalogue())
    books.push_back(m.book.get());
  for (int i = 0; i < 16; ++i) {
    const Term t = generated(i);
    for (const BookPtr& book : books) {
      RunOptions o;
      o.fuel = 150;
      Machine m(Rules{book}, o);
      CheckMemo memo(LinMode::plus);
      m.observe([&](const Term& before, const Step& s, bool) {
        const Context g = context_of(before);
        for (const Term& u : {before, s.result}) {
          const std::string fresh = verdict([&] { return typecheck(u, g, LinMode::plus); });
          EXPECT_EQ(verdict([&] { return typecheck(u, g, memo); }), fresh) << print(u);
          errors += fresh.starts_with("error") ? 1 : 0;
          ++compared;
        }
      });
      try {
        m.normalise(t);
      } catch (const AdsemError&) {
        // fuel, a stuck mutant or an undefined point: the steps before it were compared
      }
    }
  }
  EXPECT_GT(compared, 1000) << errors;
  EXPECT_GT(errors, 0); // the mutants' ill-typed reducts were among them
}

// A subterm checked in one binding is checked again in another: the variable's new binding
// breaks the typing, and the memo must not hide it.
TEST(PullbackCheckMemo, ANodeInAnotherBindingIsCheckedAgain) {
  const Term inner = pair(var("x", real_type()), num(1));
  CheckMemo memo(LinMode::plus);
  EXPECT_TRUE(same_type(typecheck(lam("x", real_type(), inner), {}, memo),
                        arrow(real_type(), real_power(2))));
  const Term rebound = lam("x", real_power(2), inner);
  EXPECT_THROW(typecheck(rebound, {}, memo), AdsemError);
  EXPECT_THROW(typecheck(inner, {{"x", real_power(2)}}, memo), AdsemError);
  EXPECT_THROW(typecheck(inner, {}, memo), AdsemError); // unbound
  // and the well-typed one still checks after the failures
  EXPECT_NO_THROW(typecheck(lam("x", real_type(), inner), {}, memo));
}

} // namespace
} // namespace adsem::pullback::check_memo_test
