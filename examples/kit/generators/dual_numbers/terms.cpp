#include "generators/dual_numbers/terms.hpp"

#include "generators/core/uniform.hpp"
#include "generators/core/weighted_choice.hpp"

namespace adsem::dual_numbers::gen {

using adsem::gen::option;
using adsem::gen::uniform_below;

Type small_type() {
  switch (uniform_below(4)) {
  case 0:
    return product(real_type(), real_type());
  case 1:
    return arrow(real_type(), real_type());
  default:
    return real_type();
  }
}

double numeral() {
  return (static_cast<int>(uniform_below(25)) - 12) / 4.0;
}

namespace {

// A variable of Γ of type τ (the innermost of that name that fits), or null.
Term variable_of(const TypeContext& gamma, const Type& tau) {
  std::vector<std::string> fits;
  for (std::size_t i = 0; i < gamma.size(); ++i) {
    bool shadowed = false;
    for (std::size_t j = i + 1; j < gamma.size(); ++j)
      shadowed = shadowed || gamma[j].first == gamma[i].first;
    if (!shadowed && same_type(gamma[i].second, tau)) fits.push_back(gamma[i].first);
  }
  return fits.empty() ? nullptr : var(fits[uniform_below(fits.size())]);
}

Term leaf(const TypeContext& gamma, const Type& tau) {
  if (Term v = variable_of(gamma, tau); v && uniform_below(3) != 0) return v;
  switch (tau->kind) {
  case TypeKind::real:
    return constant(numeral());
  case TypeKind::product:
    return pair(leaf(gamma, tau->left), leaf(gamma, tau->right));
  case TypeKind::arrow: {
    const std::string y = "y" + std::to_string(gamma.size());
    TypeContext inner = gamma;
    inner.emplace_back(y, tau->left);
    return lam(y, tau->left, leaf(inner, tau->right));
  }
  }
  return nullptr;
}

// (λy:σ. t) s: a let, so that β meets every type.
Term let_in(const TypeContext& gamma, const Type& tau, int depth) {
  const Type sigma = small_type();
  const std::string y = "y" + std::to_string(gamma.size());
  TypeContext inner = gamma;
  inner.emplace_back(y, sigma);
  return app(lam(y, sigma, term(inner, tau, depth - 1)), term(gamma, sigma, depth - 1));
}

} // namespace

Term term(const TypeContext& gamma, const Type& tau, int depth) {
  if (depth <= 0) return leaf(gamma, tau);
  const auto sub = [&](const Type& t) { return term(gamma, t, depth - 1); };
  const auto pick = [](int total) { return static_cast<int>(uniform_below(total)); };
  switch (tau->kind) {
  case TypeKind::real: {
    const Type r = real_type();
    const Type other = small_type();
    return adsem::gen::choose(pick, option(2, [&] { return leaf(gamma, tau); }),
                              option(2, [&] { return op(Op::add, sub(r), sub(r)); }),
                              option(2, [&] { return op(Op::mul, sub(r), sub(r)); }),
                              option(1, [&] { return op(Op::sin, sub(r)); }),
                              option(1, [&] { return op(Op::cos, sub(r)); }),
                              option(1, [&] { return proj(1, sub(product(r, other))); }),
                              option(1, [&] { return proj(2, sub(product(other, r))); }),
                              option(2, [&] { return app(sub(arrow(other, r)), sub(other)); }),
                              option(2, [&] { return let_in(gamma, tau, depth); }));
  }
  case TypeKind::product:
    return adsem::gen::choose(pick,
                              option(3, [&] { return pair(sub(tau->left), sub(tau->right)); }),
                              option(1, [&] { return let_in(gamma, tau, depth); }));
  case TypeKind::arrow: {
    const std::string y = "y" + std::to_string(gamma.size());
    TypeContext inner = gamma;
    inner.emplace_back(y, tau->left);
    return adsem::gen::choose(
        pick, option(3, [&] { return lam(y, tau->left, term(inner, tau->right, depth - 1)); }),
        option(1, [&] { return leaf(gamma, tau); }));
  }
  }
  return leaf(gamma, tau);
}

Term real_function_body(const std::string& x, int depth) {
  return term({{x, real_type()}}, real_type(), adsem::gen::uniform_in(1, depth));
}

} // namespace adsem::dual_numbers::gen
