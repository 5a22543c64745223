#pragma once
// Hostile inputs per calculus: how to nest a term 100,000 deep, a long flat term, and
// terms with non-finite literals or out-of-domain primitive calls. Calculi without an entry get
// the generic ones (deep parentheses, `1`), so a calculus merged later is covered at once; add
// its row here to exercise its own binders and applications.
#include <map>
#include <string>
#include <vector>

namespace adsem::testing {

// A term nested `depth` times: open^depth + leaf + close^depth.
struct Wrap {
  std::string name;
  std::string open;
  std::string close;
  std::string leaf = "1";
  // The depth below the parsers' guard at which the walks after parsing are exercised.
  int below_guard_depth = 2'000;
};

struct HostileTable {
  std::vector<Wrap> wraps;
  std::string flat_item = "1";    // a long term: flat_item (flat_join flat_item)*
  std::string flat_join = "";     // "" = the generic one (whitespace around a literal)
  std::vector<std::string> terms; // each must give an answer or a clear error
};

inline HostileTable generic_hostile_table() {
  return {{{"parentheses", "(", ")"}},
          "1",
          "",
          {"1e400", "-1e400", "1e-400", "nan", "inf", "NaN", "frobnicate(1)", "frobnicate 1",
           "\xff\xfe", "1 \xc3", "(\x80)",
           "\xef\xbb\xbf"
           "1",
           "@#$%", "(((", ")))", "1 1 1"}};
}

inline HostileTable hostile_table(const std::string& calculus) {
  HostileTable table = generic_hostile_table();
  if (calculus == "perturbative") {
    table.wraps.push_back({"lambda", "\\x:R. ", ""});
    table.wraps.push_back({"let", "let x = 1 in ", ""});
    table.wraps.push_back({"application", "(\\x:R. x) (", ")"});
    table.wraps.push_back({"primitive", "sin (", ")"});
    // Found and left (docs/reliability.md): perturbative eval of nested pairs is super-polynomial
    // in the depth (100 levels: 3.6 s, 200: 71 s), so pairs are exercised 30 deep below the guard.
    table.wraps.push_back({"pair", "(1, ", ")", "1", 30});
    table.wraps.push_back({"tangent", "pi1 (T (\\x:R. ", ") (1, 0.5))", "x"});
    table.flat_item = "1";
    table.flat_join = " * ";
    for (const char* t :
         {"1 / 0", "0 / 0", "log (0 - 1)", "log 0", "sqrt (0 - 4)", "exp 1e300", "1e400 * 0",
          "(\\x:R. log x) (0 - 1)", "pi1 (T (\\x:R. log x) (1, 0 - 1))",
          "pi1 (T (\\x:R. 1 / x) (1, 0))", "\\x:R. frobnicate x", "\\x:R. x \xff"})
      table.terms.emplace_back(t);
  } else if (calculus == "simple-diff") {
    table.wraps.push_back({"let", "let x:real = 1 in ", ""});
    table.wraps.push_back({"primitive", "sin(", ")"});
    table.wraps.push_back({"pair", "<1, ", ">"});
    table.wraps.push_back({"first", "fst(<", ", 1>)"});
    table.wraps.push_back({"rd", "1.rd[1](x:real. ", ")", "x"});
    table.wraps.push_back({"if", "if 0 < 1 then ", " else 1"});
    table.flat_item = "1";
    table.flat_join = " * ";
    for (const char* t : {"1 / 0", "0 / 0", "log(0 - 1)", "log(0)", "sqrt(0 - 4)", "exp(1e300)",
                          "div(<1, 0>)", "1.rd[0](x:real. log(x))", "1.rd[0 - 1](x:real. log(x))",
                          "1.rd[0](x:real. 1 / x)", "x:real. frobnicate(x)", "x:real. log(x)"})
      table.terms.emplace_back(t);
  }
  return table;
}

} // namespace adsem::testing
