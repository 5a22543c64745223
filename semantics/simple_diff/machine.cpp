#include "semantics/simple_diff/machine.hpp"

#include "semantics/simple_diff/eval.hpp"
#include "semantics/simple_diff/symbolic_diff.hpp"
#include "semantics/simple_diff/symbolic_eval.hpp"
#include "syntax/simple_diff/printer.hpp"

namespace adsem::simple_diff {

FunEnv extend(FunEnv phi, std::string f, ClosurePtr closure) {
  return std::make_shared<const FunBinding>(
      FunBinding{std::move(f), std::move(closure), std::move(phi)});
}

ClosurePtr lookup(const FunEnv& phi, const std::string& f) {
  for (const FunBinding* b = phi.get(); b; b = b->next.get())
    if (b->f == f) return b->closure;
  return nullptr;
}

Rules Rules::paper() {
  Rules r;
  r.o_add = rules::o_add;
  r.o_op = rules::o_op;
  r.o_let = rules::o_let;
  r.o_fst = rules::o_fst;
  r.o_snd = rules::o_snd;
  r.o_ift = rules::o_ift;
  r.o_iff = rules::o_iff;
  r.o_letrec = rules::o_letrec;
  r.o_call = rules::o_call;
  r.o_rd = rules::o_rd;
  r.o_pred = rules::o_pred;
  r.s_add = rules::s_add;
  r.s_op = rules::s_op;
  r.s_let = rules::s_let;
  r.s_fst = rules::s_fst;
  r.s_snd = rules::s_snd;
  r.s_ift = rules::s_ift;
  r.s_iff = rules::s_iff;
  r.s_letrec = rules::s_letrec;
  r.s_call = rules::s_call;
  r.s_rd = rules::s_rd;
  r.r_var = rules::r_var;
  r.r_const = rules::r_const;
  r.r_add = rules::r_add;
  r.r_op = rules::r_op;
  r.r_let = rules::r_let;
  r.r_unit = rules::r_unit;
  r.r_pair = rules::r_pair;
  r.r_fst = rules::r_fst;
  r.r_snd = rules::r_snd;
  r.ev = rules::ev;
  r.bev = rules::bev;
  r.op_r_term = rules::op_r_term;
  return r;
}

Machine::Machine(Options options) : options_(std::move(options)) {}

Machine::~Machine() {
  if (!options_.counter) return;
  for (std::size_t i = 0; i < fired_.size(); ++i)
    if (fired_[i] > 0) options_.counter->add(rule_name(static_cast<Rule>(i)), fired_[i]);
}

void Machine::charge(long units, const Node* at) {
  work_ += units;
  if (steps_ + work_ / 8 > options_.fuel)
    throw AdsemError(ErrorKind::fuel,
                     "fuel exhausted after " + std::to_string(options_.fuel) +
                         " steps (the step budget; the program may diverge)",
                     at ? at->pos : std::nullopt);
}

void Machine::step(Rule rule, const Node* at) {
  if (++steps_ + work_ / 8 > options_.fuel)
    throw AdsemError(ErrorKind::fuel,
                     "fuel exhausted after " + std::to_string(options_.fuel) +
                         " steps (the step budget; the program may diverge)",
                     at ? at->pos : std::nullopt);
  if (options_.counter) ++fired_[static_cast<std::size_t>(rule)];
  if (!options_.record_trace) return;
  if (static_cast<long>(trace_.size()) >= options_.max_trace_lines) return;
  std::string detail;
  if (at) {
    detail = print_term(std::make_shared<const Node>(*at)); // the user's forms (infix, grad)
    if (detail.size() > 120) detail = detail.substr(0, 117) + "...";
  }
  trace_.push_back(TraceLine{rule, std::move(detail)});
}

Value Machine::stuck_at_clo_0(ApproximantStuck stuck) {
  stuck_.emplace(std::move(stuck));
  return Value::unit();
}

Machine::Depth::Depth(Machine& m) : m_(m) {
  if (++m_.depth_ > m_.options_.max_depth) {
    --m_.depth_;
    throw AdsemError(ErrorKind::fuel,
                     "evaluation nested deeper than " + std::to_string(m_.options_.max_depth) +
                         " levels (deep recursion or a deeply nested term; the program may "
                         "diverge)");
  }
}

bool is_unknown(const AdsemError& e) {
  return e.diagnostic().kind == ErrorKind::fuel && !dynamic_cast<const ApproximantStuck*>(&e);
}

void stuck(ErrorKind kind, const std::string& message, const Node& at) {
  throw AdsemError(kind, message, at.pos);
}

} // namespace adsem::simple_diff
