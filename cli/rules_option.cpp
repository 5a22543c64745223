#include "cli/rules_option.hpp"

#include <fmt/format.h>

#include "cli/command.hpp"
#include "syntax/core/diagnostic.hpp"

namespace adsem::cli {

CLI::Option* add_rules_option(CLI::App& cmd, std::string& file) {
  return cmd
      .add_option(
          "--rules", file,
          "Join the rules of FILE to the calculus's semantics (one calculus): 'name: LHS --> RHS' "
          "adds a rule (small-step calculi try it after the paper's rules at each position the "
          "strategy visits; big-step ones before the paper's rule for the construct), 'replace "
          "NAME: ...' replaces a paper rule, 'remove NAME' removes one. A rule that never fires "
          "fails the campaign. See docs/rules.md, \"Rules that join the semantics (--rules)\"")
      ->type_name("FILE");
}

std::shared_ptr<const props::UserRules>
load_rules(const props::Registry& registry, const std::string& calculus, const std::string& file) {
  if (file.empty()) return nullptr;
  const props::CalculusEntry& entry = calculus_named(registry, calculus);
  try {
    return props::load_user_rules(entry, file);
  } catch (const AdsemError& e) {
    Diagnostic d = e.diagnostic();
    d.message = fmt::format("--rules {} ({}): {}", file, entry.id, d.message);
    throw AdsemError(std::move(d));
  }
}

std::shared_ptr<const props::UserRules> load_rules(const props::Registry& registry,
                                                   const std::vector<std::string>& calculi,
                                                   const std::string& file) {
  if (file.empty()) return nullptr;
  if (calculi.size() != 1 || calculi.front() == "all")
    throw AdsemError(ErrorKind::usage,
                     fmt::format("--rules {}: a rule file joins the semantics of one calculus; "
                                 "name exactly one calculus (got {})",
                                 file,
                                 calculi.empty() ? std::string("none, i.e. all")
                                                 : fmt::format("'{}'", fmt::join(calculi, " "))));
  return load_rules(registry, calculi.front(), file);
}

} // namespace adsem::cli
