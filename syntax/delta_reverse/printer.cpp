#include "syntax/delta_reverse/printer.hpp"

#include <cmath>

#include "syntax/core/deep_walk.hpp"
#include "syntax/core/real_text.hpp"
#include "syntax/delta_reverse/nesting.hpp"

namespace adsem::delta_reverse {

std::string print_real(double r) {
  if (std::isnan(r)) return "(0.0 / 0.0)";
  if (std::isinf(r)) return r > 0 ? "(1.0 / 0.0)" : "(-1.0 / 0.0)";
  std::string out = shortest_real_text(r); // %.15g..%.17g wrote 5e-324 as 4.94065645841247e-324
  if (out.find_first_of(".e") == std::string::npos) out += ".0";
  if (out.find('e') != std::string::npos && out.find('.') == std::string::npos)
    out.insert(out.find('e'), ".0");
  return out;
}

namespace {

// Levels: 0 expr (λ, let, case, do), 1 '+' '-', 2 '*' '/', 3 application, 4 prefix item, 5 atom.
struct Printer {
  DepthBudget budget{max_source_nesting, 0, ErrorKind::eval};

  static const char* infix(const Node& n) {
    if (n.kind != Kind::app || n.kids[0]->kind != Kind::prim || n.kids[1]->kind != Kind::pair)
      return nullptr;
    const std::string& op = n.kids[0]->name;
    if (op == "addR") return "+";
    if (op == "subR") return "-";
    if (op == "mulR") return "*";
    if (op == "divR") return "/";
    return nullptr;
  }

  static int level_of(const Node& n) {
    if (const char* op = infix(n)) return (op[0] == '+' || op[0] == '-') ? 1 : 2;
    switch (n.kind) {
    case Kind::lam:
    case Kind::let:
    case Kind::case_:
    case Kind::bind:
      return 0;
    case Kind::app:
      return 3;
    case Kind::fst:
    case Kind::snd:
    case Kind::inl:
    case Kind::inr:
    case Kind::pure:
    case Kind::delta_let:
    case Kind::sequence:
      return 4;
    case Kind::real:
      return n.real < 0 || std::signbit(n.real) ? 0 : 5;
    case Kind::integer:
      return n.integer < 0 ? 0 : 5;
    default:
      return 5;
    }
  }

  std::string at(const Term& t, int level) {
    return deeper(budget, [&] { return at_here(t, level); });
  }
  std::string at_here(const Term& t, int level) {
    const DepthGuard guard(budget);
    const std::string s = bare(*t);
    return level_of(*t) < level ? "(" + s + ")" : s;
  }

  std::string tuple(const Node& n) {
    std::string out = "(" + at(n.kids[0], 0);
    const Node* rest = n.kids[1].get();
    while (rest->kind == Kind::pair) {
      out += ", " + at(rest->kids[0], 0);
      rest = rest->kids[1].get();
    }
    // the last component must not itself print as a tuple, or it would flatten into this one
    Term last = n.kids[1];
    const Node* walk = n.kids[1].get();
    while (walk->kind == Kind::pair) {
      last = walk->kids[1];
      walk = walk->kids[1].get();
    }
    return out + ", " + at(last, 0) + ")";
  }

  std::string ctor(const char* name, const Node& n) {
    std::string out = std::string(name) + "(";
    for (std::size_t i = 0; i < n.kids.size(); ++i)
      out += (i ? ", " : "") + at(n.kids[i], 0);
    return out + ")";
  }

  std::string bare(const Node& n) {
    if (const char* op = infix(n)) {
      const int l = level_of(n);
      const Node& p = *n.kids[1];
      return at(p.kids[0], l) + " " + op + " " + at(p.kids[1], l + 1);
    }
    switch (n.kind) {
    case Kind::var:
      return n.name;
    case Kind::lam:
      return "\\(" + n.name + " : " + print_type(n.type) + "). " + at(n.kids[0], 0);
    case Kind::app:
      return at(n.kids[0], 3) + " " + at(n.kids[1], 4);
    case Kind::let:
      return "let " + n.name + " = " + at(n.kids[0], 0) + " in " + at(n.kids[1], 0);
    case Kind::pair:
      return tuple(n);
    case Kind::fst:
      return "fst " + at(n.kids[0], 4);
    case Kind::snd:
      return "snd " + at(n.kids[0], 4);
    case Kind::inl:
      return "inl[" + print_type(n.type) + "] " + at(n.kids[0], 4);
    case Kind::inr:
      return "inr[" + print_type(n.type) + "] " + at(n.kids[0], 4);
    case Kind::case_:
      return "case " + at(n.kids[0], 0) + " of inl " + n.name + " -> " + at(n.kids[1], 1) +
             " | inr " + n.name2 + " -> " + at(n.kids[2], 0);
    case Kind::real:
      return print_real(n.real);
    case Kind::integer:
      return std::to_string(n.integer);
    case Kind::prim:
      return n.name;
    case Kind::proj: {
      // t.1.2 would lex as t . 1.2 (a real), and 7.1 is a real, not 7 projected: parenthesize a
      // projection of a projection or of a literal, (t.1).2 and (7).1 (found by
      // fuzz_parse_delta_reverse: the printed term did not parse back to the same term)
      const std::string inner = at(n.kids[0], 5);
      const Kind k = n.kids[0]->kind;
      const bool nested = k == Kind::proj || k == Kind::integer || k == Kind::real;
      return (nested ? "(" + inner + ")" : inner) + "." + std::to_string(n.integer);
    }
    case Kind::pure:
      return "pure " + at(n.kids[0], 4);
    case Kind::delta_let:
      return "deltaLet " + at(n.kids[0], 4);
    case Kind::bind: {
      std::string out = "do { ";
      const Node* at_node = &n;
      Term last;
      while (at_node->kind == Kind::bind) {
        if (!at_node->name.empty()) out += at_node->name + " <- ";
        out += at(at_node->kids[0], 0) + "; ";
        last = at_node->kids[1];
        at_node = last.get();
      }
      return out + at(last, 0) + " }";
    }
    case Kind::d_zero:
      return "Zero";
    case Kind::d_scale:
      return ctor("Scale", n);
    case Kind::d_add:
      return ctor("Add", n);
    case Kind::d_var:
      return ctor("Var", n);
    case Kind::d2_zero:
      return "Zero2";
    case Kind::d2_onehot:
      return ctor("OneHot", n);
    case Kind::d2_scale:
      return ctor("Scale2", n);
    case Kind::d2_add:
      return ctor("Add2", n);
    case Kind::s_zero:
      return "zeroS";
    case Kind::s_oplus:
      return ctor("oplusS", n);
    case Kind::s_otimes:
      return ctor("otimesS", n);
    case Kind::index:
      return "index[" + print_type(n.type) + "]";
    case Kind::build:
      return "build[" + print_type(n.type) + "]";
    case Kind::sum_v:
      return n.type->kind == TypeNode::Kind::real ? "sumV" : "sumV[" + print_type(n.type) + "]";
    case Kind::sequence:
      return "sequence[" + print_type(n.type) + "] " + at(n.kids[0], 4);
    }
    return "?";
  }
};

} // namespace

std::string print(const Term& t) {
  Printer p;
  return p.at(t, 0);
}

} // namespace adsem::delta_reverse
