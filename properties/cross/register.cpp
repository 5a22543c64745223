// The pseudo-calculus "cross": one program, every calculus's AD, one gradient. It has
// no terms of its own (no front end); its properties drive the five calculi's front ends.
#include "properties/cross/register.hpp"

#include "properties/cross/agreement.hpp"
#include "properties/cross/mutants.hpp"
#include "semantics/core/primitives.hpp"

namespace adsem::props {

void register_cross(Registry& registry) {
  auto targets = std::make_shared<std::vector<cross::Target>>();
  for (const auto& embedding : cross::embeddings())
    if (const CalculusEntry* entry = registry.find(embedding.calculus); entry && entry->frontend)
      targets->push_back({embedding, entry->frontend});

  CalculusEntry entry;
  entry.id = "cross";
  entry.paper = "all five seeds: the same program through every calculus's AD mechanism";
  entry.summary = "Cross-calculus agreement: one program, five AD mechanisms, one gradient.";
  std::vector<std::string> first_order_tags = {"let", "pair", "fst", "snd"};
  for (const char* op :
       {"add", "sub", "mul", "div", "neg", "sin", "cos", "exp", "log", "sqrt", "tanh"})
    first_order_tags.emplace_back(op);
  std::vector<std::string> higher_order_tags = first_order_tags;
  for (const char* tag : {"lambda", "apply", "higher-order-binder"})
    higher_order_tags.emplace_back(tag);
  entry.properties = {
      PropertyDef{"cross", "cross/gradient-agreement", "ad-correctness",
                  "a first-order program (let, tuples, the shared primitives) embedded in all five "
                  "calculi: rd, T, D, R and F, and pullback reduction agree with the model, finite "
                  "differences and the interval enclosure",
                  "seed 003 Thm. 6.2(1), Cor. 6.3, L877-908 (rd); seed 004 L38, L84, Thm 5.6 "
                  "L339-346 (T); seed 002 Cor. 16, L562-566 (D); seed 001 Prop. 2 L273-278 (F), "
                  "Thm. 3 L727-735 (R); seed 000 Cor. 4.8(1), L504-506 (pullbacks)",
                  [targets](const PropertyContext& context) {
                    return cross::gradient_agreement(*targets, cross::Fragment::first_order,
                                                     context);
                  },
                  50, first_order_tags},
      PropertyDef{"cross", "cross/higher-order-gradient-agreement", "ad-correctness",
                  "a program with closures, twice/compose and Church lists folded with a closure, "
                  "embedded in the four calculi with functions: their mechanisms agree with the "
                  "model, finite differences and the interval enclosure",
                  "seed 004 Thm 5.6 L339-346; seed 002 Cor. 16 L562-566; seed 001 Thm. 3 "
                  "L727-735, §11.2; seed 000 Cor. 4.8(1) L504-506, Ex. 3.2 L195-197 (Church lists)",
                  [targets](const PropertyContext& context) {
                    return cross::gradient_agreement(*targets, cross::Fragment::higher_order,
                                                     context);
                  },
                  50, higher_order_tags},
  };
  entry.mutants = cross::cross_mutants();
  // What every run of cross reaches, whichever property ran; the higher-order constructs are
  // the second property's expected tags.
  entry.constructs = first_order_tags;
  registry.add(std::move(entry));
}

} // namespace adsem::props
