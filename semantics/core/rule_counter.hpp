#pragma once
// Counts reduction-rule firings by rule name, for the campaign's rule coverage (a rule that
// never fires in a campaign was never tested). A calculus's machine adds to one when its options
// carry it; the campaign engine hands each property a counter and harvests it after each trial.
#include <map>
#include <string>
#include <string_view>

namespace adsem {

// Rule name -> times it fired (heterogeneous lookup: a rule is found by its string_view name).
using RuleCounts = std::map<std::string, long, std::less<>>;

struct RuleCounter {
  RuleCounts fired;

  void add(std::string_view rule, long times = 1) {
    if (const auto it = fired.find(rule); it != fired.end())
      it->second += times;
    else
      fired.emplace(std::string(rule), times);
  }
  // add() for rules taken in increasing name order: `from` is where the previous one went, so
  // the additions of a machine's counts walk the map once instead of searching it per rule.
  RuleCounts::iterator add_from(RuleCounts::iterator from, std::string_view rule, long times) {
    while (from != fired.end() && from->first < rule)
      ++from;
    if (from != fired.end() && from->first == rule) {
      from->second += times;
      return from;
    }
    return fired.emplace_hint(from, std::string(rule), times);
  }
};

} // namespace adsem
