#include "syntax/core/diagnostic.hpp"

namespace adsem {

std::string_view to_string(ErrorKind kind) {
  switch (kind) {
  case ErrorKind::parse:
    return "parse";
  case ErrorKind::type:
    return "type";
  case ErrorKind::eval:
    return "eval";
  case ErrorKind::domain:
    return "domain";
  case ErrorKind::fuel:
    return "fuel";
  case ErrorKind::usage:
    return "usage";
  case ErrorKind::io:
    return "io";
  case ErrorKind::resource:
    return "resource";
  case ErrorKind::internal:
    return "internal";
  }
  return "usage";
}

int exit_code_of(ErrorKind kind) {
  switch (kind) {
  case ErrorKind::type:
  case ErrorKind::eval:
  case ErrorKind::domain:
  case ErrorKind::fuel:
    return 1;
  case ErrorKind::parse:
  case ErrorKind::usage:
  case ErrorKind::io:
    return 2;
  case ErrorKind::internal:
    return internal_error_exit_code;
  case ErrorKind::resource:
    return resource_error_exit_code;
  }
  return 2;
}

std::string Diagnostic::render() const {
  std::string out;
  if (pos) out += std::to_string(pos->line) + ":" + std::to_string(pos->column) + ": ";
  out += std::string(to_string(kind)) + " error: " + message;
  return out;
}

AdsemError::AdsemError(Diagnostic diagnostic)
    : std::runtime_error(diagnostic.render()), diagnostic_(std::move(diagnostic)) {}

AdsemError::AdsemError(ErrorKind kind, std::string message, std::optional<SourcePos> pos)
    : AdsemError(Diagnostic{kind, std::move(message), pos}) {}

} // namespace adsem
