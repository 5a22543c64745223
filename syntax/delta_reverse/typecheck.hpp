#pragma once
// Church-style typing of spec §3.1 (Definition 7, App. A.1, L1019-1027; the paper's typing is
// Curry-style and "standard") and the target additions of §3.2 (L429-432). Type checking also
// elaborates the type-directed projection sugar e.i into fst/snd (spec §2.2).
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "syntax/delta_reverse/ast.hpp"

namespace adsem::delta_reverse {

// Γ as a list; later entries shadow earlier ones.
using Context = std::vector<std::pair<std::string, Type>>;

struct Typed {
  Type type;
  Term term; // elaborated (no proj nodes)
};

// Throws AdsemError(type) with the position of the offending subterm.
Typed typecheck(const Term& t, const Context& gamma = {});
// nullopt when well typed at `expected` (or at any type, when expected is null); else the message.
std::optional<std::string> type_error(const Term& t, const Context& gamma,
                                      const Type& expected = nullptr);

} // namespace adsem::delta_reverse
