#include "semantics/simple_diff/operations.hpp"

#include <unordered_set>

#include "semantics/core/model_errors.hpp"
#include "semantics/core/reverse_derivative.hpp"
#include "syntax/simple_diff/printer.hpp"

namespace adsem::simple_diff::ops {

namespace {

constexpr int max_dprod = 16;
constexpr int max_order = 60;

// The shared table plus DProd_n for n != 2 (dot2 is the table's DProd_2).
const PrimitiveTable& table() {
  static const PrimitiveTable t = [] {
    PrimitiveTable out = adsem::primitives();
    for (int n = 1; n <= max_dprod; ++n) {
      if (n == 2) continue;
      const std::string k = std::to_string(n);
      out = out.with(dot_product_primitive(static_cast<std::size_t>(n), "dprod" + k,
                                           {"dprod_" + k, "DProd_" + k}));
    }
    return out;
  }();
  return t;
}

// The entries of spec §7.2 (and add); the other entries of the shared table (bmp's relu, step,
// sigma, dsigma, sq; Mak–Ong's g) are not operations of this calculus: their names stay free for
// user functions, as in the paper's own `let relu(x:real):real = ...` (E3, lines 68-72).
bool excluded(const Primitive& p) {
  static const char* const spec[] = {"add", "sub",  "mul", "div", "neg",  "recip", "exp",
                                     "log", "sqrt", "sin", "cos", "tanh", "dot2"};
  for (const char* name : spec)
    if (p.name() == name) return false;
  return p.name().rfind("dprod", 0) != 0;
}

// The entries that are operations, decided once per entry (every ev and every type rule asks).
bool is_operation(const Primitive& p) {
  static const std::unordered_set<const Primitive*> operations = [] {
    std::unordered_set<const Primitive*> out;
    for (const Primitive& entry : table().entries())
      if (!entry.is_predicate() && !excluded(entry)) out.insert(&entry);
    return out;
  }();
  return operations.count(&p) > 0;
}

// n for DProd_n (0 for any other entry).
std::size_t dot_size(const Primitive& p) {
  if (p.name() == "dot2" || p.name().rfind("dprod", 0) == 0) return p.arity() / 2;
  return 0;
}

Type base_domain(const Primitive& p) {
  if (const std::size_t n = dot_size(p))
    return product_type(real_power(static_cast<int>(n)), real_power(static_cast<int>(n)));
  return real_power(static_cast<int>(p.arity()));
}

std::string flat_text(std::span<const double> v) {
  if (v.size() == 1) return print_real(v[0]);
  std::string s = "(";
  for (std::size_t i = 0; i < v.size(); ++i)
    s += (i ? ", " : "") + print_real(v[i]);
  return s + ")";
}

class TableSignature final : public Signature {
public:
  std::optional<OpArity> op(std::string_view name) const override {
    const auto found = find_operation(name);
    if (!found) return std::nullopt;
    auto [dom, cod] = found->arity();
    return OpArity{found->name(), dom, cod};
  }
  std::optional<PredArity> pred(std::string_view name) const override {
    const Primitive* found = find_predicate(name);
    if (!found) return std::nullopt;
    return PredArity{found->name(), predicate_domain(*found)};
  }
};

} // namespace

std::string Operation::name() const {
  std::string n = base->name();
  for (int i = 0; i < order; ++i)
    n += "_r";
  return n;
}

std::pair<Type, Type> Operation::arity() const {
  Type dom = base_domain(*base), cod = real_power(static_cast<int>(base->coarity()));
  for (int i = 0; i < order; ++i) { // op_r : T × U → T
    Type next = product_type(dom, cod);
    cod = dom;
    dom = next;
  }
  return {dom, cod};
}

Type Operation::codomain() const {
  if (order == 0) return real_power(static_cast<int>(base->coarity()));
  if (order == 1) return base_domain(*base);
  return Operation{base, order - 1}.arity().first; // op_r : T × U → T
}

std::optional<Operation> find_operation(std::string_view name) {
  int order = 0;
  while (name.size() > 2 && name.substr(name.size() - 2) == "_r") {
    name.remove_suffix(2);
    ++order;
  }
  if (order > max_order) return std::nullopt;
  const Primitive* base = table().find(name);
  if (!base || !is_operation(*base)) return std::nullopt;
  return Operation{base, order};
}

const Primitive* find_predicate(std::string_view name) {
  const Primitive* p = table().find(name);
  return p && p->is_predicate() ? p : nullptr;
}

Type predicate_domain(const Primitive& predicate) {
  return real_power(static_cast<int>(predicate.arity()));
}

namespace {
AdsemError undefined_at(const Operation& op, std::span<const double> x, const model::Undefined& e) {
  return AdsemError(ErrorKind::domain, op.name() + " is undefined at " + flat_text(x) + " (" +
                                           e.diagnostic().message + ")");
}
} // namespace

std::vector<double> apply(const Operation& op, std::span<const double> x) {
  try {
    // op itself on plain doubles: the entry's one definition on double computes exactly what its
    // tag-free Dual<double> instance does (same IEEE operations), without building duals
    if (op.order == 0) return op.base->apply<double>(x);
    return model::apply_reverse(*op.base, op.order, x);
  } catch (const model::Undefined& e) {
    throw undefined_at(op, x, e);
  }
}

std::optional<AdsemError> domain_error(const Operation& op, std::span<const double> x) {
  const Primitive& base = *op.base;
  // apply checks the arity before the domain: a wrong arity is left to it
  if (op.order != 0 || base.domain().empty() || x.size() != base.arity()) return std::nullopt;
  const std::optional<model::DomainFailure> failure = base.domain_failure<double>(x);
  if (!failure) return std::nullopt;
  return undefined_at(op, x, std::get<model::Undefined>(*failure));
}

bool holds(const Primitive& predicate, std::span<const double> x) {
  const Truth t = predicate.truth(x);
  if (t == Truth::boundary)
    throw AdsemError(ErrorKind::domain,
                     predicate.name() + " is undefined at " + flat_text(x) + " (" +
                         predicate.meaning() +
                         " is partial: no value on its boundary; seed 003 line 152)");
  return t == Truth::holds;
}

const Signature& signature() {
  static const TableSignature sig;
  return sig;
}

} // namespace adsem::simple_diff::ops
