#pragma once
// The wrappers that turn a translated main expression e : S → T (closed, S and T first-order,
// L111-121, §11) into a derivative (spec §4.9):
//   F{e}(s, ds)   = delta_T (Dfwd{e} (zip_S (s, ds)))                       Fig. 4 / Fig. 15
//   R1{e}(s, dt)  = seeds (s_i, dt ⊗ onehot i), reads δS off the result       Fig. 6 (T = R)
//   R2{e}(s, dt)  = seeds (s_i, OneHot i), eval_2 dt u into (0, ..., 0)       Fig. 8 (T = R)
//   R{e}(s, dt)   = initVars, runDelta (dv + 1) (do { g <- Drev{e}; g s0 }), eval, lookup
//                   Fig. 11 (T = R, eval dt), Fig. 15 (any T, through odot_T, eval 1.0), or the
//                   spec's [proposal] seeding Add(Scale(dt_j, d_j)) over the output leaves.
// Drev{e} runs inside the same runDelta as its application (spec §11 item 6, Ex. 12).
#include <cstdint>
#include <optional>
#include <string>

#include "semantics/delta_reverse/delta_eval.hpp"
#include "semantics/delta_reverse/machine.hpp"
#include "semantics/delta_reverse/setup.hpp"

namespace adsem::delta_reverse {

struct Program {
  Term term; // closed, elaborated
  Type s, t; // e : S → T
};
// Checks that the closed term has a type S → T with S and T first-order (AdsemError(type)).
Program program_of(const Term& elaborated, const Type& type);

struct PrimalRun {
  Value result;
  long steps = 0;
  long real_prim_calls = 0;
};
PrimalRun run_primal(const Program& p, const Value& s, long fuel,
                     const std::shared_ptr<RuleCounter>& coverage = nullptr,
                     const Rules& rules = *paper_rules());

struct ForwardRun {
  Value primal;  // primal_T of Dfwd{e}'s result
  Value tangent; // δT
  long steps = 0;
};
ForwardRun forward(const Program& p, const Value& s, const Value& ds, const RunSetup& setup,
                   long fuel);

enum class Wrapper { fig11, fig15, seeded };
enum class EvalImpl { map, array };

struct ReverseRun {
  Value primal;              // fig11/seeded: the primal T value; fig15: the value of (e s) ⊙ dt
  Value gradient;            // δS, in the shape of s (leaves copied)
  Value s0;                  // initVars_S s: Drev{S} with Var 1..dv
  Value result;              // the Drev{T} (fig15: Drev{R}) value the program returned
  Binds binds;               // the tape, allocation order
  Delta final_delta;         // where the sweep starts (the result's Delta, or the seeding)
  double seed = 1.0;         // the x of eval x u
  std::int64_t inputs = 0;   // dv
  std::int64_t first_id = 0; // runDelta's n0 = dv + 1
  std::int64_t next = 0;     // the final fresh id
  long steps = 0;            // all machine rules, Drev run and eval together
  long program_steps = 0;    // the Drev run alone
  long eval_visits = 0;      // eval / sweep rule firings
  long real_prim_calls = 0;
  Ledger ledger; // the rules that fired
};
ReverseRun reverse(const Program& p, const Value& s, const Value& dt, Wrapper w, EvalImpl impl,
                   const RunSetup& setup, long fuel, bool trace = false);

// The same with Drev{e} given (already translated, e.g. linked from separately translated parts,
// §7.5); the wrapper must be fig11 or seeded.
ReverseRun reverse_translated(const Program& p, const Term& drev_e, const Value& s, const Value& dt,
                              Wrapper w, EvalImpl impl, const RunSetup& setup, long fuel);

// The same wrapper, tape and eval with e itself run by the overloading interpreter
// (overloading.hpp; seed 001 §8, L629-641; spec §4.2) in place of Drev{e}.
ReverseRun reverse_overloaded(const Program& p, const Value& s, const Value& dt, Wrapper w,
                              EvalImpl impl, const RunSetup& setup, long fuel, bool trace = false);

struct DenseRun { // reverse #1 (T = R, S without sums)
  Value primal;
  Value gradient;
  long steps = 0;
  long dense_flops = 0;
  Ledger ledger;
};
DenseRun reverse1(const Program& p, const Value& s, double dt, const RunSetup& setup, long fuel);

struct Delta2Run { // reverse #2 (T = R)
  Value primal;
  Value gradient;
  Delta delta;
  long steps = 0;
  long eval2_visits = 0;
  Ledger ledger;
};
Delta2Run reverse2(const Program& p, const Value& s, double dt, const RunSetup& setup, long fuel);

// The polytypic helpers of §4.3 / §11 on values.
Value zip_value(const Value& s, const Value& ds);    // zip_S
Value delta_value(const Value& dual);                // delta_T
Value primal_value(const Value& dual);               // primal_T
Value init_vars(const Value& s, std::int64_t& last); // initVars_S (ids last+1..)
Value init_zeros(const Value& dt);                   // initZeros_T
Value zero_like(const Type& t);                      // a value of first-order t
// odot_T : T × δT → R as a closed source λ-term (spec §4.3; 0.0 on leaves, on mismatched tags).
Term odot_term(const Type& t);
// The results of the book's entries for R{e}'s run and lookup_S (rules.cpp).
namespace wrapper_rules {
Value run_program(Machine& m, const RunProgram::Redex& r, const RuleInfo&);
Value lookup_real(Lookup::Context& c, const Lookup::Redex& r, const RuleInfo&);
Value lookup_leaf(Lookup::Context& c, const Lookup::Redex& r, const RuleInfo&);
Value lookup_product(Lookup::Context& c, const Lookup::Redex& r, const RuleInfo&);
Value lookup_sum(Lookup::Context& c, const Lookup::Redex& r, const RuleInfo&);
} // namespace wrapper_rules

// Is every Delta inside a Drev value Zero or Var (L571)?
bool zero_or_var_only(const Value& v);
// The ids of every Var in a Delta.
void collect_var_ids(const Delta& d, std::vector<std::int64_t>& out);
// What is wrong with the order of a run's tape, or nothing: its ids are fresh and increasing from
// runDelta's first, each rhs has at most five nodes (a binary primitive's, Fig. 14) and refers
// only to inputs and earlier ids (L571, Lemma 10), and the state's next id follows the last.
std::optional<std::string> tape_order_error(const ReverseRun& run);

} // namespace adsem::delta_reverse
