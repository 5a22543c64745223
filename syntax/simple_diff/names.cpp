#include "syntax/simple_diff/names.hpp"

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
  std::string stem(base.empty() ? "z" : base);
  // strip a previous "_digits" suffix so renaming a fresh name does not grow it
  const auto underscore = stem.find_last_of('_');
  if (underscore != std::string::npos && underscore > 0 && underscore + 1 < stem.size() &&
      stem.find_first_not_of("0123456789", underscore + 1) == std::string::npos)
    stem.resize(underscore);
  // stem_k with k unique to this supply: two fresh names never coincide (stems carry no
  // "_digits" suffix), so only the avoided names need checking.
  stem += '_';
  const std::size_t length = stem.size();
  for (;;) {
    stem.resize(length);
    stem += std::to_string(++counter_);
    if (!used_.count(stem)) return stem;
  }
}

} // namespace adsem::simple_diff
