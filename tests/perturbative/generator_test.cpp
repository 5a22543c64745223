// The generator reaches every construct of spec §10 (T, nested T, higher-order arguments, λ with
// shadowing, products and lone injections, sums, partial primitives), and every sample is well
// typed by construction (Fig. 1), and its shrinks keep the type.
#include <set>

#include <gtest/gtest.h>
#include <rapidcheck.h>

#include "generators/perturbative/terms.hpp"
#include "semantics/perturbative/constants.hpp"
#include "syntax/perturbative/printer.hpp"
#include "syntax/perturbative/typecheck.hpp"

namespace adsem::perturbative::generator_test {
namespace {

struct Constructs {
  std::set<std::string> seen;
  std::vector<std::string> bound;
  void bag(const Term& m) {
    for (const SimpleP& s : m.items)
      simple(*s);
  }
  void simple(const Simple& s) {
    switch (s.kind) {
    case Kind::lam:
      if (std::find(bound.begin(), bound.end(), s.name) != bound.end()) seen.insert("shadowing");
      bound.push_back(s.name);
      simple(*s.operand);
      bound.pop_back();
      return;
    case Kind::app:
      simple(*s.operand);
      bag(s.argument);
      return;
    case Kind::inj:
      seen.insert("inj");
      simple(*s.operand);
      return;
    case Kind::proj:
      seen.insert("proj");
      simple(*s.operand);
      return;
    case Kind::push:
      simple(*s.operand);
      return;
    case Kind::primitive:
      if (s.name == "log" || s.name == "sqrt" || s.name == "recip") seen.insert("partial");
      return;
    default:
      return;
    }
  }
};

TEST(PerturbativeGenerator, ReachesEveryConstructAndIsWellTypedByConstruction) {
  const auto generator = gen::closed_term(gen::type_pool());
  Constructs constructs;
  for (int i = 0; i < 300; ++i) {
    const Term m = generator(rc::Random(static_cast<std::uint64_t>(i) + 1), 50).value();
    ASSERT_FALSE(type_error(m, {}, constant_types())) << print(m);
    for (const std::string& tag : gen::tags_of(m))
      constructs.seen.insert(tag);
    constructs.bag(m);
    for (const Term& smaller : gen::shrinks(m)) {
      ASSERT_TRUE(same_type(smaller.type, m.type));
      ASSERT_FALSE(type_error(smaller, {}, constant_types())) << print(smaller);
    }
  }
  for (const std::string construct : {"T", "nested-T", "lambda", "higher-order", "sum", "pair",
                                      "shadowing", "inj", "proj", "partial"})
    EXPECT_TRUE(constructs.seen.count(construct)) << construct << " never generated";
}

} // namespace
} // namespace adsem::perturbative::generator_test
