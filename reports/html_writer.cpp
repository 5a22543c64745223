#include "reports/html_writer.hpp"

#include <algorithm>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "reports/report_text.hpp"
#include "reports/svg_chart.hpp"
#include "reports/text_escape.hpp"

namespace adsem::reports {
namespace {

constexpr std::string_view style = R"(
body { font-family: system-ui, sans-serif; margin: 1.5em 2em; color: #1b1b1b; }
table { border-collapse: collapse; margin: 0.5em 0 1.5em; }
th, td { border: 1px solid #ccc; padding: 0.25em 0.6em; text-align: left; vertical-align: middle; }
td.n { text-align: right; font-variant-numeric: tabular-nums; }
pre { background: #f5f5f5; padding: 0.6em; overflow-x: auto; white-space: pre-wrap;
  overflow-wrap: anywhere; }
.verdict { font-size: 1.2em; font-weight: bold; padding: 0.4em 0.6em; }
.passed { color: #17612a; } .failed { color: #a11; } .warning { color: #8a5a00; }
p.verdict.passed { background: #e6f4ea; } p.verdict.failed { background: #fbe9e9; }
section.banner p.context { margin: 0.3em 0.6em; color: #444; }
section.counterexample { border-left: 4px solid #a11; padding-left: 1em; margin-bottom: 2em; }
section.counterexample.error { border-left-color: #c55a00; }
h3 .count { font-weight: normal; font-size: 0.85em; color: #444; }
tr.failed td { background: #fbe9e9; } tr.error td { background: #fde7d2; }
tr.warning td { background: #fdf3dc; }
tr.failed td:first-child, tr.error td:first-child { border-left: 4px solid #a11; }
td.status a { color: inherit; }
ul.warning li { margin: 0.2em 0; }
dl { display: grid; grid-template-columns: max-content auto; gap: 0.2em 1em; }
dt { font-weight: bold; } dd { margin: 0; overflow-wrap: anywhere; }
svg rect { fill: #4a78b5; } svg text { font-size: 8px; fill: #555; }
svg.chart text { font-size: 11px; fill: #333; }
td.never { color: #a11; font-weight: bold; }
)";

std::string status_class(const std::string& status) {
  if (status == "passed") return "passed";
  if (status == "failed" || status == "untested" || status == "no-trials") return "failed";
  return "warning";
}

// A section of the page; the ids give every part an address (#failures, #properties, ...).
std::string section(std::string_view id, std::string_view body) {
  return body.empty() ? "" : fmt::format("<section id=\"{}\">\n{}</section>\n", id, body);
}

// The verdict with what needs attention counted (failures, errors, untested properties, health
// warnings), and the campaign's context on one line. The text markers (✗, ✓) survive printing
// in grey.
std::string banner_section(const CampaignResult& r) {
  const bool passed = r.all_passed();
  std::string context = fmt::format("seed {}", html_code(std::to_string(r.seed)));
  if (!r.shard.empty()) context += " · shard " + html_code(r.shard);
  if (!r.mutant.empty()) context += " · mutant " + html_code(r.mutant);
  if (r.rules) context += " · rules " + html_code(r.rules->file);
  if (r.trials_per_property)
    context += " · " + format_count(*r.trials_per_property) + " trials per property";
  context += fmt::format(" · {} s", format_seconds(r.elapsed_seconds));
  return fmt::format("<section class=\"banner\" id=\"verdict\">\n<p class=\"verdict {}\">{} "
                     "{}: {}{}.</p>\n<p class=\"context\">{}</p>\n</section>\n",
                     passed ? "passed" : "failed", passed ? "\u2713" : "\u2717",
                     passed ? "PASSED" : "FAILED", html_escape(verdict_counts_text(r)),
                     r.complete ? "" : "; the campaign did not complete", context);
}

std::string metadata_section(const CampaignResult& r) {
  std::string rows;
  const auto row = [&](std::string_view key, const std::string& value_html) {
    rows += fmt::format("<tr><th>{}</th><td>{}</td></tr>\n", key, value_html);
  };
  row("Seed", html_code(std::to_string(r.seed)));
  if (r.trials_per_property) row("Trials per property", std::to_string(*r.trials_per_property));
  if (r.time_budget_seconds) row("Time budget", fmt::format("{} s", *r.time_budget_seconds));
  if (!r.shard.empty()) row("Shard", html_code(r.shard));
  row("Mutant", r.mutant.empty() ? "none" : html_code(r.mutant));
  if (r.rules) row("Rules", html_code(rules_text(*r.rules)));
  row("Complete", r.complete ? "yes" : "<strong class=\"failed\">no</strong> (interrupted)");
  if (!r.started_at.empty()) row("Started", html_escape(r.started_at));
  row("Elapsed", fmt::format("{} s", format_seconds(r.elapsed_seconds)));
  if (!r.adsem_version.empty()) row("adsem version", html_escape(r.adsem_version));
  return section("campaign", "<h2>Campaign</h2>\n<table>\n" + rows + "</table>\n");
}

// Index of the first counterexample of a property (1-based, for the #cx-N anchor), 0 if none.
std::size_t first_counterexample(const CampaignResult& r, const std::string& property) {
  for (std::size_t i = 0; i < r.counterexamples.size(); ++i)
    if (r.counterexamples[i].property == property) return i + 1;
  return 0;
}

// How a property's row stands out (a background colour); its status cell has a text marker.
std::string row_class(const PropertySummary& p, const std::string& status) {
  if (status == "failed") return p.errors > 0 ? "error" : "failed";
  return is_passing_status(status) ? "" : "warning";
}

// A failing row links to its property's first counterexample card; a row without a verdict
// (untested, interrupted, ...) to the warnings that say why.
std::string properties_section(const CampaignResult& r) {
  std::string html = "<h2>Properties</h2>\n<table class=\"properties\">\n<thead><tr>"
                     "<th>Property</th><th>Trials</th><th>Passed</th><th>Failed</th>"
                     "<th>Discarded</th><th>Errors</th><th>Seconds</th><th>Status</th>"
                     "<th>Term sizes</th></tr></thead>\n<tbody>\n";
  for (const PropertySummary& p : r.properties) {
    const std::string status = shown_status(p);
    const std::string mark = row_class(p, status), shown = marked_status(p);
    const std::size_t cx = first_counterexample(r, p.name);
    const std::string target = cx > 0 ? fmt::format("#cx-{}", cx)
                               : mark == "warning" && !p.warnings.empty() ? "#warnings"
                                                                          : "";
    const std::string status_html =
        target.empty() ? html_escape(shown)
                       : fmt::format("<a href=\"{}\">{}</a>", target, html_escape(shown));
    html +=
        fmt::format("<tr{}><td>{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td>"
                    "<td class=\"n\">{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td>"
                    "<td class=\"n\">{}</td><td class=\"status {}\">{}</td><td>{}</td></tr>\n",
                    mark.empty() ? "" : " class=\"" + mark + "\"", html_code(p.name),
                    format_count(p.trials), format_count(p.passed), format_count(p.failed),
                    format_count(p.discarded), format_count(p.errors), format_seconds(p.seconds),
                    status_class(status), status_html, size_histogram_svg(p.size_histogram));
  }
  return section("properties", html + "</tbody>\n</table>\n");
}

std::string discards_section(const CampaignResult& r) {
  std::string rows;
  for (const PropertySummary& p : r.properties)
    for (const auto& [reason, count] : p.discard_reasons)
      rows += fmt::format("<tr><td>{}</td><td>{}</td><td class=\"n\">{}</td></tr>\n",
                          html_code(p.name), html_escape(reason), format_count(count));
  if (rows.empty()) return "";
  return section("discards",
                 "<h2>Discarded trials</h2>\n<p>Points outside a primitive's domain, on a branch "
                 "boundary or otherwise unfit are discarded and counted, never reported as "
                 "bugs.</p>\n<table>\n<thead><tr><th>Property</th><th>Reason</th><th>Count</th>"
                 "</tr></thead>\n<tbody>\n" +
                     rows + "</tbody>\n</table>\n");
}

std::string charts_section(const CampaignResult& r) {
  std::vector<Bar> rates, first_failure, reasons;
  std::map<std::string, int> discard_totals;
  for (const PropertySummary& p : r.properties) {
    if (p.seconds > 0 && p.trials > 0) rates.push_back({p.name, p.trials / p.seconds});
    if (p.seconds_to_first_failure) first_failure.push_back({p.name, *p.seconds_to_first_failure});
    for (const auto& [reason, count] : p.discard_reasons)
      discard_totals[reason] += count;
  }
  for (const auto& [reason, count] : discard_totals)
    reasons.push_back({reason, static_cast<double>(count)});
  std::string html;
  const auto chart = [&](const std::string& heading, const std::string& svg) {
    if (!svg.empty())
      html += "<h3>" + html_escape(heading) + "</h3>\n<figure>" + svg + "</figure>\n";
  };
  chart("Trials per second", bar_chart_svg("trials per second, by property", rates, "trials/s"));
  chart("Discard reasons",
        bar_chart_svg("discarded trials, by reason (all properties)", reasons, "trials"));
  chart("Time to first counterexample",
        bar_chart_svg("seconds to the first counterexample, by property", first_failure, "s"));
  return html.empty() ? "" : section("charts", "<h2>Charts</h2>\n" + html);
}

std::string rule_coverage_section(const CampaignResult& r) {
  if (r.rule_coverage.empty()) return "";
  std::string html = "<h2>Rule coverage</h2>\n<p>How often each reduction rule fired during the "
                     "campaign. A rule that never fired was never tested.</p>\n";
  for (const auto& [calculus, rules] : r.rule_coverage) {
    html += fmt::format("<h3>{}</h3>\n<table>\n<thead><tr><th>Rule</th><th>Fired</th></tr>"
                        "</thead>\n<tbody>\n",
                        html_escape(calculus));
    for (const auto& [rule, times] : rules) {
      const std::string note = rule_coverage_note(r, calculus, rule);
      const std::string name =
          note.empty() ? html_code(rule) : html_code(rule) + " (" + html_escape(note) + ")";
      html += times == 0
                  ? fmt::format("<tr><td>{}</td><td class=\"n never\">never</td></tr>\n", name)
                  : fmt::format("<tr><td>{}</td><td class=\"n\">{}</td></tr>\n", name,
                                format_count(times));
    }
    html += "</tbody>\n</table>\n";
  }
  return section("rule-coverage", html);
}

std::string corpus_section(const CampaignResult& r) {
  if (r.corpus.empty()) return "";
  std::string html = "<h2>Failure corpus</h2>\n<p>Counterexamples saved by earlier campaigns, "
                     "replayed before the random trials.</p>\n<table>\n<thead><tr><th>Entry</th>"
                     "<th>Property</th><th>Status</th><th>Note</th></tr></thead>\n<tbody>\n";
  for (const CorpusOutcome& c : r.corpus)
    html += fmt::format("<tr><td>{}</td><td>{}</td><td class=\"{}\">{}</td><td>{}</td></tr>\n",
                        html_code(c.file), html_code(c.property),
                        c.status == "fixed" ? "passed" : "failed", html_escape(c.status),
                        html_escape(c.message));
  return section("corpus", html + "</tbody>\n</table>\n");
}

std::string tolerance_section(const CampaignResult& r) {
  std::string html = fmt::format("<h2>Tolerance policy</h2>\n<p>Two reals agree when {}.</p>\n",
                                 html_code(tolerance_policy_text));
  if (r.tolerances.empty()) return section("tolerances", html);
  html += "<table>\n<thead><tr><th>Check kind</th><th>rtol</th><th>atol</th></tr></thead>\n"
          "<tbody>\n";
  for (const auto& [kind, tolerance] : r.tolerances)
    html += fmt::format("<tr><td>{}</td><td class=\"n\">{:g}</td><td class=\"n\">{:g}</td></tr>\n",
                        html_escape(kind), tolerance.rtol, tolerance.atol);
  return section("tolerances", html + "</tbody>\n</table>\n");
}

// One card: the first counterexample found with this shrunk term; `repeats` are the others
// (positions in r.counterexamples).
std::string counterexample_card(const CampaignResult& r, const CounterexampleGroup& group) {
  const CounterexampleRecord& c = r.counterexamples[group.index];
  const std::size_t index = group.index + 1;
  std::string html = fmt::format("<section class=\"counterexample{}\" id=\"cx-{}\">\n"
                                 "<h4>{}. {}</h4>\n<p>{}</p>\n<h5>Term</h5>\n<pre>{}</pre>\n<dl>\n",
                                 c.outcome == "fail" || c.outcome.empty() ? "" : " error", index,
                                 index, html_code(c.property),
                                 html_escape(counterexample_headline(c)), html_escape(c.term));
  const auto item = [&](const std::string& key_html, const std::string& value_html) {
    html += fmt::format("<dt>{}</dt><dd>{}</dd>\n", key_html, value_html);
  };
  if (!c.type.empty()) item("Type", html_code(c.type));
  if (c.expected)
    item(fmt::format("Expected ({})", html_escape(c.expected->label)),
         html_code(c.expected->value));
  if (c.actual)
    item(fmt::format("Actual ({})", html_escape(c.actual->label)), html_code(c.actual->value));
  if (const std::string d = discrepancy_text(c); !d.empty()) item("Discrepancy", html_escape(d));
  if (!c.mutant.empty()) item("Mutant", html_code(c.mutant));
  if (!c.rules_hash.empty()) item("Rules", html_code(rules_text(c)));
  item("Seed", fmt::format("{} (after {} passing trials)", c.seed, format_count(c.trials_before)));
  if (!group.repeats.empty()) item("Found again", html_escape(repeats_text(r, group)));
  html += "</dl>\n";
  if (!c.trace.empty()) {
    std::string trace;
    for (const std::string& line : shown_trace(c.trace))
      trace += line + "\n";
    html += "<details open><summary>Trace (excerpt)</summary>\n<pre>" + html_escape(trace) +
            "</pre>\n</details>\n";
  }
  if (!c.replay_command.empty())
    html += "<h5>Replay</h5>\n<pre class=\"replay\">" + html_escape(c.replay_command) + "</pre>\n";
  return html + "</section>\n";
}

std::string warnings_section(const CampaignResult& r) {
  std::string items;
  for (const std::string& f : user_rule_failures(r))
    items += "<li class=\"failed\"><strong>health failure</strong>: " + html_escape(f) + "</li>\n";
  for (const std::string& w : r.warnings)
    items += "<li>" + html_escape(w) + "</li>\n";
  for (const PropertySummary& p : r.properties)
    for (const std::string& w : p.warnings)
      items += fmt::format("<li>{}: {}</li>\n", html_code(p.name), html_escape(w));
  return items.empty() ? ""
                       : section("warnings",
                                 "<h2>Warnings</h2>\n<ul class=\"warning\">\n" + items + "</ul>\n");
}

// Every counterexample, by property, each distinct shrunk term once.
std::string failures_section(const CampaignResult& r) {
  std::string html;
  for (const PropertyFailures& f : failures_by_property(r)) {
    html += fmt::format("<h3>\u2717 {} <span class=\"count\">{}</span></h3>\n",
                        html_code(f.property), html_escape(failures_count_text(f)));
    for (const CounterexampleGroup& group : f.distinct)
      html += counterexample_card(r, group);
  }
  return html.empty() ? "" : section("failures", "<h2>Failures</h2>\n" + html);
}

} // namespace

std::string size_histogram_svg(const std::map<int, int>& histogram) {
  if (histogram.empty()) return "";
  constexpr int width = 160, bars_height = 28, label_height = 10, max_bins = 40;
  const int low = histogram.begin()->first, high = histogram.rbegin()->first;
  const int span = high - low + 1;
  const int bin_width = (span + max_bins - 1) / max_bins; // sizes per bin
  const int bins = (span + bin_width - 1) / bin_width;
  std::vector<int> counts(bins, 0);
  for (const auto& [size, count] : histogram)
    counts[(size - low) / bin_width] += count;
  const int tallest = std::max(1, *std::max_element(counts.begin(), counts.end()));
  const double bar_width = static_cast<double>(width) / bins;

  std::string svg =
      fmt::format("<svg width=\"{}\" height=\"{}\" viewBox=\"0 0 {} {}\" role=\"img\">"
                  "<title>term sizes {} to {}</title>",
                  width, bars_height + label_height, width, bars_height + label_height, low, high);
  for (int i = 0; i < bins; ++i) {
    if (counts[i] == 0) continue;
    const double h = std::max(1.0, static_cast<double>(bars_height) * counts[i] / tallest);
    const int first = low + i * bin_width, last = std::min(high, first + bin_width - 1);
    const std::string sizes =
        first == last ? fmt::format("size {}", first) : fmt::format("sizes {}-{}", first, last);
    svg += fmt::format("<rect x=\"{:.2f}\" y=\"{:.2f}\" width=\"{:.2f}\" height=\"{:.2f}\">"
                       "<title>{}: {} trials</title></rect>",
                       i * bar_width, bars_height - h, std::max(0.5, bar_width - 1.0), h, sizes,
                       counts[i]);
  }
  svg +=
      fmt::format("<text x=\"0\" y=\"{}\">{}</text><text x=\"{}\" y=\"{}\" "
                  "text-anchor=\"end\">{}</text></svg>",
                  bars_height + label_height - 1, low, width, bars_height + label_height - 1, high);
  return svg;
}

std::string_view report_css() {
  return style;
}

std::string render_html(const CampaignResult& result) {
  std::string html =
      fmt::format("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
                  "<title>adsem campaign report</title>\n<style>{}</style>\n"
                  "</head>\n<body>\n<h1>adsem campaign report</h1>\n",
                  style);
  // What needs attention first: the verdict, the warnings, the failures; then the table whose
  // failing rows link to their cards, and the rest.
  html += banner_section(result) + warnings_section(result) + failures_section(result) +
          properties_section(result) + metadata_section(result) + charts_section(result) +
          discards_section(result) + corpus_section(result) + rule_coverage_section(result) +
          tolerance_section(result);
  return html + "</body>\n</html>\n";
}

} // namespace adsem::reports
