#pragma once
// cross/gradient-agreement and cross/higher-order-gradient-agreement: one random
// program, embedded in every calculus that can express it, differentiated by each calculus's own
// AD mechanism through its front end; every answer must agree with the shared model's exact
// gradient, lie in the interval enclosure of the gradient over a certified box around the point,
// and the model must agree with finite differences.
#include <memory>
#include <vector>

#include "properties/core/calculus.hpp"
#include "properties/cross/embedding.hpp"

namespace adsem::cross {

// An embedding with the front end of its calculus (taken from the registry).
struct Target {
  Embedding embedding;
  std::shared_ptr<const props::Frontend> frontend;
};

enum class Fragment { first_order, higher_order };

props::TrialResult gradient_agreement(const std::vector<Target>& targets, Fragment fragment,
                                      const props::PropertyContext& context);

} // namespace adsem::cross
