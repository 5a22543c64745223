#include "syntax/pullback/ast.hpp"
#include "syntax/pullback/name_key.hpp"
#include "syntax/pullback/type_with.hpp"

#include <algorithm>
#include <cstdio>
#include <functional>
#include <map>
#include <stdexcept>

namespace adsem::pullback {

namespace {
Type make(TypeNode::Kind k, Type l = nullptr, Type r = nullptr) {
  const bool euclidean = k == TypeNode::Kind::real ||
                         (k == TypeNode::Kind::prod && l && r && l->euclidean && r->euclidean);
  const std::size_t dims =
      k == TypeNode::Kind::real ? 1 : (euclidean ? l->dims + r->dims : std::size_t{0});
  return make_shared_node<const TypeNode>(TypeNode{k, std::move(l), std::move(r), euclidean, dims});
}
} // namespace

Type real_type() {
  static const Type r = make(TypeNode::Kind::real);
  return r;
}
Type any_type() {
  static const Type a = make(TypeNode::Kind::any);
  return a;
}
Type prod(Type a, Type b) {
  return make(TypeNode::Kind::prod, std::move(a), std::move(b));
}
Type arrow(Type a, Type b) {
  return make(TypeNode::Kind::arrow, std::move(a), std::move(b));
}
Type dual(Type a) {
  return make(TypeNode::Kind::dual, std::move(a));
}
Type one_form(Type a) {
  return arrow(a, dual(a));
}
Type real_power(std::size_t n) {
  Type t = real_type();
  for (std::size_t i = 1; i < n; ++i)
    t = prod(t, real_type());
  return t;
}
bool is_real(const Type& t) {
  return t && t->kind == TypeNode::Kind::real;
}
bool is_prod(const Type& t) {
  return t && t->kind == TypeNode::Kind::prod;
}
bool is_arrow(const Type& t) {
  return t && t->kind == TypeNode::Kind::arrow;
}
bool is_dual(const Type& t) {
  return t && t->kind == TypeNode::Kind::dual;
}
bool is_any(const Type& t) {
  return !t || t->kind == TypeNode::Kind::any;
}
bool mentions_any(const Type& t) {
  return is_any(t) || (t->left && mentions_any(t->left)) || (t->right && mentions_any(t->right));
}
bool is_euclidean(const Type& t) {
  return t && t->euclidean;
}
std::size_t dim(const Type& t) {
  if (is_euclidean(t)) return t->dims;
  // Not Euclidean: the walk finds the component the error names.
  if (is_real(t)) return 1;
  if (is_prod(t)) return dim(t->left) + dim(t->right);
  throw AdsemError(ErrorKind::eval, "dim of the non-Euclidean type " + type_text(t));
}
bool same_type(const Type& a, const Type& b) {
  if (a == b) return true; // one shared type (the common case: types are shared, not rebuilt)
  if (is_any(a) || is_any(b)) return true;
  if (a->kind != b->kind) return false;
  switch (a->kind) {
  case TypeNode::Kind::real:
    return true;
  case TypeNode::Kind::dual:
    return same_type(a->left, b->left);
  default:
    return same_type(a->left, b->left) && same_type(a->right, b->right);
  }
}

namespace {
// Precedence: 0 arrow, 1 product, 2 postfix/atom.
std::string type_text(const Type& t, int prec) {
  if (is_any(t)) return "_";
  switch (t->kind) {
  case TypeNode::Kind::real:
    return "R";
  case TypeNode::Kind::dual:
    return type_text(t->left, 2) + "^*";
  case TypeNode::Kind::prod: {
    const std::string s = type_text(t->left, 1) + " * " + type_text(t->right, 2);
    return prec > 1 ? "(" + s + ")" : s;
  }
  case TypeNode::Kind::arrow: {
    const std::string s = type_text(t->left, 1) + " -> " + type_text(t->right, 0);
    return prec > 0 ? "(" + s + ")" : s;
  }
  default:
    return "_";
  }
}
} // namespace

std::string type_text(const Type& t) {
  return type_text(t, 0);
}

// [perf] Each node is initialised once, in its shared block, from the aggregate a constructor
// spells out (made): a Node built first and moved in was moved member by member and destroyed, a
// node value-initialised in its block and then assigned initialised every member twice, and a
// braced kids list copied every kid's handle (an initializer list's items are const).
namespace {
// The allocator of `made`: std::allocator's memory, and a construct that initialises the node in
// place from make()'s prvalue (guaranteed copy elision). Node stays an aggregate (designated
// initialisers build it), and Debian's clang 14, which builds the fuzz targets, has no
// parenthesised aggregate initialisation to do this through make_shared.
template <class T> struct InPlaceAllocator {
  using value_type = T;
  InPlaceAllocator() = default;
  template <class U> InPlaceAllocator(const InPlaceAllocator<U>&) noexcept {} // NOLINT: rebinding
  T* allocate(std::size_t n) { return std::allocator<T>{}.allocate(n); }
  void deallocate(T* p, std::size_t n) noexcept { std::allocator<T>{}.deallocate(p, n); }
  template <class Make> void construct(Node* p, Make&& make) {
    ::new (static_cast<void*>(p)) Node(std::forward<Make>(make)());
  }
  friend bool operator==(const InPlaceAllocator&, const InPlaceAllocator&) { return true; }
};
template <class Make> SharedNode<Node> made(Make&& make) {
  return allocate_shared_node<Node>(InPlaceAllocator<Node>{}, std::forward<Make>(make));
}
// A node with a name and a type (var, binders, prim, jac) and the given kids.
SharedNode<Node> named(Kind kind, std::string name, Type type, Kids kids, SourcePos pos) {
  return made([&] {
    return Node{.kind = kind,
                .name = std::move(name),
                .type = std::move(type),
                .kids = std::move(kids),
                .pos = pos};
  });
}
SharedNode<Node> unnamed(Kind kind, Kids kids, SourcePos pos) {
  return made([&] { return Node{.kind = kind, .kids = std::move(kids), .pos = pos}; });
}
} // namespace

Term var(std::string name, Type type, SourcePos pos) {
  return named(Kind::var, std::move(name), std::move(type), {}, pos);
}
Term lam(std::string x, Type sigma, Term body, SourcePos pos) {
  return named(Kind::lam, std::move(x), std::move(sigma), Kids(std::in_place, std::move(body)),
               pos);
}
Term app(Term f, Term a, SourcePos pos) {
  return unnamed(Kind::app, Kids(std::in_place, std::move(f), std::move(a)), pos);
}
Term proj(int i, Term s, SourcePos pos) {
  return made([&] {
    return Node{
        .kind = Kind::proj, .index = i, .kids = Kids(std::in_place, std::move(s)), .pos = pos};
  });
}
Term pair(Term a, Term b, SourcePos pos) {
  return unnamed(Kind::pair, Kids(std::in_place, std::move(a), std::move(b)), pos);
}
Term num(double r, SourcePos pos) {
  return made([&] { return Node{.kind = Kind::num, .value = r, .pos = pos}; });
}
Term prim(std::string f, Type signature, Term a, SourcePos pos) {
  return named(Kind::prim, std::move(f), std::move(signature), Kids(std::in_place, std::move(a)),
               pos);
}
Term jac(std::string f, Type signature, Term s, SourcePos pos) {
  return named(Kind::jac, std::move(f), std::move(signature), Kids(std::in_place, std::move(s)),
               pos);
}
Term dualmap(std::string x, Type sigma, Term body, Term functional, SourcePos pos) {
  return named(Kind::dualmap, std::move(x), std::move(sigma),
               Kids(std::in_place, std::move(body), std::move(functional)), pos);
}
Term pullback(std::string x, Type sigma, Term body, Term oneform, SourcePos pos) {
  return named(Kind::pullback, std::move(x), std::move(sigma),
               Kids(std::in_place, std::move(body), std::move(oneform)), pos);
}
Term covec(std::vector<double> c, Type sigma, SourcePos pos) {
  return covec(Covector(c), std::move(sigma), pos);
}
Term covec(Covector c, Type sigma, SourcePos pos) {
  return made([&] {
    return Node{.kind = Kind::covec, .type = std::move(sigma), .vec = std::move(c), .pos = pos};
  });
}
Term zero(Type t, SourcePos pos) {
  return made([&] { return Node{.kind = Kind::zero, .type = std::move(t), .pos = pos}; });
}
Term sum(std::vector<Term> items, SourcePos pos) {
  std::vector<Term> flat;
  for (Term& t : items) {
    if (t->kind == Kind::sum)
      flat.insert(flat.end(), t->kids.begin(), t->kids.end());
    else
      flat.push_back(std::move(t));
  }
  if (flat.empty()) return zero(nullptr, pos);
  if (flat.size() == 1) return flat.front();
  return unnamed(Kind::sum, std::move(flat), pos);
}
Term let(std::string x, Type rho, Term bound, Term body, SourcePos pos) {
  return named(Kind::let, std::move(x), std::move(rho),
               Kids(std::in_place, std::move(bound), std::move(body)), pos);
}

namespace {
Term numeral_tuple_from(const Type& sigma, const std::vector<double>& flat, std::size_t& next) {
  if (is_prod(sigma)) {
    Term a = numeral_tuple_from(sigma->left, flat, next);
    Term b = numeral_tuple_from(sigma->right, flat, next);
    return pair(a, b);
  }
  return num(next < flat.size() ? flat[next++] : 0.0);
}
} // namespace

Term numeral_tuple(const Type& sigma, const std::vector<double>& flat) {
  std::size_t next = 0;
  return numeral_tuple_from(sigma, flat, next);
}

namespace {
// The type of t from its annotations, the children's types from `sub`.
template <typename Sub> Type type_from(const Term& t, const Sub& sub) {
  switch (t->kind) {
  case Kind::var:
    return t->type;
  case Kind::lam:
    return arrow(t->type, sub(t->kids[0]));
  case Kind::app: {
    const Type f = sub(t->kids[0]);
    return is_arrow(f) ? f->right : any_type();
  }
  case Kind::proj: {
    const Type s = sub(t->kids[0]);
    if (!is_prod(s)) return any_type();
    return t->index == 1 ? s->left : s->right;
  }
  case Kind::pair:
    return prod(sub(t->kids[0]), sub(t->kids[1]));
  case Kind::num:
    return real_type();
  case Kind::prim:
    return t->type->right;
  case Kind::jac:
    return t->type;
  case Kind::dualmap:
    return dual(t->type);
  case Kind::pullback:
    return one_form(t->type);
  case Kind::covec:
    return dual(t->type);
  case Kind::sum:
    for (const Term& k : t->kids) {
      const Type ty = sub(k);
      if (!is_any(ty)) return ty;
    }
    return any_type();
  case Kind::zero:
    return t->type ? t->type : any_type();
  case Kind::let:
    return sub(t->kids[1]);
  }
  return any_type();
}
} // namespace

Type type_of(const Term& t) {
  return type_from(t, [](const Term& k) { return type_of(k); });
}

Type type_with(const Term& t, const std::function<Type(const Term&)>& kid_type) {
  return type_from(t, kid_type);
}

Type type_of(const Term& t, TypeMemo& memo) {
  if (const auto hit = memo.find(t.get()); hit != memo.end()) return hit->second.second;
  Type out = type_from(t, [&](const Term& k) { return type_of(k, memo); });
  memo.emplace(t.get(), std::pair<Term, Type>{t, out});
  return out;
}

namespace {
void free_vars_into(const Term& t, std::set<std::string>& bound, std::set<std::string>& out) {
  if (t->kind == Kind::var) {
    if (!bound.count(t->name)) out.insert(t->name);
    return;
  }
  for (std::size_t i = 0; i < t->kids.size(); ++i) {
    if (binds(t->kind) && i == bound_child(t->kind)) {
      const bool had = bound.count(t->name) > 0;
      bound.insert(t->name);
      free_vars_into(t->kids[i], bound, out);
      if (!had) bound.erase(t->name);
    } else {
      free_vars_into(t->kids[i], bound, out);
    }
  }
}
} // namespace

// ---- free-variable facts ----

std::int64_t name_number(std::string_view name) {
  std::size_t i = name.size();
  while (i > 0 && name[i - 1] >= '0' && name[i - 1] <= '9')
    --i;
  const std::size_t digits = name.size() - i;
  if (digits == 0 || digits > 18 || i < 2 || name[i - 1] != '_') return -1;
  std::int64_t n = 0;
  for (std::size_t k = i; k < name.size(); ++k)
    n = n * 10 + (name[k] - '0');
  return n;
}
std::uint64_t name_bit(std::string_view name) {
  // [perf] FNV-1a inline (names are a few bytes; std::hash called out to a general byte hash at
  // every binds_no question), its top six bits choosing the bit.
  std::uint64_t h = 0xcbf29ce484222325ULL;
  for (const char c : name)
    h = (h ^ static_cast<unsigned char>(c)) * 0x100000001b3ULL;
  return std::uint64_t{1} << (h >> 58);
}

const NodeFacts* FactsSlot::publish(const NodeFacts* f, bool owned) const {
  const std::uintptr_t mine = reinterpret_cast<std::uintptr_t>(f) | (owned ? 0 : borrowed);
  std::uintptr_t expected = 0;
  if (p_.compare_exchange_strong(expected, mine, std::memory_order_acq_rel)) return f;
  if (owned) delete f; // another thread was first; ours is dropped
  return reinterpret_cast<const NodeFacts*>(expected & ~borrowed);
}
void FactsSlot::release() {
  const std::uintptr_t old = p_.exchange(0);
  if (old != 0 && (old & borrowed) == 0) delete reinterpret_cast<const NodeFacts*>(old);
}

namespace {
const NodeFacts empty_facts{}; // closed, no binders

bool is_empty(const NodeFacts& f) {
  return f.free.empty() && !f.many && f.binder_mask == 0;
}

// FV(n) from the kids' facts: FV(kid) for every kid, minus the binder's name under the binder.
// Sets `owned` when the result is new (else it is a kid's facts or empty_facts).
const NodeFacts* compute_facts(const Node& n, bool& owned) {
  owned = false;
  if (n.kind == Kind::var) {
    owned = true;
    return new NodeFacts{.free = {n.name}};
  }
  if (n.kids.empty()) return &empty_facts;
  if (!binds(n.kind)) { // at most one kid with facts: the node has that kid's facts
    const Term* only = nullptr;
    int with_facts = 0;
    for (const Term& k : n.kids) {
      if (k->kind == Kind::var || !is_empty(facts(k))) {
        ++with_facts;
        only = &k;
      }
    }
    if (with_facts == 0) return &empty_facts;
    // [perf] A variable kid's facts too are borrowed (the variable's own, made once): the paths
    // π₁(w), π₂(w) of rule 8's stage tuple (seed 000 Fig. 3 L240) share their w.
    if (with_facts == 1) return &facts(*only);
  }
  auto f = std::make_unique<NodeFacts>();
  if (binds(n.kind)) {
    const NameKey key = name_key(n.name);
    f->binder_mask = key.bit;
    f->binder_number_max = key.number;
  }
  // [perf] The kids' names are merged into one vector reserved for all of them (one allocation
  // per node; merging kid by kid into a new vector allocated once per kid).
  std::size_t names = 0;
  for (const Term& kid : n.kids) {
    if (kid->kind == Kind::var) {
      ++names;
      continue;
    }
    const NodeFacts& k = facts(kid);
    f->binder_mask |= k.binder_mask;
    f->binder_number_max = std::max(f->binder_number_max, k.binder_number_max);
    f->many = f->many || k.many;
    names += k.free.size();
  }
  if (f->many) {
    owned = true;
    return f.release();
  }
  f->free.reserve(std::min(names, NodeFacts::max_free_names + 1));
  const auto add = [&](const std::string_view name) {
    const auto at = std::lower_bound(f->free.begin(), f->free.end(), name);
    if (at == f->free.end() || *at != name) f->free.insert(at, name);
  };
  for (std::size_t i = 0; i < n.kids.size() && !f->many; ++i) {
    const Term& kid = n.kids[i];
    // n.name is dropped only from the kid under the binder (a sibling may have it free).
    const bool under = binds(n.kind) && i == bound_child(n.kind);
    if (kid->kind == Kind::var) {
      if (!(under && kid->name == n.name)) add(kid->name);
    } else {
      for (const std::string_view name : facts(kid).free)
        if (!(under && name == n.name)) add(name);
    }
    if (f->free.size() > NodeFacts::max_free_names) f->many = true;
  }
  if (f->many) f->free.clear();
  owned = true;
  return f.release();
}
} // namespace

Term make_node(Node&& n) {
  // Made non-const: the reducer may release a kid of a node that only its own search holds
  // (semantics/pullback/strategy.cpp, run_refocusing); every other user sees a const Node.
  return make_shared_node<Node>(std::move(n));
}

SharedNode<Node> remake(const Node& like) {
  // [perf] Made in its shared block: substitution remakes a node per step of a path it rebuilds.
  return made([&] {
    return Node{.kind = like.kind,
                .name = like.name,
                .type = like.type,
                .index = like.index,
                .value = like.value,
                .vec = like.vec,
                .pos = like.pos};
  });
}

const NodeFacts& computed_facts(const Term& t) {
  bool owned = false;
  const NodeFacts* f = compute_facts(*t, owned);
  return *t->facts_slot.publish(f, owned);
}

namespace {
// Whether the sorted list holds x. [perf] Almost every list has one to five names: an equality
// test compares lengths first and reads the characters only of a name as long as x, where each
// three-way comparison of a binary search called memcmp.
bool has_name(const SmallList<std::string_view>& names, const std::string& x) {
  constexpr std::size_t short_list = 8;
  if (names.size() > short_list)
    return std::binary_search(names.begin(), names.end(), std::string_view(x));
  return std::any_of(names.begin(), names.end(),
                     [&x](const std::string_view name) { return same_name(name, x); });
}
} // namespace

std::set<std::string> free_vars(const Term& t) {
  std::set<std::string> bound, out;
  free_vars_into(t, bound, out);
  return out;
}
bool occurs_free(const std::string& x, const Term& t) {
  if (t->kind == Kind::var) return same_name(t->name, x);
  if (t->kids.empty()) return false;
  const NodeFacts& f = facts(t);
  if (!f.many) return has_name(f.free, x);
  // More names than the facts keep: ask the kids (a var is never `many`).
  for (std::size_t i = 0; i < t->kids.size(); ++i) {
    if (binds(t->kind) && i == bound_child(t->kind) && same_name(t->name, x)) continue; // shadowed
    if (occurs_free(x, t->kids[i])) return true;
  }
  return false;
}
bool binds_no(const Term& t, std::string_view y) {
  if (t->kids.empty()) return true;
  const NodeFacts& f = facts(t);
  return (f.binder_mask & name_bit(y)) == 0 || name_number(y) > f.binder_number_max;
}

namespace {
void binder_names_into(const Term& t, std::set<std::string>& out) {
  if (binds(t->kind)) out.insert(t->name);
  for (const Term& k : t->kids)
    binder_names_into(k, out);
}
bool check_facts(const Term& t, std::string& why) {
  bool kid_many = false;
  for (const Term& k : t->kids) {
    if (!check_facts(k, why)) return false;
    kid_many = kid_many || facts(k).many;
  }
  const NodeFacts& f = facts(t);
  const std::set<std::string> fv = free_vars(t);
  std::set<std::string> bn;
  binder_names_into(t, bn);
  std::uint64_t mask = 0;
  std::int64_t number = INT64_MIN;
  for (const std::string& y : bn) {
    mask |= name_bit(y);
    number = std::max(number, name_number(y));
  }
  const bool many = kid_many || fv.size() > NodeFacts::max_free_names;
  const std::vector<std::string> expected =
      many ? std::vector<std::string>{} : std::vector<std::string>(fv.begin(), fv.end());
  if (f.many != many ||
      !std::equal(f.free.begin(), f.free.end(), expected.begin(), expected.end()) ||
      f.binder_mask != mask || f.binder_number_max != number) {
    why = "stale facts at a node of kind " + std::to_string(static_cast<int>(t->kind)) +
          " (name '" + t->name + "')";
    return false;
  }
  return true;
}
} // namespace

bool facts_consistent(const Term& t, std::string& why) {
  return check_facts(t, why);
}
std::size_t size_of(const Term& t) {
  std::size_t n = 1;
  for (const Term& k : t->kids)
    n += size_of(k);
  return n;
}

namespace {
using Renaming = std::vector<std::pair<std::string, std::string>>;
bool alpha(const Term& a, const Term& b, Renaming& r) {
  if (a->kind != b->kind) return false;
  switch (a->kind) {
  case Kind::var:
    for (auto it = r.rbegin(); it != r.rend(); ++it) {
      if (it->first == a->name || it->second == b->name)
        return it->first == a->name && it->second == b->name;
    }
    return a->name == b->name;
  case Kind::num:
    return a->value == b->value;
  case Kind::covec:
    return a->vec == b->vec && same_type(a->type, b->type);
  case Kind::zero:
    return true;
  case Kind::proj:
    if (a->index != b->index) return false;
    break;
  case Kind::prim:
  case Kind::jac:
    if (a->name != b->name) return false;
    break;
  default:
    break;
  }
  if (a->kids.size() != b->kids.size()) return false;
  if (binds(a->kind) && !same_type(a->type, b->type)) return false;
  for (std::size_t i = 0; i < a->kids.size(); ++i) {
    const bool under = binds(a->kind) && i == bound_child(a->kind);
    if (under) r.emplace_back(a->name, b->name);
    const bool ok = alpha(a->kids[i], b->kids[i], r);
    if (under) r.pop_back();
    if (!ok) return false;
  }
  return true;
}
} // namespace

bool alpha_equal(const Term& a, const Term& b) {
  Renaming r;
  return alpha(a, b, r);
}

bool is_atom(const Term& t) {
  if (t->kind == Kind::var) return true;
  if (t->kind != Kind::proj) return false;
  if (const std::uint8_t known = t->atom_mark.get(); known != AtomMark::unknown)
    return known == AtomMark::yes;
  const bool atom = is_atom(t->kids[0]);
  t->atom_mark.set(atom);
  return atom;
}
const std::string& atom_root(const Term& t) {
  return t->kind == Kind::var ? t->name : atom_root(t->kids[0]);
}
std::vector<int> atom_path(const Term& t) {
  if (t->kind == Kind::var) return {};
  std::vector<int> p = atom_path(t->kids[0]);
  p.push_back(t->index);
  return p;
}
std::vector<Term> components(const Term& p, std::size_t n) {
  std::vector<Term> out(n);
  Term spine = p; // π₁^(n−1−i)(p) for the component i being built, last first
  for (std::size_t i = n; i-- > 1;) {
    out[i] = proj(2, spine);
    if (i > 1) spine = proj(1, spine);
  }
  if (n > 0) out[0] = n == 1 ? p : proj(1, spine);
  return out;
}
bool is_numeral_tuple(const Term& t) {
  if (t->kind == Kind::num) return true;
  return t->kind == Kind::pair && is_numeral_tuple(t->kids[0]) && is_numeral_tuple(t->kids[1]);
}
void flatten_numerals(const Term& t, std::vector<double>& out) {
  if (t->kind == Kind::num) {
    out.push_back(t->value);
    return;
  }
  for (const Term& k : t->kids)
    flatten_numerals(k, out);
}

} // namespace adsem::pullback
