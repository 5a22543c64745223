#pragma once
// Capture-avoiding substitution (spec §2.3: recursive through dual maps and pullbacks, L173) and
// fresh names. Binders are renamed only when they would capture a free variable of the
// substituted term (spec §9.9).
#include <initializer_list>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "syntax/pullback/ast.hpp"

namespace adsem::pullback {

// t[s/x]
Term substitute(const Term& t, const std::string& x, const Term& s);
// t[s/x], the same term, made by editing in place every node of t that only its parent holds,
// along a path of such nodes from t (a node a weak memo keys, keyed_mark, is copied instead);
// t itself counts when only the handle passed holds it. The caller promises that the handle's
// holder is reachable only through handles it is about to drop: the old t is never read again.
// [perf] Rule 6 (seed 000 §3.4) composes a chain of dual maps by substituting into the body the
// last firing built; a copy of each node on the path, and freeing the old one, was most of it.
Term substitute_in_place(const Term& t, const std::string& x, const Term& s);
// t[s1/x1][s2/x2], the same term. [perf] One walk when that is the simultaneous substitution and
// neither step would rename a binder (x1 ≠ x2, x2 ∉ FV(s1), no binder of t or s1 named after a
// free variable of s1 or s2): rule 8 (seed 000 Fig. 3 L240) substitutes both of a stage's
// variables into the rest of the series, and the two walks rebuilt the same paths twice.
// Otherwise the two substitutions in turn (their renamings and fresh names exactly).
Term substitute_in_turn(const Term& t, const std::string& x1, const Term& s1, const std::string& x2,
                        const Term& s2);

// Rule 8's stage (seed 000 Fig. 3 L240): nullptr if w is free in rest (w, the candidate stage
// name, must not be), else substitute_in_turn(rest, x1, s1, x2, s2), the same term. [perf] The
// substitution's walk answers the question, and the binder question substitute_in_turn asks
// first, on the way (a result found to be wrong is dropped: a free w or a capture, both rare):
// asked apart, they made the facts of the whole rest, which the last stage's substitution had
// rebuilt and this stage's rebuilds again, so the records were dropped at once.
Term substitute_stage(const Term& rest, const std::string& w, const std::string& x1, const Term& s1,
                      const std::string& x2, const Term& s2);
// The same, editing rest in place as substitute_in_place does (its promise too), and undoing the
// edits where no term or another walk's term is returned (rest is then as before). [perf] Rule 8
// substitutes into the rest the last stage built, which only the redex holds.
Term substitute_stage_in_place(const Term& rest, const std::string& w, const std::string& x1,
                               const Term& s1, const std::string& x2, const Term& s2);
// t[s1/x1]…[sn/xn], the substitutions in turn, the same term. [perf] One walk when that is the
// simultaneous substitution and no step would rename a binder (the names distinct, no xj free in
// an si, no binder of t named after a free variable of an si): tupling the curried λx₁…λxₙ of a
// wide function puts a path of the argument for each xᵢ (seed 000 §3.1.3 L167-173), and n
// substitutions in turn each asked, at every node, about a body with more free names than the
// facts keep (Θ(n³) in all). Otherwise the substitutions in turn.
Term substitute_each(const Term& t, const std::vector<std::pair<std::string, Term>>& by);
// A name based on `base` that is not in `avoid` (and not produced before by this process).
std::string fresh_name(const std::string& base, const std::set<std::string>& avoid = {});
// The same, avoiding the free variables of the given terms (no set is built: the candidates are
// tested one by one, so the names drawn are exactly those of fresh_name with their free vars).
std::string fresh_name_free_in(const std::string& base, std::initializer_list<const Term*> terms);
// The stem of a fresh name based on `base`: base without its trailing digits and underscores
// ("v" if nothing is left).
std::string_view fresh_stem(const std::string& base);
// stem_n, n the next number of one process-wide counter (so no two candidates are equal).
std::string next_fresh_candidate(std::string_view stem);
// The numbers the counter has given out so far, and n more taken without making their names: a
// computation replayed from a memo takes as many as it drew, so that every later name is the one
// it would have been (semantics/pullback/strategy.hpp, premise unfoldings).
long fresh_candidates_drawn();
void skip_fresh_candidates(long n);
// The general form: the first candidate for which taken(name) is false. [perf] A template, not a
// std::function: ANF draws a name per let and rule 8 (seed 000 Fig. 3 L240) one per stage.
template <class Taken> std::string fresh_name_where(const std::string& base, const Taken& taken) {
  const std::string_view stem = fresh_stem(base);
  for (;;) {
    std::string name = next_fresh_candidate(stem);
    if (!taken(name)) return name;
  }
}

} // namespace adsem::pullback
