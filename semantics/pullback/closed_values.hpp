#pragma once
// The values of closed subterms, kept by node across the denotations of the terms of one run (the
// terms of a reduction sequence share every node a step did not touch), and the results of their
// closures at tag-free ground arguments. A closed term's meaning does not read the environment
// (seed 000 §4.2, L448-458: ⟦S⟧ depends on γ through FV(S) only), so a node denotes the same value
// in every environment and every step; a closure of the model is a deterministic function, so the
// same closure at the same reals gives the same value. Probing a step's two sides (spec §5.5)
// then recomputes only what the step changed: the probes of the term before a step, which is the
// term after the step before it, and of the closed parts the step did not touch are answered
// from here.
//
// Tags: every denotation that reads these values must use one DiffContext (one tag source), so a
// kept closure and the closures of a later step never draw the same tag. Arguments that carry
// perturbations are never remembered (their results depend on the live tags), and neither are
// values that carry them.
#include "semantics/core/value.hpp"
#include "semantics/pullback/node_memo.hpp"
#include "syntax/pullback/ast.hpp"

namespace adsem::pullback {

class ClosedValues {
public:
  using V = model::Value<double>;

  ClosedValues() = default;
  ClosedValues(const ClosedValues&) = delete;
  ClosedValues& operator=(const ClosedValues&) = delete;

  // Whether t's value may be kept: closed, and not a variable, numeral or zero (those cost less
  // to denote than to look up).
  static bool may_keep(const Term& t);
  const V* find(const Term& t) const { return values_.find(t); }
  // Keeps v as t's value; a function is kept as one that remembers its results. Returns the kept
  // value (use it, not v, so that later steps find the same closure).
  V keep(const Term& t, V v);

  // f as a function that remembers its results at tag-free ground arguments (reals, tuples of
  // them); a result that is a function remembers its own results too.
  static V remembering(V f);

private:
  NodeMemo<V> values_{1 << 16};
};

} // namespace adsem::pullback
