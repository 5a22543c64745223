#pragma once
// `--rules FILE`: a user's rule file joined to one calculus's semantics (docs/rules.md, "Rules
// that join the semantics"), on campaign, mutants, replay, throughput, eval, reduce and grad.
#include <memory>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "properties/core/calculus.hpp"
#include "properties/core/user_rules.hpp"

namespace adsem::cli {

// Adds `--rules FILE` to `cmd`, the path stored in `file`.
CLI::Option* add_rules_option(CLI::App& cmd, std::string& file);

// The rule file compiled for `calculus` (props::load_user_rules), or null when `file` is empty.
// Its errors (unreadable file, a located parse or type error from the calculus, a calculus that
// cannot join rule files) keep their kind and position and name the file.
std::shared_ptr<const props::UserRules>
load_rules(const props::Registry& registry, const std::string& calculus, const std::string& file);

// The same for a command that selects calculi (campaign, mutants, throughput): a rule file
// joins one calculus's semantics, so `calculi` must name exactly one (not `all`), else a usage
// error says so.
std::shared_ptr<const props::UserRules> load_rules(const props::Registry& registry,
                                                   const std::vector<std::string>& calculi,
                                                   const std::string& file);

} // namespace adsem::cli
