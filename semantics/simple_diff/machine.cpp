#include "semantics/simple_diff/machine.hpp"

#include "syntax/simple_diff/derived.hpp"
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

Machine::Machine(Options options) : options_(std::move(options)) {
  if (options_.counter) fired_.assign(options_.rules->size(), 0);
}

Machine::~Machine() {
  if (!options_.counter) return;
  auto at = options_.counter->fired.begin();
  for (const std::size_t i : options_.rules->by_name())
    if (fired_[i] > 0) at = options_.counter->add_from(at, options_.rules->info(i).name, fired_[i]);
}

void Machine::charge(long units, const Node* at) {
  work_ += units;
  if (steps_ + work_ / 8 > options_.fuel)
    throw AdsemError(ErrorKind::fuel,
                     "fuel exhausted after " + std::to_string(options_.fuel) +
                         " steps (the step budget; the program may diverge)",
                     at ? at->pos : std::nullopt);
}

void Machine::step(const RuleInfo& rule, const Node* at) {
  if (++steps_ + work_ / 8 > options_.fuel)
    throw AdsemError(ErrorKind::fuel,
                     "fuel exhausted after " + std::to_string(options_.fuel) +
                         " steps (the step budget; the program may diverge)",
                     at ? at->pos : std::nullopt);
  if (options_.counter) ++fired_[rule.position];
  if (!options_.record_trace) return;
  if (static_cast<long>(trace_.size()) >= options_.max_trace_lines) return;
  std::string detail;
  if (at) {
    detail = print(make_shared_node<const Node>(*at)); // the user's forms (infix, grad)
    if (detail.size() > 120) detail = detail.substr(0, 117) + "...";
  }
  trace_.push_back(TraceLine{rule.name, std::move(detail)});
}

const Term& Machine::zero(const Type& t) {
  for (const auto& [type, term] : zeros_)
    if (type == t) return term;
  return zeros_.emplace_back(t, zero_of(t)).second;
}

ApproximantStuck approximant_stuck(const Node& call) {
  return ApproximantStuck("recursion limit of letrec[n] " + call.name +
                              " exhausted (a call through clo_0 is stuck; seed 003 Fig. 8)",
                          call.pos);
}

Value Machine::stuck_at_clo_0(ApproximantStuck stuck) {
  stuck_.emplace(std::move(stuck));
  return Value::unit();
}

Value Machine::stuck_outside_domain(AdsemError error) {
  stuck_.emplace(std::move(error));
  return Value::unit();
}

Machine::Depth::Depth(Machine& m) : m_(m) {
  m_.enter_level();
}

void Machine::Levels::enter() {
  m_.enter_level();
  ++count_;
}

void Machine::enter_level() {
  if (++depth_ > options_.max_depth) {
    --depth_;
    throw AdsemError(ErrorKind::fuel,
                     "evaluation nested deeper than " + std::to_string(options_.max_depth) +
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
