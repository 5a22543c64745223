#pragma once
// pullback's rule book: every production of the evaluation contexts (contexts.hpp) and every
// reduction rule of seed 000 (§3.4 L353-379, Fig. 3 L236-248; spec §4) and the extensions of spec
// §4.6 [X], one entry each under the name traces print (the
// paper's rule numbers, sub-cases as in spec §4.4; 5+, N1-N3, Z1-Z7, Sigma1-3, let, A*), with
// its citation, kind, node kinds, side condition and result (rules.cpp).
#include <string>
#include <vector>

#include "semantics/pullback/relations.hpp"

namespace adsem::pullback {

// The paper's rules, built once.
const BookPtr& paper_rules();
// A new book: the paper's with the patch applied.
BookPtr patch_paper_rules(const BookPatch& patch);

// The names of the rules a step can be, in the book's order (coverage, docs, `adsem reduce
// --trace`): the contexts, which no step is, left out.
std::vector<std::string> rule_names();
// Rules that fire only inside premises or rarely on generated terms (documented in the docs;
// coverage tests hit them with the hand-made shapes of spec §8.6).
const std::vector<std::string>& rare_rule_names();

// The rules a machine reduces with: a book (the paper's, or a mutant's patch of it) and the
// reading of A-normalisation.
struct Rules {
  BookPtr book = paper_rules();
  bool bind_atoms = false; // literal ANF (App. A.2) instead of compact (ID-9)
};

} // namespace adsem::pullback
