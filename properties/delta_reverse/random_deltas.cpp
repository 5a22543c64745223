#include "properties/delta_reverse/random_deltas.hpp"

#include "generators/core/uniform.hpp"

namespace adsem::delta_reverse {

Delta random_delta(int free_ids, std::int64_t& next_let, int depth) {
  const auto in_range = [](int lo, int hi) { return adsem::gen::uniform_in(lo, hi); };
  const auto sub = [&] { return random_delta(free_ids, next_let, depth - 1); };
  const int k = in_range(0, depth <= 0 ? 40 : 100);
  if (k < 5) return d_zero();
  if (k < 40) return d_var(in_range(1, free_ids + 1));
  if (k < 65) return d_scale(in_range(-20, 21) / 4.0, sub());
  if (k < 90) {
    Delta a = sub();
    return d_add(a, sub());
  }
  const std::int64_t id = next_let++;
  Delta rhs = sub();
  Delta body = sub();
  if (in_range(0, 2) == 0) body = d_add(body, d_var(id)); // the body uses its id
  return d_let(id, rhs, body);
}

} // namespace adsem::delta_reverse
