#pragma once
// pullback's mutants: each a named patch of the rule book (semantics/pullback/rules.cpp),
// declared with its bug class, description and killers (mutants.cpp). The semantics never sees
// a mutant's name: a campaign under a mutant runs the mutant's patched book.
#include <string>
#include <vector>

#include "properties/core/mutant_catalogue.hpp"
#include "properties/core/property.hpp"
#include "semantics/pullback/rules.hpp"

namespace adsem::pullback {

struct Mutant {
  props::MutantDef def;           // "pullback/<name>", bug class, summary, killers
  BookPatch patch;                // the edits of the paper's book
  props::BuiltOnce<BookPtr> book; // the patched book, built when first asked for
};

// Every mutant, in listing order.
const std::vector<Mutant>& mutant_catalogue();
// Their registry entries.
std::vector<props::MutantDef> mutants();
// The book of a mutant given by its full or short name; the paper's for "" or a name that is
// not one of pullback's mutants (a campaign of another calculus).
const BookPtr& mutant_book(const std::string& mutant);

} // namespace adsem::pullback
