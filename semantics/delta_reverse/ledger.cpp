#include "semantics/delta_reverse/ledger.hpp"

namespace adsem::delta_reverse {

std::string_view step_name(Step r) {
  static constexpr std::array<std::string_view, step_count> names = {
      "E-Var",         "E-Lam",
      "E-App",         "E-Let",
      "E-Pair",        "E-Fst",
      "E-Snd",         "E-Inl",
      "E-Inr",         "E-Case-Inl",
      "E-Case-Inr",    "E-Real",
      "E-Leaf",        "E-Op",
      "E-Apply-Op",    "E-Comp",
      "E-Delta",       "M-Pure",
      "M-Bind",        "M-DeltaLet",
      "runDelta-wrap", "eval-Zero",
      "eval-Scale",    "eval-Add",
      "eval-Var",      "eval-Let-Nothing",
      "eval-Let-Just", "sweep-Zero",
      "sweep-Scale",   "sweep-Add",
      "sweep-Var",     "sweep-skip",
      "sweep-binding", "eval2-Zero",
      "eval2-OneHot",  "eval2-Scale",
      "eval2-Add",     "oplus-zero",
      "oplus",         "otimes",
      "E-Array-Op",    "E-Apply-Index",
      "E-Apply-Build", "M-Sequence",
      "E-Apply-SumV"};
  return names[static_cast<std::size_t>(r)];
}

std::vector<Step> all_steps() {
  std::vector<Step> out;
  for (std::size_t i = 0; i < step_count; ++i)
    out.push_back(static_cast<Step>(i));
  return out;
}

std::map<std::string, long> Ledger::rule_counts() const {
  std::map<std::string, long> out;
  for (std::size_t i = 0; i < step_count; ++i)
    if (counts[i] > 0) out[std::string(step_name(static_cast<Step>(i)))] = counts[i];
  for (const auto& [name, times] : named)
    out[name] += times;
  return out;
}

} // namespace adsem::delta_reverse
