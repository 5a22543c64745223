#include "semantics/perturbative/denotation.hpp"

#include <set>
#include <string>

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

namespace {

bool ground(const Type& t) {
  switch (t->kind) {
  case TypeNode::Kind::real:
  case TypeNode::Kind::atom:
    return true;
  case TypeNode::Kind::product:
    return ground(t->left) && ground(t->right);
  case TypeNode::Kind::arrow:
    return false;
  }
  return false;
}

} // namespace

bool GroundValues::may_keep(const Simple& node) {
  switch (node.kind) {
  case Kind::app:
  case Kind::inj:
  case Kind::proj:
    return ground(node.type);
  case Kind::push: // T s is a function (L293)
  case Kind::var:
  case Kind::lam:
  case Kind::numeral:
  case Kind::primitive:
    return false;
  }
  return false;
}

GroundValues::Entry& GroundValues::entry(const SimpleP& node) {
  const auto [at, added] = entries_.try_emplace(node.get());
  Entry& e = at->second;
  if (added) {
    e.node = node;
    std::set<std::string> free;
    free_variables(*node, free);
    e.cacheable = free.empty();
  }
  return e;
}

} // namespace adsem::perturbative
