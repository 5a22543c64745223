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

struct LineSeries {
  std::string label;
  std::vector<std::pair<double, double>> points; // (x, y), x and y > 0 (others are skipped)
  bool dashed = false;
};

// A standalone log-log line chart (axes with decade ticks, a legend), one polyline per series.
// "" when no series has a positive point.
std::string loglog_chart_svg(const std::string& title, const std::vector<LineSeries>& series,
                             const std::string& x_label, const std::string& y_label);

} // namespace adsem::reports
