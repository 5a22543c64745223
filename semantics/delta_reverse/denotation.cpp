#include "semantics/delta_reverse/denotation.hpp"

namespace adsem::delta_reverse {

model::ModelType model_type(const Type& t) {
  using K = TypeNode::Kind;
  switch (t->kind) {
  case K::real:
    return model::ModelType::real();
  case K::integer:
    return model::ModelType::integer();
  case K::product:
    return model::ModelType::pair(model_type(t->left), model_type(t->right));
  case K::sum:
    return model::ModelType::sum({model_type(t->left), model_type(t->right)});
  case K::arrow:
    return model::ModelType::function(model_type(t->left), model_type(t->right));
  default:
    throw AdsemError(ErrorKind::eval, "model: target types have no model here");
  }
}

} // namespace adsem::delta_reverse
