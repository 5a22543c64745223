// Rules of spec §3.2 (seed 002 Table 1, L308-316, [RECON]); the comments name them.
#include "syntax/linear_negation/typecheck.hpp"

#include <algorithm>
#include <span>
#include <utility>

#include "syntax/core/depth_guard.hpp"
#include "syntax/linear_negation/nesting.hpp"
#include "syntax/linear_negation/printer.hpp"
#include "syntax/linear_negation/type_scope.hpp"

namespace adsem::linear_negation {

namespace {

class Checker {
public:
  // gamma's names are viewed, not copied: it outlives the check.
  Checker(const Context& gamma, const Signature& signature, TypeOptions options)
      : signature_(signature), options_(options) {
    for (const auto& [x, a] : gamma) {
      Scope::Entry& e = scope_.slot(x);
      e.type = a;
      e.bound = true;
    }
  }

  // L: the linear variable of the judgment (Γ ⊢_L t), or "" for Γ ⊢ t.
  Typed synth(const Term& t, const std::string& L) {
    const DepthGuard guard(budget_, t->pos);
    switch (t->kind) {
    case Kind::var: {
      if (!L.empty() && t->name == L) return {t, real_}; // (ax-lin)
      const Scope::Entry* in = scope_.find(t->name);
      if (!in || !in->bound) {
        if (in && in->linear)
          fail(t, "linear variable " + t->name + " used outside its linear judgment");
        fail(t, "unbound variable " + t->name);
      }
      if (!L.empty())
        fail(t, "exponential variable " + t->name + " where the term must be linear in " + L +
                    " (no linear (ax) for exponential variables)");
      return {t, in->type}; // (ax)
    }
    case Kind::num:
      if (!L.empty() && t->value != 0.0)
        fail(t, "the numeral " + format_real(t->value) + " is not linear in " + L +
                    " (only 0 is, rule (zero))");
      return {t, real_}; // (num) / (zero)
    case Kind::lam: {
      if (!L.empty()) fail(t, "an abstraction cannot be linear in " + L);
      if (t->x.linear) { // (λ-lin)
        if (options_.source) fail(t, "linear abstraction in a source term");
        guard_fresh(t, t->x.name);
        const Typed body = linear_under(t->x.name, [&] { return synth(t->body(), t->x.name); });
        if (!is_euclidean(body.type))
          fail(t, "the body of a linear abstraction must have a Euclidean type R^d, not " +
                      type_text(body.type));
        return {rebuilt(t, {body.term}), neg_type(euclidean_dim(body.type))};
      }
      if (!t->x.type) fail(t, "λ binder " + t->x.name + " needs a type");
      check_source_type(t, t->x.type);
      const Typed body = under(t->x.name, t->x.type, [&] { return synth(t->body(), ""); });
      return {rebuilt(t, {body.term}), arrow_type(t->x.type, body.type)}; // (λ)
    }
    case Kind::app: {
      const Typed f = synth(t->left(), "");
      if (is_arrow(f.type)) { // (app)
        if (!L.empty()) fail(t, "an ordinary application cannot be linear in " + L);
        const Typed u = synth(t->right(), "");
        expect(t->right(), u.type, f.type->left, [] { return std::string("argument"); });
        return {rebuilt(t, {f.term, u.term}), f.type->right};
      }
      if (is_neg(f.type)) { // (app-lin)
        const Typed u = synth(t->right(), L);
        expect(t->right(), u.type, real_,
               [] { return std::string("argument of a linear application"); });
        return {rebuilt(t, {f.term, u.term}), euclidean(f.type->dim)};
      }
      fail(t->left(), "applying a term of type " + type_text(f.type) + ", not a function");
    }
    case Kind::pair: { // (pair)
      const Typed a = synth(t->left(), L);
      const Typed b = synth(t->right(), L);
      return {rebuilt(t, {a.term, b.term}), product_type(a.type, b.type)};
    }
    case Kind::add: { // (sum)
      const Typed a = synth(t->left(), L);
      const Typed b = synth(t->right(), L);
      if (!same_type(a.type, b.type))
        fail(t, "summands of types " + type_text(a.type) + " and " + type_text(b.type));
      if (!is_first_order(a.type))
        fail(t, "sum at type " + type_text(a.type) + ": sums are at Euclidean types only");
      if (options_.source && !is_real(a.type))
        fail(t, "source sums are at type R only (spec §3.5)");
      return {rebuilt(t, {a.term, b.term}), a.type};
    }
    case Kind::prim: {
      const Primitive info = primitive(t->name);
      if (!info.known) fail(t, "unknown primitive " + t->name);
      if (static_cast<int>(t->kids.size()) != info.arity)
        fail(t, t->name + " takes " + std::to_string(info.arity) + " argument(s), got " +
                    std::to_string(t->kids.size()));
      if (info.mul && !L.empty()) { // (mul) / (mul'), Note M
        // z in u: (mul); z in t: (mul'); in neither: one factor must be 0-like (spec §3.4)
        const bool in_left = occurs_free(L, t->kids[0]);
        const bool in_right = occurs_free(L, t->kids[1]);
        const auto attempt = [&](bool right_linear) -> Typed {
          const Typed a = synth(t->kids[0], right_linear ? "" : L);
          const Typed b = synth(t->kids[1], right_linear ? L : "");
          const auto factor = [] { return std::string("factor"); };
          expect(t->kids[0], a.type, real_, factor);
          expect(t->kids[1], b.type, real_, factor);
          return {rebuilt(t, {a.term, b.term}), real_};
        };
        if (in_left && in_right)
          fail(t, "the linear variable " + L + " occurs in both factors of a product");
        if (in_left || in_right) return attempt(in_right);
        try {
          return attempt(true);
        } catch (const AdsemError&) {
          return attempt(false);
        }
      }
      if (!L.empty()) fail(t, "primitive " + t->name + " cannot be linear in " + L);
      // the checked arguments, kept only from the first that elaboration changed (none, when t
      // was elaborated before)
      std::vector<Term> kids;
      for (std::size_t i = 0; i < t->kids.size(); ++i) { // (prim)
        const Term& k = t->kids[i];
        Typed a = synth(k, "");
        expect(k, a.type, real_, [&] { return "argument of " + t->name; });
        if (kids.empty() && a.term != k) kids.assign(t->kids.begin(), t->kids.begin() + i);
        if (!kids.empty() || a.term != k) kids.push_back(std::move(a.term));
      }
      if (kids.empty()) return {t, real_};
      return {rebuilt(t, kids), real_};
    }
    case Kind::let: {
      if (t->x.linear) { // (let-lin)
        if (options_.source) fail(t, "linear substitution in a source term");
        const Typed u = synth(t->bound(), L);
        expect(t->bound(), u.type, real_,
               [] { return std::string("content of a linear substitution"); });
        guard_fresh(t, t->x.name);
        const Typed body = linear_under(t->x.name, [&] { return synth(t->body(), t->x.name); });
        if (!is_first_order(body.type))
          fail(t, "the body of a linear substitution must have a Euclidean type");
        return {rebuilt(t, {body.term, u.term}), body.type};
      }
      const Typed u = synth(t->bound(), ""); // (let)
      if (t->x.type)
        expect(t->bound(), u.type, t->x.type,
               [&] { return "content of [" + t->x.name + " := …]"; });
      const Typed body = under(t->x.name, u.type, [&] { return synth(t->body(), L); });
      if (t->x.type) // checked against u's type above
        return {rebuilt(t, {body.term, u.term}), body.type};
      Node n = *t;
      n.x.type = u.type;
      return {rebuild(n, {body.term, u.term}), body.type};
    }
    case Kind::let_pair: { // (let-pair)
      const Typed u = synth(t->bound(), "");
      if (!is_product(u.type))
        fail(t->bound(), "a pair pattern needs a product, not " + type_text(u.type));
      if (t->x.type)
        expect(t->bound(), t->x.type, u.type->left,
               [] { return std::string("first pattern variable"); });
      if (t->y.type)
        expect(t->bound(), t->y.type, u.type->right,
               [] { return std::string("second pattern variable"); });
      if (t->x.name == t->y.name) fail(t, "the pattern binds " + t->x.name + " twice");
      const Typed body = under(t->x.name, u.type->left, [&] {
        return under(t->y.name, u.type->right, [&] { return synth(t->body(), L); });
      });
      if (t->x.type && t->y.type) // both checked against u's type above
        return {rebuilt(t, {body.term, u.term}), body.type};
      Node n = *t;
      n.x.type = u.type->left;
      n.y.type = u.type->right;
      return {rebuild(n, {body.term, u.term}), body.type};
    }
    }
    fail(t, "unknown term");
  }

private:
  // t itself when the checked children are t's own (an elaborated term checked again, as after
  // every step of subject reduction): no node is built; otherwise t over the new children.
  static Term rebuilt(const Term& t, std::span<const Term> kids) {
    const auto same = [](const Term& a, const Term& b) { return a.get() == b.get(); };
    if (std::equal(t->kids.begin(), t->kids.end(), kids.begin(), kids.end(), same)) return t;
    return rebuild(*t, std::vector<Term>(kids.begin(), kids.end()));
  }
  static Term rebuilt(const Term& t, std::initializer_list<Term> kids) {
    return rebuilt(t, std::span<const Term>(kids.begin(), kids.size()));
  }

  // Γ, x : a while `body` runs (x's previous type, if any, comes back after it). A binder may
  // not shadow a linear variable in scope.
  template <class F> Typed under(const std::string& x, const Type& a, F body) {
    Scope::Entry& e = scope_.slot(x);
    if (e.linear) throw AdsemError(ErrorKind::type, "binder " + x + " shadows a linear variable");
    Type saved = std::exchange(e.type, a);
    const bool was_bound = std::exchange(e.bound, true);
    Typed out = body();
    // the slot, found again: the body may have added names (a table that grew moved its entries)
    Scope::Entry& after = scope_.slot(x);
    after.type = std::move(saved);
    after.bound = was_bound;
    return out;
  }
  // z in scope as the linear variable of a judgment while `body` runs.
  template <class F> Typed linear_under(const std::string& z, F body) {
    scope_.slot(z).linear = true;
    Typed out = body();
    scope_.slot(z).linear = false;
    return out;
  }
  void guard_fresh(const Term& t, const std::string& z) {
    const Scope::Entry* e = scope_.find(z);
    if (e && (e->bound || e->linear)) fail(t, "linear binder " + z + " shadows another variable");
  }
  // The signature's answer for a spelling, asked once per check (a term calls few primitives,
  // each many times).
  struct Primitive {
    std::string_view spelling;
    bool known = false;
    int arity = 0;
    bool mul = false; // the table's mul, under any spelling
  };
  Primitive primitive(const std::string& spelling) {
    for (const Primitive& p : primitives_)
      if (same_name(p.spelling, spelling)) return p;
    const auto info = signature_ ? signature_(spelling) : std::nullopt;
    primitives_.push_back(info ? Primitive{spelling, true, info->arity, info->name == "mul"}
                               : Primitive{spelling});
    return primitives_.back();
  }
  void check_source_type(const Term& t, const Type& a) {
    if (options_.source && has_neg(a)) fail(t, "type " + type_text(a) + " is not a source type");
  }
  // `what` names the checked part for the message, built only when the check fails.
  template <class What>
  void expect(const Term& at, const Type& got, const Type& want, const What& what) {
    if (!same_type(got, want))
      fail(at, what() + " has type " + type_text(got) + ", expected " + type_text(want));
  }
  [[noreturn]] void fail(const Term& t, const std::string& message) {
    throw AdsemError(ErrorKind::type, message, t->pos);
  }

  const Signature& signature_;
  TypeOptions options_;
  Scope scope_;
  std::vector<Primitive> primitives_;
  const Type real_ = real_type();
  DepthBudget budget_{max_nesting, 0, ErrorKind::type};
};

} // namespace

Typed typecheck(const Term& t, const Context& gamma, const Signature& signature,
                std::optional<std::string> linear, TypeOptions options) {
  return on_stack_for(t, [&] {
    Checker checker(gamma, signature, options);
    const std::string L = linear.value_or("");
    return checker.synth(t, L);
  });
}

std::optional<std::string> type_error(const Term& t, const Context& gamma, const Type& expected,
                                      const Signature& signature, std::optional<std::string> linear,
                                      TypeOptions options) {
  try {
    const Typed r = typecheck(t, gamma, signature, std::move(linear), options);
    if (expected && !same_type(r.type, expected))
      return "type " + type_text(r.type) + ", expected " + type_text(expected);
    return std::nullopt;
  } catch (const AdsemError& e) {
    return e.diagnostic().render();
  }
}

} // namespace adsem::linear_negation
