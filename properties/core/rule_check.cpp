#include "properties/core/rule_check.hpp"

#include <algorithm>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "properties/core/campaign.hpp"
#include "reports/report_text.hpp"

namespace adsem::rules {

namespace {

std::string shell_word(const std::string& s) {
  const bool plain = !s.empty() && std::all_of(s.begin(), s.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) != 0 ||
           std::string_view("-_./=,").find(c) != std::string_view::npos;
  });
  if (plain) return s;
  std::string out = "'";
  for (const char c : s)
    out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

// The checks of one compiled rule as a one-calculus registry for the campaign engine.
props::Registry registry_for(const RuleAdapter& adapter, const std::string& calculus_id,
                             const std::string& rule_name,
                             const std::shared_ptr<const CompiledRule>& compiled,
                             const std::vector<std::string>& only_checks = {}) {
  props::CalculusEntry entry;
  entry.id = calculus_id;
  entry.paper = "user rules";
  for (const RuleCheckDef& check : adapter.checks_for(*compiled)) {
    if (!only_checks.empty() && std::ranges::find(only_checks, check.name) == only_checks.end())
      continue;
    props::PropertyDef def;
    def.calculus = calculus_id;
    def.name = calculus_id + "/" + rule_name + "/" + check.name;
    def.kind = check.kind;
    def.summary = check.summary;
    def.citation = check.citation;
    def.body = [&adapter, compiled, name = check.name](const props::PropertyContext& context) {
      return adapter.trial(*compiled, name, context);
    };
    entry.properties.push_back(std::move(def));
  }
  props::Registry registry;
  registry.add(std::move(entry));
  return registry;
}

// With more than one job the chunks run in worker processes (the result is the same: --trials).
reports::CampaignResult run_checks(const props::Registry& registry, int trials,
                                   const CheckOptions& check) {
  props::CampaignOptions options;
  options.trials = trials;
  options.seed = check.seed;
  options.jobs = check.jobs;
  options.isolate = check.jobs > 1;
  options.max_resident_bytes = check.max_resident_bytes;
  return props::run_campaign(registry, options);
}

std::string check_of(const std::string& property) {
  return property.substr(property.rfind('/') + 1);
}

MutantReport check_mutant(const RuleAdapter& adapter, const std::string& calculus_id,
                          const RuleMutant& mutant, const CheckOptions& options) {
  MutantReport report;
  report.name = mutant.name;
  report.description = mutant.description;
  report.rule = print_rule(mutant.rule);
  std::shared_ptr<const CompiledRule> compiled;
  try {
    compiled = adapter.compile(mutant.rule);
  } catch (const AdsemError& e) {
    report.status = "rejected";
    report.rejected = e.diagnostic().message;
    return report;
  }
  const auto registry = registry_for(adapter, calculus_id, mutant.name, compiled);
  const auto result = run_checks(registry, options.mutant_trials, options);
  for (const auto& summary : result.properties)
    if (summary.failed + summary.errors > 0) {
      report.killed_by.push_back(check_of(summary.name));
      const int trials = summary.trials;
      if (!report.trials_to_kill || trials < *report.trials_to_kill) report.trials_to_kill = trials;
    }
  report.status = report.killed_by.empty() ? "survived" : "killed";
  return report;
}

} // namespace

std::vector<RuleMutant> rule_mutants(const RuleAdapter& adapter, const RuleDecl& rule,
                                     const CompiledRule& compiled, int max_zero_mutants) {
  std::vector<RuleMutant> out;
  // 1. drop one side condition
  for (std::size_t i = 0; i < rule.conditions.size(); ++i) {
    RuleMutant m{fmt::format("{}~drop-when-{}", rule.name, i + 1),
                 fmt::format("drop the side condition '{}'", rule.conditions[i].text), rule};
    m.rule.conditions.erase(m.rule.conditions.begin() + static_cast<long>(i));
    m.rule.name = m.name;
    out.push_back(std::move(m));
  }
  // 2. swap two metavariables of one type on the right (only those that occur there)
  const auto metas = adapter.metavariables(compiled);
  const auto on_right = identifiers(rule.rhs.text);
  const auto occurs = [&](const std::string& name) {
    return std::ranges::find(on_right, name) != on_right.end();
  };
  for (std::size_t i = 0; i < metas.size(); ++i)
    for (std::size_t j = i + 1; j < metas.size(); ++j) {
      if (metas[i].second != metas[j].second) continue;
      if (!occurs(metas[i].first) && !occurs(metas[j].first)) continue;
      RuleMutant m{fmt::format("{}~swap-{}-{}", rule.name, metas[i].first, metas[j].first),
                   fmt::format("swap {} and {} on the right", metas[i].first, metas[j].first),
                   rule};
      m.rule.rhs.text = swap_identifiers(rule.rhs.text, metas[i].first, metas[j].first);
      m.rule.name = m.name;
      out.push_back(std::move(m));
    }
  // 3. replace a subterm of the right-hand side by zero
  int k = 0;
  for (const ZeroVariant& z : adapter.zero_variants(compiled)) {
    if (k >= max_zero_mutants) break;
    ++k;
    const std::string where = z.where.size() <= 24 ? z.where : z.where.substr(0, 21) + "...";
    RuleMutant m{fmt::format("{}~zero-{}", rule.name, k),
                 fmt::format("replace '{}' on the right by {}", where, z.zero), rule};
    m.rule.rhs.text = z.rhs;
    m.rule.name = m.name;
    out.push_back(std::move(m));
  }
  return out;
}

std::vector<RuleReport> check_rules(const RuleAdapter& adapter, const std::string& calculus_id,
                                    const RuleFile& file, const CheckOptions& options) {
  std::vector<const RuleDecl*> selected;
  for (const RuleDecl& r : file.rules)
    if (options.only.empty() || std::ranges::find(options.only, r.name) != options.only.end())
      selected.push_back(&r);
  for (const std::string& name : options.only)
    if (std::ranges::none_of(file.rules, [&](const RuleDecl& r) { return r.name == name; }))
      throw AdsemError(ErrorKind::usage, fmt::format("the rule file has no rule '{}'", name));

  // compile everything first: a located error stops before any trial runs
  std::vector<std::shared_ptr<const CompiledRule>> compiled;
  for (const RuleDecl* r : selected)
    compiled.push_back(r->action == RuleDecl::Action::remove ? nullptr : adapter.compile(*r));

  std::vector<RuleReport> out;
  for (std::size_t i = 0; i < selected.size(); ++i) {
    const RuleDecl& rule = *selected[i];
    RuleReport report;
    report.name = rule.action == RuleDecl::Action::add       ? rule.name
                  : rule.action == RuleDecl::Action::replace ? "replace " + rule.name
                                                             : "remove " + rule.name;
    report.pos = rule.pos;
    report.rule = print_rule(rule);
    if (rule.action == RuleDecl::Action::remove) {
      report.not_checked = fmt::format(
          "{}: not checked in isolation (a removal has no rewrite); run {} campaign {} --rules {}",
          report.name, options.command,
          shell_word(options.calculus_argument.empty() ? calculus_id : options.calculus_argument),
          shell_word(options.file_argument.empty() ? "FILE" : options.file_argument));
      out.push_back(std::move(report));
      continue;
    }
    const auto registry = registry_for(adapter, calculus_id, rule.name, compiled[i]);
    report.result = run_checks(registry, options.trials, options);
    // user rules are not in the registry `adsem replay` knows: reproduce with check-rule
    for (auto& record : report.result.counterexamples) {
      record.replay_token.clear();
      record.replay_command = fmt::format(
          "{} check-rule {} {} --rule {} --seed {} --trials {}", options.command,
          shell_word(options.calculus_argument.empty() ? calculus_id : options.calculus_argument),
          shell_word(options.file_argument.empty() ? "FILE" : options.file_argument),
          shell_word(rule.name), options.seed, options.trials);
    }
    if (options.mutants)
      for (const RuleMutant& m :
           rule_mutants(adapter, rule, *compiled[i], options.max_zero_mutants))
        report.mutants.push_back(check_mutant(adapter, calculus_id, m, options));
    out.push_back(std::move(report));
  }
  return out;
}

nlohmann::json to_json(const RuleReport& report) {
  nlohmann::json checks = nlohmann::json::array();
  for (const auto& s : report.result.properties)
    checks.push_back({{"name", check_of(s.name)},
                      {"property", s.name},
                      {"kind", s.kind},
                      {"status", reports::shown_status(s)},
                      {"trials", s.trials},
                      {"passed", s.passed},
                      {"failed", s.failed},
                      {"discarded", s.discarded},
                      {"discard_reasons", s.discard_reasons}});
  nlohmann::json counterexamples = nlohmann::json::array();
  for (const auto& c : report.result.counterexamples)
    counterexamples.push_back(reports::to_json(c));
  nlohmann::json mutants = nlohmann::json::array();
  for (const MutantReport& m : report.mutants) {
    nlohmann::json j = {
        {"name", m.name},     {"description", m.description},   {"rule", m.rule},
        {"status", m.status}, {"killed", m.status == "killed"}, {"killed_by", m.killed_by}};
    if (!m.rejected.empty()) j["rejected"] = m.rejected;
    j["trials_to_kill"] = m.trials_to_kill ? nlohmann::json(*m.trials_to_kill) : nullptr;
    mutants.push_back(std::move(j));
  }
  nlohmann::json j = {{"name", report.name}, {"line", report.pos.line},
                      {"rule", report.rule}, {"passed", report.passed()},
                      {"checks", checks},    {"counterexamples", counterexamples},
                      {"mutants", mutants}};
  if (!report.not_checked.empty()) j["not_checked"] = report.not_checked;
  return j;
}

std::string report_text(const std::vector<RuleReport>& reports) {
  std::string out;
  int failed = 0, mutants = 0, killed = 0;
  int not_checked = 0;
  for (const RuleReport& r : reports) {
    if (!r.not_checked.empty()) {
      ++not_checked;
      out += fmt::format("SKIP {} (line {})\n  {}\n\n", r.name, r.pos.line, r.not_checked);
      continue;
    }
    failed += r.passed() ? 0 : 1;
    out += fmt::format("{} {} (line {})\n  {}\n", r.passed() ? "PASS" : "FAIL", r.name, r.pos.line,
                       r.rule);
    for (const auto& s : r.result.properties) {
      const std::string reasons = reports::discard_reasons_text(s);
      out += fmt::format("  {:<7} {:<26} {:>4} trials {:>4} passed {:>4} discarded{}\n",
                         reports::shown_status(s), check_of(s.name), s.trials, s.passed,
                         s.discarded, reasons.empty() ? "" : " (" + reasons + ")");
      for (const auto& w : s.warnings)
        out += fmt::format("          warning: {}\n", w);
    }
    for (const auto& c : r.result.counterexamples) {
      out += "  counterexample (shrunk):\n";
      std::string text = reports::counterexample_text(c);
      std::size_t start = 0;
      while (start < text.size()) {
        const auto nl = text.find('\n', start);
        out += "    " + text.substr(start, nl - start) + "\n";
        if (nl == std::string::npos) break;
        start = nl + 1;
      }
    }
    if (!r.mutants.empty()) {
      out += "  mutants:\n";
      for (const MutantReport& m : r.mutants) {
        ++mutants;
        killed += m.status == "killed" ? 1 : 0;
        std::string by;
        for (const auto& k : m.killed_by)
          by += (by.empty() ? "" : ", ") + k;
        const std::string verdict =
            m.status == "killed"
                ? fmt::format("KILLED by {} ({} trials)", by, m.trials_to_kill.value_or(0))
            : m.status == "rejected" ? "REJECTED: " + m.rejected
                                     : std::string("SURVIVED");
        out += fmt::format("    {:<34} {:<44} {}\n", m.name, m.description, verdict);
      }
    }
    out += "\n";
  }
  const int checked = static_cast<int>(reports.size()) - not_checked;
  out += fmt::format("{} of {} rules passed", checked - failed, checked);
  if (not_checked > 0) out += fmt::format("; {} not checked in isolation", not_checked);
  if (mutants > 0) out += fmt::format("; {} of {} automatic mutants killed", killed, mutants);
  out += "\n";
  return out;
}

} // namespace adsem::rules
