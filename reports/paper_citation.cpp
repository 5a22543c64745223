#include "reports/paper_citation.hpp"

#include <algorithm>
#include <array>
#include <utility>

namespace adsem::reports {
namespace {

// The working copies (README "Citations in output and docs").
constexpr std::array<std::pair<std::string_view, std::string_view>, 5> papers = {{
    {"seed 000", "Mak and Ong, A Differential-form Pullback Programming Language for Higher-order "
                 "Reverse-mode Automatic Differentiation"},
    {"seed 001", "Krawiec et al., Provably Correct, Asymptotically Efficient, Higher-Order "
                 "Reverse-Mode Automatic Differentiation"},
    {"seed 002", "Brunel, Mazza and Pagani, Backpropagation in the Simply Typed Lambda-calculus "
                 "with Linear Negation"},
    {"seed 003", "Abadi and Plotkin, A Simple Differentiable Programming Language"},
    {"seed 004", "Manzyuk, A Simply Typed λ-Calculus of Forward Automatic Differentiation"},
}};

// `citation` without its "spec ..." clauses: each runs from "spec " (at the start or after a
// separator) to the next ';', and goes with the separator before it.
std::string without_spec_clauses(std::string_view citation) {
  std::string out;
  for (std::size_t at = 0; at < citation.size();) {
    const auto spec = citation.find("spec ", at);
    const bool clause_start =
        spec != std::string_view::npos && (spec == 0 || citation[spec - 1] == ' ');
    if (!clause_start) {
      const std::size_t end = spec == std::string_view::npos ? citation.size() : spec + 1;
      out += citation.substr(at, end - at);
      at = end;
      continue;
    }
    out += citation.substr(at, spec - at);
    while (!out.empty() && (out.back() == ' ' || out.back() == ',' || out.back() == ';'))
      out.pop_back();
    const auto semicolon = citation.find(';', spec);
    at = semicolon == std::string_view::npos ? citation.size() : semicolon;
  }
  // A clause left out at the start leaves its ';' behind.
  const auto first = out.find_first_not_of("; ");
  return first == std::string::npos ? std::string() : out.substr(first);
}

} // namespace

std::string paper_citation(std::string_view text) {
  const std::string kept = without_spec_clauses(text);
  std::string_view citation = kept;
  std::string out;
  while (!citation.empty()) {
    const auto seed = citation.find("seed 00");
    if (seed == std::string_view::npos) break;
    out += citation.substr(0, seed);
    citation.remove_prefix(seed);
    const auto paper = std::find_if(papers.begin(), papers.end(), [&](const auto& p) {
      return citation.starts_with(p.first) &&
             (citation.size() == p.first.size() || citation[p.first.size()] != '_');
    });
    const std::size_t taken = paper == papers.end() ? 1 : paper->first.size();
    out += paper == papers.end() ? citation.substr(0, 1) : paper->second;
    citation.remove_prefix(taken);
  }
  return out += citation;
}

} // namespace adsem::reports
