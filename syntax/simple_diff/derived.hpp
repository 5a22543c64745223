#pragma once
// The derived forms of seed 003 Section 2.3 (lines 114-150), as macros that build core terms.
// Each expansion carries a Sugar record so the printer can show the user's form.
#include <vector>

#include "syntax/simple_diff/ast.hpp"
#include "syntax/simple_diff/names.hpp"

namespace adsem::simple_diff {

// T_0 × … × T_{n-1}: unit for n = 0, T_0 for n = 1, left-nested otherwise (lines 96-98).
Type iterated_product(const std::vector<Type>& ts);

// 0_real = 0, 0_unit = *, 0_{T×U} = <0_T, 0_U>_{T,U} (lines 128-130). A value.
Term zero_of(const Type& t, bool sugar = false);

// M +_T N (lines 130-136): M + N at real; strict lets at unit; componentwise at products.
Term plus_of(const Type& t, Term m, Term n, NameSupply& names, bool sugar = false);

// let <x_0:T_0, …, x_{n-1}:T_{n-1}> = M in N (lines 114-126); n = 0 binds a fresh x:unit
// (still strict), n = 1 is the plain let, n > 1 unpacks left-nested:
//   let z = M in let <x_0..x_{n-2}> = fst(z) in let x_{n-1} = snd(z) in N.
Term tuple_let(const std::vector<Sugar::Binder>& xs, Term m, Term n, NameSupply& names,
               bool sugar = false, std::optional<SourcePos> pos = {});

// grad_L(x:T. N) = 1.rd_L(x:T. N) (line 140).
Term grad_of(Term point, std::string x, Type t, Term body, bool sugar = false,
             std::optional<SourcePos> pos = {});

// M.fd_{U,L}(x:T. N) = M.rd_{0_U}(y:U. y.rd_L(x:T. N)), y fresh (lines 144-148).
Term fd_of(Term tangent, Type u, Term point, std::string x, Type t, Term body, NameSupply& names,
           bool sugar = false, std::optional<SourcePos> pos = {});

} // namespace adsem::simple_diff

namespace adsem::simple_diff {
// The approximant M^(n) of seed 003 Fig. 8 / Lemma 6.5 (spec §4.8): every letrec of M without a
// bound becomes letrec_n (a letrec[k] the user wrote keeps its k).
Term approximant(const Term& m, int n);
} // namespace adsem::simple_diff
