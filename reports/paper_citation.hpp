#pragma once
// Citations as a report's reader sees them. Properties cite the papers by the project's working
// copies and implementation specs, "seed 003, Thm 6.1, lines 812-830; spec P-AD-1" (README
// "Citations in output and docs"), neither of which the reader has; a report names the paper
// instead: "Abadi and Plotkin, A Simple Differentiable Programming Language, Thm 6.1, lines
// 812-830".
#include <string>
#include <string_view>

namespace adsem::reports {

// `citation` with each "seed 00N" replaced by the paper's authors and title and each "spec ..."
// clause (up to the next ';') left out; any other text (a citation already written with the
// title) unchanged.
std::string paper_citation(std::string_view citation);

} // namespace adsem::reports
