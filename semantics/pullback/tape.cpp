#include "semantics/pullback/tape.hpp"

#include <map>

#include "semantics/pullback/primitive_table.hpp"

namespace adsem::pullback {

namespace {

struct TapeNode {
  std::vector<std::pair<std::size_t, double>> parents; // (node, ∂this/∂parent)
  double value = 0;
};

// A Euclidean value as a tree of tape nodes, flattened left to right.
using TapeSlots = std::vector<std::size_t>;

class Tape {
public:
  std::size_t constant(double x) {
    nodes_.push_back({{}, x});
    return nodes_.size() - 1;
  }
  std::size_t node(double x, std::vector<std::pair<std::size_t, double>> parents) {
    nodes_.push_back({std::move(parents), x});
    return nodes_.size() - 1;
  }

  TapeSlots eval(const Term& t, const std::map<std::string, TapeSlots>& env, TapeResult& out) {
    switch (t->kind) {
    case Kind::var: {
      const auto it = env.find(t->name);
      if (it == env.end()) throw AdsemError(ErrorKind::eval, "tape: free variable " + t->name);
      return it->second;
    }
    case Kind::num:
      return {constant(t->value)};
    case Kind::zero: {
      TapeSlots s;
      for (std::size_t i = 0; i < dim(t->type); ++i)
        s.push_back(constant(0.0));
      return s;
    }
    case Kind::pair: {
      TapeSlots a = eval(t->kids[0], env, out);
      const TapeSlots b = eval(t->kids[1], env, out);
      a.insert(a.end(), b.begin(), b.end());
      return a;
    }
    case Kind::proj: {
      const TapeSlots a = eval(t->kids[0], env, out);
      const Type inner = type_of(t->kids[0]);
      const std::size_t left = dim(inner->left);
      return t->index == 1 ? TapeSlots(a.begin(), a.begin() + static_cast<long>(left))
                           : TapeSlots(a.begin() + static_cast<long>(left), a.end());
    }
    case Kind::sum: {
      TapeSlots acc = eval(t->kids[0], env, out);
      for (std::size_t k = 1; k < t->kids.size(); ++k) {
        const TapeSlots b = eval(t->kids[k], env, out);
        for (std::size_t i = 0; i < acc.size(); ++i)
          acc[i] = node(nodes_[acc[i]].value + nodes_[b[i]].value, {{acc[i], 1.0}, {b[i], 1.0}});
      }
      return acc;
    }
    case Kind::prim: {
      const TapeSlots a = eval(t->kids[0], env, out);
      std::vector<double> x;
      for (const std::size_t i : a)
        x.push_back(nodes_[i].value);
      const std::vector<double> y = prim_value(t->name, x); // forward: once per primitive
      ++out.primitive_evaluations;
      const Eigen::MatrixXd j = prim_jacobian(t->name, x); // the local partials on the tape
      TapeSlots s;
      for (std::size_t r = 0; r < y.size(); ++r) {
        std::vector<std::pair<std::size_t, double>> parents;
        for (std::size_t c = 0; c < a.size(); ++c)
          parents.push_back({a[c], j(static_cast<Eigen::Index>(r), static_cast<Eigen::Index>(c))});
        s.push_back(node(y[r], parents));
      }
      out.stages.push_back(y);
      return s;
    }
    case Kind::let: {
      const TapeSlots a = eval(t->kids[0], env, out);
      std::vector<double> v;
      for (const std::size_t i : a)
        v.push_back(nodes_[i].value);
      out.stages.push_back(v);
      std::map<std::string, TapeSlots> inner = env;
      inner[t->name] = a;
      return eval(t->kids[1], inner, out);
    }
    default:
      throw AdsemError(ErrorKind::eval, "tape: not a straight-line body");
    }
  }

  // Reverse sweep: adjoints β from the output seeds, last node first.
  std::vector<double> sweep(const TapeSlots& out, const std::vector<double>& seed) const {
    std::vector<double> adj(nodes_.size(), 0.0);
    for (std::size_t i = 0; i < out.size(); ++i)
      adj[out[i]] += seed.at(i);
    for (std::size_t k = nodes_.size(); k-- > 0;)
      for (const auto& [p, d] : nodes_[k].parents)
        adj[p] += d * adj[k];
    return adj;
  }
  double value(std::size_t i) const { return nodes_[i].value; }

private:
  std::vector<TapeNode> nodes_;
};

} // namespace

bool is_straight_line(const Term& t) {
  switch (t->kind) {
  case Kind::var:
  case Kind::num:
    return true;
  case Kind::zero:
    return is_euclidean(t->type);
  case Kind::pair:
  case Kind::proj:
  case Kind::sum:
  case Kind::prim:
  case Kind::let:
    for (const Term& k : t->kids)
      if (!is_straight_line(k)) return false;
    return true;
  default:
    return false;
  }
}

TapeResult tape_reverse(const Term& body, const std::string& y, const Type& sigma,
                        const std::vector<double>& point, const std::vector<double>& cotangent) {
  Tape tape;
  TapeResult out;
  TapeSlots inputs;
  for (const double x : point)
    inputs.push_back(tape.constant(x));
  if (inputs.size() != dim(sigma)) throw AdsemError(ErrorKind::eval, "tape: point size");
  const TapeSlots result = tape.eval(body, {{y, inputs}}, out);
  for (const std::size_t i : result)
    out.value.push_back(tape.value(i));
  const std::vector<double> adj = tape.sweep(result, cotangent);
  for (const std::size_t i : inputs)
    out.gradient.push_back(adj[i]);
  return out;
}

} // namespace adsem::pullback
