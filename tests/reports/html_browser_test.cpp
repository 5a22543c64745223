// report.html in a real browser: headless Debian chromium renders the sample report
// with no console errors, its DOM holds the summary table and the inline SVG charts, and a
// screenshot is taken. Runs where chromium is installed (`apt-get install chromium`); elsewhere
// the test is reported as SKIPPED, never as passed. ADSEM_CHROMIUM names another binary.
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <gtest/gtest.h>

#include "report_fixtures.hpp"
#include "reports/html_writer.hpp"
#include "reports/text_file.hpp"

namespace adsem::reports::html_browser_test {
namespace {

std::string chromium_binary() {
  if (const char* env = std::getenv("ADSEM_CHROMIUM"); env && *env) return env;
  for (const char* candidate : {"/usr/bin/chromium", "/usr/bin/chromium-browser"})
    if (std::filesystem::exists(candidate)) return candidate;
  return "";
}

// The flags a sandboxed root session needs (no network, no first-run UI, a fresh profile).
std::string chromium_command(const std::string& binary, const std::filesystem::path& profile,
                             const std::string& action, const std::filesystem::path& page,
                             const std::filesystem::path& log) {
  return "timeout 120 " + binary +
         " --headless --no-sandbox --disable-gpu --disable-quic --no-first-run"
         " --disable-background-networking --disable-component-update --disable-sync"
         " --enable-logging=stderr --v=0 --user-data-dir=" +
         profile.string() + " " + action + " file://" + page.string() + " 2>" + log.string();
}

CampaignResult browser_sample() {
  CampaignResult c = testing::sample_campaign();
  c.rule_coverage = {{"simple-diff", {{"O-let", 120}, {"S-call", 0}}}};
  c.corpus = {{"adsem-corpus/simple-diff/adequacy-1.json", "simple-diff/adequacy", "", "fixed",
               "passes now"}};
  return c;
}

TEST(HtmlInBrowser, RendersWithoutConsoleErrorsAndShowsTheSummary) {
  const std::string chromium = chromium_binary();
  if (chromium.empty()) GTEST_SKIP() << "chromium not installed (apt-get install chromium)";
  testing::ScratchDir scratch;
  const auto page = scratch.path() / "report.html";
  write_file_atomically(page, render_html(browser_sample()));

  const auto dom = scratch.path() / "dom.html";
  const auto dom_log = scratch.path() / "dom.log";
  ASSERT_EQ(std::system((chromium_command(chromium, scratch.path() / "profile-dom", "--dump-dom",
                                          page, dom_log) +
                         " >" + dom.string())
                            .c_str()),
            0)
      << read_text_file(dom_log);
  const std::string rendered = read_text_file(dom);
  EXPECT_NE(rendered.find("adsem campaign report"), std::string::npos);
  EXPECT_NE(rendered.find("<h2>Properties</h2>"), std::string::npos);
  EXPECT_NE(rendered.find("simple-diff/type-uniqueness"), std::string::npos);
  EXPECT_NE(rendered.find("class=\"chart\""), std::string::npos) << "charts missing";
  EXPECT_NE(rendered.find("Rule coverage"), std::string::npos);

  const auto shot = scratch.path() / "summary.png";
  const auto shot_log = scratch.path() / "shot.log";
  ASSERT_EQ(std::system(chromium_command(chromium, scratch.path() / "profile-shot",
                                         "--window-size=1280,1400 --screenshot=" + shot.string(),
                                         page, shot_log)
                            .c_str()),
            0)
      << read_text_file(shot_log);
  ASSERT_TRUE(std::filesystem::exists(shot)) << read_text_file(shot_log);
  // A blank page compresses to a few kB; the summary table, charts and text make it larger.
  EXPECT_GT(std::filesystem::file_size(shot), 20'000u);
  const std::string png = read_text_file(shot);
  EXPECT_EQ(png.substr(1, 3), "PNG");
  if (const char* keep = std::getenv("ADSEM_KEEP_SCREENSHOT"); keep && *keep)
    std::filesystem::copy_file(shot, keep, std::filesystem::copy_options::overwrite_existing);

  // Console messages are logged as "...:CONSOLE(line)] ..."; a self-contained report has none.
  for (const auto& log : {dom_log, shot_log}) {
    std::istringstream lines(read_text_file(log));
    for (std::string line; std::getline(lines, line);)
      EXPECT_EQ(line.find(":CONSOLE("), std::string::npos) << line;
  }
}

} // namespace
} // namespace adsem::reports::html_browser_test
