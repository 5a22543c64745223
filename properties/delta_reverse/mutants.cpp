// The mutants of delta-reverse: each one patch of the paper's rule book, drawn from a real AD bug
// class, beside the properties expected to kill it.
#include "properties/delta_reverse/mutants.hpp"

#include <algorithm>

#include "properties/core/mutant_catalogue.hpp"
#include "semantics/delta_reverse/arrays.hpp"
#include "semantics/delta_reverse/delta_eval.hpp"
#include "semantics/delta_reverse/machine.hpp"
#include "semantics/delta_reverse/translate.hpp"
#include "semantics/delta_reverse/wrappers.hpp"

namespace adsem::delta_reverse {

namespace {

// eval's Var case (Fig. 10 addDelta) and the array sweep's write m[id] := x instead of
// m[id] += x.
RulesPatch eval_overwrites_on_fan_out() {
  RulesPatch p;
  p.replace<DeltaEval>("eval-Var", [](adsem::Rule<DeltaEval> r) {
    r.result = [](MapEval& c, const DeltaEval::Redex& redex, const RuleInfo&) {
      c.m[redex.u->id] = redex.x;
    };
    return r;
  });
  p.replace<Sweep>("sweep-Var", [](adsem::Rule<Sweep> r) {
    r.result = [result = r.result](ArraySweep& c, const Sweep::Redex& redex, const RuleInfo& self) {
      result(c, redex, self); // the range check and the touched flag
      c.grad[static_cast<std::size_t>(redex.u->id)] = redex.x;
    };
    return r;
  });
  return p;
}

// The bindings processed oldest first: eval's Let spine from the outermost Let inwards, the
// array sweep from the oldest binding.
RulesPatch eval_in_allocation_order() {
  RulesPatch p;
  p.replace<DeltaEval>("eval-Let", [](adsem::Rule<DeltaEval> r) {
    r.result = [](MapEval& c, const DeltaEval::Redex& redex, const RuleInfo&) {
      const auto [spine, body] = let_spine(redex.u);
      c.eval(redex.x, body);
      for (const DeltaNode* let : spine)
        eval_let_binding(c, *let);
    };
    return r;
  });
  p.replace<SweepTape>("sweep", [](adsem::Rule<SweepTape> r) {
    r.result = [](ArraySweep& c, const SweepTape::Redex& redex, const RuleInfo&) {
      for (const auto& binding : redex.binds)
        sweep_binding(c, binding);
    };
    return r;
  });
  return p;
}

// lookup_{S+T} reads an inr input back as inl with the zero of S: the tag from the type alone.
RulesPatch case_loses_sum_tag() {
  RulesPatch p;
  p.replace<Lookup>("lookup[+]", [](adsem::Rule<Lookup> r) {
    r.result = [result = r.result](Lookup::Context& c, const Lookup::Redex& redex,
                                   const RuleInfo& self) {
      if (redex.s0->kind == ValueNode::Kind::inl) return result(c, redex, self);
      return v_inl(zero_like(redex.s->left));
    };
    return r;
  });
  return p;
}

// mulR's table entry with its partial derivatives swapped (d/dx1 = x1, d/dx2 = x2), read by the
// primitive clause of every translation.
RulesPatch partials_swapped() {
  clauses::Primitive how;
  how.derivative = [](const std::string& op) -> const DerivativeRule* {
    static const DerivativeRule swapped = [] {
      DerivativeRule mul = *find_derivative_rule("mulR");
      std::reverse(mul.partials.begin(), mul.partials.end());
      return mul;
    }();
    return op == swapped.name ? &swapped : find_derivative_rule(op);
  };
  RulesPatch p;
  const auto swap = [how](auto r) {
    r.result = clauses::op_clause(how);
    return r;
  };
  p.replace<Dfwd>("Dfwd[op]", swap);
  p.replace<Drev1>("Drev1[op]", swap);
  p.replace<Drev2>("Drev2[op]", swap);
  p.replace<Drev>("Drev[op]", swap);
  return p;
}

// runDelta as Fig. 13's get reads literally (L769-771): the newest binding outermost.
RulesPatch literal_get_newest_outermost() {
  RulesPatch p;
  p.replace<RunDelta>("runDelta", [](adsem::Rule<RunDelta> r) {
    r.result = [](DeltaFold& fold, const RunDelta::Redex& redex, const RuleInfo&) {
      Delta out = redex.result;
      for (const auto& binding : redex.binds) // oldest innermost
        out = wrap_binding(fold, binding, out);
      return out;
    };
    return r;
  });
  return p;
}

// Fig. 14's last line as printed (L841): pure (f x, d), the DeltaId where a Delta belongs.
RulesPatch literal_fig14_pure_dy() {
  clauses::Primitive how;
  how.result_delta = [](const Term& id) { return id; };
  RulesPatch p;
  p.replace<Drev>("Drev[op]", [how](adsem::Rule<Drev> r) {
    r.result = clauses::op_clause(how);
    return r;
  });
  return p;
}

// R{e} as Fig. 11/15 read literally (L554, L913): Drev{e} run in a runDelta of its own, so the
// bindings it made are dropped and their ids reused when g s0 runs.
RulesPatch literal_drev_outside_rundelta() {
  RulesPatch p;
  p.replace<RunProgram>("R{e}", [](adsem::Rule<RunProgram> r) {
    r.result = [](Machine& m, const RunProgram::Redex& redex, const RuleInfo&) {
      const Value g = m.run(m.eval(nullptr, redex.drev_e));
      m.state.binds.clear();
      m.state.next = redex.first_id;
      return m.run(m.apply(g, redex.argument));
    };
    return r;
  });
  return p;
}

// Drev{build_A} without sequence (§10.2): pure (λp. pure (build_{M Drev A} p)) hands back the
// elements' computations unrun, so their deltaLets never happen; the clause is ill-typed.
RulesPatch drev_build_unsequenced() {
  RulesPatch p;
  p.replace<Drev>("Drev[build]", [](adsem::Rule<Drev> r) {
    r.result = [](Translator& tr, const Drev::Redex& redex, const RuleInfo&) {
      const Node& n = *redex.term;
      const Type computation = monad_type(tr.type(n.type));
      const std::string x = tr.fresh("p");
      return pure(lam(x, product_type(int_type(), arrow_type(int_type(), computation)),
                      pure(app(build_op(computation), var(x)))));
    };
    return r;
  });
  return p;
}

// sumV's sum (spec §9.12, an extension) leaves out the last element's Delta: Drev{sumV}'s binding
// is Add(...Add(u_0, u_1)..., Zero) instead of Add(..., u_(n-1)), and Drev2's tangent likewise;
// the reals, and so the source run and Dfwd, are unchanged.
RulesPatch sum_v_drops_last_delta() {
  RulesPatch p;
  p.replace<Apply>("E-Apply-SumV", [](adsem::Rule<Apply> r) {
    r.result = [result = r.result](Machine& m, const Apply::Redex& redex, const RuleInfo& self) {
      const Value& v = redex.a;
      if (v->kind != ValueNode::Kind::vector || v->items->empty()) return result(m, redex, self);
      std::vector<Value> items = *v->items;
      const Value& last = items.back();
      if (last->kind == ValueNode::Kind::pair && last->b->kind == ValueNode::Kind::delta)
        items.back() = v_pair(last->a, v_delta(d_zero()));
      return source_rules::sum_items(m, redex.f->body->type, items);
    };
    return r;
  });
  return p;
}

// sequence as a parallel map would run it: every element's computation starts from the
// DeltaState before the sequence, and their bindings are joined afterwards, so the elements'
// ids collide (the counter is not monotone, spec §9.2).
RulesPatch sequence_elements_share_one_state() {
  RulesPatch p;
  p.replace<Monad>("M-Sequence", [](adsem::Rule<Monad> r) {
    r.result = [](MonadRun& c, const Monad::Redex& redex, const RuleInfo&) {
      DeltaState& state = c.machine.state;
      const DeltaState before = state;
      std::vector<std::pair<std::int64_t, Delta>> made;
      std::int64_t next = before.next;
      std::vector<Value> results;
      for (const Value& computation : *(*redex.delta)->items) {
        state = before;
        results.push_back(c.machine.run(computation));
        made.insert(made.end(),
                    state.binds.begin() + static_cast<std::ptrdiff_t>(before.binds.size()),
                    state.binds.end());
        next = std::max(next, state.next);
      }
      state = before;
      state.binds.insert(state.binds.end(), made.begin(), made.end());
      state.next = next;
      return RunNext{v_vector(std::move(results))};
    };
    return r;
  });
  return p;
}

// E-Pair with the second component evaluated first, the unspecified operand order of an
// operator-overloading AD tool written in C++. Source and target evaluation are pure, so no
// value changes; the overloading interpreter records the components' bindings in the other order.
RulesPatch pair_components_right_to_left() {
  RulesPatch p;
  p.replace<SourceEval>("E-Pair", [](adsem::Rule<SourceEval> r) {
    r.result = [](Machine& m, const SourceEval::Redex& redex, const RuleInfo&) {
      const Value b = m.eval(redex.env, redex.term->kids[1]);
      const Value a = m.eval(redex.env, redex.term->kids[0]);
      return Next{v_pair(a, b)};
    };
    return r;
  });
  return p;
}

} // namespace

const std::vector<Mutant>& mutant_catalogue() {
  static const std::vector<Mutant> catalogue = [] {
    const props::MutantDeclarer<Mutant, RulesPatch, RulesPtr> mutant{"delta-reverse",
                                                                     patch_paper_rules};
    std::vector<Mutant> all;
    all.push_back(
        mutant("eval-overwrites-on-fan-out", "overwrite-not-accumulate",
               "eval's Var case (Fig. 10 addDelta, L501-522) and the array sweep write m[id] := x "
               "instead of m[id] += x, so a shared id (fan-out) keeps only its last contribution",
               {"reverse-correctness", "eval-correctness", "evaluation-order-agreement"},
               eval_overwrites_on_fan_out()));
    all.push_back(mutant(
        "eval-in-allocation-order", "wrong-sweep-order",
        "the bindings are processed oldest first instead of newest first (reverse topological "
        "order, L540-571, spec §9.2), so an id's rhs is propagated before its adjoint is "
        "complete",
        {"reverse-correctness"}, eval_in_allocation_order()));
    all.push_back(mutant(
        "case-loses-sum-tag", "lost-sum-tag",
        "the gradient of a sum-typed input is read back with the type's first tag instead of "
        "the actual input's tag (zero_S from the type alone, L358-362; spec §9.8)",
        {"reverse-correctness", "shape-preservation"}, case_loses_sum_tag()));
    all.push_back(mutant(
        "partials-swapped", "transpose",
        "mulR's partial derivatives swapped in the rule table (d/dx1 = x1, d/dx2 = x2), the "
        "J-versus-Jᵀ class; every translation is built from the table, so F and R agree with "
        "each other and only the model sees it",
        {"forward-correctness", "reverse-correctness"}, partials_swapped()));
    all.push_back(mutant(
        "paper-literal-get-newest-outermost", "paper-literal",
        "Fig. 13's get (L769-771) as printed: the head of the newest-first list is the outermost "
        "Let, so runDelta nests the newest binding outermost and eval visits bindings oldest "
        "first (spec §11 erratum 4)",
        {"reverse-correctness"}, literal_get_newest_outermost()));
    all.push_back(mutant(
        "paper-literal-fig14-pure-dy", "paper-literal",
        "Fig. 14's last line as printed (L841): pure ((y1, dy1), ...) returns the DeltaId where "
        "a Delta belongs (spec §11 erratum 3); the rule is ill-typed",
        {"translation-typing"}, literal_fig14_pure_dy()));
    all.push_back(
        mutant("paper-literal-drev-applied-outside-rundelta", "paper-literal",
               "Fig. 11/15 (L554, L913) read literally: Drev{e} is run in a runDelta of its own, "
               "separate from the one that runs g s0, so the bindings made before the λ is applied "
               "are lost and their ids reused (spec §11 erratum 6, Ex. 12)",
               {"reverse-correctness", "tape-invariants"}, literal_drev_outside_rundelta()));
    all.push_back(mutant(
        "drev-build-unsequenced", "missing-effect",
        "Drev{build} without sequence (§10.2, L856): the elements' computations are returned "
        "unrun, so none of their primitive calls is recorded on the tape",
        {"array-translation-typing", "array-reverse-correctness"}, drev_build_unsequenced()));
    all.push_back(mutant(
        "sequence-elements-share-one-state", "non-monotone-ids",
        "sequence as a parallel map: each element's computation starts from the DeltaState "
        "before the sequence and the bindings are joined after, so ids collide (L540-571, spec "
        "§9.2: the counter must be monotone)",
        {"array-reverse-correctness"}, sequence_elements_share_one_state()));
    all.push_back(mutant(
        "sum-v-drops-last-delta", "missing-contribution",
        "sumV's sum (spec §9.12, an extension) leaves out the last element's Delta: Drev{sumV}'s "
        "binding misses u_(n-1), so that element's inputs get no gradient through the sum; the "
        "reals are unchanged",
        {"array-reverse-correctness"}, sum_v_drops_last_delta()));
    all.push_back(mutant(
        "pair-components-right-to-left", "evaluation-order",
        "E-Pair evaluates the second component first (an overloading tool's unspecified operand "
        "order): values are unchanged, but the overloading interpreter (§8 L629-641) records a "
        "binary primitive's operands right to left, a valid tape with the right gradient that "
        "is not Drev's (Fig. 9's left-to-right do-blocks, L456-470)",
        {"overloading-tape-agrees"}, pair_components_right_to_left()));
    return all;
  }();
  return catalogue;
}

std::vector<props::MutantDef> mutants() {
  return props::mutant_defs(mutant_catalogue());
}

RunSetup setup_for(const std::string& mutant) {
  if (mutant.empty()) return {};
  if (const Mutant* m = props::find_mutant(mutant_catalogue(), mutant))
    return RunSetup{m->rules.get(), nullptr};
  if (mutant.rfind("delta-reverse/", 0) == 0)
    throw AdsemError(ErrorKind::usage, "unknown mutant '" + mutant + "'");
  return {}; // another calculus's mutant: the paper's rules here
}

} // namespace adsem::delta_reverse
