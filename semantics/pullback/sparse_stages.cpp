#include "semantics/pullback/sparse_stages.hpp"

#include <unordered_map>
#include <utility>

#include "semantics/pullback/anf.hpp"
#include "semantics/pullback/primitive_table.hpp"

namespace adsem::pullback {

namespace {

struct Unsupported {}; // the body leaves the first-order Euclidean fragment

// A Euclidean value of the flat stage tuple: its slots in the store, flattened left to right.
struct Slots {
  std::vector<std::size_t> at;
  Type type;
};

// The flat stage tuple: one store of scalars, each with the local partials of the stage that made
// it (the row's Jacobian), and the environment z ↦ slots (O(1) projection instead of rule 8's
// nested paths).
class Stages {
public:
  explicit Stages(SparseGradient& out) : out_(out) {}

  Slots input(const std::string& y, const Type& sigma, const std::vector<double>& point) {
    if (!is_euclidean(sigma) || point.size() != dim(sigma)) throw Unsupported{};
    Slots s{{}, sigma};
    for (const double x : point)
      s.at.push_back(scalar(x, {}));
    env_[y] = s;
    return s;
  }

  // One bound term of the source's let chain: divided (compact ANF) into stages.
  Slots bind(const Term& bound) {
    Term l = anf(bound);
    while (l->kind == Kind::let) {
      stage(l->name, l->kids[0]);
      l = l->kids[1];
    }
    return atom(l); // ANF ends in the variable of its last stage
  }
  void define(const std::string& x, Slots s) { env_[x] = std::move(s); }

  // Rule 5⁺ on the sparse covector: stages last to first, each reading only its own slots.
  std::vector<double> sweep(const Slots& result, const std::vector<double>& cotangent,
                            const Slots& inputs) {
    std::vector<double> adj(store_.size(), 0.0);
    for (std::size_t i = 0; i < result.at.size(); ++i)
      adj[result.at[i]] += cotangent.at(i);
    for (std::size_t k = stage_begin_.size(); k-- > 0;) {
      const std::size_t end = k + 1 < stage_begin_.size() ? stage_begin_[k + 1] : store_.size();
      bool nonzero = false;
      for (std::size_t s = end; s-- > stage_begin_[k];) {
        if (adj[s] == 0.0) continue; // the Z-rules: a zero cotangent pulls back to zero
        nonzero = true;
        for (const auto& [p, d] : store_[s].partials)
          adj[p] += d * adj[s];
      }
      if (nonzero) ++out_.steps;
    }
    std::vector<double> g;
    for (const std::size_t i : inputs.at)
      g.push_back(adj[i]);
    return g;
  }
  std::vector<double> values(const Slots& s) const {
    std::vector<double> v;
    for (const std::size_t i : s.at)
      v.push_back(store_[i].value);
    return v;
  }

private:
  struct Scalar {
    double value = 0;
    std::vector<std::pair<std::size_t, double>> partials; // (slot read, ∂this/∂slot)
  };

  std::size_t scalar(double x, std::vector<std::pair<std::size_t, double>> partials) {
    store_.push_back({x, std::move(partials)});
    return store_.size() - 1;
  }

  // Split (rule 8's stage) and conquer (the row of Fig. 3 that fits E): two steps.
  void stage(const std::string& z, const Term& e) {
    stage_begin_.push_back(store_.size());
    out_.steps += 2;
    ++out_.forward_steps;
    ++out_.stages;
    env_[z] = elementary(e);
  }

  // y_p: a variable's slots along the path (rows 11, 12), no new slot. [perf] A path's place in
  // its root's slots is remembered per node (`paths_`): a curried function's inputs are paths
  // p.1…1.2 over one shared spine, as long as the input's position, and reading each from the
  // root copied the root's slots at every level (the wide sum's n inputs, Θ(n²)). The place is
  // relative to the root's slots, read at each use: a let that binds the root's name again binds
  // it at the type in the variable node, so the same place holds in the new slots.
  Slots atom(const Term& t) {
    if (t->kind == Kind::var) {
      const auto it = env_.find(t->name);
      if (it == env_.end()) throw Unsupported{};
      return it->second;
    }
    const Path& p = path(t);
    const std::vector<std::size_t>& root = env_.at(p.root).at;
    return {{root.begin() + static_cast<long>(p.begin), root.begin() + static_cast<long>(p.end)},
            p.type};
  }
  // A projection path's root variable, its slots' range in the root's and its type.
  struct Path {
    std::string root;
    std::size_t begin = 0, end = 0;
    Type type;
  };
  // (a loop, not a recursion: the first input's path is as long as the tuple)
  const Path& path(const Term& t) {
    std::vector<const Term*> down; // the projections not remembered yet, outermost first
    const Term* at = &t;
    const Path* known = nullptr;
    for (;; at = &(*at)->kids[0]) {
      if (const auto hit = paths_.find(at->get()); hit != paths_.end()) {
        known = &hit->second.path;
        break;
      }
      if ((*at)->kind != Kind::proj) break;
      down.push_back(at);
    }
    Path p;
    if (known) {
      p = *known;
    } else {
      if ((*at)->kind != Kind::var) throw Unsupported{};
      const auto it = env_.find((*at)->name);
      if (it == env_.end()) throw Unsupported{};
      p = {(*at)->name, 0, it->second.at.size(), it->second.type};
    }
    const Path* out = known;
    for (auto it = down.rbegin(); it != down.rend(); ++it) {
      if (!is_prod(p.type)) throw Unsupported{};
      const std::size_t left = dim(p.type->left);
      if ((**it)->index == 1) {
        p.end = p.begin + left;
        p.type = p.type->left;
      } else {
        p.begin += left;
        p.type = p.type->right;
      }
      out = &paths_.emplace((*it)->get(), Remembered{**it, p}).first->second.path;
    }
    return *out;
  }

  Slots elementary(const Term& e) {
    switch (e->kind) {
    case Kind::var:
    case Kind::proj:
      return atom(e);
    case Kind::num: // row 9: closed
      return {{scalar(e->value, {})}, real_type()};
    case Kind::zero: {
      if (!e->type || !is_euclidean(e->type)) throw Unsupported{};
      Slots s{{}, e->type};
      for (std::size_t i = 0; i < dim(e->type); ++i)
        s.at.push_back(scalar(0.0, {}));
      return s;
    }
    case Kind::pair: { // row 13: ⟨v_p, v_q⟩, the slots themselves
      Slots a = elementary(e->kids[0]);
      const Slots b = elementary(e->kids[1]);
      a.at.insert(a.at.end(), b.at.begin(), b.at.end());
      a.type = prod(a.type, b.type);
      return a;
    }
    case Kind::sum: { // row 10: v_p + v_q
      std::vector<Slots> items;
      for (const Term& k : e->kids)
        items.push_back(elementary(k));
      Slots s{{}, items.front().type};
      for (std::size_t i = 0; i < items.front().at.size(); ++i) {
        double x = 0;
        std::vector<std::pair<std::size_t, double>> partials;
        for (const Slots& item : items) {
          x += store_[item.at.at(i)].value;
          partials.emplace_back(item.at[i], 1.0);
        }
        s.at.push_back(scalar(x, std::move(partials)));
      }
      return s;
    }
    case Kind::prim: { // row 15: (𝒥f̲·v_p) V_p, f̲ evaluated once
      const Slots a = elementary(e->kids[0]);
      const std::vector<double> x = values(a);
      const std::vector<double> fx = prim_value(e->name, x);
      const Eigen::MatrixXd j = prim_jacobian(e->name, x);
      Slots s{{}, e->type->right};
      for (std::size_t r = 0; r < fx.size(); ++r) {
        std::vector<std::pair<std::size_t, double>> partials;
        for (std::size_t c = 0; c < a.at.size(); ++c)
          partials.emplace_back(a.at[c],
                                j(static_cast<Eigen::Index>(r), static_cast<Eigen::Index>(c)));
        s.at.push_back(scalar(fx[r], std::move(partials)));
      }
      return s;
    }
    default:
      throw Unsupported{};
    }
  }

  SparseGradient& out_;
  std::vector<Scalar> store_;
  std::vector<std::size_t> stage_begin_; // first slot each stage made
  std::unordered_map<std::string, Slots> env_;
  struct Remembered {
    Term node; // held: its address is the key
    Path path;
  };
  std::unordered_map<const Node*, Remembered> paths_;
};

} // namespace

std::optional<SparseGradient> sparse_stage_gradient(const Term& body, const std::string& y,
                                                    const Type& sigma,
                                                    const std::vector<double>& point,
                                                    const std::vector<double>& cotangent,
                                                    bool reverse) {
  SparseGradient out;
  try {
    Stages stages(out);
    const Slots inputs = stages.input(y, sigma, point);
    ++out.steps;   // A*
    Term t = body; // the source's let chain, walked without recursion (long series)
    while (t->kind == Kind::let) {
      stages.define(t->name, stages.bind(t->kids[0]));
      t = t->kids[1];
    }
    const Slots result = stages.bind(t);
    if (!is_euclidean(result.type)) throw Unsupported{};
    out.value = stages.values(result);
    if (reverse) {
      if (cotangent.size() != result.at.size()) throw Unsupported{};
      out.gradient = stages.sweep(result, cotangent, inputs);
      ++out.steps; // ω W → c*
    }
  } catch (const Unsupported&) {
    return std::nullopt;
  }
  return out;
}

} // namespace adsem::pullback
