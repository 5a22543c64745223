#include "semantics/pullback/denotation.hpp"

namespace adsem::pullback {

model::ModelType model_type(const Type& t) {
  if (is_real(t)) return model::ModelType::real();
  if (is_prod(t)) return model::ModelType::pair(model_type(t->left), model_type(t->right));
  if (is_arrow(t)) return model::ModelType::function(model_type(t->left), model_type(t->right));
  if (is_dual(t)) return model::ModelType::function(model_type(t->left), model::ModelType::real());
  throw AdsemError(ErrorKind::eval, "model: the type of an unannotated 'zero' is unknown");
}

} // namespace adsem::pullback
