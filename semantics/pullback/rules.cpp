#include "semantics/pullback/rules.hpp"

namespace adsem::pullback {

const std::vector<std::string>& rule_names() {
  static const std::vector<std::string> names = {
      "1",   "2",  "3",   "4",   "5",   "5+",  "6",   "7",  "8",      "9",      "10a",
      "10b", "11", "12",  "13a", "13b", "13c", "14",  "15", "16a",    "16b",    "16c",
      "17",  "18", "19a", "19b", "19c", "20a", "20b", "A*", "let",    "N1",     "N2",
      "N3",  "Z1", "Z2",  "Z3",  "Z4",  "Z5",  "Z6",  "Z7", "Sigma1", "Sigma2", "Sigma3"};
  return names;
}

const std::vector<std::string>& rare_rule_names() {
  static const std::vector<std::string> names = {
      "4", "13a", "16b", "16c", "17", "19b", "19c", "N2", "N3", "Sigma1", "Sigma2", "Sigma3", "Z2"};
  return names;
}

} // namespace adsem::pullback
