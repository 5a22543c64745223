#include "reports/markdown_writer.hpp"

#include <algorithm>
#include <string_view>

#include <fmt/format.h>

#include "reports/report_text.hpp"
#include "reports/text_escape.hpp"

namespace adsem::reports {
namespace {

// Text in running prose or a table cell: one line, Markdown and HTML syntax characters
// backslash-escaped (CommonMark allows that for any ASCII punctuation).
std::string inline_text(std::string_view raw) {
  std::string out;
  for (const char c : visible_text(raw)) {
    if (c == '\n')
      out += ' ';
    else if (std::string_view("\\`*_[]<>&|#~!").find(c) != std::string_view::npos)
      (out += '\\') += c;
    else
      out += c;
  }
  return out;
}

std::size_t longest_run(std::string_view text, char c) {
  std::size_t longest = 0, run = 0;
  for (const char x : text) {
    run = x == c ? run + 1 : 0;
    longest = std::max(longest, run);
  }
  return longest;
}

// A code span that survives backticks inside; in a table cell, pipes are escaped too (GFM splits
// cells before it finds code spans).
std::string code_span(std::string_view raw, bool in_table = false) {
  std::string text = visible_text(raw);
  std::replace(text.begin(), text.end(), '\n', ' ');
  std::string escaped;
  for (const char c : text)
    escaped += c == '|' && in_table ? std::string("\\|") : std::string(1, c);
  const std::string ticks(longest_run(text, '`') + 1, '`');
  const bool pad = !text.empty() && (text.front() == '`' || text.back() == '`');
  return ticks + (pad ? " " : "") + escaped + (pad ? " " : "") + ticks;
}

// A fenced block whose fence is longer than any backtick run in the content.
std::string code_block(std::string_view raw, std::string_view language = "") {
  const std::string text = visible_text(raw);
  const std::string fence(std::max<std::size_t>(3, longest_run(text, '`') + 1), '`');
  return fmt::format("{}{}\n{}{}{}\n", fence, language, text,
                     text.empty() || text.back() == '\n' ? "" : "\n", fence);
}

// A property's status; one that fails is bold, with its text marker (✗ failed, ! untested, ...).
std::string status_cell(const PropertySummary& p) {
  const std::string shown = inline_text(marked_status(p));
  return is_passing_status(shown_status(p)) ? shown : "**" + shown + "**";
}

std::string markdown_metadata_section(const CampaignResult& r) {
  std::string md = "| Campaign | |\n|---|---|\n";
  const auto row = [&](std::string_view key, const std::string& value) {
    md += fmt::format("| {} | {} |\n", key, value);
  };
  row("Seed", code_span(std::to_string(r.seed), true));
  if (r.trials_per_property) row("Trials per property", std::to_string(*r.trials_per_property));
  if (r.time_budget_seconds) row("Time budget", fmt::format("{} s", *r.time_budget_seconds));
  if (!r.shard.empty()) row("Shard", code_span(r.shard, true));
  row("Mutant", r.mutant.empty() ? "none" : code_span(r.mutant, true));
  if (r.rules) row("Rules", code_span(rules_text(*r.rules), true));
  row("Complete", r.complete ? "yes" : "**no** (interrupted)");
  if (!r.started_at.empty()) row("Started", inline_text(r.started_at));
  row("Elapsed", fmt::format("{} s", format_seconds(r.elapsed_seconds)));
  if (!r.adsem_version.empty()) row("adsem version", inline_text(r.adsem_version));
  return md + "\n";
}

std::string markdown_properties_section(const CampaignResult& r) {
  std::string md =
      "## Properties\n\n"
      "| Property | Trials | Passed | Failed | Discarded | Errors | Seconds | Status |\n"
      "|---|--:|--:|--:|--:|--:|--:|---|\n";
  for (const PropertySummary& p : r.properties)
    md += fmt::format("| {} | {} | {} | {} | {} | {} | {} | {} |\n", code_span(p.name, true),
                      p.trials, p.passed, p.failed, p.discarded, p.errors,
                      format_seconds(p.seconds), status_cell(p));
  if (r.properties.empty()) md += "| (no properties ran) | | | | | | | |\n";
  return md + "\n";
}

std::string markdown_discards_section(const CampaignResult& r) {
  std::string md;
  for (const PropertySummary& p : r.properties)
    for (const auto& [reason, count] : p.discard_reasons)
      md += fmt::format("| {} | {} | {} |\n", code_span(p.name, true), inline_text(reason), count);
  if (md.empty()) return "";
  return "## Discarded trials\n\n"
         "Points outside a primitive's domain, on a branch boundary or otherwise unfit are "
         "discarded and counted, never reported as bugs.\n\n"
         "| Property | Reason | Count |\n|---|---|--:|\n" +
         md + "\n";
}

std::string markdown_rule_coverage_section(const CampaignResult& r) {
  std::string md;
  for (const auto& [calculus, rules] : r.rule_coverage) {
    md += fmt::format("### {}\n\n| Rule | Fired |\n|---|--:|\n", inline_text(calculus));
    for (const auto& [rule, times] : rules) {
      const std::string note = rule_coverage_note(r, calculus, rule);
      md += fmt::format("| {}{} | {} |\n", code_span(rule),
                        note.empty() ? "" : " (" + inline_text(note) + ")",
                        times == 0 ? std::string("**never**") : std::to_string(times));
    }
    md += "\n";
  }
  return md.empty() ? "" : "## Rule coverage\n\nA rule that never fired was never tested.\n\n" + md;
}

std::string markdown_corpus_section(const CampaignResult& r) {
  std::string md;
  for (const CorpusOutcome& c : r.corpus)
    md += fmt::format("| {} | {} | {} | {} |\n", code_span(c.file), code_span(c.property),
                      c.status == "fixed" ? c.status : "**" + c.status + "**",
                      inline_text(c.message));
  return md.empty()
             ? ""
             : "## Failure corpus\n\n| Entry | Property | Status | Note |\n|---|---|---|---|\n" +
                   md + "\n";
}

std::string markdown_tolerance_section(const CampaignResult& r) {
  std::string md = fmt::format("## Tolerance policy\n\nTwo reals agree when {}.\n\n",
                               code_span(tolerance_policy_text));
  if (r.tolerances.empty()) return md;
  md += "| Check kind | rtol | atol |\n|---|--:|--:|\n";
  for (const auto& [kind, tolerance] : r.tolerances)
    md += fmt::format("| {} | {:g} | {:g} |\n", inline_text(kind), tolerance.rtol, tolerance.atol);
  return md + "\n";
}

std::string counterexample_entry(const CampaignResult& r, const CounterexampleGroup& group) {
  const CounterexampleRecord& c = r.counterexamples[group.index];
  std::string md = fmt::format("#### {}. {}\n\n{}\n\n", group.index + 1, code_span(c.property),
                               inline_text(counterexample_headline(c)));
  md += "Term:\n\n" + code_block(c.term) + "\n";
  if (!c.type.empty()) md += fmt::format("- Type: {}\n", code_span(c.type));
  if (c.expected)
    md += fmt::format("- Expected ({}): {}\n", inline_text(c.expected->label),
                      code_span(c.expected->value));
  if (c.actual)
    md += fmt::format("- Actual ({}): {}\n", inline_text(c.actual->label),
                      code_span(c.actual->value));
  if (const std::string d = discrepancy_text(c); !d.empty())
    md += fmt::format("- Discrepancy: {}\n", inline_text(d));
  if (!c.mutant.empty()) md += fmt::format("- Mutant: {}\n", code_span(c.mutant));
  if (!c.rules_hash.empty()) md += fmt::format("- Rules: {}\n", code_span(rules_text(c)));
  md += fmt::format("- Seed {}, after {} passing trials\n", c.seed, c.trials_before);
  if (!group.repeats.empty()) md += "- Found again " + repeats_text(r, group) + "\n";
  md += "\n";
  if (!c.trace.empty()) {
    std::string trace;
    for (const std::string& line : shown_trace(c.trace))
      trace += line + "\n";
    md += "Trace (excerpt):\n\n" + code_block(trace) + "\n";
  }
  if (!c.replay_command.empty()) md += "Replay:\n\n" + code_block(c.replay_command, "sh") + "\n";
  return md;
}

std::string markdown_warnings_section(const CampaignResult& r) {
  std::string md;
  for (const std::string& f : user_rule_failures(r))
    md += "- **health failure**: " + inline_text(f) + "\n";
  for (const std::string& w : r.warnings)
    md += "- " + inline_text(w) + "\n";
  for (const PropertySummary& p : r.properties)
    for (const std::string& w : p.warnings)
      md += fmt::format("- {}: {}\n", code_span(p.name), inline_text(w));
  return md.empty() ? "" : "## Warnings\n\n" + md + "\n";
}

std::string verdict_line(const CampaignResult& r) {
  return fmt::format("{} **{}**: {}{}.\n\n", r.all_passed() ? "\u2713" : "\u2717",
                     r.all_passed() ? "PASSED" : "FAILED", verdict_counts_text(r),
                     r.complete ? "" : "; the campaign did not complete");
}

// Every counterexample, by property, each distinct shrunk term once.
std::string markdown_failures_section(const CampaignResult& r) {
  std::string md;
  for (const PropertyFailures& f : failures_by_property(r)) {
    md += fmt::format("### \u2717 {} ({})\n\n", code_span(f.property), failures_count_text(f));
    for (const CounterexampleGroup& group : f.distinct)
      md += counterexample_entry(r, group);
  }
  return md.empty() ? "" : "## Failures\n\n" + md;
}

} // namespace

std::string render_markdown(const CampaignResult& result) {
  // What needs attention first, as in report.html.
  return "# adsem campaign report\n\n" + verdict_line(result) + markdown_warnings_section(result) +
         markdown_failures_section(result) + markdown_properties_section(result) +
         markdown_metadata_section(result) + markdown_discards_section(result) +
         markdown_corpus_section(result) + markdown_rule_coverage_section(result) +
         markdown_tolerance_section(result);
}

std::string markdown_inline_text(std::string_view raw) {
  return inline_text(raw);
}

std::string markdown_code_span(std::string_view raw, bool in_table) {
  return code_span(raw, in_table);
}

} // namespace adsem::reports
