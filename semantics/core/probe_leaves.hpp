#pragma once
// A value's reals as probing reads them (probe.hpp, compare_by_probing): function values applied
// to random arguments of their domain, level by level. The arguments are drawn in an order that
// depends on the type alone (outside sums), so values of one type read from one seed are read at
// the same arguments, and their reals can be added and compared term by term: the two sides of a
// linearity law (f + g against f and g) compared relative to the magnitudes of their terms
// (props::compare_sum_vectors), not to the sum, which may cancel.
#include <cstdint>
#include <random>
#include <vector>

#include "semantics/core/probe.hpp"

namespace adsem::model {

inline void probe_leaves(const Value<double>& v, const ModelType& type, std::mt19937_64& rng,
                         int arguments_per_function, std::vector<double>& out) {
  switch (type.kind()) {
  case ModelType::Kind::real:
    out.push_back(v.real().primal());
    return;
  case ModelType::Kind::unit:
    return;
  case ModelType::Kind::integer:
    out.push_back(static_cast<double>(v.integer()));
    return;
  case ModelType::Kind::tuple:
    for (std::size_t i = 0; i < type.parts().size(); ++i)
      probe_leaves(v.item(i), type.parts()[i], rng, arguments_per_function, out);
    return;
  case ModelType::Kind::sum: { // the injection read as its index, then its payload
    const Injection<double>& in = v.injection();
    out.push_back(static_cast<double>(in.index));
    probe_leaves(*in.payload, type.parts().at(in.index), rng, arguments_per_function, out);
    return;
  }
  case ModelType::Kind::function:
    for (int k = 0; k < arguments_per_function; ++k)
      probe_leaves(v(random_value(type.domain(), rng)), type.codomain(), rng,
                   arguments_per_function, out);
    return;
  }
}

// The reals of v (of `type`) read from `seed`, with as many arguments per function level as
// compare_by_probing takes by default.
inline std::vector<double> probe_leaves(const Value<double>& v, const ModelType& type,
                                        std::uint64_t seed, int arguments_per_function = 3) {
  std::mt19937_64 rng(seed);
  std::vector<double> out;
  probe_leaves(v, type, rng, arguments_per_function, out);
  return out;
}

} // namespace adsem::model
