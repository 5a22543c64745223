// The term node of simple-diff (syntax/simple_diff/ast.hpp): the rare fields of letrec, rd and the
// derived forms' expansions live in a side record, so the common nodes of a derivative stay small.
#include <gtest/gtest.h>

#include "syntax/simple_diff/ast.hpp"
#include "syntax/simple_diff/derived.hpp"
#include "syntax/simple_diff/printer.hpp"

namespace adsem::simple_diff::node_test {
namespace {

TEST(SimpleDiffNode, CommonNodesAreSmallAndCarryNoSideRecord) {
  // 224 bytes with the rare fields inline; the walks and the disposal of large derivatives read
  // every node, so the size is part of the design: with the shared pointer's 16-byte count it
  // fits jemalloc's 160-byte size class (the executable's one-page slabs, cli/main.cpp).
  EXPECT_LE(sizeof(Node) + 16, 160u);
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

TEST(SimpleDiffNode, PairAnnotationsAreOneProduct) {
  const Type rr = product_type(real_type(), real_type());
  const Term p = mk::pair(mk::constant(1.0), mk::constant(2.0), real_type(), rr);
  ASSERT_NE(p->annotation(), nullptr);
  EXPECT_EQ(print_type(p->annotation()), "real * (real * real)");
  EXPECT_TRUE(same_type(p->ann_left(), real_type()));
  EXPECT_TRUE(same_type(p->ann_right(), rr));
  // given as the product, it is shared, not rebuilt
  const Term f = mk::fst_ann(mk::var("z"), rr);
  EXPECT_EQ(f->annotation(), rr);
  EXPECT_EQ(f->ann_left(), rr->left);
  EXPECT_EQ(with_children(*f, mk::var("w"))->annotation(), rr);
  // one side alone reads back as given
  const Term half = mk::snd(mk::var("z"), nullptr, real_type());
  EXPECT_EQ(half->ann_left(), nullptr);
  EXPECT_TRUE(same_type(half->ann_right(), real_type()));
  EXPECT_EQ(mk::pair(mk::var("a"), mk::var("b"))->annotation(), nullptr);
  // a let's type is no annotation
  const Term l = mk::let("y", rr, mk::var("z"), mk::var("y"));
  EXPECT_EQ(l->annotation(), nullptr);
  EXPECT_EQ(l->ann_left(), nullptr);
  // alpha-equivalence compares the annotations when both sides have them
  EXPECT_FALSE(
      alpha_equal(mk::fst_ann(mk::var("z"), rr), mk::fst(mk::var("z"), real_type(), unit_type())));
  EXPECT_TRUE(alpha_equal(mk::fst_ann(mk::var("z"), rr), mk::fst(mk::var("z"))));
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
} // namespace adsem::simple_diff::node_test
