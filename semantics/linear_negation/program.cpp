#include "semantics/linear_negation/program.hpp"

#include "semantics/linear_negation/primitives.hpp"
#include "syntax/core/depth_check.hpp"
#include "syntax/linear_negation/nesting.hpp"
#include "syntax/linear_negation/printer.hpp"

namespace adsem::linear_negation {

namespace {
// the renaming of elaborate and with_unique_binders (it recurses: called on the stack t needs)
Term unique_binders(const Term& t, const Context& gamma) {
  if (binders_unique(t)) return t; // what the renaming would return, without its Names
  Names names(t);
  for (const auto& [x, a] : gamma)
    names.reserve(x);
  return make_binders_unique(t, names);
}
} // namespace

Typed elaborate(const Term& t, const Context& gamma, bool source) {
  // the walks below recurse (on the large stack, nesting.hpp): the type checker's depth limit is
  // checked first, without recursion. A node's height is set when it is made (ast.hpp), and the
  // large stack is chosen by it: only a term past the limit is walked, for the located error.
  if (t->height > max_nesting)
    check_depth(
        t, DepthBudget{max_nesting, 0, ErrorKind::type},
        [](const Term& n) -> const std::vector<Term>& { return n->kids; },
        [](const Term& n) { return n->pos; });
  return on_stack_for(t, [&] {
    TypeOptions o;
    o.source = source;
    return typecheck(unique_binders(t, gamma), gamma, signature(), std::nullopt, o);
  });
}

Term with_unique_binders(const Term& t, const Context& gamma) {
  return on_stack_for(t, [&] { return unique_binders(t, gamma); });
}

Typed parse_elaborated(const std::string& text, Mode mode, const Context& gamma) {
  return elaborate(parse_term(text, signature(), mode), gamma, mode == Mode::source);
}

namespace {
Term tuple_of(const Type& e, const std::vector<std::string>& xs, std::size_t& next) {
  if (is_product(e)) {
    Term a = tuple_of(e->left, xs, next);
    Term b = tuple_of(e->right, xs, next);
    return pair(a, b);
  }
  return var(xs.at(next++));
}
} // namespace

RealFunction real_function(const Typed& f) {
  const auto fail = [&]() -> RealFunction {
    throw AdsemError(ErrorKind::type, "grad needs a closed function of reals to R (R -> … -> R, "
                                      "or a product of R's -> R), got " +
                                          type_text(f.type));
  };
  if (!is_arrow(f.type)) return fail();
  Names names(f.term);
  RealFunction out;
  if (is_first_order(f.type->left) && !is_real(f.type->left)) { // tupled
    if (!is_real(f.type->right)) return fail();
    const int n = euclidean_dim(f.type->left);
    for (int i = 0; i < n; ++i)
      out.inputs.push_back(names.fresh("x"));
    std::size_t next = 0;
    out.body = app(f.term, tuple_of(f.type->left, out.inputs, next));
    return out;
  }
  // curried: peel leading λx:!R, then apply to fresh variables for the rest
  Term body = f.term;
  Type t = f.type;
  while (is_arrow(t) && is_real(t->left)) {
    if (body->kind == Kind::lam && !body->x.linear) {
      out.inputs.push_back(body->x.name);
      body = body->body();
    } else {
      out.inputs.push_back(names.fresh("x"));
      body = app(body, var(out.inputs.back()));
    }
    t = t->right;
  }
  if (!is_real(t)) return fail();
  out.body = body;
  return out;
}

std::vector<double> ground_result(const Run& run) {
  if (!is_numeral_tuple(run.result))
    throw AdsemError(ErrorKind::eval,
                     "the normal form is not a numeral tuple: " + print(run.result));
  return numeral_reals(run.result);
}

} // namespace adsem::linear_negation
