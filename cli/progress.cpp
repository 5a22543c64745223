#include "cli/progress.hpp"

#include <cctype>

#include <fmt/format.h>

namespace adsem::cli {

void ProgressPrinter::operator()(const props::ProgressEvent& event) {
  using Kind = props::ProgressEvent::Kind;
  const auto& s = event.summary;
  const double rate = s.seconds > 0 ? s.trials / s.seconds : 0.0;
  const std::string line = fmt::format(
      "[{}/{}] {:<40} {:>6} trials {:>5} passed {:>5} discarded {:>3} failed  ({:.1f}s{})",
      event.property_index + 1, event.property_count, s.name, s.trials, s.passed, s.discarded,
      s.failed + s.errors, s.seconds, rate > 0 ? fmt::format(", {:.0f} trials/s", rate) : "");
  if (terminal_) {
    if (event.kind == Kind::property_started) return;
    out_ << "\r\x1b[2K" << line
         << fmt::format("  counterexamples so far: {}", event.counterexamples_so_far);
    if (event.kind == Kind::property_finished) out_ << "\n";
    out_.flush();
  } else if (event.kind == Kind::property_finished) {
    // Verdicts other than a pass stand out in CI logs.
    std::string flag;
    if (!reports::is_passing_status(s.status))
      for (const char c : "  " + s.status)
        flag += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    out_ << line << flag << "\n";
    out_.flush();
  }
}

} // namespace adsem::cli
