#pragma once
// Runs a recursive walk (parser, checker, printer, evaluators) on a thread with a large stack,
// so that the depth budgets (syntax/core/depth_guard.hpp, the evaluators' own) and not the default
// 8 MiB stack bound how deep a term may be: past the budget a walk throws a clear AdsemError,
// never overflows. Re-entrant: a call made on such a thread runs directly.
#include <exception>
#include <functional>
#include <optional>
#include <type_traits>
#include <utility>

namespace adsem {

// Runs `body` to completion on a large stack (1 GiB reserved; pages are touched only as used).
void run_on_large_stack(const std::function<void()>& body);

// Whether this thread runs on its large stack now (inside run_on_large_stack).
bool running_on_large_stack();

template <typename F> auto on_large_stack(F&& f) -> std::invoke_result_t<F&> {
  using R = std::invoke_result_t<F&>;
  if constexpr (std::is_void_v<R>) {
    run_on_large_stack([&] { f(); });
  } else {
    std::optional<R> result;
    run_on_large_stack([&] { result.emplace(f()); });
    return std::move(*result);
  }
}

} // namespace adsem
