#pragma once
// Fig. 2's computational graph G = sin(z2)[z2 := z1 · z1][z1 := x1 - x2] (seed 002, §2; spec §8
// E1) and bp_{x,a}(G)[a := 1][x1 := 5][x2 := 2], closed (Def. 10, Prop. 12): the term the
// golden test and the errata test normalise.
#include "semantics/linear_negation/program.hpp"
#include "semantics/linear_negation/transform.hpp"

namespace adsem::linear_negation::fixtures {

inline Term fig2_backprop_at_5_2() {
  const Typed g = parse_elaborated("(sin(z2))[z2 := z1 * z1][z1 := x1 - x2]", Mode::source,
                                   {{"x1", real_type()}, {"x2", real_type()}});
  Names names(g.term);
  const Term bp = backprop_graph(g.term, {"x1", "x2"}, "a", names);
  return elaborate(let(exp_binder("x2", real_type()),
                       let(exp_binder("x1", real_type()),
                           let(exp_binder("a", real_type()), bp, num(1)), num(5)),
                       num(2)))
      .term;
}

} // namespace adsem::linear_negation::fixtures
