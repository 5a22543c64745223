#pragma once
// Fresh names for the binders that derived forms (tuple let, +_T, fd) and the semantics
// (contexts, symbolic differentiation) introduce. A supply avoids every identifier of the
// program it was seeded with and never hands out the same name twice.
#include <string>
#include <string_view>
#include <unordered_set>

#include "syntax/simple_diff/ast.hpp"

namespace adsem::simple_diff {

class NameSupply {
public:
  // Only a name that fresh() could produce (stem_digits) is remembered: no other can collide.
  void avoid(std::string name) {
    if (could_be_fresh(name)) used_.insert(std::move(name));
  }
  void avoid_all(const Node& term);
  // base_k for the first k that is unused ("x_3" gives "x_4", not "x_3_4").
  std::string fresh(std::string_view base);
  // Draws what fresh(base) would, without making the name (a renaming that copies nothing still
  // draws its names, so that every later fresh name stays as it was).
  void skip(std::string_view base);

private:
  static bool could_be_fresh(std::string_view name);

  std::unordered_set<std::string> used_;
  long counter_ = 0;
};

} // namespace adsem::simple_diff
