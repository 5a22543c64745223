#pragma once
// The relations of seed 000 whose rules are entries of pullback's rule book
// (semantics/core/rule_table.hpp), and the book's type. Each relation says what its rules receive
// at the position the strategy (strategy.cpp) visits, with the premises already derived, and what
// they produce: the contractum.
#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "semantics/core/rule_table.hpp"
#include "syntax/pullback/ast.hpp"

namespace adsem::pullback {

class Machine;

// The dispatch index is keyed by the AST's Kind; the last kind is `let`.
inline constexpr std::size_t term_kind_count = 14;
static_assert(static_cast<std::size_t>(Kind::let) + 1 == term_kind_count);

// Combine (§3.4 L363-375; spec §4.6): rules 1-6, 5⁺, the [X] extensions N1-N3, Z1-Z7, Sigma1-3
// and the β-reading of let, on a redex r of the context grammar, keyed by r's constructor.
struct Combine {
  using Context = Machine;
  using Kind = pullback::Kind;
  static constexpr std::size_t kind_count = term_kind_count;
  struct Redex {
    const Term& node; // every evaluation-position subterm is a value
  };
  using Output = Term;
  // A run of the same rule at the same redex that refocusing may take at once: it rewrites the
  // contractum and returns the further firings (N1 at a sum of numerals).
  using Extra = std::function<long(Term&)>;
  static Kind kind(const Redex& r) { return r.node->kind; }
  // The operand whose kind the side conditions test (Rule::operands): a dual map's functional,
  // else the first kid; a node without kids answers its own kind (no entry declares one there).
  static Kind operand(const Redex& r) {
    const Node& n = *r.node;
    if (n.kind == Kind::dualmap) return n.kids[1]->kind;
    return n.kids.empty() ? n.kind : n.kids[0]->kind;
  }
  static const Node& node(const Redex& r) { return *r.node; }
};

// What the strategy knows at a pullback (Ω λy:σ.P)·S: whether the body P is final (ID-10: a let
// series, an elementary term or a split body). Keyed by the body's constructor.
struct PullbackBody {
  using Context = Machine;
  using Kind = pullback::Kind;
  static constexpr std::size_t kind_count = term_kind_count;
  struct Redex {
    const Term& node; // (Ω λy:σ.P)·S
    bool final = false;
    // The child of node that a C_A hole opens (contexts.hpp): the body P of a pullback; another
    // node's child only where a patched context table puts a C_A hole elsewhere (V + C_A).
    std::size_t hole = 0;
  };
  using Output = Term;
  static Kind kind(const Redex& r) { return r.node->kids[r.hole]->kind; }
  static const Node& node(const Redex& r) { return *r.node; }
};

// The A-normalisation macro step A* (§3.2 L205-219, App. B; spec §4.2) on a body not yet final.
struct Anf : PullbackBody {};

// Let series (Fig. 3 L236-240): rules 7 and 8 on a final let body.
struct LetSeries : PullbackBody {};

// Conquer: rows 9-20 of Fig. 3 (L240-248; spec §4.4) on ((Ω λy:σ.B)·ω) V, ω and V values, B
// final and not a let. The strategy has drawn the fresh tangent variable v and derived the
// premises (JAC, JAC1, and row 17's unfolding at a symbolic point); keyed by B's constructor.
struct Pullback {
  using Context = Machine;
  using Kind = pullback::Kind;
  static constexpr std::size_t kind_count = term_kind_count;
  struct Redex {
    const Term& body; // B: E, or ⟨y,E⟩ for a stage of a let series (rows 20a, 20b)
    const Term& e;    // E (B itself, or the second component of a stage)
    bool stage = false;
    const std::string& y;
    const Type& sigma;
    const Term& omega;
    const Term& v_value; // V
    std::string v = {};  // the tangent variable of the result's dual map
    // The premise's S: JAC (16b, 16c, 18, 19b, 19c) or JAC1 (20a); row 17: the λ that E unfolds to.
    std::optional<Term> premise = {};
    std::string v2 = {};              // 19b, 19c: the tangent variable of the premise on V_p's λ
    std::optional<Term> forward = {}; // 16a-16c: S[V/y] for E = (λx.S)*·A, taken before JAC
    // Only v and S of the result are read (the premise JAC1): the paper's rows may then leave
    // W out, giving (λv.S)*·ω. A row a mutant or a user supplies may ignore it.
    bool direction_only = false;
    // The application ((Ω λy:σ.B)·ω) V around the pullback where the run's search found it, or
    // null (a premise's row): a row may edit B's nodes in place when the run holds it alone.
    const Term* node = nullptr;
  };
  using Output = Term;
  static Kind kind(const Redex& r) { return r.body->kind; }
  static const Node& node(const Redex& r) { return *r.body; }
};

// The evaluation contexts (§3.4 L359; spec §4.6): one entry per production of C, which no step
// fires (each is `unfireable`): its `extra` says which child its hole is in, what the children
// opened before must be and which grammar opens the hole. The strategy reads them (contexts.hpp).
enum class Grammar : unsigned char {
  evaluation,     // C: the search goes on inside the child
  administrative, // C_A (§3.2, App. B L753): the child is A-normalised as a whole by A* (§4.2)
};
// What a pullback's body must be for a production of (Ω λy.P)·S to hold (ID-10).
enum class BodyShape : unsigned char {
  any,        // not a pullback production
  not_final,  // (Ω λy.C_A)·S: only while the body is not final
  elementary, // (Ω λy.E)·C
  split,      // (Ω λy.⟨y,E⟩)·C
};
struct Hole {
  int kid = 0;               // the child the hole is in
  bool each_later = false;   // and each later child too (a sum's summands: n-ary sums, ID-5)
  bool values_first = false; // the children the kind's productions open before are values V
  Grammar grammar = Grammar::evaluation;
  BodyShape body = BodyShape::any;
};
struct EvaluationContext {
  using Context = Machine;
  using Kind = pullback::Kind;
  static constexpr std::size_t kind_count = term_kind_count;
  struct Redex {
    const Term& node; // a node of the production's kind
  };
  using Output = Term;
  using Extra = Hole;
  static Kind kind(const Redex& r) { return r.node->kind; }
  static const Node& node(const Redex& r) { return *r.node; }
};

using Book = RuleBook<Combine, LetSeries, Pullback, Anf, EvaluationContext>;
using BookPtr = std::shared_ptr<const Book>;
using BookPatch = Book::Patch;

} // namespace adsem::pullback
