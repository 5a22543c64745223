// The mutants of pullback: each one patch of the paper's rule book, drawn from a real AD bug
// class, beside the properties expected to kill it.
#include "properties/pullback/mutants.hpp"

#include <utility>
#include <vector>

#include "properties/core/mutant_catalogue.hpp"
#include "semantics/pullback/combine.hpp"
#include "semantics/pullback/let_series.hpp"
#include "syntax/pullback/ast.hpp"

namespace adsem::pullback {

namespace {

// Rules 5 and 5⁺ (the pullback along a smooth primitive) reverse-accumulate with `adjoint`.
BookPatch transposing_with(const Adjoint& adjoint) {
  BookPatch p;
  for (const char* rule : {"5", "5+"})
    p.replace<Combine>(rule, [adjoint](Rule<Combine> r) {
      r.result = rules::transpose(adjoint);
      return r;
    });
  return p;
}

// A square Jacobian multiplies the cotangent untransposed: J ct instead of Jᵀ ct.
BookPatch smooth_pullback_uses_j_not_jt() {
  Adjoint adjoint;
  adjoint.through = [](const Eigen::MatrixXd& j, const Eigen::VectorXd& ct) -> Eigen::VectorXd {
    if (j.rows() == j.cols()) return j * ct;
    return j.transpose() * ct;
  };
  return transposing_with(adjoint);
}

// Of a sum B₁ + B₂ only B₁ᵀ ct is accumulated.
BookPatch combine_drops_summand() {
  Adjoint adjoint;
  adjoint.summands = 1;
  return transposing_with(adjoint);
}

// Row 9 (y ∉ FV(E)) gives the covector of ones at a Euclidean σ instead of 0.
BookPatch constant_pullback_nonzero() {
  BookPatch p;
  p.replace<Pullback>("9", [](Rule<Pullback> r) {
    r.result = [paper = r.result](Machine& m, const Pullback::Redex& row, const RuleInfo& self) {
      if (!is_euclidean(row.sigma)) return paper(m, row, self);
      return covec(std::vector<double>(dim(row.sigma), 1.0), row.sigma);
    };
    return r;
  });
  return p;
}

// Rule 8 reads the stage tuple w the wrong way round when y and x have one type.
BookPatch let_series_split_loses_binding() {
  BookPatch p;
  p.replace<LetSeries>("8", [](Rule<LetSeries> r) {
    r.result = rules::rule_8([](const Type& sigma, const Type& rho, const Term& w) {
      auto [first, second] = stage_slots(sigma, rho, w);
      if (same_type(sigma, rho)) std::swap(first, second);
      return std::make_pair(first, second);
    });
    return r;
  });
  return p;
}

// A let series L = let B; x = E'; z = E in z ended one stage early: let B; x = E' in x, when x has
// z's type (else L).
Term without_final_binding(const Term& series) {
  std::vector<Term> lets;
  for (Term at = series; at->kind == Kind::let; at = at->kids[1])
    lets.push_back(at);
  if (lets.size() < 2 || !same_type(lets[lets.size() - 2]->type, lets.back()->type)) return series;
  lets.pop_back();
  Term body = var(lets.back()->name, lets.back()->type);
  for (auto it = lets.rbegin(); it != lets.rend(); ++it)
    body = let((*it)->name, (*it)->type, (*it)->kids[0], std::move(body));
  return body;
}

// A* (§3.2 L207-219: ANF(P) = let B; z = E in z) loses the final binding z = E: the series ends
// at the stage before, whose value it returns. The result is still a let series, hence final.
BookPatch anf_drops_final_binding() {
  BookPatch p;
  p.replace<Anf>("A*", [](Rule<Anf> r) {
    r.result = [paper = r.result](Machine& m, const Anf::Redex& redex, const RuleInfo& self) {
      auto n = make_shared_node<Node>(*paper(m, redex, self)); // (Ω λy.ANF(P))·S
      n->kids[redex.hole] = without_final_binding(n->kids[redex.hole]);
      return Term(std::move(n));
    };
    return r;
  });
  return p;
}

// Row 15 takes the Jacobian of f̲ at the direction and applies it to the point: the body
// (𝒥f̲·V_p) v_p instead of (𝒥f̲·v_p) V_p (the JVP's two arguments swapped).
BookPatch primitive_jacobian_point_and_direction_swapped() {
  BookPatch p;
  p.replace<Pullback>("15", [](Rule<Pullback> r) {
    r.result = [paper = r.result](Machine& m, const Pullback::Redex& row, const RuleInfo& self) {
      const Term d = paper(m, row, self); // (λv.(𝒥f̲·v_p) V_p)*·(ω W)
      const Term& body = d->kids[0];
      const Term& j = body->kids[0];
      return dualmap(d->name, d->type, app(jac(j->name, j->type, body->kids[1]), j->kids[0]),
                     d->kids[1]);
    };
    return r;
  });
  return p;
}

// The rule set as printed: rule 5 without the extension 5⁺.
BookPatch paper_literal_rule_5_only() {
  BookPatch p;
  p.remove("5+");
  return p;
}

// The A-contexts as printed (erratum #6, L359, L753) also reach inside final bodies: A* fires on
// a body already final (a let series, an elementary term, a split body), which ID-10 exempts.
BookPatch paper_literal_a_contexts_overlap() {
  BookPatch p;
  p.replace<Anf>("A*", [](Rule<Anf> r) {
    r.match = [](const Machine&, const Anf::Redex&) { return true; };
    return r;
  });
  return p;
}

// The rule set as printed has no rules for zeros inside values (erratum #9): without the
// oriented ≡ of §2.3, Z1-Z7 and Σ1-Σ3, a zero covector or a zero sum stays where the rules
// expected a value.
BookPatch paper_literal_no_zero_rules() {
  BookPatch p;
  for (const char* rule : {"Z1", "Z2", "Z3", "Z4", "Z5", "Z6", "Z7", "Sigma1", "Sigma2", "Sigma3"})
    p.remove(rule);
  return p;
}

// The context V + C as printed (erratum #13, L359): V + C_A, so the summands after the first are
// A-normalised (A*) instead of evaluated, and a sum whose later summand is not a value sticks.
BookPatch paper_literal_v_plus_c_a() {
  BookPatch p;
  p.replace<EvaluationContext>("V + C", [](Rule<EvaluationContext> r) {
    r.info.summary = "as printed, V + C_A: each summand after the first is an A-context";
    r.extra.grammar = Grammar::administrative;
    return r;
  });
  return p;
}

// Rule 17 as printed (erratum #12, L245): the unfolded λb.(λu.S)*·(a L[b/x]) replaces E without
// the A-normalisation of its body that ID-11 adds.
BookPatch paper_literal_rule_17_not_a_normal() {
  BookPatch p;
  p.replace<Pullback>("17", [](Rule<Pullback> r) {
    r.result = [](Machine&, const Pullback::Redex& row, const RuleInfo&) {
      return app(pullback(row.y, row.sigma, *row.premise, row.omega), row.v_value);
    };
    return r;
  });
  return p;
}

} // namespace

const std::vector<Mutant>& mutant_catalogue() {
  static const std::vector<Mutant> catalogue = [] {
    const props::MutantDeclarer<Mutant, BookPatch, BookPtr> mutant{"pullback", patch_paper_rules};
    std::vector<Mutant> all;
    all.push_back(mutant(
        "smooth-pullback-uses-J-not-JT", "transpose",
        "rules 5/5⁺ (the pullback along a smooth primitive, L363, L385) multiply the cotangent "
        "by 𝒥(f)(r) instead of its transpose (square Jacobians, e.g. g of Ex. 3.1)",
        {"reverse-mode-first-order", "soundness-of-steps", "dot-product-test"},
        smooth_pullback_uses_j_not_jt()));
    all.push_back(mutant(
        "constant-pullback-nonzero", "constant-derivative",
        "rule 9 (y ∉ FV(E), L241, L279) returns the covector of ones instead of 0 (Prop. E.1)",
        {"soundness-of-steps", "reverse-mode-first-order"}, constant_pullback_nonzero()));
    all.push_back(mutant(
        "combine-drops-summand", "overwrite-not-accumulate",
        "rule 5⁺ accumulates only the first summand of a sum B₁ + B₂ (e.g. the body v.1 + v.2 "
        "of rule 10b): adjoints are overwritten instead of accumulated",
        {"soundness-of-steps", "reverse-mode-first-order"}, combine_drops_summand()));
    all.push_back(mutant("let-series-split-loses-binding", "lost-binding",
                         "rule 8 (L238) substitutes w.2 for y and w.1 for x (the stage tuple read "
                         "in the wrong order) when y and x have the same type",
                         {"soundness-of-steps", "reverse-mode-first-order"},
                         let_series_split_loses_binding()));
    all.push_back(mutant("anf-drops-final-binding", "lost-binding",
                         "A* (ANF(P) = let B; z = E in z, §3.2 L207-219) loses the final binding "
                         "z = E: the let series ends at the stage before and returns its value "
                         "(when the two have the same type)",
                         {"soundness-of-anf", "anf-shape", "soundness-of-steps"},
                         anf_drops_final_binding()));
    all.push_back(mutant(
        "primitive-jacobian-point-and-direction-swapped", "jvp-arguments-swapped",
        "row 15 (E = f̲(y_p), L243) builds the Jacobian body (𝒥f̲·V_p) v_p: the Jacobian taken at "
        "the tangent and applied to the point, instead of (𝒥f̲·v_p) V_p",
        {"jacobian-bodies", "soundness-of-steps", "reverse-mode-first-order"},
        primitive_jacobian_point_and_direction_swapped()));
    all.push_back(mutant(
        "paper-literal-rule-5-only", "lost-reverse-sweep",
        "the rule set as printed (erratum #8): rule 5 without 5⁺, so rule 6 composes the dual "
        "maps forward by substitution; results stay correct but the cost claim of Ex. 3.7 (⋆) "
        "/ Remark 2.1 fails",
        {"cost-reverse-mode"}, paper_literal_rule_5_only()));
    all.push_back(
        mutant("paper-literal-a-contexts-overlap", "paper-literal",
               "the A-contexts as printed (erratum #6, L359, L753): A* also fires on a final body, "
               "which the spec's ID-10 exempts, so a term has two decompositions and "
               "A-normalisation never ends (strong-normalisation fails too, slowly: every run "
               "spends its fuel)",
               {"unique-decomposition"}, paper_literal_a_contexts_overlap()));
    all.push_back(mutant(
        "paper-literal-no-zero-rules", "paper-literal",
        "the rule set as printed (erratum #9): no rules for zeros inside values (Z1-Z7 and "
        "Σ1-Σ3, the ≡ of §2.3 oriented, removed), so a term such as (λx.0)* keeps a body that "
        "is not linear in x and types no more",
        {"subject-reduction"}, paper_literal_no_zero_rules()));
    all.push_back(mutant(
        "paper-literal-v-plus-c-a", "paper-literal",
        "the context V + C as printed, V + C_A (erratum #13, L359): a summand after the first "
        "is A-normalised instead of evaluated: a stage's dual map keeps a let in its body, which "
        "5⁺ does not transpose, so rule 6 composes forward (and a sum of a value and a "
        "non-value sticks)",
        {"cost-reverse-mode"}, paper_literal_v_plus_c_a()));
    all.push_back(mutant(
        "paper-literal-rule-17-not-a-normal", "paper-literal",
        "rule 17 as printed (erratum #12, L245, L305): the unfolded λ's body (λu.S)*·(a L[b/x]) "
        "is not A-normalised (ID-11); the strategy A-normalises it itself through (Ω λy.C_A)·S "
        "(one A* and one rule 7 more, the same normal form), so it is an expected survivor",
        {}, paper_literal_rule_17_not_a_normal()));
    return all;
  }();
  return catalogue;
}

std::vector<props::MutantDef> mutants() {
  return props::mutant_defs(mutant_catalogue());
}

const BookPtr& mutant_book(const std::string& mutant) {
  if (mutant.empty()) return paper_rules();
  for (const Mutant& m : mutant_catalogue())
    if (m.def.name == mutant ||
        m.def.name.compare(m.def.name.find('/') + 1, std::string::npos, mutant) == 0)
      return m.book.get();
  return paper_rules();
}

} // namespace adsem::pullback
