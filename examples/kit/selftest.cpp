// dual-numbers-selftest: the round-trip property can fail. Its check, given the real parser,
// passes on a term with a negative numeral; given a parser that loses the minus sign (as a
// printer that dropped it would make it), it fails. Run by the kit test (docs/kit.md).
#include <algorithm>
#include <iostream>
#include <string>

#include "properties/dual_numbers/properties.hpp"
#include "syntax/dual_numbers/parser.hpp"

int main() {
  using namespace adsem::dual_numbers;
  const Term t = app(lam("x", real_type(), op(Op::mul, var("x"), constant(-1.5))), constant(2));
  const auto right = round_trip_of(t, [](std::string_view text) { return parse(text); });
  const auto wrong = round_trip_of(t, [](std::string_view text) {
    std::string signless(text);
    std::erase(signless, '-');
    return parse(signless);
  });
  const auto passed = adsem::props::TrialResult::Kind::pass;
  std::cout << "round-trip of " << print(t)
            << "\n  with parse: " << (right.kind == passed ? "pass" : "FAIL " + right.reason)
            << "\n  with a parse that drops '-': "
            << (wrong.kind == passed ? "PASS (the check cannot fail)" : "fail: " + wrong.reason)
            << "\n";
  return right.kind == passed && wrong.kind != passed ? 0 : 1;
}
