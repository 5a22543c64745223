#include "syntax/simple_diff/printer.hpp"

#include <cmath>
#include <unordered_map>
#include <vector>

#include "syntax/core/depth_guard.hpp"
#include "syntax/core/large_stack.hpp"
#include "syntax/core/real_text.hpp"
#include "syntax/simple_diff/nesting.hpp"

namespace adsem::simple_diff {

std::string print_real(double r) {
  if (std::isnan(r)) return "nan";
  if (std::isinf(r)) return r > 0 ? "inf" : "-inf";
  return shortest_real_text(r);
}

namespace {

// Precedence levels of spec §2.6: term < arith < mterm < post < atom.
enum Level { L_term = 0, L_arith = 1, L_mterm = 2, L_post = 3, L_atom = 4 };

class Printer {
public:
  explicit Printer(const PrintOptions& o) : opt_(o) {}

  std::string run(const Term& m) {
    print(*m, L_term);
    return std::move(out_);
  }

private:
  void print(const Node& n, Level need) {
    DepthGuard guard(depth_);
    const Level own = level_of(n);
    const bool paren = own < need;
    if (paren) out_ += "(";
    body(n);
    if (paren) out_ += ")";
  }

  bool infix_shape(const Node& n) const {
    return opt_.sugar && n.sugar() && n.sugar()->kind == Sugar::Kind::infix &&
           n.a->kind == Kind::pair && infix_symbol(n) != nullptr;
  }
  static const char* infix_symbol(const Node& n) {
    if (n.name == "sub") return "-";
    if (n.name == "mul") return "*";
    if (n.name == "div") return "/";
    if (n.name == "less") return "<";
    if (n.name == "gt") return ">";
    return nullptr;
  }
  const Sugar* sugar(const Node& n) const { return opt_.sugar ? n.sugar() : nullptr; }

  Level level_of(const Node& n) const {
    if (const Sugar* s = sugar(n)) {
      switch (s->kind) {
      case Sugar::Kind::grad:
      case Sugar::Kind::zero:
      case Sugar::Kind::plus:
        return L_atom;
      case Sugar::Kind::fd:
        return L_post;
      case Sugar::Kind::tuple_let:
      case Sugar::Kind::let_fun:
        return L_term;
      case Sugar::Kind::infix:
        break;
      }
    }
    switch (n.kind) {
    case Kind::let:
    case Kind::letrec:
    case Kind::if_:
      return L_term;
    case Kind::add:
      return L_arith;
    case Kind::op:
      if (infix_shape(n)) return n.name == "sub" ? L_arith : L_mterm;
      return L_atom;
    case Kind::rd:
      return L_post;
    default:
      return L_atom;
    }
  }

  void binder_name(const std::string& x) { out_ += bound(x); }
  std::string bound(const std::string& x) const {
    if (!opt_.canonical) return x;
    auto it = rename_.find(x);
    return it == rename_.end() || it->second.empty() ? x : it->second.back();
  }
  std::string bound_fun(const std::string& f) const {
    if (!opt_.canonical) return f;
    auto it = rename_fun_.find(f);
    return it == rename_fun_.end() || it->second.empty() ? f : it->second.back();
  }
  std::string new_name(const std::string& x) {
    return opt_.canonical ? numbered('v', next_var_++) : x;
  }
  void push_as(const std::string& x, const std::string& shown) {
    if (opt_.canonical) rename_[x].push_back(shown);
  }
  void push(const std::string& x) { push_as(x, new_name(x)); }
  void pop(const std::string& x) {
    if (opt_.canonical) rename_[x].pop_back();
  }
  void push_fun(const std::string& f) {
    if (opt_.canonical) rename_fun_[f].push_back(numbered('g', next_fun_++));
  }
  void pop_fun(const std::string& f) {
    if (opt_.canonical) rename_fun_[f].pop_back();
  }

  void type(const Type& t) { out_ += print_type(t); }
  static std::string numbered(char prefix, int k) {
    std::string s(1, prefix);
    s += std::to_string(k);
    return s;
  }

  void binder_suffix(const std::string& x, const Type& t, const Node& body_node) {
    // "(x:T. N)"
    out_ += "(";
    push(x);
    binder_name(x);
    out_ += ":";
    type(t);
    out_ += ". ";
    print(body_node, L_term);
    pop(x);
    out_ += ")";
  }

  void body(const Node& n) {
    if (const Sugar* s = sugar(n); s && s->kind != Sugar::Kind::infix) {
      if (print_sugar(n, *s)) return;
    }
    switch (n.kind) {
    case Kind::var:
      out_ += bound(n.name);
      return;
    case Kind::constant:
      out_ += print_real(n.value);
      return;
    case Kind::unit:
      out_ += "()";
      return;
    case Kind::b_true:
      out_ += "true";
      return;
    case Kind::b_false:
      out_ += "false";
      return;
    case Kind::add:
      print(*n.a, L_arith);
      out_ += " + ";
      print(*n.b, L_mterm);
      return;
    case Kind::op:
    case Kind::pred:
      if (infix_shape(n)) {
        const std::string sym = infix_symbol(n);
        const bool additive = sym == "-";
        const bool comparison = n.kind == Kind::pred;
        const Level left = comparison || additive ? L_arith : L_mterm;
        const Level right = comparison ? L_arith : additive ? L_mterm : L_post;
        print(*n.a->a, left);
        out_ += " " + sym + " ";
        print(*n.a->b, right);
        return;
      }
      out_ += n.name + "(";
      print(*n.a, L_term);
      out_ += ")";
      return;
    case Kind::call:
      out_ += bound_fun(n.name) + "(";
      print(*n.a, L_term);
      out_ += ")";
      return;
    case Kind::pair:
      out_ += "<";
      print(*n.a, L_term);
      out_ += ", ";
      print(*n.b, L_term);
      out_ += ">";
      return;
    case Kind::fst:
    case Kind::snd:
      out_ += n.kind == Kind::fst ? "fst(" : "snd(";
      print(*n.a, L_term);
      out_ += ")";
      return;
    case Kind::let: {
      const std::string x = new_name(n.name);
      out_ += "let " + x + ":";
      type(n.type);
      out_ += " = ";
      print(*n.a, L_term);
      out_ += " in ";
      push_as(n.name, x);
      print(*n.b, L_term);
      pop(n.name);
      return;
    }
    case Kind::if_:
      out_ += "if ";
      print(*n.a, L_term);
      out_ += " then ";
      print(*n.b, L_term);
      out_ += " else ";
      print(*n.c, L_term);
      return;
    case Kind::letrec:
      letrec(n, n.limit() ? "letrec[" + std::to_string(*n.limit()) + "] " : "letrec ");
      return;
    case Kind::rd:
      print(*n.a, L_post);
      out_ += ".rd[";
      print(*n.b, L_term);
      out_ += "]";
      binder_suffix(n.param(), n.type, *n.c);
      return;
    }
  }

  void letrec(const Node& n, const std::string& keyword) {
    out_ += keyword;
    push_fun(n.name);
    out_ += bound_fun(n.name);
    out_ += "(";
    push(n.param());
    binder_name(n.param());
    out_ += ":";
    type(n.type);
    out_ += "):";
    type(n.result_type());
    out_ += " = ";
    print(*n.a, L_term);
    pop(n.param());
    out_ += " in ";
    print(*n.b, L_term);
    pop_fun(n.name);
  }

  // Returns false when the core no longer has the sugar's shape (then the core is printed).
  bool print_sugar(const Node& n, const Sugar& s) {
    switch (s.kind) {
    case Sugar::Kind::grad: {
      if (n.kind != Kind::rd || s.parts.size() != 2) return false;
      out_ += "grad[";
      print(*s.parts[0], L_term);
      out_ += "]";
      binder_suffix(s.binders[0].name, s.binders[0].type, *s.parts[1]);
      return true;
    }
    case Sugar::Kind::fd: {
      if (n.kind != Kind::rd || s.parts.size() != 3) return false;
      print(*s.parts[0], L_post);
      out_ += ".fd[";
      type(s.type);
      out_ += ", ";
      print(*s.parts[1], L_term);
      out_ += "]";
      binder_suffix(s.binders[0].name, s.binders[0].type, *s.parts[2]);
      return true;
    }
    case Sugar::Kind::zero:
      out_ += "zero[";
      type(s.type);
      out_ += "]";
      return true;
    case Sugar::Kind::plus:
      out_ += "plus[";
      type(s.type);
      out_ += "](";
      print(*s.parts[0], L_term);
      out_ += ", ";
      print(*s.parts[1], L_term);
      out_ += ")";
      return true;
    case Sugar::Kind::tuple_let: {
      std::vector<std::string> shown;
      out_ += "let <";
      for (std::size_t i = 0; i < s.binders.size(); ++i) {
        if (i) out_ += ", ";
        shown.push_back(new_name(s.binders[i].name));
        out_ += shown.back() + ":";
        type(s.binders[i].type);
      }
      out_ += "> = ";
      print(*s.parts[0], L_term); // the bound term is outside the pattern's scope
      out_ += " in ";
      for (std::size_t i = 0; i < s.binders.size(); ++i)
        push_as(s.binders[i].name, shown[i]);
      print(*s.parts[1], L_term);
      for (auto it = s.binders.rbegin(); it != s.binders.rend(); ++it)
        pop(it->name);
      return true;
    }
    case Sugar::Kind::let_fun:
      if (n.kind != Kind::letrec || n.limit()) return false;
      letrec(n, "let ");
      return true;
    case Sugar::Kind::infix:
      return false;
    }
    return false;
  }

  const PrintOptions& opt_;
  std::string out_;
  std::unordered_map<std::string, std::vector<std::string>> rename_, rename_fun_;
  int next_var_ = 0, next_fun_ = 0;
  DepthBudget depth_{max_source_nesting, 0, ErrorKind::usage};
};

} // namespace

std::string print(const Term& m, const PrintOptions& options) {
  return on_large_stack([&] { return Printer(options).run(m); });
}

} // namespace adsem::simple_diff
