#pragma once
// Inline SVG charts for report.html: static markup, no scripts, so the report stays viewable
// offline and in CI artifact viewers that block JavaScript.
#include <string>
#include <utility>
#include <vector>

namespace adsem::reports {

struct Bar {
  std::string label;
  double value = 0.0;
};

// A horizontal bar chart, one labelled bar per entry, scaled to the largest value; `unit` follows
// each printed value ("trials/s", "s", ""). "" for no bars. `title` is the chart's accessible name.
std::string bar_chart_svg(const std::string& title, const std::vector<Bar>& bars,
                          const std::string& unit);

} // namespace adsem::reports
