#include "semantics/core/value.hpp"

namespace adsem::model {

bool ModelType::is_euclidean() const {
  switch (kind_) {
  case Kind::real:
  case Kind::unit:
    return true;
  case Kind::tuple:
    for (const ModelType& part : parts_)
      if (!part.is_euclidean()) return false;
    return true;
  case Kind::integer:
  case Kind::sum:
  case Kind::function:
    return false;
  }
  return false;
}

std::size_t ModelType::dimension() const {
  switch (kind_) {
  case Kind::real:
    return 1;
  case Kind::unit:
    return 0;
  case Kind::tuple: {
    std::size_t n = 0;
    for (const ModelType& part : parts_)
      n += part.dimension();
    return n;
  }
  case Kind::integer:
  case Kind::sum:
  case Kind::function:
    break;
  }
  throw AdsemError(ErrorKind::eval, "model: type " + to_string(*this) + " is not Euclidean");
}

std::string to_string(const ModelType& type) {
  auto joined = [&](const char* separator) {
    std::string out = "(";
    for (std::size_t i = 0; i < type.parts().size(); ++i)
      out += (i == 0 ? "" : separator) + to_string(type.parts()[i]);
    return out + ")";
  };
  switch (type.kind()) {
  case ModelType::Kind::real:
    return "R";
  case ModelType::Kind::unit:
    return "unit";
  case ModelType::Kind::integer:
    return "Z";
  case ModelType::Kind::tuple:
    return joined(" * ");
  case ModelType::Kind::sum:
    return joined(" + ");
  case ModelType::Kind::function:
    return joined(" -> ");
  }
  return "?";
}

} // namespace adsem::model
