#include "syntax/perturbative/printer.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "syntax/core/depth_guard.hpp"

namespace adsem::perturbative {

namespace {

class Printer {
public:
  // mode: synth = the text must synthesise its type; check = it is checked against m.type.
  std::string bag(const Term& m, bool synth) {
    const DepthGuard guard(budget_);
    if (m.items.empty()) return synth ? "(0 : " + type_text(m.type) + ")" : "0";
    const bool all_injections =
        is_product(m.type) && std::all_of(m.items.begin(), m.items.end(),
                                          [](const SimpleP& s) { return s->kind == Kind::inj; });
    if (all_injections) {
      Term first = zero(m.type->left), second = zero(m.type->right);
      for (const SimpleP& s : m.items)
        (s->index == 1 ? first : second).items.push_back(s->operand);
      const std::string text = "(" + bag(first, false) + ", " + bag(second, false) + ")";
      if (!synth || (synthesisable(first) && synthesisable(second))) return text;
      return "(" + text + " : " + type_text(m.type) + ")";
    }
    std::string out;
    for (const SimpleP& s : m.items)
      out += (out.empty() ? "" : " + ") + simple(*s);
    return out;
  }

  std::string simple(const Simple& s) {
    const DepthGuard guard(budget_);
    switch (s.kind) {
    case Kind::var:
    case Kind::primitive:
      return s.name;
    case Kind::numeral:
      return s.value < 0 ? "(" + print_number(s.value) + ")" : print_number(s.value);
    case Kind::lam:
      return "(\\" + s.name + ":" + type_text(s.binder_type) + ". " + simple(*s.operand) + ")";
    case Kind::app:
      return "(" + simple(*s.operand) + " (" + bag(s.argument, false) + "))";
    case Kind::push:
      return "(T " + simple(*s.operand) + ")";
    case Kind::inj:
      return "(in" + std::to_string(s.index) + " (" + simple(*s.operand) +
             ") : " + type_text(s.type) + ")";
    case Kind::proj:
      return "(pi" + std::to_string(s.index) + " " + simple(*s.operand) + ")";
    }
    return "?";
  }

private:
  // Does the check-mode text of m also synthesise (spec §2.7: 0 and in_k do not)?
  static bool synthesisable(const Term& m) {
    if (m.items.empty()) return false;
    if (!is_product(m.type)) return true;
    if (!std::all_of(m.items.begin(), m.items.end(),
                     [](const SimpleP& s) { return s->kind == Kind::inj; }))
      return true;
    Term first = zero(m.type->left), second = zero(m.type->right);
    for (const SimpleP& s : m.items)
      (s->index == 1 ? first : second).items.push_back(s->operand);
    return synthesisable(first) && synthesisable(second);
  }
  DepthBudget budget_{DepthBudget::default_limit, 0, ErrorKind::eval};
};

} // namespace

std::string print_number(double r) {
  return fmt::format("{}", r);
}
std::string print(const Term& m) {
  return Printer{}.bag(m, true);
}
std::string print_simple(const Simple& s) {
  return Printer{}.simple(s);
}
std::string print_type(const Type& t) {
  return type_text(t);
}

} // namespace adsem::perturbative
