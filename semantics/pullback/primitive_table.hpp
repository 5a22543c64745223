#pragma once
// The pullback language's primitives 𝓕 (seed 000 L133, L187; spec §7) are the shared table's
// function entries (semantics/core/primitives.hpp: g, mult = mul, pow2 = sq, add, sin, ...), with
// signature R^arity ⇒ R^coarity (left nested, ID-8). Rules 3, 4, 5 and 5⁺ call them through here.
#include <Eigen/Core>

#include <optional>
#include <span>
#include <string>
#include <vector>

#include "semantics/core/jacobian.hpp"
#include "semantics/core/primitives.hpp"
#include "syntax/pullback/parser.hpp"

namespace adsem::pullback {

// The parser's view of the table.
Signature signature();
// f̲(P) / 𝒥f̲·S nodes for a primitive of the table (std::out_of_range if unknown).
Term make_prim(const std::string& f, Term argument);
Term make_jac(const std::string& f, Term direction);

std::vector<double> prim_value(const std::string& f, const std::vector<double>& x);
// 𝒥(f)(x), the m×n matrix [∂f_i/∂x_j] (spec §7 convention), exact (tagged duals).
Eigen::MatrixXd prim_jacobian(const std::string& f, const std::vector<double>& x);

// Parse a term whose free variables have the given types (parse + elaborate; no type check).
Term parse(const std::string& source, const std::map<std::string, Type>& free = {});

} // namespace adsem::pullback
