#pragma once
// The paper's translations, each a named transformation (spec §4.4-4.7):
//   Dfwd   forward dual numbers              (Fig. 3, L195-233)       R ↦ R × δR
//   Drev1  reverse #1, dense tangents δS     (Fig. 5, L281-297) [reconstructed]  R ↦ R × δS
//   Drev2  reverse #2, Delta2 trees          (Fig. 7, L315-333)       R ↦ R × Delta2
//   Drev   final monadic reverse translation (Fig. 9, L438-487)       R ↦ R × Delta, A→B ↦ Drev A →
//   M Drev B
// Each clause is an entry of the rule book (rules.cpp); the walk below selects the clause for a
// node and fires it. Real primitives are translated from their table entry
// (derivative_rules.hpp, Fig. 14). Helper names are fresh (spec §9.7). The input must be a source
// term (no target forms: no R{R{e}}, spec §9.14); otherwise AdsemError(usage).
#include <functional>
#include <string>
#include <vector>

#include "semantics/core/rule_counter.hpp"
#include "semantics/delta_reverse/derivative_rules.hpp"
#include "semantics/delta_reverse/setup.hpp"
#include "syntax/core/depth_guard.hpp"
#include "syntax/delta_reverse/ast.hpp"
#include "syntax/delta_reverse/nesting.hpp"

namespace adsem::delta_reverse {

enum class Translation { dfwd, drev1, drev2, drev };
const char* translation_name(Translation t); // "Dfwd", "Drev1", "Drev2", "Drev"

// The type translation (spec §3.3). For Drev of a term, the term has type M (drev type).
Type translate_type(Translation t, const Type& a);
// The term translation, by the book's clauses.
Term translate(Translation t, const Term& e, const RunSetup& setup = {});
// The type the translation of a term of type A has: M Drev{A} for Drev, X{A} otherwise.
Type translated_term_type(Translation t, const Type& a);

// The walk of one translation: the context its clauses fire in.
class Translator {
public:
  Translator(Translation t, const Term& e, const Rules& rules, RuleCounter* coverage);
  // Hands the clause firings to the coverage (counted by position while walking).
  ~Translator();
  Translator(const Translator&) = delete;
  Translator& operator=(const Translator&) = delete;

  Translation translation() const { return t_; }
  // The type translation of a binder's or an injection's type.
  Type type(const Type& a);
  // The translation of a subterm: its clause selected from the book, noted, fired.
  Term term(const Term& e);
  // A name fresh for the whole input (spec §9.7).
  std::string fresh(const std::string& stem) { return fresh_(stem); }

private:
  Term term_here(const Term& e); // term on the current stack
  template <class R> Term walk(const Term& e);

  Translation t_;
  const Rules& rules_;
  RuleCounter* coverage_;
  std::vector<long> fired_; // per book position, when coverage_ is set
  FreshNames fresh_;
  DepthBudget depth_{max_source_nesting, 0, ErrorKind::eval};
};

// The clauses' results (rules.cpp lists them under their names).
namespace clauses {
using Redex = TranslationClause::Redex;
using Result = std::function<Term(Translator&, const Redex&, const RuleInfo&)>;

// Dfwd, Drev1, Drev2 (Figs. 3, 5, 7): homomorphic except literals, primitives and binder types.
Term hom_unchanged(Translator&, const Redex& r, const RuleInfo&);    // x, k
Term hom_lam(Translator& tr, const Redex& r, const RuleInfo&);       // λx. {e}
Term hom_app(Translator& tr, const Redex& r, const RuleInfo&);       // {e1} {e2}
Term hom_let(Translator& tr, const Redex& r, const RuleInfo&);       // let x = {e1} in {e2}
Term hom_pair(Translator& tr, const Redex& r, const RuleInfo&);      // ({e1}, {e2})
Term hom_fst(Translator& tr, const Redex& r, const RuleInfo&);       // fst {e}
Term hom_snd(Translator& tr, const Redex& r, const RuleInfo&);       // snd {e}
Term hom_inl(Translator& tr, const Redex& r, const RuleInfo&);       // inl {e}
Term hom_inr(Translator& tr, const Redex& r, const RuleInfo&);       // inr {e}
Term hom_case(Translator& tr, const Redex& r, const RuleInfo&);      // case {e0} of ...
Term hom_dual_real(Translator& tr, const Redex& r, const RuleInfo&); // (r, zero tangent)

// Drev (Fig. 9, L438-487).
Term drev_pure(Translator&, const Redex& r, const RuleInfo&);   // pure x, pure k
Term drev_lam(Translator& tr, const Redex& r, const RuleInfo&); // pure (λx. Drev{e})
Term drev_app(Translator& tr, const Redex& r, const RuleInfo&); // do { f <- ..; x <- ..; f x }
Term drev_let(Translator& tr, const Redex& r, const RuleInfo&); // do { x <- Drev{e1}; Drev{e2} }
Term drev_pair(Translator& tr, const Redex& r,
               const RuleInfo&); // do { x <- ..; y <- ..; pure (x, y) }
Term drev_unary(Translator& tr, const Redex& r,
                const RuleInfo&); // do { x <- Drev{e}; pure (op x) }
Term drev_case(Translator& tr, const Redex& r,
               const RuleInfo&);                              // do { x <- Drev{e0}; case x of ..}
Term drev_real(Translator&, const Redex& r, const RuleInfo&); // pure (r, Zero)
// Fig. 12's OCaml implementation (L646-725; spec §11 item 12): the same clauses run right to left
Term drev_app_argument_first(Translator& tr, const Redex& r,
                             const RuleInfo&); // do { x <- Drev{e2}; f <- Drev{e1}; f x }
Term drev_pair_right_first(Translator& tr, const Redex& r,
                           const RuleInfo&); // do { y <- Drev{e2}; x <- Drev{e1}; pure (x, y) }
Term drev_real_allocating(Translator& tr, const Redex& r,
                          const RuleInfo&); // do { d <- deltaLet Zero; pure (r, Var d) }

// The array extension (§10.2, L848-862; arrays.cpp).
Term hom_array_op(Translator& tr, const Redex& r, const RuleInfo&); // index[X{A}], build[X{A}]
Term drev_index(Translator& tr, const Redex& r, const RuleInfo&);   // pure (λp. pure (index p))
Term drev_build(Translator& tr, const Redex& r,
                const RuleInfo&); // pure (λp. sequence (build p))
// sumV (spec §9.12, an extension): Dfwd, Drev1, Drev2 by hom_array_op (sumV[X{Real}]);
// Drev: pure (λv. let p = sumV[R × Delta] v in do { d <- deltaLet (snd p); pure (fst p, Var d) })
Term drev_sum_v(Translator& tr, const Redex& r, const RuleInfo&);

// A primitive's clause (Fig. 3, 5, 7, 9, 14): `derivative` finds its partials (the table of
// derivative_rules.hpp; null for a leaf primitive), `result_delta` is the Delta Drev's clause
// returns for the id d it deltaLet'd (Fig. 14: Var d).
struct Primitive {
  std::function<const DerivativeRule*(const std::string&)> derivative = find_derivative_rule;
  std::function<Term(const Term& id)> result_delta = [](const Term& d) {
    return node(Kind::d_var, {d});
  };
};
Result op_clause(Primitive how = {});
} // namespace clauses

} // namespace adsem::delta_reverse
