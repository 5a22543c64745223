#include "semantics/linear_negation/denotation.hpp"

namespace adsem::linear_negation {

model::ModelType model_type(const Type& t) {
  switch (t->kind) {
  case TypeNode::Kind::real:
    return model::ModelType::real();
  case TypeNode::Kind::product:
    return model::ModelType::pair(model_type(t->left), model_type(t->right));
  case TypeNode::Kind::arrow:
    return model::ModelType::function(model_type(t->left), model_type(t->right));
  case TypeNode::Kind::neg: // ⟦R^⊥d⟧ = linear maps R -> R^d (Table 4a, L782-787)
    return model::ModelType::function(model::ModelType::real(), model_type(euclidean(t->dim)));
  }
  return model::ModelType::real();
}

} // namespace adsem::linear_negation
