// adsem cross: one program, every calculus's AD, one gradient. A thin alias of
// `adsem campaign cross` with the same flags (--trials, --time, --seed, --report, ...).
#include "cli/command.hpp"

namespace adsem::cli {

void add_cross_command(CLI::App& app, CommandContext& ctx) {
  add_campaign_like_command(
      app, ctx, "cross",
      "Cross-calculus agreement (the same as `adsem campaign cross`): random programs with let,\n"
      "tuples and the shared primitives (and, in a second property, closures, twice/compose and\n"
      "Church lists) are printed in every calculus's surface syntax, differentiated by each\n"
      "calculus's own AD mechanism (rd, T, D, R and F, pullback reduction), and compared with\n"
      "the model's gradient, finite differences and the interval enclosure.",
      "cross");
}

} // namespace adsem::cli
