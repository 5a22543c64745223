#pragma once
// The translation (-)_t of seed 000 §5.1 (L521-531, App. D L833-844; spec §4.11) into Ehrhard–
// Regnier's differential λ-calculus with reals, primitives, pairs and projections (𝓛_D), and a
// numeric interpretation of 𝓛_D (D s·t ↦ a ↦ D[⟦s⟧]⟨⟦t⟧, a⟩, by the model's derivative). Used as
// a cross-check of the direct model (Lemma 5.1(2), spec §6 P13): ⟦P⟧ = ⟦P_t⟧. The 𝓛_D side knows
// no dual maps, covectors or pullbacks: they are translated away.
#include <memory>
#include <string>
#include <vector>

#include "semantics/pullback/denotation.hpp"
#include "syntax/pullback/ast.hpp"

namespace adsem::pullback::ld {

struct Node;
using DTerm = SharedNode<const Node>;
struct Node {
  enum class Kind { var, lam, app, proj, pair, num, prim, dprim, dapp, sum, zero };
  Kind kind = Kind::zero;
  std::string name = {}; // var / binder / primitive
  Type type = {};        // zero: its type; prim/dprim: the signature
  int index = 0;
  double value = 0;
  std::vector<DTerm> kids = {}; // dapp: [s, t]  (D s·t)
};

// Constructors of 𝓛_D terms: dapp is the application s T, Node::Kind::dapp is D s·t.
DTerm make(Node n);
DTerm dvar(const std::string& x);
DTerm dlam(const std::string& x, DTerm body);
DTerm dapp(DTerm f, DTerm a);
DTerm dproj(int i, DTerm s);

DTerm translate(const Term& t);
std::size_t size_of(const DTerm& t);

model::Value<double> denote(const DTerm& t, const Env<double>& env, const DenoteContext& context);

} // namespace adsem::pullback::ld
