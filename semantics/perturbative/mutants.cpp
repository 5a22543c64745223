#include "semantics/perturbative/mutants.hpp"

#include "semantics/perturbative/templates.hpp"
#include "syntax/core/diagnostic.hpp"

namespace adsem::perturbative {

const std::vector<std::string>& mutant_names() {
  static const std::vector<std::string> names = {
      mutant::tx_perturbs_free_variables, mutant::diamond_drops_chain_rule,
      mutant::inj2_drops_tangent,         mutant::sin_derivative_is_sin,
      mutant::tangent_primal_swapped,     mutant::times2_keeps_operand,
      mutant::d_macro_slots_swapped,      mutant::model_untagged,
      mutant::model_fresh_tag_no_swap};
  return names;
}

Rules rules_for(const std::string& name) {
  Rules r = paper_rules();
  if (name.empty()) return r;
  if (name == mutant::tx_perturbs_free_variables) {
    r.tx.var_other = [](const Simple& y) {
      const Bag v = var(y.name, y.type);
      return pair(v, v);
    };
  } else if (name == mutant::diamond_drops_chain_rule) {
    r.tx.app = [](const Bag& m, const Bag& n) {
      return pair(app(proj(1, m), proj(2, n)), app(proj(2, m), proj(2, n)));
    };
  } else if (name == mutant::inj2_drops_tangent) {
    const TxRules paper = paper_tx_rules();
    r.tx.inj = [paper](const Simple& i, const Bag& tx) {
      if (i.index != 2) return paper.inj(i, tx);
      return pair(zero(i.type), inj(2, i.type, proj(2, tx)));
    };
  } else if (name == mutant::sin_derivative_is_sin) {
    const auto paper = r.template_source;
    r.template_source = [paper](const std::string& p) -> std::optional<std::string> {
      if (p == "sin") return "\\p:T R. (pi1 p * sin (pi2 p), sin (pi2 p))";
      return paper(p);
    };
  } else if (name == mutant::tangent_primal_swapped) {
    r.tx.var_self = [](const Simple& x, const Type& tsigma) {
      const Bag v = var(x.name, tsigma);
      return pair(proj(2, v), proj(1, v));
    };
  } else if (name == mutant::times2_keeps_operand) {
    // Well typed only where σ_k = σ_l (e.g. in every Tσ = σ × σ); elsewhere the paper's 0.
    r.times2 = [](const Simple& p, const Simple& i) {
      return same_type(p.type, i.operand->type) ? single(i.operand) : zero(p.type);
    };
  } else if (name == mutant::d_macro_slots_swapped) {
    const auto paper = r.derivative;
    r.derivative = [paper](const Bag& f, const Bag& tangent, const Bag& point) {
      if (!same_type(tangent.type, point.type)) return paper(f, tangent, point);
      return proj(1, app(push(f), pair(point, tangent)));
    };
  } else if (name == mutant::model_untagged || name == mutant::model_fresh_tag_no_swap) {
    // the calculus's rules are the paper's; model_mode() breaks the model
  } else {
    throw AdsemError(ErrorKind::usage, "unknown mutant '" + name + "' for perturbative");
  }
  return r;
}

} // namespace adsem::perturbative

namespace adsem::perturbative {

model::PerturbationMode model_mode(const std::string& name) {
  if (name == mutant::model_untagged) return model::PerturbationMode::untagged;
  if (name == mutant::model_fresh_tag_no_swap) return model::PerturbationMode::fresh_tag_no_swap;
  return model::PerturbationMode::correct;
}

} // namespace adsem::perturbative
