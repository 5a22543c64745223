#include "semantics/perturbative/denotation.hpp"

namespace adsem::perturbative {

model::ModelType model_type(const Type& t) {
  switch (t->kind) {
  case TypeNode::Kind::real:
  case TypeNode::Kind::atom:
    return model::ModelType::real();
  case TypeNode::Kind::product:
    return model::ModelType::pair(model_type(t->left), model_type(t->right));
  case TypeNode::Kind::arrow:
    return model::ModelType::function(model_type(t->left), model_type(t->right));
  }
  return model::ModelType::real();
}

} // namespace adsem::perturbative
