#pragma once
// Campaign progress on stderr: a live status line on a terminal, one plain line per finished
// property otherwise (CI logs).
#include <ostream>

#include "properties/core/campaign.hpp"

namespace adsem::cli {

class ProgressPrinter {
public:
  ProgressPrinter(std::ostream& out, bool terminal) : out_(out), terminal_(terminal) {}
  void operator()(const props::ProgressEvent& event);

private:
  std::ostream& out_;
  bool terminal_;
};

} // namespace adsem::cli
