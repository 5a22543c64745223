#include "reports/svg_chart.hpp"

#include <algorithm>
#include <cmath>
#include <iterator>

#include <fmt/format.h>

#include "reports/report_text.hpp"
#include "reports/text_escape.hpp"

namespace adsem::reports {

std::string bar_chart_svg(const std::string& title, const std::vector<Bar>& bars,
                          const std::string& unit) {
  if (bars.empty()) return "";
  constexpr int label_width = 300, bar_area = 260, value_width = 110, row = 16;
  const int width = label_width + bar_area + value_width;
  const int height = row * static_cast<int>(bars.size()) + 4;
  double largest = 0.0;
  for (const Bar& b : bars)
    if (std::isfinite(b.value)) largest = std::max(largest, b.value);
  std::string svg =
      fmt::format("<svg class=\"chart\" width=\"{}\" height=\"{}\" viewBox=\"0 0 {} {}\" "
                  "role=\"img\" aria-label=\"{}\"><title>{}</title>",
                  width, height, width, height, html_escape(title), html_escape(title));
  for (std::size_t i = 0; i < bars.size(); ++i) {
    const Bar& b = bars[i];
    const double y = static_cast<double>(row) * static_cast<double>(i) + 2;
    const double fraction =
        largest > 0 && std::isfinite(b.value) ? std::max(0.0, b.value) / largest : 0.0;
    const std::string value =
        unit.empty() ? format_number(b.value) : format_number(b.value) + " " + unit;
    svg += fmt::format("<text x=\"{}\" y=\"{:.1f}\" text-anchor=\"end\">{}</text>", label_width - 6,
                       y + 11, html_escape(b.label));
    svg += fmt::format("<rect x=\"{}\" y=\"{:.1f}\" width=\"{:.2f}\" height=\"{}\">"
                       "<title>{}: {}</title></rect>",
                       label_width, y + 2, std::max(1.0, fraction * bar_area), row - 4,
                       html_escape(b.label), html_escape(value));
    svg += fmt::format("<text x=\"{:.1f}\" y=\"{:.1f}\">{}</text>",
                       label_width + std::max(1.0, fraction * bar_area) + 4, y + 11,
                       html_escape(value));
  }
  return svg + "</svg>";
}

std::string loglog_chart_svg(const std::string& title, const std::vector<LineSeries>& series,
                             const std::string& x_label, const std::string& y_label) {
  double x_lo = HUGE_VAL, x_hi = 0, y_lo = HUGE_VAL, y_hi = 0;
  for (const LineSeries& s : series)
    for (const auto& [x, y] : s.points)
      if (x > 0 && y > 0 && std::isfinite(x) && std::isfinite(y)) {
        x_lo = std::min(x_lo, x), x_hi = std::max(x_hi, x);
        y_lo = std::min(y_lo, y), y_hi = std::max(y_hi, y);
      }
  if (x_hi <= 0) return "";
  // whole decades around the data
  const double lx0 = std::floor(std::log10(x_lo)),
               lx1 = std::max(lx0 + 1, std::ceil(std::log10(x_hi)));
  const double ly0 = std::floor(std::log10(y_lo)),
               ly1 = std::max(ly0 + 1, std::ceil(std::log10(y_hi)));
  constexpr double left = 60, top = 30, plot_w = 460, plot_h = 300, legend_w = 330;
  const double legend_h = 16.0 * static_cast<double>(series.size()) + 10;
  const double width = left + plot_w + 20 + legend_w;
  const double height = top + std::max(plot_h, legend_h) + 50;
  const auto px = [&](double x) { return left + (std::log10(x) - lx0) / (lx1 - lx0) * plot_w; };
  const auto py = [&](double y) {
    return top + plot_h - (std::log10(y) - ly0) / (ly1 - ly0) * plot_h;
  };
  static const char* const colours[] = {"#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e",
                                        "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf"};
  std::string svg = fmt::format(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{0:.0f}\" height=\"{1:.0f}\" "
      "viewBox=\"0 0 {0:.0f} {1:.0f}\" role=\"img\" aria-label=\"{2}\" font-family=\"sans-serif\" "
      "font-size=\"11\"><title>{2}</title><rect width=\"100%\" height=\"100%\" fill=\"white\"/>"
      "<text x=\"{3:.0f}\" y=\"18\" text-anchor=\"middle\" font-size=\"13\">{2}</text>",
      width, height, html_escape(title), left + plot_w / 2);
  svg += fmt::format("<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"none\" "
                     "stroke=\"#444\"/>",
                     left, top, plot_w, plot_h);
  for (double d = lx0; d <= lx1; ++d)
    svg += fmt::format("<line x1=\"{0:.1f}\" x2=\"{0:.1f}\" y1=\"{1}\" y2=\"{2}\" stroke=\"#ddd\"/>"
                       "<text x=\"{0:.1f}\" y=\"{3}\" text-anchor=\"middle\">1e{4:.0f}</text>",
                       px(std::pow(10.0, d)), top, top + plot_h, top + plot_h + 14, d);
  for (double d = ly0; d <= ly1; ++d)
    svg += fmt::format("<line x1=\"{0}\" x2=\"{1}\" y1=\"{2:.1f}\" y2=\"{2:.1f}\" stroke=\"#ddd\"/>"
                       "<text x=\"{3}\" y=\"{4:.1f}\" text-anchor=\"end\">1e{5:.0f}</text>",
                       left, left + plot_w, py(std::pow(10.0, d)), left - 4,
                       py(std::pow(10.0, d)) + 4, d);
  svg += fmt::format("<text x=\"{:.0f}\" y=\"{:.0f}\" text-anchor=\"middle\">{}</text>",
                     left + plot_w / 2, top + plot_h + 32, html_escape(x_label));
  svg += fmt::format("<text x=\"14\" y=\"{0:.0f}\" text-anchor=\"middle\" "
                     "transform=\"rotate(-90 14 {0:.0f})\">{1}</text>",
                     top + plot_h / 2, html_escape(y_label));
  for (std::size_t i = 0; i < series.size(); ++i) {
    const LineSeries& s = series[i];
    const char* colour = colours[i % std::size(colours)];
    std::string points;
    for (const auto& [x, y] : s.points)
      if (x > 0 && y > 0 && std::isfinite(x) && std::isfinite(y))
        points += fmt::format("{:.1f},{:.1f} ", px(x), py(y));
    svg +=
        fmt::format("<polyline fill=\"none\" stroke=\"{}\" stroke-width=\"1.5\"{} points=\"{}\"/>",
                    colour, s.dashed ? " stroke-dasharray=\"5,3\"" : "", points);
    const double ly = top + 10 + 16.0 * static_cast<double>(i);
    const double lx = left + plot_w + 20;
    svg += fmt::format(
        "<line x1=\"{0:.0f}\" x2=\"{1:.0f}\" y1=\"{2:.0f}\" y2=\"{2:.0f}\" "
        "stroke=\"{3}\" stroke-width=\"1.5\"{4}/><text x=\"{5:.0f}\" y=\"{6:.0f}\">{7}</text>",
        lx, lx + 22, ly, colour, s.dashed ? " stroke-dasharray=\"5,3\"" : "", lx + 26, ly + 4,
        html_escape(s.label));
  }
  return svg + "</svg>\n";
}

} // namespace adsem::reports
