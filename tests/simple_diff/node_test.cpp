// The term node of simple-diff (syntax/simple_diff/ast.hpp): the rare fields of letrec, rd and the
// derived forms' expansions live in a side record, so the common nodes of a derivative stay small.
#include <gtest/gtest.h>

#include "syntax/simple_diff/ast.hpp"
#include "syntax/simple_diff/derived.hpp"
#include "syntax/simple_diff/printer.hpp"

namespace adsem::simple_diff {
namespace {

TEST(SimpleDiffNode, CommonNodesAreSmallAndCarryNoSideRecord) {
  // 224 bytes with the rare fields inline; the walks and the disposal of large derivatives read
  // every node, so the size is part of the design (three cache lines with the shared count).
  EXPECT_LE(sizeof(Node), 168u);
  const Term t = mk::let("t1", real_type(), mk::op("sin", mk::var("x")),
                         mk::pair(mk::var("t1"), mk::constant(2.0), real_type(), real_type()));
  EXPECT_EQ(t->extra, nullptr);
  EXPECT_EQ(t->a->extra, nullptr);
  EXPECT_EQ(t->b->extra, nullptr);
  EXPECT_EQ(t->param(), "");
  EXPECT_EQ(t->result_type(), nullptr);
  EXPECT_FALSE(t->limit().has_value());
  EXPECT_EQ(t->sugar(), nullptr);
}

TEST(SimpleDiffNode, RareFieldsAreKeptThroughCopies) {
  const Term f = mk::letrec("f", "y", real_type(), real_type(), mk::var("y"),
                            mk::call("f", mk::constant(1.0)), 3);
  ASSERT_NE(f->extra, nullptr);
  EXPECT_EQ(f->param(), "y");
  EXPECT_TRUE(same_type(f->result_type(), real_type()));
  EXPECT_EQ(f->limit(), 3);
  const Term copy = with_children(*f, mk::var("y"), mk::call("f", mk::constant(2.0)));
  EXPECT_EQ(copy->param(), "y");
  EXPECT_EQ(copy->limit(), 3);

  const Term r = mk::rd(mk::constant(1.0), mk::constant(0.5), "x", real_type(), mk::var("x"));
  EXPECT_EQ(r->param(), "x");
  EXPECT_FALSE(r->limit().has_value());
  const Term g = grad_of(mk::constant(0.5), "x", real_type(), mk::var("x"), true);
  ASSERT_NE(g->sugar(), nullptr);
  EXPECT_EQ(g->sugar()->kind, Sugar::Kind::grad);
  EXPECT_EQ(g->param(), "x");     // adding the sugar keeps the binder
  EXPECT_EQ(r->sugar(), nullptr); // and leaves the unsugared node alone
  EXPECT_EQ(print(g), "grad[0.5](x:real. x)");
}

TEST(SimpleDiffNode, ApproximantDropsTheSugarAndSetsTheLimit) {
  const Term f = with_sugar(mk::letrec("f", "y", real_type(), real_type(), mk::var("y"),
                                       mk::call("f", mk::constant(1.0))),
                            Sugar{Sugar::Kind::let_fun, nullptr, {}, {}});
  const Term a = approximant(f, 2);
  EXPECT_EQ(a->limit(), 2);
  EXPECT_EQ(a->sugar(), nullptr);
  EXPECT_EQ(a->param(), "y");
  EXPECT_FALSE(f->limit().has_value()); // the original is unchanged
  ASSERT_NE(f->sugar(), nullptr);
}

} // namespace
} // namespace adsem::simple_diff
