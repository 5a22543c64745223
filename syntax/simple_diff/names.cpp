#include "syntax/simple_diff/names.hpp"

#include <algorithm>
#include <charconv>
#include <iterator>
#include <limits>

namespace adsem::simple_diff {

bool NameSupply::could_be_fresh(std::string_view name) {
  // every fresh name is a non-empty stem, '_' and the digits of a counter (see fresh)
  const auto underscore = name.rfind('_');
  if (underscore == std::string_view::npos || underscore == 0 || underscore + 1 == name.size())
    return false;
  // digits by range, not find_first_not_of over a set of ten: Fig. 6 applied literally draws a
  // fresh name for every let it builds, and this ran for each (literal-equals-linear 0.978)
  return std::all_of(name.begin() + static_cast<std::ptrdiff_t>(underscore) + 1, name.end(),
                     [](char c) { return c >= '0' && c <= '9'; });
}

void NameSupply::avoid_all(const Node& term) {
  for_each_name(term, [this](const std::string& name) {
    if (could_be_fresh(name)) used_.insert(name);
  });
}

std::string NameSupply::fresh(std::string_view base) {
  if (base.empty()) base = "z";
  // strip a previous "_digits" suffix so renaming a fresh name does not grow it
  if (could_be_fresh(base)) base.remove_suffix(base.size() - base.find_last_of('_'));
  // stem_k with k unique to this supply: two fresh names never coincide (stems carry no
  // "_digits" suffix), so only the avoided names need checking.
  std::string name;
  name.append(base);
  name += '_';
  const std::size_t length = name.size();
  for (;;) {
    char digits[std::numeric_limits<long>::digits10 + 2];
    const auto end = std::to_chars(std::begin(digits), std::end(digits), ++counter_).ptr;
    name.resize(length);
    name.append(digits, end);
    if (used_.empty() || !used_.count(name)) return name;
  }
}

void NameSupply::skip(std::string_view base) {
  // with no avoided name the first k is the next one: fresh's name is not needed to know it
  if (used_.empty())
    ++counter_;
  else
    fresh(base);
}

} // namespace adsem::simple_diff
