#pragma once
// Located diagnostics shared by every layer. An error that reaches the CLI carries its kind
// (which fixes the exit code and the JSON "kind" field, design.md "CLI contract") and, for source
// text, a 1-based line:column.
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

namespace adsem {

struct SourcePos {
  int line = 1;   // 1-based
  int column = 1; // 1-based, in bytes
  friend bool operator==(const SourcePos&, const SourcePos&) = default;
};

// resource: the command went over a process limit (the memory ceiling, adsem --max-memory);
// internal: a bug of adsem (an exception that is no AdsemError), never the input's fault.
enum class ErrorKind { parse, type, eval, domain, fuel, usage, io, resource, internal };

std::string_view to_string(ErrorKind kind);

// Exit code of the CLI for an error of this kind (design.md: 1 for type, evaluation, domain or
// fuel errors; 2 for usage, parse or I/O errors; 3 for an internal error; 4 for a resource error).
inline constexpr int internal_error_exit_code = 3;
inline constexpr int resource_error_exit_code = 4;
int exit_code_of(ErrorKind kind);

struct Diagnostic {
  ErrorKind kind = ErrorKind::usage;
  std::string message;
  std::optional<SourcePos> pos;

  // "3:14: parse error: expected ')'" (position omitted when unknown).
  std::string render() const;
};

// The one exception type the toolkit throws for user-facing errors.
class AdsemError : public std::runtime_error {
public:
  explicit AdsemError(Diagnostic diagnostic);
  AdsemError(ErrorKind kind, std::string message, std::optional<SourcePos> pos = std::nullopt);
  const Diagnostic& diagnostic() const { return diagnostic_; }

private:
  Diagnostic diagnostic_;
};

} // namespace adsem
