#pragma once
// Embeddings of cross programs into the five calculi. Each target has one file named
// for it (simple_diff.cpp, perturbative.cpp, linear_negation.cpp, delta_reverse.cpp,
// pullback.cpp) that prints a program in that calculus's own surface syntax, as the closed real
// function its `grad` front end takes. The text is then parsed, type-checked and differentiated
// by the calculus itself (Frontend::grad), so every parser is exercised too.
//
// The embeddings are faithful: each construct becomes the calculus's own construct of the same
// meaning (let, pairs and projections, λ and application, the shared primitive of the same
// name). Where a calculus lacks a construct it is derived in the calculus: linear-negation has no
// projections, so fst e is the pattern let (pa, pb) = e in pa (seed 002 §2, spec §2.7).
#include <functional>
#include <string>
#include <vector>

#include "syntax/cross/program.hpp"

namespace adsem::cross {

// What a printer may get wrong on purpose: the full name of the active mutant ("" = none).
struct EmbedOptions {
  std::string mutant;
};

// Prints programs in one calculus's surface syntax. The base class walks the program; a target
// says how each construct is written, overriding the defaults below where its syntax differs.
// Compound terms come back parenthesised, so no target needs a precedence table.
class SurfacePrinter {
public:
  virtual ~SurfacePrinter() = default;
  // The closed function of the inputs, as the target's grad front end reads it.
  std::string program(const Program& p) const { return function(p, expr(p.body)); }
  std::string expr(const Expr& e) const;

protected:
  // Default: curried, \x0:R. \x1:R. body (with the target's name for R).
  virtual std::string function(const Program& p, const std::string& body) const;
  // Default: type_text(t, "R").
  virtual std::string type(const Type& t) const;
  virtual std::string literal(double value) const; // negative literals parenthesised
  virtual std::string primitive(const std::string& name,
                                const std::vector<std::string>& args) const = 0;
  virtual std::string pair(const std::string& a, const std::string& b) const; // (a, b)
  virtual std::string project(int component, const std::string& e) const = 0; // 1 or 2
  // Default: (let x = bound in body), the binder's type left to the calculus.
  virtual std::string let(const std::string& x, const Type& t, const std::string& bound,
                          const std::string& body) const;
  // Default: (\x:T. body). Targets without functions (simple-diff) throw AdsemError(usage).
  virtual std::string lambda(const std::string& x, const Type& t, const std::string& body) const;
  virtual std::string apply(const std::string& f, const std::string& a) const; // (f a)

  // A type with the target's name for R and the arrow/product symbols * and ->; components that
  // are not R are parenthesised.
  static std::string type_text(const Type& t, const std::string& real_name);
  // name(a) and name(<open>a, b<close>): a primitive applied to a tuple of its arguments.
  static std::string applied_to_tuple(const std::string& name, const std::vector<std::string>& args,
                                      const char* open, const char* close);
  // (name a) and (name (a, b)): a constant applied by juxtaposition.
  static std::string juxtaposed(const std::string& name, const std::vector<std::string>& args);
};

struct Embedding {
  std::string calculus;                // the target's registry id
  std::vector<std::string> mechanisms; // the paper's AD mechanisms checked by default
  bool has_functions = true;           // can it express λ and application?
  std::function<std::string(const Program&, const EmbedOptions&)> print;
  // Further mechanisms of the front end that only take computational graphs (reals, primitives
  // and real lets: no tuples, no λ); run under --set cross.all-mechanisms=1 on such programs.
  std::vector<std::string> graph_only_mechanisms = {};
};

std::string embed_simple_diff(const Program& p, const EmbedOptions& options);
std::string embed_perturbative(const Program& p, const EmbedOptions& options);
std::string embed_linear_negation(const Program& p, const EmbedOptions& options);
std::string embed_delta_reverse(const Program& p, const EmbedOptions& options);
std::string embed_pullback(const Program& p, const EmbedOptions& options);

// The five targets, in the order of design.md's table.
const std::vector<Embedding>& embeddings();

} // namespace adsem::cross
