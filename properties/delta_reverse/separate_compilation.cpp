// Separate compilation (seed 001 §7.5, L623-627; spec §6 P19). For e = let f = e_f in client:
//  1. f_rev = Drev{e_f} is translated on its own (its own fresh names), and its type is
//     Drev{type of e_f} in the empty context: it does not mention the main input type S;
//  2. Drev{client} is translated with f free, and linked: do { f <- f_rev; Drev{client} };
//  3. the linked program gives the same tape (ids, rhs, constants) and the same gradient, bit for
//     bit, as the whole-program translation Drev{e}.
#include "properties/delta_reverse/separate_compilation.hpp"

#include <fmt/format.h>

#include "properties/delta_reverse/support.hpp"
#include "semantics/delta_reverse/translate.hpp"
#include "syntax/delta_reverse/printer.hpp"

namespace adsem::delta_reverse {

namespace {
using props::PropertyContext;
using props::TrialResult;
using namespace support;

TrialResult separate(const PropertyContext& context) {
  gen::Options options;
  options.min_helpers = 1;
  const Drawn d = draw(context, options);
  if (d.program.term->kind != Kind::let) return on(TrialResult::discard("no-helper"), d.m);
  TrialResult r = guarded([&] {
    const Trial trial = prepare(d, context);
    const Node& n = *d.program.term;
    const Typed helper = typecheck(n.kids[0]);
    const Term f_rev = translate(Translation::drev, n.kids[0], trial.setup);
    if (const auto error =
            type_error(f_rev, {}, translated_term_type(Translation::drev, helper.type)))
      return TrialResult::fail("the separately translated helper is ill-typed: " + *error);
    const Term client = translate(Translation::drev, n.kids[1], trial.setup);
    const Term linked = do_bind(n.name, f_rev, client);
    const ReverseRun whole = reverse(d.program, d.s, trial.dt, Wrapper::seeded, EvalImpl::array,
                                     trial.setup, trial.fuel);
    const ReverseRun parts = reverse_translated(d.program, linked, d.s, trial.dt, Wrapper::seeded,
                                                EvalImpl::array, trial.setup, trial.fuel);
    if (whole.binds.size() != parts.binds.size())
      return TrialResult::fail(
          fmt::format("{} bindings whole, {} linked", whole.binds.size(), parts.binds.size()));
    for (std::size_t i = 0; i < whole.binds.size(); ++i)
      if (whole.binds[i].first != parts.binds[i].first ||
          print_delta(whole.binds[i].second) != print_delta(parts.binds[i].second))
        return TrialResult::fail(
            fmt::format("binding {}: {} = {} whole, {} = {} linked", i, whole.binds[i].first,
                        print_delta(whole.binds[i].second), parts.binds[i].first,
                        print_delta(parts.binds[i].second)));
    if (!same_bits(whole.gradient, parts.gradient))
      return TrialResult::fail("the gradients differ: " + print_value(whole.gradient, d.m.s) +
                               " whole, " + print_value(parts.gradient, d.m.s) + " linked");
    return TrialResult::pass();
  });
  return on(r, d.m);
}

} // namespace

props::PropertyDef separate_compilation() {
  return props::PropertyDef{
      "delta-reverse",
      "delta-reverse/separate-compilation",
      "ad-correctness",
      "a helper translated once (its type free of S) and linked into the client gives the "
      "whole-program tape and gradient, bit for bit",
      "spec §6 P19; seed 001 §7.5 L623-627",
      separate};
}

} // namespace adsem::delta_reverse
