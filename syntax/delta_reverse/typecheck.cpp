#include "syntax/delta_reverse/typecheck.hpp"

#include "syntax/core/deep_walk.hpp"
#include "syntax/delta_reverse/nesting.hpp"
#include "syntax/delta_reverse/printer.hpp"
#include "syntax/delta_reverse/signature.hpp"

namespace adsem::delta_reverse {

namespace {

using K = TypeNode::Kind;

class Checker {
public:
  Typed run(const Term& t, Context& g) {
    return deeper(depth_, [&] { return run_here(t, g); });
  }

private:
  Typed run_here(const Term& t, Context& g) {
    const DepthGuard guard(depth_, t->pos);
    const Node& n = *t;
    const auto fail = [&](const std::string& message) -> Typed {
      throw AdsemError(ErrorKind::type, message, n.pos);
    };
    const auto kid = [&](std::size_t i) { return run(n.kids[i], g); };
    const auto expect = [&](const Typed& got, const Type& want, const std::string& what) {
      if (!same_type(got.type, want))
        fail(what + " has type " + print_type(got.type) + ", expected " + print_type(want));
    };
    const auto rebuild = [&](std::vector<Term> kids) {
      bool same = true;
      for (std::size_t i = 0; i < kids.size(); ++i)
        same = same && kids[i] == n.kids[i];
      if (same) return t;
      Node copy = n;
      copy.kids = std::move(kids);
      return Term(make_shared_node<const Node>(std::move(copy)));
    };
    switch (n.kind) {
    case Kind::var:
      for (std::size_t i = g.size(); i-- > 0;)
        if (g[i].first == n.name) return {g[i].second, t};
      return fail("unbound variable '" + n.name + "'");
    case Kind::lam: {
      g.emplace_back(n.name, n.type);
      Typed body = kid(0);
      g.pop_back();
      return {arrow_type(n.type, body.type), rebuild({body.term})};
    }
    case Kind::app: {
      const Typed f = kid(0);
      const Typed a = kid(1);
      if (f.type->kind != K::arrow)
        fail("applying a term of type " + print_type(f.type) + ", which is not a function");
      expect(a, f.type->left, "the argument");
      return {f.type->right, rebuild({f.term, a.term})};
    }
    case Kind::let: {
      const Typed e1 = kid(0);
      g.emplace_back(n.name, e1.type);
      Typed e2 = kid(1);
      g.pop_back();
      return {e2.type, rebuild({e1.term, e2.term})};
    }
    case Kind::pair: {
      const Typed a = kid(0);
      const Typed b = kid(1);
      return {product_type(a.type, b.type), rebuild({a.term, b.term})};
    }
    case Kind::fst:
    case Kind::snd: {
      const Typed e = kid(0);
      if (e.type->kind != K::product)
        fail(std::string(n.kind == Kind::fst ? "fst" : "snd") + " of a term of type " +
             print_type(e.type) + ", which is not a product");
      return {n.kind == Kind::fst ? e.type->left : e.type->right, rebuild({e.term})};
    }
    case Kind::inl: {
      const Typed e = kid(0);
      return {sum_type(e.type, n.type), rebuild({e.term})};
    }
    case Kind::inr: {
      const Typed e = kid(0);
      return {sum_type(n.type, e.type), rebuild({e.term})};
    }
    case Kind::case_: {
      const Typed e0 = kid(0);
      if (e0.type->kind != K::sum)
        fail("case on a term of type " + print_type(e0.type) + ", which is not a sum");
      g.emplace_back(n.name, e0.type->left);
      const Typed e1 = kid(1);
      g.back() = {n.name2, e0.type->right};
      const Typed e2 = kid(2);
      g.pop_back();
      if (!same_type(e1.type, e2.type))
        fail("the case branches have types " + print_type(e1.type) + " and " + print_type(e2.type));
      return {e1.type, rebuild({e0.term, e1.term, e2.term})};
    }
    case Kind::real:
      return {real_type(), t};
    case Kind::integer:
      return {int_type(), t};
    case Kind::prim: {
      const Type p = prim_type(n.name);
      if (!p) fail("unknown primitive '" + n.name + "'");
      return {p, t};
    }
    // the array extension's own typing rules (§10.2, L848-852, footnote 12, L864)
    case Kind::index: // index[A] : (Vector A × N) → A, N read as Int
      return {arrow_type(product_type(vector_type(n.type), int_type()), n.type), t};
    case Kind::build: // build[A] : (N × (N → A)) → Vector A
      return {
          arrow_type(product_type(int_type(), arrow_type(int_type(), n.type)), vector_type(n.type)),
          t};
    case Kind::sum_v: // sumV[A] : Vector A → A (spec §9.12, an extension, not the paper's)
      if (!additive(n.type)) fail("sumV over " + print_type(n.type) + ", which is not additive");
      return {arrow_type(vector_type(n.type), n.type), t};
    case Kind::sequence: { // sequence[A] : Vector (M A) → M (Vector A) (L856)
      const Typed e = kid(0);
      expect(e, vector_type(monad_type(n.type)), "the argument of sequence");
      return {monad_type(vector_type(n.type)), rebuild({e.term})};
    }
    case Kind::proj: {
      const Typed e = kid(0);
      // spine A1 * (A2 * (... * An)), expanded maximally to the right (spec §2.2)
      std::size_t arity = 1;
      for (Type s = e.type; s->kind == K::product; s = s->right)
        ++arity;
      const auto i = static_cast<std::size_t>(n.integer);
      if (i < 1 || i > arity)
        fail("projection ." + std::to_string(i) + " of a term of type " + print_type(e.type) +
             " (spine arity " + std::to_string(arity) + ")");
      Term out = e.term;
      Type ty = e.type;
      for (std::size_t k = 1; k < i; ++k) {
        out = snd(out, n.pos);
        ty = ty->right;
      }
      if (i < arity) {
        out = fst(out, n.pos);
        ty = ty->left;
      }
      return {ty, out};
    }
    case Kind::pure: {
      const Typed e = kid(0);
      return {monad_type(e.type), rebuild({e.term})};
    }
    case Kind::bind: {
      const Typed e1 = kid(0);
      if (e1.type->kind != K::monad)
        fail("a do statement of type " + print_type(e1.type) + ", which is not M A");
      if (!n.name.empty()) g.emplace_back(n.name, e1.type->left);
      const Typed e2 = kid(1);
      if (!n.name.empty()) g.pop_back();
      if (e2.type->kind != K::monad)
        fail("the rest of a do block has type " + print_type(e2.type) + ", which is not M B");
      return {e2.type, rebuild({e1.term, e2.term})};
    }
    case Kind::delta_let: {
      const Typed e = kid(0);
      expect(e, delta_type(), "the argument of deltaLet");
      return {monad_type(delta_id_type()), rebuild({e.term})};
    }
    case Kind::d_zero:
      return {delta_type(), t};
    case Kind::d2_zero:
      return {delta2_type(), t};
    case Kind::s_zero:
      return {dense_type(), t};
    case Kind::d_var: {
      const Typed e = kid(0);
      // an integer literal names an id directly (tapes written by hand, spec §2.2)
      if (n.kids[0]->kind != Kind::integer) expect(e, delta_id_type(), "the argument of Var");
      return {delta_type(), rebuild({e.term})};
    }
    case Kind::d2_onehot: {
      const Typed e = kid(0);
      expect(e, int_type(), "the argument of OneHot");
      return {delta2_type(), rebuild({e.term})};
    }
    case Kind::d_scale:
    case Kind::d2_scale:
    case Kind::s_otimes:
    case Kind::d_add:
    case Kind::d2_add:
    case Kind::s_oplus: {
      const Type d = (n.kind == Kind::d_scale || n.kind == Kind::d_add)     ? delta_type()
                     : (n.kind == Kind::d2_scale || n.kind == Kind::d2_add) ? delta2_type()
                                                                            : dense_type();
      const bool scale =
          n.kind == Kind::d_scale || n.kind == Kind::d2_scale || n.kind == Kind::s_otimes;
      const Typed a = kid(0);
      const Typed b = kid(1);
      expect(a, scale ? real_type() : d, "the first argument");
      expect(b, d, "the second argument");
      return {d, rebuild({a.term, b.term})};
    }
    }
    return fail("unknown term form");
  }

  DepthBudget depth_{max_source_nesting, 0, ErrorKind::type};
};

} // namespace

Typed typecheck(const Term& t, const Context& gamma) {
  Context g = gamma;
  Checker c;
  return c.run(t, g);
}

std::optional<std::string> type_error(const Term& t, const Context& gamma, const Type& expected) {
  try {
    const Typed typed = typecheck(t, gamma);
    if (expected && !same_type(typed.type, expected))
      return "has type " + print_type(typed.type) + ", expected " + print_type(expected);
    return std::nullopt;
  } catch (const AdsemError& e) {
    return e.diagnostic().render();
  }
}

} // namespace adsem::delta_reverse
