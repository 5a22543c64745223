#include "properties/delta_reverse/random_deltas.hpp"

#include <rapidcheck.h>

namespace adsem::delta_reverse {

Delta random_delta(int free_ids, std::int64_t& next_let, int depth) {
  const int k = *rc::gen::inRange(0, depth <= 0 ? 40 : 100);
  if (k < 5) return d_zero();
  if (k < 40) return d_var(*rc::gen::inRange(1, free_ids + 1));
  if (k < 65)
    return d_scale(*rc::gen::inRange(-20, 21) / 4.0, random_delta(free_ids, next_let, depth - 1));
  if (k < 90) {
    Delta a = random_delta(free_ids, next_let, depth - 1);
    return d_add(a, random_delta(free_ids, next_let, depth - 1));
  }
  const std::int64_t id = next_let++;
  Delta rhs = random_delta(free_ids, next_let, depth - 1);
  Delta body = random_delta(free_ids, next_let, depth - 1);
  if (*rc::gen::inRange(0, 2) == 0) body = d_add(body, d_var(id)); // the body uses its id
  return d_let(id, rhs, body);
}

} // namespace adsem::delta_reverse
