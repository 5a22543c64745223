#include "syntax/perturbative/printer.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "syntax/core/depth_guard.hpp"

namespace adsem::perturbative {

namespace {

// Writes into one buffer: building each level's text from its children's strings copied the
// inner text once per enclosing level, quadratic in the depth (and `adsem reduce` prints the term
// at every step).
class Printer {
public:
  // mode: synth = the text must synthesise its type; check = it is checked against m.type.
  void bag(const Term& m, bool synth) {
    const DepthGuard guard(budget_);
    if (m.items.empty()) {
      if (synth)
        out_ += "(0 : " + type_text(m.type) + ")";
      else
        out_ += "0";
      return;
    }
    const bool all_injections =
        is_product(m.type) && std::all_of(m.items.begin(), m.items.end(),
                                          [](const SimpleP& s) { return s->kind == Kind::inj; });
    if (all_injections) {
      Term first = zero(m.type->left), second = zero(m.type->right);
      for (const SimpleP& s : m.items)
        (s->index == 1 ? first : second).items.push_back(s->operand);
      const bool annotated = synth && !(synthesisable(first) && synthesisable(second));
      if (annotated) out_ += "(";
      out_ += "(";
      bag(first, false);
      out_ += ", ";
      bag(second, false);
      out_ += ")";
      if (annotated) out_ += " : " + type_text(m.type) + ")";
      return;
    }
    bool first = true;
    for (const SimpleP& s : m.items) {
      if (!first) out_ += " + ";
      first = false;
      simple(*s);
    }
  }

  void simple(const Simple& s) {
    const DepthGuard guard(budget_);
    switch (s.kind) {
    case Kind::var:
    case Kind::primitive:
      out_ += s.name;
      return;
    case Kind::numeral:
      out_ += s.value < 0 ? "(" + print_number(s.value) + ")" : print_number(s.value);
      return;
    case Kind::lam:
      out_ += "(\\" + s.name + ":" + type_text(s.binder_type) + ". ";
      simple(*s.operand);
      out_ += ")";
      return;
    case Kind::app:
      out_ += "(";
      simple(*s.operand);
      out_ += " (";
      bag(s.argument, false);
      out_ += "))";
      return;
    case Kind::push:
      out_ += "(T ";
      simple(*s.operand);
      out_ += ")";
      return;
    case Kind::inj:
      out_ += "(in" + std::to_string(s.index) + " (";
      simple(*s.operand);
      out_ += ") : " + type_text(s.type) + ")";
      return;
    case Kind::proj:
      out_ += "(pi" + std::to_string(s.index) + " ";
      simple(*s.operand);
      out_ += ")";
      return;
    }
    out_ += "?";
  }

  std::string text() && { return std::move(out_); }

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
  std::string out_;
};

} // namespace

std::string print_number(double r) {
  return fmt::format("{}", r);
}
std::string print(const Term& m) {
  Printer printer;
  printer.bag(m, true);
  return std::move(printer).text();
}
std::string print_simple(const Simple& s) {
  Printer printer;
  printer.simple(s);
  return std::move(printer).text();
}
std::string print_type(const Type& t) {
  return type_text(t);
}

} // namespace adsem::perturbative
