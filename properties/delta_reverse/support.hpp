#pragma once
// Shared pieces of the delta-reverse properties: drawing a main expression and a point, the
// model's Jacobian (never this calculus's AD), guarded bodies and value comparisons.
#include <functional>
#include <optional>
#include <string>

#include <Eigen/Core>

#include "generators/delta_reverse/terms.hpp"
#include "properties/core/property.hpp"
#include "semantics/core/interval_model.hpp"
#include "semantics/delta_reverse/setup.hpp"
#include "semantics/delta_reverse/wrappers.hpp"

namespace adsem::delta_reverse::support {

using props::PropertyContext;
using props::TrialResult;

long fuel(const PropertyContext& context);
// The mutant's rule book, with the campaign's rule counter attached.
RunSetup setup_of(const PropertyContext& context);

// Runs a body; undefined points, straddling boxes, fuel and non-finite values become counted
// discards (design.md "Partial domains"); other errors propagate (error outcome).
TrialResult guarded(const std::function<TrialResult()>& body);

TrialResult& on(TrialResult& r, const gen::MainExpression& m);
TrialResult on(TrialResult&& r, const gen::MainExpression& m);

struct Drawn {
  gen::MainExpression m;
  Program program;
  Value s;
};
// A main expression and a point s of its input type.
Drawn draw(gen::Options options = {});
// The same, or, on a targeted trial of a campaign with user rules (props::draw_targeted), an
// instance C[σ(LHS)] of one of the file's source rules (draw_source_instance: T = Real, the rest
// of `options` kept). Without user rules it draws exactly what draw(options) draws.
Drawn draw(const PropertyContext& context, gen::Options options = {});

// What a body draws after the program (tangents, cotangents) shaped like a value: a random
// body's gen::tangent_like, drawn where the body needs it, or the fixed one of an enumerated
// input (ones_like), so one check serves both.
using DrawLike = std::function<Value(const Value&)>;
Value random_like(const Value& shape);
Value ones_like(const Value& shape); // every real 1

// The common start of a trial: the active rule book, the fuel, e s (finite, else a discard) and a
// cotangent dt shaped like it (drawn by `like`; random_like without it).
struct Trial {
  RunSetup setup;
  long fuel = 0;
  Value primal;
  Value dt;
};
Trial prepare(const Drawn& d, const PropertyContext& context);
Trial prepare(const Drawn& d, const PropertyContext& context, const DrawLike& like);

// J⟦e⟧(s) from the shared model (model::jacobian on the denotation), b × a.
Eigen::MatrixXd model_jacobian(const Program& p, const Value& s);
// Per output, the magnitude of the chain rule's terms of J ds at s (model::jvp_magnitude), from
// the model; empty where the point box meets a boundary or a guard (the caller keeps the
// magnitudes of its own sums then).
std::vector<double> model_jvp_magnitude(const Program& p, const Value& s, const Value& ds);
// Per input of s, the magnitude of the chain rule's terms of (dtᵀJ)_j (model::vjp_magnitude);
// empty as above.
std::vector<double> model_vjp_magnitude(const Program& p, const Value& s, const Value& dt);
// Interval certification of ⟦e⟧ on a box around s (design.md "Partial domains"): nullopt when a
// box inside every domain and on one side of every branch was found (its Jacobian enclosure in
// *enclosure when given), else the discard reason ("undefined-point", or the straddled guard).
std::optional<std::string> uncertified(const Program& p, const Value& s,
                                       model::Enclosure* enclosure = nullptr);
// Throws AdsemError(eval, "non-finite") if the matrix or value has NaN/inf.
void require_finite(const Eigen::MatrixXd& m);
void require_finite(const std::vector<double>& xs);
Eigen::VectorXd as_vector(const std::vector<double>& xs);

// Same tags and leaves, reals within tolerance (kind), else a failing result naming the place.
TrialResult compare_values(const Value& expected, const std::string& expected_label,
                           const Value& actual, const std::string& actual_label, CheckKind kind,
                           const PropertyContext& context);
// Two runs of the paper's book that do the same real arithmetic in the same order agree bit for
// bit; with a user's rule file (--rules) one run may be rewritten where the other is not (a
// sound `A * (B + C) --> A * B + A * C` rounds differently), so they are compared within the
// exact-value tolerance instead. `what` names the difference: "{actual_label} {actual} differs
// from {expected_label} = {expected}".
TrialResult same_result(const Value& expected, const std::string& expected_label,
                        const Value& actual, const std::string& actual_label, const Type& type,
                        const PropertyContext& context);
// The same where each real is a sum whose terms have the magnitudes `magnitudes` returns, computed
// only where the plain comparison fails on the reals (props::unless_rounding_of_sums).
TrialResult compare_value_sums(const Value& expected, const std::string& expected_label,
                               const Value& actual, const std::string& actual_label, CheckKind kind,
                               const PropertyContext& context,
                               const std::function<std::vector<double>()>& magnitudes);
// Does a Scale coefficient of the tape overflow? The dense meaning evaluates every binding, dead
// ones too, so 0·inf = NaN there (spec §9.4): a rounding limit, not a verdict.
bool has_non_finite_coefficient(const Binds& binds);

// Same tag/leaf structure (reals ignored)?
bool same_shape(const Value& a, const Value& b);

} // namespace adsem::delta_reverse::support
