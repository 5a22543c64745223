// The rule abstraction of semantics/core/rule_table.hpp on a toy relation: dispatch by kind in
// book order, side conditions, unfireable entries, and patches (replace, remove, add).
#include <gtest/gtest.h>

#include <string>
#include <type_traits>
#include <vector>

#include "semantics/core/rule_table.hpp"

namespace adsem::rule_table_test {
namespace {

enum class Shape { circle, square, triangle };

struct Painter {
  std::vector<std::string> steps;
};

// A relation: shapes with a size are painted into a colour name.
struct Paint {
  struct Redex {
    Shape shape;
    int size;
  };
  using Context = Painter;
  using Output = std::string;
  using Kind = Shape;
  static constexpr std::size_t kind_count = 3;
  static Kind kind(const Redex& r) { return r.shape; }
  using Extra = int; // each rule's priority class
};

// A second relation in the same book: sizes measured.
struct Measure {
  struct Redex {
    Shape shape;
  };
  using Context = Painter;
  using Output = int;
  using Kind = Shape;
  static constexpr std::size_t kind_count = 3;
  static Kind kind(const Redex& r) { return r.shape; }
  static constexpr bool counts_own_steps = true;
};

using Book = RuleBook<Paint, Measure>;

RuleInfo info(std::string name, std::string unfireable = {}) {
  RuleInfo i;
  i.name = std::move(name);
  i.citation = "the toy paper, Fig. 1";
  i.kind = RuleKind::reduction;
  i.unfireable = std::move(unfireable);
  return i;
}

Rule<Paint> paint(std::string name, std::vector<Shape> kinds, int min_size, std::string colour) {
  Rule<Paint> r;
  r.info = info(std::move(name));
  r.kinds = std::move(kinds);
  if (min_size > 0)
    r.match = [min_size](const Painter&, const Paint::Redex& x) { return x.size >= min_size; };
  r.extra = min_size;
  r.result = [colour](Painter& p, const Paint::Redex&, const RuleInfo& self) {
    p.steps.push_back(self.name);
    return colour;
  };
  return r;
}

Rule<Measure> measure() {
  Rule<Measure> r;
  r.info = info("measure");
  r.result = [](Painter&, const Measure::Redex& x, const RuleInfo&) {
    return static_cast<int>(x.shape) + 10;
  };
  return r;
}

Book toy() {
  Rule<Paint> context;
  context.info = info("ctx", "the strategy is the context rule");
  return Book({paint("big-circle", {Shape::circle}, 5, "red"),
               paint("circle", {Shape::circle}, 0, "blue"), paint("any", {}, 0, "grey"), context,
               measure()});
}

std::string fire(const Book& book, Shape s, int size) {
  Painter p;
  const Paint::Redex redex{s, size};
  const Rule<Paint>* r = book.select<Paint>(p, redex);
  return r ? r->result(p, redex, r->info) : "stuck";
}

TEST(RuleTable, SelectsTheFirstMatchingEntryOfTheRedexKindInBookOrder) {
  const Book book = toy();
  EXPECT_EQ(fire(book, Shape::circle, 7), "red");
  EXPECT_EQ(fire(book, Shape::circle, 1), "blue");
  EXPECT_EQ(fire(book, Shape::square, 9), "grey"); // an entry with no kinds fires on every kind
  Painter p;
  const Rule<Measure>* m = book.select<Measure>(p, {Shape::triangle});
  ASSERT_NE(m, nullptr);
  EXPECT_EQ(m->result(p, {Shape::triangle}, m->info), 12);
  EXPECT_EQ(book.get<Paint>("big-circle").extra, 5); // the relation's Extra, per entry
  static_assert(std::is_same_v<decltype(Rule<Measure>::extra), std::monostate>);
  EXPECT_TRUE(counts_own_steps<Measure>);
  EXPECT_FALSE(counts_own_steps<Paint>);
}

TEST(RuleTable, ListsEveryEntryInOrderWithPositionsAndNeverIndexesAnUnfireableOne) {
  const Book book = toy();
  const std::vector<RuleInfo> infos = book.infos();
  ASSERT_EQ(infos.size(), 5u);
  EXPECT_EQ(infos[3].name, "ctx");
  EXPECT_FALSE(infos[3].unfireable.empty());
  for (std::size_t i = 0; i < infos.size(); ++i)
    EXPECT_EQ(infos[i].position, i);
  EXPECT_EQ(book.position("measure"), 4u);
  EXPECT_EQ(book.position("nothing"), std::nullopt);
  EXPECT_EQ(book.get<Paint>("circle").info.name, "circle");
  EXPECT_THROW((void)book.get<Measure>("circle"), std::logic_error); // wrong relation
}

TEST(RuleTable, RejectsARepeatedNameAndAFireableEntryWithoutResult) {
  EXPECT_THROW(Book({paint("a", {}, 0, "x"), paint("a", {}, 0, "y")}), std::logic_error);
  Rule<Paint> empty;
  empty.info = info("empty");
  EXPECT_THROW(Book({empty}), std::logic_error);
}

TEST(RuleTable, APatchReplacesRemovesAndAddsEntriesOfACopy) {
  const Book book = toy();
  Book::Patch patch;
  patch.name = "toy/mutant";
  patch.replace<Paint>("circle", [](Rule<Paint> r) {
    r.result = [](Painter&, const Paint::Redex&, const RuleInfo&) { return std::string("green"); };
    return r;
  });
  patch.remove("big-circle");
  patch.add(paint("tiny-square", {Shape::square}, 0, "white"), "any");
  const Book mutant = book.patched(patch);
  EXPECT_EQ(fire(mutant, Shape::circle, 7), "green"); // big-circle removed, circle replaced
  EXPECT_EQ(fire(mutant, Shape::square, 1), "white"); // added before `any`
  EXPECT_EQ(fire(book, Shape::circle, 7), "red");     // the original is unchanged
  EXPECT_EQ(mutant.info(0).name, "circle");           // the replacement keeps name and place
  EXPECT_EQ(mutant.info(1).name, "tiny-square");
  EXPECT_EQ(mutant.info(1).position, 1u);
  Book::Patch bad;
  bad.remove("no-such-rule");
  EXPECT_THROW((void)book.patched(bad), std::logic_error);
}

// A relation whose entries may declare the kind of an operand: shapes drawn inside a frame.
struct Frame {
  struct Redex {
    Shape shape;
    Shape inside;
  };
  using Context = Painter;
  using Output = std::string;
  using Kind = Shape;
  static constexpr std::size_t kind_count = 3;
  static Kind kind(const Redex& r) { return r.shape; }
  static Kind operand(const Redex& r) { return r.inside; }
};

Rule<Frame> frame(std::string name, std::vector<Shape> operands, int* asked) {
  Rule<Frame> r;
  r.info = info(std::move(name));
  r.kinds = {Shape::square};
  r.operands = std::move(operands);
  r.match = [asked](const Painter&, const Frame::Redex& x) {
    ++*asked;
    return x.inside != Shape::square;
  };
  r.result = [](Painter&, const Frame::Redex&, const RuleInfo& self) { return self.name; };
  return r;
}

std::string fire(const RuleBook<Frame>& book, Shape inside) {
  Painter p;
  const Frame::Redex redex{Shape::square, inside};
  const Rule<Frame>* r = book.select<Frame>(p, redex);
  return r ? r->result(p, redex, r->info) : "stuck";
}

TEST(RuleTable, SkipsAnEntryAtAnOperandKindItDoesNotDeclareUnlessAPatchReplacedIt) {
  static_assert(names_operand<Frame> && !names_operand<Paint>);
  int asked_circle = 0, asked_any = 0;
  const RuleBook<Frame> book(
      {frame("in-circle", {Shape::circle}, &asked_circle), frame("in-any", {}, &asked_any)});
  EXPECT_EQ(fire(book, Shape::circle), "in-circle");
  EXPECT_EQ(fire(book, Shape::triangle), "in-any"); // in-circle skipped: never asked
  EXPECT_EQ(fire(book, Shape::square), "stuck");
  EXPECT_EQ(asked_circle, 1);
  EXPECT_EQ(asked_any, 2);
  EXPECT_EQ(book.candidates<Frame>(Shape::square).size(), 2u); // every entry of the kind
  // A replacement may read more than the entry it replaces: its declaration is dropped.
  RuleBook<Frame>::Patch patch;
  patch.name = "toy/frames";
  patch.replace<Frame>("in-circle", [](Rule<Frame> r) {
    r.match = {};
    return r;
  });
  const RuleBook<Frame> mutant = book.patched(patch);
  EXPECT_TRUE(mutant.get<Frame>("in-circle").operands.empty());
  EXPECT_EQ(fire(mutant, Shape::triangle), "in-circle");
}

} // namespace
} // namespace adsem::rule_table_test
