#pragma once
// Divide: administrative reduction (seed 000 §3.2 L205-219, App. B L745-783; spec §4.2).
// ANF(P) is the A-normal form as one macro-step (A*), compact by default (atoms are not let-bound,
// Example 3.3, ID-9) or literal (atoms let-bound too, App. A.2 / Fig. 5).
// is_final(P, y) decides whether a pullback body is already final (ID-10: a let series, an
// elementary term, or a split body ⟨y,E⟩, every inner λ / dual-map / pullback body A-normal).
#include <string>

#include "syntax/pullback/ast.hpp"

namespace adsem::pullback {

struct AnfOptions {
  bool bind_atoms = false; // the literal variant of App. A.2
};

Term anf(const Term& p, const AnfOptions& options = {});

bool is_let_series(const Term& t);
bool is_elementary(const Term& t);
bool is_split_body(const Term& t, const std::string& y);
bool is_final(const Term& body, const std::string& y);
// Number of let bindings in a let series (the number of stages after the split).
std::size_t let_length(const Term& l);

} // namespace adsem::pullback
