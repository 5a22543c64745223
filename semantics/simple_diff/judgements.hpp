#pragma once
// What the judgements of seed 003 Section 3 relate, besides terms and values: function
// environments φ and closures (lines 243-257), the result of symbolic evaluation, the goal of
// symbolic differentiation W.R_V(x:T. C), and the bindings S-ctx introduces.
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "semantics/simple_diff/value.hpp"
#include "syntax/simple_diff/ast.hpp"

namespace adsem::simple_diff {

struct Closure;
using ClosurePtr = std::shared_ptr<const Closure>;
struct FunBinding;
// φ: a persistent list, so closures can capture it (static scoping, spec P-9).
using FunEnv = std::shared_ptr<const FunBinding>;
struct FunBinding {
  std::string f;
  ClosurePtr closure;
  FunEnv next;
};
// clo_φ(f(x:T):U. M), or clo_{n,φ}(...) in the limited language (Fig. 8) when `limit` is set.
struct Closure {
  std::string f, x;
  Type param_type, result_type;
  Term body;
  FunEnv env; // φ at the definition (not including f itself: O-call adds it)
  std::optional<int> limit;
};
FunEnv extend(FunEnv phi, std::string f, ClosurePtr closure);
ClosurePtr lookup(const FunEnv& phi, const std::string& f);

// The result of symbolic evaluation.
struct SymResult {
  Term trace;                 // the trace term C
  std::optional<Value> value; // C's value in ρ, when the caller asked for it (S-ctx premise)
};

// The goal W.R_V(x:T. C) of symbolic differentiation (Fig. 6), minus C.
struct DiffGoal {
  Term w;        // the cotangent W : U (open value)
  Term v;        // the point V : T (open value)
  std::string x; // the differentiation variable, x ∉ FV(V, W)
  Type t;        // T
};

// The bindings let z_1:T_1 = C_1 in ... let z_k:T_k = C_k in [ ] produced by S-ctx while one
// term is traced, in evaluation order.
struct TraceBinding {
  std::string z;
  Type type;
  Term trace;
};
using TraceBindings = std::vector<TraceBinding>;

} // namespace adsem::simple_diff
