// The mutants of linear-negation: each drawn from a real AD bug class, beside the properties
// expected to kill it; a mutant of a rule, of a clause of D, of the read-back of Cor. 16 or of
// Prop. 1's seeding is one patch of the paper's rule book. Prop. 17's recurrence is an oracle of
// a property, not a definition the semantics uses (see its description).
#include "properties/linear_negation/mutants.hpp"

#include <algorithm>
#include <initializer_list>

#include "properties/core/mutant_catalogue.hpp"
#include "semantics/linear_negation/equivalence.hpp"
#include "semantics/linear_negation/reduction.hpp"
#include "semantics/linear_negation/transform.hpp"

namespace adsem::linear_negation {

namespace {

// Rule (17) x t + x u → x (t + u) removed (Table 2c, L364-367).
RulesPatch linear_factoring_disabled() {
  RulesPatch p;
  p.remove("factor-17");
  return p;
}

// D(t·u) = ⟨x·y, λa. x'(y·a)⟩…: Table 3b's clause for f = mul without its second summand
// y'(x·a) (L460; Lemma 19).
RulesPatch d_mul_drops_product_term() {
  RulesPatch p;
  p.replace<Transform>("D-prim", [](Rule<Transform> r) {
    r.result = [paper = r.result](Differentiator& d, const Transform::Redex& redex,
                                  const RuleInfo& self) {
      const Term out = paper(d, redex, self);
      if (redex.term->name != "mul") return out;
      // out = ⟨x·y, λa. x'(y·a) + y'(x·a)⟩[⟨x, x'⟩ := D(t)][⟨y, y'⟩ := D(u)]
      const Peeled frames = peel(out);
      const Node& core = *frames.core;
      const Node& backprop = *core.right();
      const Term kept = lam(backprop.x, backprop.body()->left());
      return wrap(pair(core.left(), kept), frames.frames);
    };
    return r;
  });
  return p;
}

// D(t[x := u]) for a real x binds x̂ to ⟨k, λa. 0⟩[⟨k, k'⟩ := D(u)]: the let-bound value's
// backpropagator dropped, as if x were a constant (Table 3b, L456-458: D(t[x := u]) =
// D(t)[x := D(u)]).
RulesPatch d_let_drops_backpropagator() {
  RulesPatch p;
  p.replace<Transform>("D-let", [](Rule<Transform> r) {
    r.result = [paper = r.result](Differentiator& d, const Transform::Redex& redex,
                                  const RuleInfo& self) {
      const Node& t = *redex.term;
      if (!t.x.type || !is_real(t.x.type)) return paper(d, redex, self);
      Names& names = d.names();
      const std::string k = names.fresh("k"), kp = names.fresh("dk"), a = names.fresh("a");
      const Term constant = pair(var(k), lam(lin_binder(a), zero(d.d())));
      return let(d.binder(t.x), d.go(t.body()), d.pattern_frame(k, kp, constant, d.go(t.bound())));
    };
    return r;
  });
  return p;
}

// Rule (8) reads ⟨t,u⟩α as ⟨tα, uα⟩: the stack α is copied into both components.
RulesPatch equivalence_duplicates_substitution() {
  RulesPatch p;
  p.replace<Reduction>("pair-8", [](Rule<Reduction> r) {
    r.result = [paper = r.result](Reducer& m, const Reduction::Redex& redex, const RuleInfo& self) {
      const Node& t = *redex.term;
      const Peeled p = peel(t.bound());
      if (p.frames.empty()) return paper(m, redex, self);
      const Term a = wrap(p.core->left(), p.frames);
      const Term b = m.renamed_apart(wrap(p.core->right(), p.frames));
      return let(t.y, let(t.x, t.body(), a), b);
    };
    return r;
  });
  return p;
}

// The named rules that move a stack α out, with MovedStacks::any: as Table 2 prints them.
RulesPatch move_any_stack(std::initializer_list<const char*> names) {
  RulesPatch p;
  for (const char* name : names)
    p.replace<Reduction>(
        name, [name](const Rule<Reduction>&) { return moving_rule(name, MovedStacks::any); });
  return p;
}

// (12), (13) and (17) as Table 2 prints them (L355-367): the stacks they move across the other
// summand may hold linear ES, which the book's entries do not move (spec §4.4 caveat; the proof
// of Lemma 14 does it, L552, L938-944).
RulesPatch sums_move_linear_es() {
  return move_any_stack({"sum-12", "sum-pair-13", "factor-17"});
}

// (9) and (10) as Table 2a prints them (L334-354): the stack α of the bound value they move out
// may hold linear ES, which the book's entries leave for (11) to dissolve inside the content
// first (spec §4.4 caveat, met by (9) and (10); docs/enumeration.md).
RulesPatch subst_and_gc_move_linear_stacks() {
  return move_any_stack({"subst-9", "gc-10"});
}

// (8), (14) and (23) as Table 2a prints them (L334-354, L387-390): the stacks they move out (the
// pair's, the arguments') may hold linear ES, which the book's entries leave for (11) to
// dissolve first (spec §4.4 caveat, met by these three; docs/enumeration.md).
RulesPatch pairs_and_primitives_move_linear_stacks() {
  return move_any_stack({"pair-8", "mul-14", "prim-23"});
}

// Read-back A credits xj' gj to coordinate j+1 (mod n) instead of j (Cor. 16, L562-566).
RulesPatch gradient_read_from_wrong_component() {
  RulesPatch p;
  p.replace<ReadBack>("read-back-A", [](Rule<ReadBack> r) {
    r.result = [paper = r.result](Definitions& d, const ReadBack::Redex& redex,
                                  const RuleInfo& self) {
      auto gradient = paper(d, redex, self);
      if (gradient && !gradient->empty())
        std::rotate(gradient->rbegin(), gradient->rbegin() + 1, gradient->rend());
      return gradient;
    };
    return r;
  });
  return p;
}

// Table 3b as printed (L460) has a second line for the application, D(tu) := D(t)·D(u), read
// here as the one that holds: D of an application is the product of the two images, which have
// no type a product takes (spec erratum 3: the line is spurious, products are the f clause's).
RulesPatch d_app_second_line() {
  RulesPatch p;
  p.replace<Transform>("D-app", [](Rule<Transform> r) {
    r.result = [](Differentiator& d, const Transform::Redex& redex, const RuleInfo&) {
      return mul(d.go(redex.term->left()), d.go(redex.term->right()));
    };
    return r;
  });
  return p;
}

// Prop. 1 as printed (L140-142): every input seeded with tangent 1, x_i := ⟨r_i, 1⟩.
RulesPatch prop1_seeds_every_input() {
  RulesPatch p;
  p.replace<Seed>("seed-prop-1", [](Rule<Seed> r) {
    r.result = [](Definitions&, const Seed::Redex& redex, const RuleInfo&) {
      return pair(num(redex.r), num(1));
    };
    return r;
  });
  return p;
}

// (19) left to right, t[x := u][y := w] ≡ t[x := u[y := w]], without its side condition y ∉ fv(t):
// [y := w] moves into u's scope although t still uses y.
RulesPatch equivalence_19_ignores_scope() {
  RulesPatch p;
  p.replace<Equivalence>("equiv-19", [](Rule<Equivalence> r) {
    r.result = [paper = r.result](EquivalenceSteps& steps, const Equivalence::Redex& redex,
                                  const RuleInfo& self) {
      std::vector<Term> out = paper(steps, redex, self);
      const Node& t = *redex.term; // [y := w], its body [x := u]
      const Term& body = t.body();
      if (!t.x.linear && body->kind == Kind::let && !body->x.linear &&
          occurs_free(t.x.name, body->body()))
        out.insert(out.begin(),
                   rebuild(*body, {body->body(), rebuild(t, {body->bound(), t.bound()})}));
      return out;
    };
    return r;
  });
  return p;
}

// D→ seeds a numeral with tangent 1, as if it were an input: D→(r) = ⟨r, 1⟩.
RulesPatch forward_constant_has_tangent() {
  RulesPatch p;
  p.replace<ForwardMode>("fwd-num", [](Rule<ForwardMode> r) {
    r.result = [](ForwardDifferentiator&, const ForwardMode::Redex& redex, const RuleInfo&) {
      return pair(redex.term, num(1));
    };
    return r;
  });
  return p;
}

// Def. 10's sum case as printed (L517, spec erratum 12): the stack of bp(F' + F'') is β'β', the
// first summand's twice, and the second summand's β'' is lost.
RulesPatch bp_sum_stacks_beta_twice() {
  RulesPatch p;
  p.replace<SymbolicBackprop>("bp-sum", [](Rule<SymbolicBackprop> r) {
    r.result = [paper = r.result](Backpropagator& bp, const SymbolicBackprop::Redex& redex,
                                  const RuleInfo& self) {
      const BpParts second = bp.go(redex.term->right(), redex.inputs, redex.a);
      BpParts out = paper(bp, redex, self);
      out.beta.resize(out.beta.size() - second.beta.size()); // β' β'' without β''
      const std::vector<Term> first = out.beta;
      out.beta.insert(out.beta.end(), first.begin(), first.end()); // β' β'
      return out;
    };
    return r;
  });
  return p;
}

// The book of a patch: the paper's own when the patch edits nothing (a property's oracle).
RulesPtr book_of(const RulesPatch& patch) {
  return patch.edits.empty() ? paper_rules() : patch_paper_rules(patch);
}

} // namespace

const std::vector<Mutant>& mutant_catalogue() {
  static const std::vector<Mutant> catalogue = [] {
    const props::MutantDeclarer<Mutant, RulesPatch, RulesPtr> declare{"linear-negation", book_of};
    std::vector<Mutant> all;
    all.push_back(declare(
        "linear-factoring-disabled", "lost-sharing",
        "rule (17) x t + x u → x (t + u) removed (Table 2c, L364-367): values stay right, but "
        "each backpropagator is copied to every call site and re-run (spec §9 P1)",
        {"complexity"}, linear_factoring_disabled()));
    all.push_back(declare(
        "d-mul-drops-product-term", "dropped-chain-rule-term",
        "D(t·u) = ⟨x·y, λa. x'(y·a)⟩…: the product rule loses y'(x·a) (Table 3b, L460; Lemma 19)",
        {"gradient-soundness", "d-semantics"}, d_mul_drops_product_term()));
    all.push_back(declare("d-let-drops-backpropagator", "constant-derivative",
                          "D(t[x := u]) binds x̂ to ⟨k, λa. 0⟩[⟨k, k'⟩ := D(u)] for a real x: "
                          "the let-bound value's backpropagator is dropped, as if x were a "
                          "constant (Table 3b, L456-458)",
                          {"d-simulation", "gradient-soundness"}, d_let_drops_backpropagator()));
    all.push_back(declare("equivalence-duplicates-substitution", "lost-sharing",
                          "rule (8) reads ⟨t,u⟩α as ⟨tα, uα⟩ (≡ (21)/(22) misapplied as a "
                          "distribution): the substitution stack α is duplicated into both "
                          "components, so a shared subgraph is computed twice per level",
                          {"complexity"}, equivalence_duplicates_substitution()));
    all.push_back(declare(
        "gradient-read-from-wrong-component", "wrong-component",
        "read-back A credits xj' gj to coordinate j+1 (mod n) instead of j (Cor. 16, L562-566)",
        {"gradient-soundness"}, gradient_read_from_wrong_component()));
    all.push_back(declare("paper-literal-prop1-seed", "paper-literal",
                          "Prop. 1 as printed (L140-142), its x_i := ⟨r_j, 1⟩ read for every "
                          "input i: each seeded ⟨r_i, 1⟩, so forward mode computes a directional "
                          "derivative along (1, …, 1), not ∂_j (spec erratum 17)",
                          {"forward-soundness"}, prop1_seeds_every_input()));
    all.push_back(declare("paper-literal-d-app-second-line", "paper-literal",
                          "Table 3b as printed (L460) defines D(tu) twice; its second line, "
                          "D(tu) := D(t)·D(u), taken: D of an application is a product of the "
                          "images, ill-typed (spec erratum 3: the line is spurious)",
                          {"d-typing"}, d_app_second_line()));
    all.push_back(declare("paper-literal-sums-move-linear-es", "paper-literal",
                          "(12), (13) and (17) as printed (Table 2, L355-367): a linear ES in a "
                          "moved stack crosses the other summand, whose term then uses the linear "
                          "variable outside its judgment (spec §4.4 caveat; Lemma 14's proof, "
                          "L552, L938-944)",
                          {"subject-reduction"}, sums_move_linear_es()));
    all.push_back(declare("forward-constant-has-tangent", "constant-derivative",
                          "D→(r) = ⟨r, 1⟩ (Sect. 2.3, L127-140): a numeral of the graph carries "
                          "tangent 1, as an input would, instead of 0",
                          {"forward-soundness"}, forward_constant_has_tangent()));
    all.push_back(declare("equivalence-19-ignores-scope", "lost-binding",
                          "(19) t[x := u][y := w] ≡ t[x := u[y := w]] (Table 2d, L369-383) taken "
                          "although y ∈ fv(t): the substitution [y := w] moves into u's scope and "
                          "t's occurrences of y are left unbound",
                          {"equivalence-soundness", "equivalence-postponement"},
                          equivalence_19_ignores_scope()));
    all.push_back(declare("paper-literal-bp-sum-stacks-beta-twice", "paper-literal",
                          "Def. 10's sum case as printed (L517): bp(F' + F'') stacks β'β', the "
                          "first summand's ES stack twice, instead of β'β'' (spec erratum 12), "
                          "so the second summand's lets are lost and their variables free",
                          {"bp-soundness"}, bp_sum_stacks_beta_twice()));
    all.push_back(declare("paper-literal-prop17-recurrence", "paper-literal",
                          "Prop. 17 as printed (L612-618): g_ρ^{i+1} = σ'(u_{i+1} + r·g_ρ^i) used "
                          "as the BPTT oracle (spec erratum 4 / P24: it should be u_i); an "
                          "oracle of rnn-recurrence, like the model, not a definition the "
                          "semantics reads, so it changes the property and no entry of the book",
                          {"rnn-recurrence"}, {}));
    // no killer among the random campaigns: their terms never put a linear ES in the stack of an
    // exponential ES's content; enumeration finds it at size 5 (tests/linear_negation/
    // enumeration_test.cpp), so the every-mutant-killed check passes it over (docs/mutants.md)
    all.push_back(declare("paper-literal-subst-9-gc-10-move-linear-stacks", "paper-literal",
                          "(9) and (10) as printed (Table 2a, L334-354): the stack α of the bound "
                          "value they move out may hold a linear ES [w := u], which then takes "
                          "what was outside the content as its body, not linear in w: "
                          "y[y := w[w := 1]] →(9) w[y := w][w := 1], ill-typed against Prop. 2 "
                          "(L407); subject-reduction kills it under enumeration, at size 5",
                          {}, subst_and_gc_move_linear_stacks()));
    // no random killer either: enumeration finds it at size 7 (enumeration_test.cpp)
    all.push_back(declare("paper-literal-pair-8-mul-14-prim-23-move-linear-stacks", "paper-literal",
                          "(8), (14) and (23) as printed (Table 2a, L334-354, L387-390): the "
                          "stack of the pair or of an argument they move out may hold a linear ES, "
                          "whose variable then leaves its linear judgment: "
                          "0[w := 1] · 0[w := 1] →(14) 0[w := 1][w' := 1], ill-typed against "
                          "Prop. 2 (L407); subject-reduction kills it under enumeration, at size 7",
                          {}, pairs_and_primitives_move_linear_stacks()));
    return all;
  }();
  return catalogue;
}

std::vector<props::MutantDef> mutants() {
  return props::mutant_defs(mutant_catalogue());
}

RulesPtr rules_for(const std::string& mutant) {
  const Mutant* m = props::find_mutant(mutant_catalogue(), mutant);
  return m ? m->rules.get() : paper_rules();
}

} // namespace adsem::linear_negation
