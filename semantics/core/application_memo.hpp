#pragma once
// The last application of one model closure to a real, remembered so that applying it again to
// the same real returns the same value without evaluating the body again. A model's ⟦−⟧ takes
// functions as black boxes: a backpropagator that calls a shared one twice on the same cotangent
// (`λa. dx (x·a) + dy (x·a)` with dx = dy, the shape D gives a shared variable) evaluates it
// twice, so nested sharing makes the model's work exponential in the nesting where the paper's
// reduction stays linear (a generated term of size 60 reached the 20,000,000-unit work cap of
// linear-negation's model after about a second).
//
// The reuse changes no outcome: a model's body is a pure function of the argument's bits, and a
// reused application charges the work units and needs the nesting room the evaluation took. It
// is reused only where charging those cannot run over either budget (entered no deeper than it
// was, with the units left), so a budget runs over at exactly the application it ran over at
// before; any other call evaluates the body as before. Only successful applications are
// remembered: an application that throws throws again.
#include <algorithm>
#include <bit>
#include <cstdint>
#include <memory>
#include <optional>
#include <type_traits>

#include "semantics/core/value.hpp"
#include "semantics/core/work_budget.hpp"
#include "syntax/core/depth_guard.hpp"

namespace adsem::model {

template <class C> class ApplicationMemo {
public:
  // Only reals over doubles are compared (bit for bit: -0.0 is not 0.0, a NaN only itself).
  static constexpr bool enabled = std::is_same_v<C, double>;

  // The remembered value of this application, its work charged to `work`; none if `argument`
  // is not the remembered real or the charge could run over a budget.
  std::optional<Value<C>> reuse(const Value<C>& argument, const DepthBudget& depth,
                                WorkBudget& work) const {
    if constexpr (enabled) {
      if (!last_ || !argument.is_real() || depth.depth > last_->depth ||
          work.remaining() < last_->units || !same_bits(argument.real(), last_->argument))
        return std::nullopt;
      work.spend(last_->units, "");
      return last_->result;
    } else {
      return std::nullopt;
    }
  }

  // Remembers an application that returned `result` after spending `units`, entered at `depth`;
  // one of fewer units is not worth its copies (they cost a few percent of a model's time where
  // no application repeats).
  void remember(const Value<C>& argument, const Value<C>& result, long units, int depth) {
    if constexpr (enabled)
      if (units >= min_units && argument.is_real())
        last_ =
            std::make_unique<const Application>(Application{argument.real(), result, units, depth});
  }

  static constexpr long min_units = 16;

private:
  struct Application {
    Dual<C> argument;
    Value<C> result;
    long units;
    int depth;
  };

  static bool same_bits(const Dual<C>& a, const Dual<C>& b) {
    if (!std::equal(a.tags().begin(), a.tags().end(), b.tags().begin(), b.tags().end()))
      return false;
    const auto ca = a.coefficients();
    const auto cb = b.coefficients();
    if (ca.size() != cb.size()) return false;
    for (std::size_t i = 0; i < ca.size(); ++i)
      if (std::bit_cast<std::uint64_t>(ca[i]) != std::bit_cast<std::uint64_t>(cb[i])) return false;
    return true;
  }

  // Held aside: in the closure it made every closure of the model larger, remembered or not.
  std::unique_ptr<const Application> last_;
};

} // namespace adsem::model
