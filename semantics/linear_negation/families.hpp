#pragma once
// The benchmark families of spec §8 (E6 squaring chain, E7 sum chain, E8 recurrent network of
// seed 002 §6 L570-644) as source text, and the corrected BPTT recurrence of Prop. 17 (spec §6
// P24, erratum 4) that checks E8.
#include <string>
#include <vector>

namespace adsem::linear_negation::family {

// let z1 = x * x in … let zk = z(k-1) * z(k-1) in zk, as \x:R. … (E6)
std::string square_chain(int k);
// the higher-order variant: let s = \y:R. y * y in s (s (… (s x)))
std::string square_chain_higher_order(int k);
// \x:R. sin(tanh(sin(… x))): k nested primitives, no lets (every D(f(t)) carries D(t) in its
// substitution stack, so duplicating a stack doubles the work per level)
std::string nested_chain(int k);
// \x1:R. … \xn:R. x1 + … + xn (E7)
std::string sum_chain(int n);
// \x:R. let z1 = sin(x) in let z2 = tanh(z1) in … zn: each variable used once
std::string let_series(int n);
// \x:R. let z1 = sin(x) + x in … let zn = sin(z(n-1)) + x in zn: every stage reads the previous
// one and the outer input x
std::string long_range_let(int n);
// the complexity families' n RNN inputs, 0.1·(i mod 7) − 0.3
std::vector<double> rnn_inputs(int n);
// \eps:R. \rho:R. let L = … in let N = … in N [a1; …; an] (E8, L and N reconstructed, erratum 5)
std::string rnn(const std::vector<double>& list);

struct RnnGradient {
  double value = 0;
  double d_eps = 0;
  double d_rho = 0;
};
// Prop. 17 with erratum 4 applied (u_{k-1} in g_ρ); literal = true uses the printed u_k.
RnnGradient rnn_recurrence(const std::vector<double>& list, double eps, double rho,
                           bool literal = false);

} // namespace adsem::linear_negation::family
