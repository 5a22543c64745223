// adsem calculi: list calculi, their properties and mutants.
#include <fmt/format.h>

#include "cli/command.hpp"
#include "reports/schema_version.hpp"

namespace adsem::cli {

void add_calculi_command(CLI::App& app, CommandContext& ctx) {
  auto* cmd = app.add_subcommand("calculi", "List calculi, their properties and mutants");
  cmd->add_flag("--json", ctx.json, "Machine-readable output");
  cmd->callback([&ctx] {
    const auto& calculi = ctx.registry.calculi();
    if (ctx.json) {
      nlohmann::json list = nlohmann::json::array();
      for (const auto& c : calculi) {
        // "properties" and "mutants" are names (design.md); the *_details lists carry what the
        // text listing shows.
        nlohmann::json properties = nlohmann::json::array();
        nlohmann::json property_details = nlohmann::json::array();
        nlohmann::json kinds = nlohmann::json::object(); // property → kind (`campaign --kind`)
        for (const auto& p : c.properties) {
          properties.push_back(p.name);
          property_details.push_back({{"name", p.name},
                                      {"kind", p.kind},
                                      {"summary", p.summary},
                                      {"citation", p.citation}});
          kinds[p.name] = p.kind;
        }
        nlohmann::json mutants = nlohmann::json::array();
        nlohmann::json mutant_details = nlohmann::json::array();
        for (const auto& m : c.mutants) {
          mutants.push_back(m.name);
          mutant_details.push_back({{"name", m.name},
                                    {"bug_class", m.bug_class},
                                    {"summary", m.summary},
                                    {"expected_killers", m.expected_killers}});
        }
        // the rule book's listing; names only for a calculus whose rules are not yet a table
        nlohmann::json rules = nlohmann::json::array();
        for (const auto& r : c.rule_table) {
          nlohmann::json rule = {
              {"name", r.name}, {"citation", r.citation}, {"kind", kind_name(r.kind)}};
          if (!r.unfireable.empty()) rule["unfireable"] = r.unfireable;
          rules.push_back(std::move(rule));
        }
        if (c.rule_table.empty())
          for (const auto& name : c.rules)
            rules.push_back({{"name", name}});
        list.push_back({{"id", c.id},
                        {"aliases", c.aliases},
                        {"paper", c.paper},
                        {"summary", c.summary},
                        {"has_terms", c.frontend != nullptr},
                        {"properties", properties},
                        {"property_kinds", kinds},
                        {"property_details", property_details},
                        {"mutants", mutants},
                        {"mutant_details", mutant_details},
                        {"rules", rules}});
      }
      ctx.io.out << reports::dump_json(
                        {{reports::schema_version_key, reports::schema_version}, {"calculi", list}},
                        2)
                 << "\n";
      return;
    }
    for (const auto& c : calculi) {
      std::string aliases;
      for (const auto& a : c.aliases)
        aliases += (aliases.empty() ? " (alias " : ", ") + a;
      if (!aliases.empty()) aliases += ")";
      ctx.io.out << fmt::format("{}{}\n  paper: {}\n", c.id, aliases, c.paper);
      if (!c.summary.empty()) ctx.io.out << fmt::format("  {}\n", c.summary);
      ctx.io.out << fmt::format("  properties ({}):\n", c.properties.size());
      for (const auto& p : c.properties)
        ctx.io.out << fmt::format("    {:<44} [{}] {}\n", p.name, p.kind, p.summary);
      ctx.io.out << fmt::format("  mutants ({}):\n", c.mutants.size());
      for (const auto& m : c.mutants)
        ctx.io.out << fmt::format("    {:<44} [{}] {}\n", m.name, m.bug_class, m.summary);
    }
  });
}

} // namespace adsem::cli
