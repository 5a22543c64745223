#include "semantics/core/probe.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>

namespace adsem::model {

template <class Rng>
Eigen::VectorXd random_vector(std::size_t n, Rng& rng, double low, double high) {
  std::uniform_real_distribution<double> uniform(low, high);
  Eigen::VectorXd out(static_cast<Eigen::Index>(n));
  for (Eigen::Index i = 0; i < out.size(); ++i)
    out(i) = uniform(rng);
  return out;
}

DotProductReport dot_product_test(const LinearMap& forward, const LinearMap& reverse, std::size_t n,
                                  std::size_t m, std::uint64_t seed, int probes,
                                  Tolerance tolerance) {
  std::mt19937_64 rng(seed);
  DotProductReport report;
  for (int p = 0; p < probes; ++p) {
    const Eigen::VectorXd v = random_vector(n, rng);
    const Eigen::VectorXd u = random_vector(m, rng);
    const Eigen::VectorXd jv = forward(v);
    const Eigen::VectorXd jtu = reverse(u);
    if (jv.size() != u.size() || jtu.size() != v.size()) {
      report.passed = false;
      report.worst_ratio = std::numeric_limits<double>::infinity();
      ++report.probes;
      continue;
    }
    const double lhs = u.dot(jv), rhs = jtu.dot(v);
    // The policy's |a| + |b| is replaced by the Cauchy–Schwarz magnitudes of the two products,
    // so that cancellation inside a dot product does not make the relative test meaningless.
    const double magnitude = u.norm() * jv.norm() + jtu.norm() * v.norm();
    const double bound = std::max(tolerance.rtol * magnitude / 2.0, tolerance.atol);
    const double ratio = std::isfinite(lhs) && std::isfinite(rhs)
                             ? std::abs(lhs - rhs) / bound
                             : std::numeric_limits<double>::infinity();
    ++report.probes;
    if (p == 0 || ratio > report.worst_ratio) {
      report.worst_ratio = ratio;
      report.worst_forward = lhs;
      report.worst_reverse = rhs;
    }
    if (!(ratio <= 1)) report.passed = false;
  }
  return report;
}

namespace {

using Feature = std::function<Dual<double>(const Value<double>&)>;

template <class Rng> double uniform(Rng& rng, double low, double high) {
  return std::uniform_real_distribution<double>(low, high)(rng);
}

// A random smooth scalar feature of values of a type, linear in the reals it reads.
template <class Rng> Feature random_feature(const ModelType& type, Rng& rng) {
  switch (type.kind()) {
  case ModelType::Kind::real: {
    const double w = uniform(rng, -1, 1);
    return [w](const Value<double>& z) { return Dual<double>(w) * z.real(); };
  }
  case ModelType::Kind::unit:
    return [](const Value<double>&) { return Dual<double>(0.0); };
  case ModelType::Kind::integer: {
    const double w = uniform(rng, -1, 1);
    return
        [w](const Value<double>& z) { return Dual<double>(w * static_cast<double>(z.integer())); };
  }
  case ModelType::Kind::tuple: {
    std::vector<Feature> parts;
    for (const ModelType& part : type.parts())
      parts.push_back(random_feature(part, rng));
    return [parts](const Value<double>& z) {
      Dual<double> acc(0.0);
      for (std::size_t i = 0; i < parts.size(); ++i)
        acc += parts[i](z.item(i));
      return acc;
    };
  }
  case ModelType::Kind::sum: {
    std::vector<Feature> parts;
    std::vector<double> offsets;
    for (const ModelType& part : type.parts()) {
      parts.push_back(random_feature(part, rng));
      offsets.push_back(uniform(rng, -1, 1));
    }
    return [parts, offsets](const Value<double>& z) {
      const Injection<double>& in = z.injection();
      return Dual<double>(offsets.at(in.index)) + parts.at(in.index)(*in.payload);
    };
  }
  case ModelType::Kind::function: {
    const Value<double> argument = random_value(type.domain(), rng);
    const Feature read = random_feature(type.codomain(), rng);
    return [argument, read](const Value<double>& z) { return read(z(argument)); };
  }
  }
  return [](const Value<double>&) { return Dual<double>(0.0); };
}

} // namespace

template <class Rng> Value<double> random_value(const ModelType& type, Rng& rng) {
  switch (type.kind()) {
  case ModelType::Kind::real:
    return Value<double>(uniform(rng, -2, 2));
  case ModelType::Kind::unit:
    return Value<double>(Unit{});
  case ModelType::Kind::integer:
    return Value<double>::integer(std::uniform_int_distribution<std::int64_t>(-3, 3)(rng));
  case ModelType::Kind::tuple: {
    std::vector<Value<double>> items;
    for (const ModelType& part : type.parts())
      items.push_back(random_value(part, rng));
    return Value<double>::tuple(std::move(items));
  }
  case ModelType::Kind::sum: {
    const std::size_t index =
        std::uniform_int_distribution<std::size_t>(0, type.parts().size() - 1)(rng);
    return Value<double>::injection(index, random_value(type.parts()[index], rng));
  }
  case ModelType::Kind::function: {
    const Value<double> offset = random_value(type.codomain(), rng);
    const Value<double> amplitude = random_value(type.codomain(), rng);
    const Feature feature = random_feature(type.domain(), rng);
    const double phase = uniform(rng, -1, 1);
    return Value<double>::function([=](const Value<double>& z) {
      return sum(offset, scale(sin(feature(z) + phase), amplitude));
    });
  }
  }
  return Value<double>();
}

template Eigen::VectorXd random_vector(std::size_t, std::mt19937_64&, double, double);
template Eigen::VectorXd random_vector(std::size_t, LazyMt19937_64&, double, double);
template Value<double> random_value(const ModelType&, std::mt19937_64&);
template Value<double> random_value(const ModelType&, LazyMt19937_64&);

namespace {

struct Prober {
  std::mt19937_64 rng;
  int arguments_per_function;
  Tolerance tolerance;
  int max_probes;
  ProbeReport report;

  void note(double ratio, double difference, const std::string& place) {
    if (ratio > report.worst_ratio || report.comparisons == 1) {
      report.worst_ratio = ratio;
      report.worst_difference = difference;
      report.worst_place = place;
    }
    if (!(ratio <= 1)) report.equal = false;
  }

  void compare(const Value<double>& a, const Value<double>& b, const ModelType& type,
               const std::string& place) {
    const auto here = [&](const std::string& step) {
      return place.empty() ? step : place + " " + step;
    };
    switch (type.kind()) {
    case ModelType::Kind::real: {
      const double x = a.real().primal(), y = b.real().primal();
      ++report.comparisons;
      note(tolerance_ratio(x, y, tolerance), std::abs(x - y), place);
      return;
    }
    case ModelType::Kind::unit:
      return;
    case ModelType::Kind::integer: {
      ++report.comparisons;
      const bool same = a.integer() == b.integer();
      note(same ? 0.0 : std::numeric_limits<double>::infinity(),
           std::abs(static_cast<double>(a.integer() - b.integer())), place);
      return;
    }
    case ModelType::Kind::tuple:
      for (std::size_t i = 0; i < type.parts().size(); ++i)
        compare(a.item(i), b.item(i), type.parts()[i], here("π" + std::to_string(i + 1)));
      return;
    case ModelType::Kind::sum: {
      const Injection<double>& x = a.injection();
      const Injection<double>& y = b.injection();
      if (x.index != y.index) {
        ++report.comparisons;
        note(std::numeric_limits<double>::infinity(), 0, here("injection"));
        return;
      }
      compare(*x.payload, *y.payload, type.parts().at(x.index),
              here("in" + std::to_string(x.index + 1)));
      return;
    }
    case ModelType::Kind::function:
      for (int k = 0; k < arguments_per_function && report.probes < max_probes; ++k) {
        const Value<double> argument = random_value(type.domain(), rng);
        ++report.probes;
        compare(a(argument), b(argument), type.codomain(), here("@arg" + std::to_string(k + 1)));
      }
      return;
    }
  }
};

} // namespace

ProbeReport compare_by_probing(const Value<double>& a, const Value<double>& b,
                               const ModelType& type, std::uint64_t seed,
                               int arguments_per_function, Tolerance tolerance, int max_probes) {
  Prober prober{std::mt19937_64(seed), arguments_per_function, tolerance, max_probes, {}};
  prober.compare(a, b, type, "");
  return prober.report;
}

} // namespace adsem::model
