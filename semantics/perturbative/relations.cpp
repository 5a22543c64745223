#include "semantics/perturbative/relations.hpp"

#include "syntax/perturbative/printer.hpp"

namespace adsem::perturbative {

std::string trace_line(const std::string& rule, std::string detail) {
  constexpr std::size_t limit = 2000;
  if (detail.empty()) return rule;
  if (detail.size() > limit) detail = detail.substr(0, limit) + " ...";
  return rule + ": " + detail;
}

Term Engine::fire(const Rule<Tx>& clause, const Tx::Redex& redex) {
  record(clause.info);
  if (trace_) trace_->push_back(trace_line(clause.info.name, print_simple(redex.node)));
  return clause.result(*this, redex, clause.info);
}

void Engine::add_firings(std::map<std::string, long>& counts) const {
  for (std::size_t i = 0; i < fired_.size(); ++i)
    if (fired_[i] > 0) counts[book_.info(i).name] += fired_[i];
}

void Engine::add_firings(RuleCounter& counter) const {
  for (std::size_t i = 0; i < fired_.size(); ++i)
    if (fired_[i] > 0) counter.add(book_.info(i).name, fired_[i]);
}

} // namespace adsem::perturbative
