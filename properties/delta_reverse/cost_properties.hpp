#pragma once
// The efficiency claim of §7.4 (L599-621; spec §6 P17) and its negative controls (P18), as
// bounded ratios of counted rule firings over families of growing programs with heavy sharing.
#include <string>
#include <vector>

#include "properties/core/property.hpp"
#include "semantics/delta_reverse/wrappers.hpp"

namespace adsem::delta_reverse {

// Program families (spec §6 P17 B1-B3, §8 Ex. 4): source text of size n.
std::string doubling_chain(int k);        // Ex. 4: let x1 = x + x in ... (2^k x)
std::string halved_doubling_chain(int k); // B1: let x_{i+1} = (x_i + x_i) * 0.5 (no overflow)
std::string sum_chain(int a);             // B2: \(p : Real^a). x1 + ... + xa, destructured linearly
std::string twice_tower(int k);           // B3: twice applied k times to a helper

struct CostSample {
  long primal_steps = 0;
  long real_prim_calls = 0;
  long drev_steps = 0; // the Drev run (machine rules)
  long bindings = 0;
  long delta_nodes = 0;   // nodes of every rhs
  long eval_visits = 0;   // eval rule firings on the runDelta Let-nest (Fig. 10)
  long sweep_nodes = 0;   // Delta nodes the array sweep visits (§7.3)
  long eval2_visits = -1; // R2, when asked
  long dense_flops = -1;  // R1, when asked
};
CostSample measure(const std::string& source, const std::vector<double>& at, bool with_r1_r2,
                   long fuel);

std::vector<props::PropertyDef> cost_properties();

} // namespace adsem::delta_reverse
