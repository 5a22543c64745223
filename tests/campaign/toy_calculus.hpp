#pragma once
// A toy calculus for testing the campaign engine itself: its terms are integers, and one of its
// properties is deliberately false ("every n is below 10"), so the smallest counterexample is 10.
#include <rapidcheck.h>

#include "properties/core/calculus.hpp"
#include "properties/core/campaign.hpp"

namespace adsem::testing {

inline props::Registry toy_registry() {
  props::CalculusEntry toy;
  toy.id = "toy";
  toy.aliases = {"toy-alias"};
  toy.paper = "none (engine self-test)";
  toy.properties.push_back(props::PropertyDef{
      "toy", "toy/below-ten", "toy", "every generated n is below 10 (false)", "",
      [](const props::PropertyContext&) {
        const int n = *rc::gen::inRange(0, 1000);
        auto result = n < 10 ? props::TrialResult::pass()
                             : props::TrialResult::fail("n = " + std::to_string(n) + " >= 10");
        result.on(std::to_string(n), "int", n);
        return result;
      },
      1000});
  toy.properties.push_back(props::PropertyDef{
      "toy", "toy/even-discards", "toy", "odd n are discarded; every even n is even", "",
      [](const props::PropertyContext&) {
        const int n = *rc::gen::inRange(0, 100);
        auto result = n % 2 == 1 ? props::TrialResult::discard("odd") : props::TrialResult::pass();
        result.on(std::to_string(n), "int", n % 7, {n % 3 == 0 ? "triple" : "plain"});
        return result;
      },
      100});
  toy.properties.push_back(props::PropertyDef{
      "toy", "toy/mutant-sensitive", "toy", "fails only under the mutant toy/off-by-one", "",
      [](const props::PropertyContext& context) {
        const int n = *rc::gen::inRange(0, 50);
        const int successor = context.mutant_is("toy/off-by-one") ? n + 2 : n + 1;
        return props::compare_reals(n + 1, "n+1", successor, "successor", CheckKind::exact_value,
                                    context.tolerance(CheckKind::exact_value))
            .on(std::to_string(n), "int", n);
      },
      50});
  toy.properties.push_back(props::PropertyDef{
      "toy", "toy/throws", "toy", "a body that throws is an error, not a crash", "",
      [](const props::PropertyContext&) -> props::TrialResult {
        const int n = *rc::gen::inRange(0, 10);
        if (n > 5) throw std::runtime_error("boom at " + std::to_string(n));
        return props::TrialResult::pass().on(std::to_string(n), "int", n);
      },
      100}); // inRange scales with size/100: size 100 reaches the whole range
  toy.mutants.push_back(
      props::MutantDef{"toy", "toy/off-by-one", "off-by-one", "successor adds two", {}});
  props::Registry registry;
  registry.add(std::move(toy));
  return registry;
}

// Campaign options for some toy properties with a trial count and seed.
inline props::CampaignOptions toy_options(std::vector<std::string> properties, int trials,
                                          std::uint64_t seed = 42) {
  props::CampaignOptions options;
  options.calculi = {"toy"};
  options.properties = std::move(properties);
  options.trials = trials;
  options.seed = seed;
  return options;
}

} // namespace adsem::testing
