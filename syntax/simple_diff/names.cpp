#include "syntax/simple_diff/names.hpp"

#include <charconv>
#include <iterator>
#include <limits>

namespace adsem::simple_diff {

bool NameSupply::could_be_fresh(std::string_view name) {
  // every fresh name is a non-empty stem, '_' and the digits of a counter (see fresh)
  const auto underscore = name.find_last_of('_');
  return underscore != std::string_view::npos && underscore > 0 && underscore + 1 < name.size() &&
         name.find_first_not_of("0123456789", underscore + 1) == std::string_view::npos;
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
