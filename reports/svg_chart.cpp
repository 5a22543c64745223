#include "reports/svg_chart.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

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
        unit.empty() ? fmt::format("{:.4g}", b.value) : fmt::format("{:.4g} {}", b.value, unit);
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

} // namespace adsem::reports
