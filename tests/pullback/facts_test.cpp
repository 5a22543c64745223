// [perf] Free-variable facts stored in the nodes (syntax/pullback/ast.hpp NodeFacts)
// must never go stale: every node of generated terms and of every intermediate term of their
// reductions is recomputed from scratch (free_vars and a walk over the binders) and compared; and
// substitution, which skips the subterms the facts say it cannot change, gives the terms of the
// full walk (the reference below is the substitution before the facts, kept verbatim).
#include <gtest/gtest.h>
#include <rapidcheck.h>

#include <functional>
#include <map>
#include <optional>
#include <regex>

#include "generators/pullback/terms.hpp"
#include "semantics/pullback/anf.hpp"
#include "semantics/pullback/strategy.hpp"
#include "syntax/core/depth_guard.hpp"
#include "syntax/pullback/name_key.hpp"
#include "syntax/pullback/printer.hpp"
#include "syntax/pullback/substitution.hpp"

namespace adsem::pullback::facts_test {
namespace {

// The substitution of a80b484 (before the facts): walks every subterm, α-renames every binder
// that would capture a free variable of s.
class ReferenceSubstituter {
public:
  ReferenceSubstituter(std::string x, Term s) : x_(std::move(x)), s_(std::move(s)) {}
  Term go(const Term& t) {
    if (t->kind == Kind::var) return t->name == x_ ? s_ : t;
    if (t->kids.empty()) return t;
    std::vector<Term> kids;
    std::string name = t->name;
    for (std::size_t i = 0; i < t->kids.size(); ++i) {
      Term k = t->kids[i];
      if (binds(t->kind) && i == bound_child(t->kind)) {
        if (t->name == x_) {
          kids.push_back(k);
          continue;
        }
        const std::set<std::string> fv = free_vars(s_);
        if (fv.count(t->name)) {
          std::set<std::string> avoid = fv;
          const auto inner = free_vars(k);
          avoid.insert(inner.begin(), inner.end());
          avoid.insert(x_);
          name = fresh_name(t->name, avoid);
          ReferenceSubstituter r(t->name, var(name, type_of_occurrence(k, t->name)));
          k = r.go(k);
        }
      }
      kids.push_back(go(k));
    }
    Node n = *t;
    n.name = name;
    n.kids = std::move(kids);
    return make_shared_node<const Node>(std::move(n)); // no make_node: facts filled on demand
  }

private:
  static Type type_of_occurrence(const Term& t, const std::string& x) {
    if (t->kind == Kind::var) return t->name == x ? t->type : nullptr;
    for (std::size_t i = 0; i < t->kids.size(); ++i) {
      if (binds(t->kind) && i == bound_child(t->kind) && t->name == x) continue;
      if (Type ty = type_of_occurrence(t->kids[i], x)) return ty;
    }
    return real_type();
  }
  std::string x_;
  Term s_;
};

// Fresh names carry a process-wide number, so two runs draw different numbers: number the
// names of the shape stem_n by first appearance.
std::string canonical(const std::string& text) {
  static const std::regex fresh("([A-Za-z]+)_([0-9]+)");
  std::map<std::string, int> seen;
  std::string out;
  auto begin = std::sregex_iterator(text.begin(), text.end(), fresh);
  std::size_t last = 0;
  for (auto it = begin; it != std::sregex_iterator(); ++it) {
    out += text.substr(last, static_cast<std::size_t>(it->position()) - last);
    const auto [at, added] = seen.emplace(it->str(), static_cast<int>(seen.size()));
    out += (*it)[1].str() + "#" + std::to_string(at->second);
    last = static_cast<std::size_t>(it->position() + it->length());
  }
  return out + text.substr(last);
}

Term generated(int i) {
  const rc::Random rnd(4242 + static_cast<std::uint64_t>(i));
  const int size = i % 50;
  switch (i % 6) {
  case 0:
    return gen::first_order_query(false)(rnd, size).value().term();
  case 1:
    return gen::first_order_query(true)(rnd, size).value().term();
  case 2:
    return gen::functional_query()(rnd, size).value().term();
  case 3:
    return gen::symbolic_query()(rnd, size).value().term();
  case 4:
    return gen::chain_query(1 + i % 12, 7 + static_cast<std::uint64_t>(i)).term();
  default:
    return gen::closed_term()(rnd, size).value();
  }
}

void binder_names(const Term& t, std::vector<std::string>& out) {
  if (binds(t->kind)) out.push_back(t->name);
  for (const Term& k : t->kids)
    binder_names(k, out);
}

// The names a stage substitution of t is tried with: up to four of t's free and bound names
// (x1 the first, x2 the last) and the stage names w, those and one fresh.
struct StageNames {
  std::vector<std::string> ws;
  std::string x1, x2;
};
StageNames stage_names(const Term& t) {
  std::vector<std::string> names;
  for (const std::string& x : free_vars(t))
    names.push_back(x);
  binder_names(t, names);
  if (names.size() > 4) names.resize(4);
  StageNames out{names, "", ""};
  out.ws.push_back("w_999999");
  out.x1 = names.empty() ? out.ws.back() : names.front();
  out.x2 = names.empty() ? out.ws.back() : names.back();
  return out;
}

TEST(PullbackFacts, ExactOnGeneratedTermsAndEveryReductionStep) {
  long checked = 0;
  for (int i = 0; i < 150; ++i) {
    const Term t = generated(i);
    std::string why;
    ASSERT_TRUE(facts_consistent(t, why)) << why << " in " << print(t);
    RunOptions o;
    o.fuel = 5000;
    Machine m({}, o);
    m.observe([&](const Term&, const Step& s, bool) {
      if (size_of(s.result) > 1500) return; // the check is quadratic
      std::string w;
      ASSERT_TRUE(facts_consistent(s.result, w)) << w << " after rule " << s.rule;
      ++checked;
    });
    try {
      m.normalise(t);
    } catch (const AdsemError&) { // fuel, domain: the steps before were checked
    }
  }
  EXPECT_GT(checked, 2000);
}

// A copy of t in new nodes, none with facts yet (a term just built by a rule).
Term without_facts(const Term& t) {
  Node n = *t; // a copied node starts without facts
  for (Term& k : n.kids)
    k = without_facts(k);
  return make_shared_node<const Node>(std::move(n));
}

TEST(PullbackFacts, SubstitutionEqualsTheFullWalk) {
  long renamings = 0, compared = 0;
  for (int i = 0; i < 300; ++i) {
    const Term t = generated(i);
    std::vector<std::string> bs;
    binder_names(t, bs);
    std::vector<std::string> xs;
    for (const std::string& x : free_vars(t))
      xs.push_back(x);
    xs.push_back("absent");
    for (std::size_t b = 0; b < bs.size() && b < 3; ++b) {
      for (const std::string& x : xs) {
        // s open, named after a binder of t: the α-renaming paths (also where x does not occur)
        for (const Term& s : {var(bs[b], real_type()),
                              pair(var(bs[b], real_type()), var("q_9", real_type())), num(2.0)}) {
          const long drawn = fresh_candidates_drawn();
          const Term fast = substitute(t, x, s);
          const long fast_drawn = fresh_candidates_drawn() - drawn;
          // The same substitution into a copy whose nodes have no facts yet (walked, not asked):
          // the same term, the same number of fresh names drawn, and the facts it leaves exact.
          const Term bare = without_facts(t);
          const long bare_before = fresh_candidates_drawn();
          const Term walked = substitute(bare, x, s);
          ASSERT_EQ(fresh_candidates_drawn() - bare_before, fast_drawn);
          ASSERT_EQ(canonical(print(walked)), canonical(print(fast)));
          ReferenceSubstituter ref(x, s);
          const Term slow = ref.go(t);
          const std::string a = print(fast), r = print(slow);
          ASSERT_EQ(canonical(a), canonical(r)) << "t = " << print(t) << "\nx = " << x;
          renamings += a != print(t) && !occurs_free(x, t);
          std::string why;
          ASSERT_TRUE(facts_consistent(fast, why)) << why;
          ASSERT_TRUE(facts_consistent(slow, why)) << why;
          ASSERT_TRUE(facts_consistent(walked, why)) << why;
          ASSERT_TRUE(facts_consistent(bare, why)) << why;
          ++compared;
        }
      }
    }
  }
  EXPECT_GT(compared, 1000);
  EXPECT_GT(renamings, 10); // the case where x is absent but a binder is renamed is reached
}

void open_bodies(const Term& t, std::vector<Term>& out) {
  if (binds(t->kind) && !facts(t->kids[bound_child(t->kind)]).free.empty())
    out.push_back(t->kids[bound_child(t->kind)]);
  for (const Term& k : t->kids)
    open_bodies(k, out);
}

// Rule 8's two substitutions in one walk: the terms of the two walks in turn, also where a name
// is shadowed, where x2 occurs in s1, where x1 = x2, or where a binder would capture.
TEST(PullbackFacts, SubstitutionInTurnEqualsTwoSubstitutions) {
  long compared = 0, both_changed = 0;
  const Term w = var("w_77", prod(real_type(), real_type()));
  for (int i = 0; i < 120; ++i) {
    std::vector<Term> bodies;
    open_bodies(generated(i), bodies);
    for (std::size_t u = 0; u < bodies.size() && u < 4; ++u) {
      const Term& t = bodies[u];
      std::vector<std::string> xs(facts(t).free.begin(), facts(t).free.end());
      binder_names(t, xs);
      if (xs.size() > 4) xs.resize(4);
      for (const std::string& x1 : xs) {
        for (const std::string& x2 : xs) {
          for (const Term& s1 :
               {proj(1, w), pair(var(x2, real_type()), num(1.0)), var(xs.back(), real_type())}) {
            for (const Term& s2 : {proj(2, w), var(xs.front(), real_type())}) {
              const Term once = substitute_in_turn(t, x1, s1, x2, s2);
              const Term twice = substitute(substitute(t, x1, s1), x2, s2);
              ASSERT_EQ(canonical(print(once)), canonical(print(twice)))
                  << "t = " << print(t) << "\n[" << print(s1) << "/" << x1 << "][" << print(s2)
                  << "/" << x2 << "]";
              // Into a copy whose nodes have no facts yet (rule 8's rest), walked, not asked.
              const Term bare = without_facts(t);
              const Term walked = substitute_in_turn(bare, x1, s1, x2, s2);
              ASSERT_EQ(canonical(print(walked)), canonical(print(twice)));
              std::string why;
              ASSERT_TRUE(facts_consistent(once, why)) << why;
              ASSERT_TRUE(facts_consistent(walked, why)) << why;
              both_changed += x1 != x2 && occurs_free(x1, t) && occurs_free(x2, t);
              ++compared;
            }
          }
        }
      }
    }
  }
  EXPECT_GT(compared, 1000);
  EXPECT_GT(both_changed, 100);
}

// Rule 8's stage: no term when w is free in the rest, else the two substitutions in turn, on
// rests with all, some and none of their facts made (a fact-less node is walked, not asked), and
// where a binder of the rest is named w (a capture: the substitutions in turn, renaming); also
// in place.
TEST(PullbackFacts, StageSubstitutionAsksAsTheFacts) {
  long compared = 0, free = 0, captures = 0, in_place = 0, undone = 0;
  const Type r2 = prod(real_type(), real_type());
  for (int i = 0; i < 200; ++i) {
    const Term whole = generated(i);
    std::vector<Term> terms = {whole};
    open_bodies(whole, terms);
    for (std::size_t u = 0; u < terms.size() && u < 5; ++u) {
      const Term& t = terms[u];
      const auto [ws, x1, x2] = stage_names(t);
      for (const std::string& w : ws) {
        const Term wv = var(w, r2);
        const Term s1 = proj(1, wv), s2 = proj(2, wv);
        const Term twice = substitute(substitute(t, x1, s1), x2, s2);
        const Term bare = without_facts(t);
        const Term half = without_facts(t);
        if (!half->kids.empty()) facts(half->kids.back()); // one kid's subterm with its facts
        for (const Term& v : {t, bare, half}) {
          const Term stage = substitute_stage(v, w, x1, s1, x2, s2);
          ASSERT_EQ(stage == nullptr, occurs_free(w, t)) << w << " in " << print(t);
          free += stage == nullptr;
          if (stage) {
            ASSERT_EQ(canonical(print(stage)), canonical(print(twice))) << print(t);
            std::string why;
            ASSERT_TRUE(facts_consistent(stage, why)) << why;
            captures += !binds_no(t, w);
          }
          ++compared;
        }
        // In place, on a rest held alone (some facts made or none): the same term, or no term;
        // where the rest is not the term returned (no term, or a capture's substitutions in
        // turn), the walk's edits are undone and the rest prints as before.
        for (int h = 0; h < 2; ++h) {
          const Term owned = without_facts(t);
          if (h == 1 && !owned->kids.empty()) facts(owned->kids.back());
          const std::string before = print(owned);
          const Term stage = substitute_stage_in_place(owned, w, x1, s1, x2, s2);
          ASSERT_EQ(stage == nullptr, occurs_free(w, t)) << w << " in " << print(t);
          if (stage != owned) {
            ASSERT_EQ(print(owned), before) << print(t);
          }
          undone += stage != owned && occurs_free(x1, t);
          std::string why;
          if (stage) {
            ASSERT_EQ(canonical(print(stage)), canonical(print(twice))) << print(t);
            ASSERT_TRUE(facts_consistent(stage, why)) << why;
          }
          ASSERT_TRUE(facts_consistent(owned, why)) << why;
          in_place += stage == owned && print(owned) != before;
        }
      }
    }
  }
  EXPECT_GT(compared, 2000);
  EXPECT_GT(free, 300);
  EXPECT_GT(captures, 50);
  EXPECT_GT(in_place, 500);
  EXPECT_GT(undone, 100);
}

void let_series_in(const Term& t, std::vector<Term>& out) {
  if (t->kind == Kind::let && is_let_series(t)) out.push_back(t);
  for (const Term& k : t->kids)
    let_series_in(k, out);
}

// Rule 8 tells the machine that its rest L[w.1/y][w.2/x] is a let series without asking
// (let_series.cpp): substituting atoms for variables keeps a let series one, on the series A*
// makes of generated pullback bodies (both variants), for their free and bound names (a capture
// renames).
TEST(PullbackFacts, AtomsSubstitutedInALetSeriesKeepIt) {
  long checked = 0, captures = 0;
  const Type r2 = prod(real_type(), real_type());
  for (int i = 0; i < 200; ++i) {
    std::vector<Term> pullbacks;
    const std::function<void(const Term&)> find = [&](const Term& t) {
      if (t->kind == Kind::pullback) pullbacks.push_back(t);
      for (const Term& k : t->kids)
        find(k);
    };
    find(generated(i));
    std::vector<Term> series;
    for (const Term& p : pullbacks)
      for (const bool bind_atoms : {false, true}) // compact and literal A* (App. A.2)
        let_series_in(anf(p->kids[0], AnfOptions{bind_atoms}), series);
    for (std::size_t u = 0; u < series.size() && u < 8; ++u) {
      const Term& l = series[u];
      const auto [ws, x1, x2] = stage_names(l);
      for (const std::string& w : ws) {
        const Term wv = var(w, r2);
        const Term stage = substitute_stage(l, w, x1, proj(1, wv), x2, proj(2, wv));
        if (!stage) continue; // w free in the rest: rule 8 draws another name
        ASSERT_TRUE(is_let_series(stage)) << print(l) << " gave " << print(stage);
        captures += !binds_no(l, w);
        ++checked;
      }
    }
  }
  EXPECT_GT(checked, 500);
  EXPECT_GT(captures, 20);
}

TEST(PullbackFacts, ACopiedNodeNeverKeepsItsFacts) {
  const Term t =
      lam("y", real_type(), app(var("f", arrow(real_type(), real_type())), var("y", real_type())));
  ASSERT_TRUE(occurs_free("f", t));
  Node n = *t;                       // copies name, type and kids, but never the facts
  n.kids[0] = var("g", real_type()); // now λy.g
  const Term copy = make_shared_node<const Node>(std::move(n));
  EXPECT_FALSE(occurs_free("f", copy));
  EXPECT_TRUE(occurs_free("g", copy));
  std::string why;
  EXPECT_TRUE(facts_consistent(copy, why)) << why;
}

TEST(PullbackFacts, ManyFreeNamesAskTheChildren) {
  std::vector<Term> items;
  for (int i = 0; i < 50; ++i)
    items.push_back(var("a" + std::to_string(i), real_type()));
  const Term wide = sum(items);
  const Term t = let("a7", real_type(), num(1.0), wide); // a7 bound below the wide sum
  EXPECT_TRUE(facts(wide).many);
  EXPECT_TRUE(occurs_free("a49", t));
  EXPECT_FALSE(occurs_free("a7", t));
  EXPECT_FALSE(occurs_free("b", t));
  std::string why;
  EXPECT_TRUE(facts_consistent(t, why)) << why;
  const Term r = substitute(t, "a3", num(5.0));
  EXPECT_FALSE(occurs_free("a3", r));
  EXPECT_TRUE(occurs_free("a4", r));
}

TEST(PullbackFacts, SourceBinderNamedLikeAFreshName) {
  // A binder of the fresh-name shape with a large number: the number test cannot rule it out, the
  // mask must not either, and substitution renames it as the full walk does.
  const Term body =
      lam("w_999999", real_type(), pair(var("w_999999", real_type()), var("z", real_type())));
  EXPECT_FALSE(binds_no(body, "w_999999"));
  const Term s = var("w_999999", real_type());
  const Term fast = substitute(body, "absent", s);
  ReferenceSubstituter ref("absent", s);
  EXPECT_EQ(canonical(print(fast)), canonical(print(ref.go(body))));
  EXPECT_NE(print(fast), print(body)); // renamed although x does not occur (as before)
}

// name_key reads a binder name's two facts in one pass: the same as name_bit and name_number.
TEST(PullbackFacts, NameKeyIsNameBitAndNameNumber) {
  for (const std::string name :
       {"", "_", "9", "x", "x1", "_1", "a_", "x_1", "y__7", "ab_07", "x_1a", "w_999999",
        "w_123456789012345678", "w_1234567890123456789", "om_12", "v_3_4"}) {
    const NameKey key = name_key(name);
    EXPECT_EQ(key.bit, name_bit(name)) << name;
    EXPECT_EQ(key.number, name_number(name)) << name;
  }
}

// Substitution editing in place the nodes only their parent holds (rule 6 on a body the last
// firing built): the term of the copying walk, the same fresh names drawn, exact facts on the
// edited nodes, and a subterm someone else holds (a handle kept, or a weak memo's key) unchanged.
TEST(PullbackFacts, SubstitutionInPlaceEqualsTheCopyingWalk) {
  long compared = 0, edited = 0, kept_intact = 0;
  for (int i = 0; i < 300; ++i) {
    const Term t = generated(i);
    std::vector<std::string> bs;
    binder_names(t, bs);
    std::vector<std::string> xs;
    for (const std::string& x : free_vars(t))
      xs.push_back(x);
    xs.push_back("absent");
    const std::string b = bs.empty() ? "q_8" : bs.front(); // s named after a binder: renaming
    for (const std::string& x : xs) {
      for (const Term& s : {var(b, real_type()), pair(var("q_9", real_type()), num(2.0))}) {
        const long drawn = fresh_candidates_drawn();
        const Term copied = substitute(without_facts(t), x, s);
        const long copied_drawn = fresh_candidates_drawn() - drawn;
        // A copy held by this handle alone; its last kid also held here, or (odd i) only marked
        // as a weak memo's key (watched through a weak handle, which holds no count).
        Term bare = without_facts(t);
        Term kept;
        WeakNode<const Node> keyed;
        std::string last_text;
        if (!bare->kids.empty()) {
          const Term& last = bare->kids[bare->kids.size() - 1];
          last_text = print(last);
          if (i % 2 == 0) {
            kept = last;
          } else {
            last->keyed_mark.set();
            keyed = last;
          }
        }
        const Node* before = bare.get();
        const std::string bare_text = print(bare);
        const long in_place_before = fresh_candidates_drawn();
        const Term r = substitute_in_place(bare, x, s);
        ASSERT_EQ(fresh_candidates_drawn() - in_place_before, copied_drawn);
        ASSERT_EQ(canonical(print(r)), canonical(print(copied)))
            << "t = " << print(t) << "\nx = " << x;
        edited += r.get() == before && print(r) != bare_text;
        if (kept) {
          ASSERT_EQ(print(kept), last_text);
          ++kept_intact;
        } else if (const Term still = keyed.lock()) {
          ASSERT_EQ(print(still), last_text);
          ++kept_intact;
        }
        std::string why;
        ASSERT_TRUE(facts_consistent(r, why)) << why;
        ++compared;
      }
    }
  }
  EXPECT_GT(compared, 500);
  EXPECT_GT(edited, 100);
  EXPECT_GT(kept_intact, 100);
}

// A chain of n dual maps (λa_k.⟨π₂(a_k), π₁(a_k)⟩)* over a variable c : (R×R)*, inside a pair:
// rule 6 composes it from the inside, first on the given nodes, then on the bodies it built.
Term swap_chain(int n) {
  const Type r2 = prod(real_type(), real_type());
  Term t = var("c", dual(r2));
  for (int k = 1; k <= n; ++k) {
    const std::string a = "a" + std::to_string(k);
    t = dualmap(a, r2, pair(proj(2, var(a, r2)), proj(1, var(a, r2))), t);
  }
  return pair(t, num(1.0));
}

// A run edits in place only what it built: the term it was given, and every subterm of it,
// print as before after the run (rule 6 fires on chains of dual maps in these runs).
TEST(PullbackFacts, ARunLeavesItsInputUnchanged) {
  long rule_6 = 0;
  for (int i = 0; i < 320; ++i) {
    const Term t = i < 300 ? generated(i) : swap_chain(2 + i % 20);
    const std::string text = print(t);
    RunOptions o;
    o.fuel = 20000;
    Machine m({}, o);
    try {
      m.normalise(t);
    } catch (const AdsemError&) { // fuel, domain
    }
    ASSERT_EQ(print(t), text);
    std::string why;
    ASSERT_TRUE(facts_consistent(t, why)) << why;
    const auto counts = m.rule_counts();
    if (const auto it = counts.find("6"); it != counts.end()) rule_6 += it->second;
  }
  EXPECT_GT(rule_6, 50);
}

// Rows 20a, 1 and let edit in place what the run built and holds alone (rule 8's rest in ⟨y,E⟩, a
// λ or let body): the refocusing run ends where stepping from the root (observed, so never in
// place) ends, with the same firings, and its input is unchanged.
TEST(PullbackFacts, RowsEditingInPlaceEndAsSteppingFromTheRoot) {
  std::map<std::string, long> fired;
  for (int i = 0; i < 300; ++i) {
    const Term t = generated(i);
    const std::string text = print(t);
    RunOptions o;
    o.fuel = 5000;
    Machine refocused({}, o);
    Machine stepped({}, o);
    stepped.observe([](const Term&, const Step&, bool) {});
    std::optional<pullback::Run> a, b;
    try {
      a = refocused.normalise(t);
      b = stepped.normalise(t);
    } catch (const AdsemError&) { // fuel, domain
      continue;
    }
    ASSERT_EQ(print(t), text);
    ASSERT_EQ(canonical(print(a->result)), canonical(print(b->result))) << "t = " << text;
    ASSERT_EQ(a->rule_counts, b->rule_counts) << "t = " << text;
    for (const std::string rule : {"20a", "1", "let"})
      if (const auto it = a->rule_counts.find(rule); it != a->rule_counts.end())
        fired[rule] += it->second;
  }
  EXPECT_GT(fired["20a"], 20);
  EXPECT_GT(fired["1"], 20);
  EXPECT_GT(fired["let"], 20);
}

// Row 20a (seed 000 Fig. 3 L248) edits E in ⟨y,E⟩ in place only where the run holds the redex
// and its path alone (Machine::holds_alone): here the pullback and ⟨y,E⟩ are held by their
// parents alone, but the redex, or the pair above it, is the caller's too, so E[V/y] is copied
// and the caller's term is unchanged.
TEST(PullbackFacts, Row20aLeavesARedexItWasGivenUnchanged) {
  const Type r = real_type();
  const auto redex = [&] {
    const Term e = sum({var("y", r), var("y", r)}); // final (row 10b under JAC1)
    return app(pullback("y", r, pair(var("y", r), e), var("om", one_form(prod(r, r)))), num(3.0));
  };
  for (const Term& t : {redex(), pair(redex(), num(2.0)), pair(num(2.0), redex())}) {
    const std::string text = print(t);
    const pullback::Run run = normalise(t);
    EXPECT_EQ(print(t), text);
    EXPECT_EQ(run.rule_counts.count("20a"), 1U) << print(run.result); // it fired
    std::string why;
    EXPECT_TRUE(facts_consistent(t, why)) << why;
  }
}

} // namespace
} // namespace adsem::pullback::facts_test
