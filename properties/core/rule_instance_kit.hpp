#pragma once
// One instance C[σ(LHS)] / C[σ(RHS)] of a user rule and the trial run on it, for every calculus
// whose check-rule contexts are generated terms with one hole (rule_adapter_kit.hpp has the
// adapter around it). The shape is the same everywhere; a calculus's `Draw` traits say only
// what differs: its terms and scopes, how it generates a term of a type, uses a hole, plugs one,
// draws a point, and prints.
//
// The draw order is fixed (RapidCheck seeds replay it): the context's free variables, the
// context (up to `context_attempts` times until it mentions the hole, else the hole is used on
// top), the hole's place, σ (each metavariable in declaration order, over what it sees at the
// hole), the other holes filled, the point. A context without binders (`sigma_first`) draws σ
// before the context, over the frame.
//
// Draw traits (a calculus's term functions found by argument-dependent lookup where it has them:
// occurrences, instantiate, print, replace_at, zero_of):
//   using Pattern, Term, Hole (what `occurrences` gives), Frame (the context's free variables);
//   static constexpr int context_attempts; static constexpr const char* calculus;
//   static Frame frame(const Pattern&);                       draws what the context is over
//   static Term context(const Pattern&, Frame&);              ⊢ C : result, the hole in scope
//   static Scope outer(const Pattern&, const Frame&);         around C (`occurrences`' scope)
//   static Term use_hole(const Term& c, const Pattern&, const Frame&);  C mentioning the hole
//     (left out where every context has the hole by construction)
//   static Term meta_term(const Scope& visible, const Metavariable&, std::size_t index)
//     (or with a last `Frame&`, when the frame carries what σ draws from: binder numbering, ids)
//     or static std::map<std::string, Term> sigma(const Pattern&, const Hole&, std::string& shown)
//   static Term marker(const Pattern&);                       "[ ]" at the hole's type
//   static std::vector<double> point(const Frame&);
//   static std::string at_text(const Frame&, const std::vector<double>&);
//   static std::string result_text(); static int size(const Term&);
//   static std::vector<std::string> tags(const Term&);
// (a calculus whose point is not a vector of reals leaves out point and at_text, and draws and
// reports its point itself after the instance: delta-reverse's source rules);
// and where the calculus differs from the default:
//   static int pick(int n);                                   a place among n (inRange)
//   static constexpr bool sigma_first = true;                 the hole sees no context binder
//   static Scope visible(const Hole&);                        Hole::visible
//   static Term place(const Term& c, const std::vector<Hole>&, std::size_t, const Term& with),
//     fill_others(c, holes, which, const Pattern&)            replace_at, other holes zero_of
// and, for the campaign statistics of where instances sit (placement tags):
//   static bool under_binder(const Hole&, const Frame&);      a context binder is around it
//   static bool mentions(const Term&, const Scope&, const Frame&)   a name of the scope but x
#include <algorithm>
#include <cstddef>
#include <functional>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <rapidcheck.h>

#include "properties/core/rule_adapter_kit.hpp"
#include "properties/core/rule_pattern_kit.hpp"

namespace adsem::rules {

// The hole of a context (never a user name: every calculus's rule parser refuses primes).
inline const std::string context_hole = "hole'";

template <class D> struct Instance {
  using Term = typename D::Term;
  typename D::Frame frame;
  std::vector<double> at;
  Term lhs, rhs;          // σ(LHS), σ(RHS)
  Term before, after;     // C[σ(LHS)], C[σ(RHS)]
  std::string report;     // the instance as reports show it
  std::string assignment; // "M := ..., N := ..." or "no metavariables"
  std::string shown;      // the context with "[ ]" at the hole
  // where the instance sits and what it mentions (campaign statistics: the hole under a context
  // binder, an instance that uses a context binder or a binder of the left-hand side)
  std::vector<std::string> placement;

  props::TrialResult done(props::TrialResult r) const {
    std::vector<std::string> tags = D::tags(before);
    tags.insert(tags.end(), placement.begin(), placement.end());
    r.on(report, D::result_text(), D::size(before), std::move(tags));
    return r;
  }
};

// A choice in [lo, hi), uniform at every size, shrinking towards lo (RapidCheck's nominal size,
// so that a choice does not depend on how far a campaign has grown its terms).
inline int uniform(int lo, int hi) {
  return *rc::gen::resize(rc::kNominalSize, rc::gen::inRange(lo, hi));
}

namespace detail {
inline void tag(std::vector<std::string>& tags, const std::string& t) {
  if (std::ranges::find(tags, t) == tags.end()) tags.push_back(t);
}
template <class D> int pick(int n) {
  if constexpr (requires { D::pick(n); })
    return D::pick(n);
  else
    return uniform(0, n);
}
template <class D> auto visible(const typename D::Hole& hole) {
  if constexpr (requires { D::visible(hole); })
    return D::visible(hole);
  else
    return hole.visible;
}
template <class D, class Term>
Term place(const Term& c, const std::vector<typename D::Hole>& holes, std::size_t which,
           const Term& with) {
  if constexpr (requires { D::place(c, holes, which, with); })
    return D::place(c, holes, which, with);
  else
    return replace_at(c, holes[which].path, with);
}
template <class D, class Term>
Term fill_others(const Term& c, const std::vector<typename D::Hole>& holes, std::size_t which,
                 const typename D::Pattern& p) {
  if constexpr (requires { D::fill_others(c, holes, which, p); })
    return D::fill_others(c, holes, which, p);
  else
    return zero_other_holes(c, holes, which, zero_of(p.type),
                            [](const Term& t, const auto& path, const Term& with) {
                              return replace_at(t, path, with);
                            });
}
} // namespace detail

// "σ(LHS)  -->  σ(RHS)   with σ   in context C[[ ]]": an instance as reports show it, before
// where it is evaluated.
template <class D> std::string instance_text(const Instance<D>& in) {
  return fmt::format("{}  -->  {}   with {}   in context {}", print(in.lhs), print(in.rhs),
                     in.assignment, in.shown);
}

template <class D>
Instance<D> draw_instance(const typename D::Pattern& p, typename D::Frame frame) {
  using Term = typename D::Term;
  constexpr bool placement = requires {
    D::under_binder;
  };
  Instance<D> in;
  in.frame = std::move(frame);
  // σ: each metavariable a term of its type over what it may see (capture on purpose)
  std::map<std::string, Term> sigma;
  std::string assignment;
  const auto draw_sigma = [&](const auto& visible) {
    for (std::size_t i = 0; i < p.metas.size(); ++i) {
      const auto& m = p.metas[i];
      auto scope = visible;
      scope.insert(scope.end(), m.binders.begin(), m.binders.end());
      const Term term = [&] {
        if constexpr (requires { D::meta_term(scope, m, i, in.frame); })
          return D::meta_term(scope, m, i, in.frame);
        else
          return D::meta_term(scope, m, i);
      }();
      sigma[m.name] = term;
      add_assignment(assignment, m.name, print(term));
      if constexpr (placement) {
        if (D::mentions(term, m.binders, in.frame))
          detail::tag(in.placement, "instance-uses-pattern-binder");
        if (D::mentions(term, visible, in.frame))
          detail::tag(in.placement, "instance-uses-context-binder");
      }
    }
  };
  // a context without binders: the hole sees only the frame, and σ is drawn first
  constexpr bool sigma_first = requires {
    requires D::sigma_first;
  };
  if constexpr (sigma_first) draw_sigma(D::outer(p, in.frame));
  // the context C over the frame, with the hole wherever the generator put a variable of its type
  Term context;
  std::vector<typename D::Hole> holes;
  for (int attempt = 0; attempt < D::context_attempts && holes.empty(); ++attempt) {
    context = D::context(p, in.frame);
    holes = occurrences(context, context_hole, D::outer(p, in.frame));
  }
  if (holes.empty()) { // a context that happened not to mention the hole does, on top
    if constexpr (requires { D::use_hole(context, p, in.frame); }) {
      context = D::use_hole(context, p, in.frame);
      holes = occurrences(context, context_hole, D::outer(p, in.frame));
    } else {
      throw std::logic_error(fmt::format("{} rule instance: a context lost its hole", D::calculus));
    }
  }
  std::size_t which = 0;
  const auto pick = [](std::size_t n) {
    return static_cast<std::size_t>(detail::pick<D>(static_cast<int>(n)));
  };
  if constexpr (placement) {
    // half of the time a place under a context binder (when there is one), so that instances
    // meet the context's binders
    std::vector<std::size_t> under;
    for (std::size_t i = 0; i < holes.size(); ++i)
      if (D::under_binder(holes[i], in.frame)) under.push_back(i);
    which =
        !under.empty() && detail::pick<D>(2) == 0 ? under[pick(under.size())] : pick(holes.size());
    if (D::under_binder(holes[which], in.frame)) detail::tag(in.placement, "hole-under-binder");
  } else {
    which = pick(holes.size());
  }
  const typename D::Hole& hole = holes[which];

  if constexpr (requires { D::sigma(p, hole, assignment); }) {
    sigma = D::sigma(p, hole, assignment);
  } else if constexpr (!sigma_first) {
    draw_sigma(detail::visible<D>(hole));
  }
  in.lhs = instantiate(p.lhs, sigma);
  in.rhs = instantiate(p.rhs, sigma);
  const Term c = detail::fill_others<D>(context, holes, which, p);
  in.before = detail::place<D>(c, holes, which, in.lhs);
  in.after = detail::place<D>(c, holes, which, in.rhs);
  in.assignment = assignment.empty() ? "no metavariables" : assignment;
  in.shown = print(detail::place<D>(c, holes, which, D::marker(p)));
  if constexpr (requires { D::point(in.frame); }) {
    in.at = D::point(in.frame);
    in.report = instance_text(in) + "   at " + D::at_text(in.frame, in.at);
  }
  return in;
}
template <class D> Instance<D> draw_instance(const typename D::Pattern& p) {
  return draw_instance<D>(p, D::frame(p));
}

// "x:T = 1.5,-2": the context's one free variable and the point.
template <class Show>
std::string variable_at(const std::string& x, const std::string& type,
                        const std::vector<double>& at, Show&& show) {
  return fmt::format("{}:{} = {}", x, type, point_text(at, show));
}

// The bodies take the instance and, when the calculus types sides into `D::Typed` terms, both.
template <class D> struct BodiesOf {
  using type = SemanticBodies<const Instance<D>&, const props::PropertyContext&>;
};
template <class D>
requires requires {
  typename D::Typed;
}
struct BodiesOf<D> {
  using type = SemanticBodies<const Instance<D>&, const typename D::Typed&,
                              const typename D::Typed&, const props::PropertyContext&>;
};

// One trial of `check`: an instance drawn and shown, its two sides typed (D::typed, into terms
// the bodies get, or D::side_typing), then checked_trial.
template <class D>
props::TrialResult instance_trial(const typename D::Pattern& p, const std::string& check,
                                  const props::PropertyContext& context,
                                  const typename BodiesOf<D>::type& bodies) {
  const Instance<D> in = draw_instance<D>(p);
  context.report_input(in.report);
  if constexpr (requires { typename D::Typed; }) {
    const auto sides = type_sides(
        in.before, in.after,
        [&](const typename D::Term& t, std::string& error) { return D::typed(t, in, error); },
        D::same_type, D::type_text);
    return in.done(checked_trial(check, sides.typing, [&] {
      return bodies.run(D::calculus, check, in, *sides.left, *sides.right, context);
    }));
  } else {
    return in.done(checked_trial(check, D::side_typing(in),
                                 [&] { return bodies.run(D::calculus, check, in, context); }));
  }
}

} // namespace adsem::rules
