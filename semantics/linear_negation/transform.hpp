#pragma once
// The reverse-gradient transformation D_d of Table 3 (seed 002 L453-468, spec §4.8), the gradient
// wrapper and read-backs of Cor. 16 (L562-566, spec §4.9), symbolic backpropagation bp on
// computational graphs (Def. 10, L479-517, spec §4.10a) and forward mode D→ (Sect. 2.3 L127-142,
// Prop. 1, spec §4.10b).
#include <optional>
#include <string>
#include <vector>

#include "semantics/linear_negation/reduction.hpp"
#include "syntax/linear_negation/ast.hpp"

namespace adsem::linear_negation {

struct TransformOptions {
  int d = 1;
  RulesPtr book = paper_rules();  // whose Table 3b clauses D applies (a mutant's patched book)
  RuleCounter* counter = nullptr; // rule coverage: each clause applied is added here too
};

// The walk of D (Table 3b): at each node the book's clause for its tag builds D of the node from
// D of its subterms (`go`). The clauses (rules.cpp) read the fresh names, d and the typed binders
// from here.
class Differentiator {
public:
  Differentiator(Names& names, const TransformOptions& options) : names_(names), o_(options) {}
  Term go(const Term& t); // D(t)
  Names& names() { return names_; }
  int d() const { return o_.d; }
  // x^{!A} as x^{!D(A)}; AdsemError(type) on a binder without its type (D needs elaborated terms).
  Binder binder(const Binder& b) const;
  // body[⟨x^{!R}, x'^{!R^⊥d}⟩ := bound], the pattern ES of the clauses for + and f.
  Term pattern_frame(const std::string& x, const std::string& xp, const Term& body,
                     const Term& bound) const;

private:
  Names& names_;
  const TransformOptions& o_;
};

// Table 3a: D(R) = R × R^⊥d, homomorphic on → and ×.
Type back_type(const Type& a, int d);
// Table 3b on an elaborated source term. `names` supplies the fresh x, x', a of the clauses.
Term back(const Term& t, Names& names, const TransformOptions& options = {});

// The gradient wrapper of spec §4.9 for x1..xn ⊢ t : R at r:
//   W = (k' 1)[(k, k') := D(t)[x̂1 := (p1, \a. x1' a)]…][p1 := r1]…   (keep_primal: (k, k' 1))
// with the backpropagator variables xj' left free (their names in `backprop`).
struct Wrapper {
  Term term;
  std::vector<std::string> backprop; // xj', free, of type R -o R^d
  Context free_types;
};
Wrapper gradient_wrapper(const Term& t, const std::vector<std::string>& inputs,
                         const std::vector<double>& r, const TransformOptions& options = {},
                         bool keep_primal = false);
// Read-back A (spec §4.9): Σ xj' gj -> (g1..gn); nullopt when the normal form has another shape.
std::optional<std::vector<double>> read_back(const Term& normal_form,
                                             const std::vector<std::string>& backprop);
// Read-back A as `book` defines it (its entry of ReadBack): the gradient of the normal form
// Σ xj' gj, or nullopt; the firing is added to `counter` (rule coverage) when there is one.
// AdsemError(usage) when the book has no read-back.
std::optional<std::vector<double>> read_gradient(const Rules& book, const Term& normal_form,
                                                 const std::vector<std::string>& backprop,
                                                 RuleCounter* counter = nullptr);
// Read-back B: d = n, xj' := \a. ι_j(a); the normal form is the gradient tuple.
Term injection_wrapper(const Wrapper& w_with_d_n);

struct GradientRun {
  std::vector<double> gradient;
  std::optional<double> value;
  Run run;
};
// Cor. 16 end to end: W with d = 1, normalised by `options` (S_bp by default), read-back A.
GradientRun reduce_gradient(const Term& t, const std::vector<std::string>& inputs,
                            const std::vector<double>& r, const RunOptions& options,
                            const TransformOptions& transform = {}, bool keep_primal = false);

// ---- computational graphs (grammar (25), L473-477) ----
bool is_ground(const Term& g); // x | F[x := G] | f(x…) | r | F + G
// f(G1..Gk) := f(x1..xk)[x1 := G1]… (spec §2.3 sugar), on first-order source terms.
Term groundify(const Term& t, Names& names);
// The walk of bp (Def. 10): at each node the book's clause for its former builds bp of the node
// from bp of its subgraphs (`go`, with the inputs and the variable a the clause passes on). The
// clauses (rules.cpp) draw their fresh b from here.
class Backpropagator {
public:
  Backpropagator(Names& names, const Rules& book, RuleCounter* counter)
      : names_(names), book_(book), counter_(counter) {}
  BpParts go(const Term& g, const std::vector<std::string>& inputs, const std::string& a);
  Names& names() { return names_; }

private:
  Names& names_;
  const Rules& book_;
  RuleCounter* counter_;
};

// bp_{x,a}(G) of Def. 10 (with ⊕, L479-481) by `book`'s clauses: a term of type R × R^n with a
// free exponential a. Each clause applied is added to `counter` (rule coverage) when there is one.
Term backprop_graph(const Term& g, const std::vector<std::string>& inputs, const std::string& a,
                    Names& names, const Rules& book = *paper_rules(),
                    RuleCounter* counter = nullptr);
// The walk of D→ (Sect. 2.3): at each node the book's clause for its former builds D→ of the node
// from D→ of its subgraphs (`go`); the clauses (rules.cpp) draw their fresh names from here.
class ForwardDifferentiator {
public:
  ForwardDifferentiator(Names& names, const Rules& book, RuleCounter* counter)
      : names_(names), book_(book), counter_(counter) {}
  Term go(const Term& g);
  Names& names() { return names_; }

private:
  Names& names_;
  const Rules& book_;
  RuleCounter* counter_;
};

// D→(G) (Sect. 2.3) by `book`'s clauses: a term of type R × R over inputs of type R × R. Each
// clause applied is added to `counter` (rule coverage) when there is one.
Term forward_graph(const Term& g, Names& names, const Rules& book = *paper_rules(),
                   RuleCounter* counter = nullptr);
// What input i (value r_i) of D→(G) is bound to for ∂_j, as `book` seeds it (its entry of Seed,
// Prop. 1); the firing is added to `counter` when there is one. AdsemError(usage) when the book
// has no seeding.
Term forward_seed(const Rules& book, double r, std::size_t input, std::size_t direction,
                  RuleCounter* counter = nullptr);

} // namespace adsem::linear_negation
