#include "syntax/core/rule_file.hpp"

#include <algorithm>
#include <cctype>
#include <map>

#include <fmt/format.h>

namespace adsem::rules {

namespace {

bool is_blank(char c) {
  return c == ' ' || c == '\t' || c == '\r';
}
bool ident_start(char c) {
  return std::isalpha(static_cast<unsigned char>(c)) != 0 || c == '_';
}
bool ident_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_' || c == '\'';
}

// One statement: its first line and the continuation lines, joined with '\n'; offsets into
// `text` map back to the file through `line` (the statement always starts at column 1).
struct Statement {
  std::string text;
  int line = 1;

  SourcePos at(std::size_t offset) const {
    SourcePos p{line, 1};
    for (std::size_t i = 0; i < offset && i < text.size(); ++i) {
      if (text[i] == '\n') {
        ++p.line;
        p.column = 1;
      } else {
        ++p.column;
      }
    }
    return p;
  }
  [[noreturn]] void fail(std::size_t offset, const std::string& message) const {
    throw AdsemError(ErrorKind::parse, message, at(offset));
  }
  // The trimmed piece [begin, end) as a fragment.
  Fragment piece(std::size_t begin, std::size_t end) const {
    while (begin < end && (is_blank(text[begin]) || text[begin] == '\n'))
      ++begin;
    while (end > begin && (is_blank(text[end - 1]) || text[end - 1] == '\n'))
      --end;
    return Fragment{text.substr(begin, end - begin), at(begin)};
  }
};

std::vector<Statement> statements(std::string_view source) {
  std::vector<Statement> out;
  int line_no = 0;
  std::size_t start = 0;
  while (start <= source.size()) {
    const auto newline = source.find('\n', start);
    const std::string_view line = source.substr(
        start, newline == std::string_view::npos ? std::string_view::npos : newline - start);
    ++line_no;
    std::size_t first = 0;
    while (first < line.size() && is_blank(line[first]))
      ++first;
    const bool blank = first == line.size();
    const bool comment = !blank && line[first] == '#';
    if (!blank && !comment) {
      if (first == 0) {
        out.push_back(Statement{std::string(line), line_no});
      } else if (out.empty()) {
        throw AdsemError(ErrorKind::parse,
                         "a continuation line (it starts with blanks) but no rule or meta "
                         "declaration above it",
                         SourcePos{line_no, static_cast<int>(first) + 1});
      } else {
        // keep the line whole (blank prefix included) so columns stay the file's
        out.back().text += "\n" + std::string(line);
      }
    }
    if (newline == std::string_view::npos) break;
    start = newline + 1;
  }
  return out;
}

// Offsets of `sep` at bracket depth 0 in [begin, end).
std::vector<std::size_t> split_points(const std::string& s, std::size_t begin, std::size_t end,
                                      char sep) {
  std::vector<std::size_t> out;
  int depth = 0;
  for (std::size_t i = begin; i < end; ++i) {
    const char c = s[i];
    if (c == '(' || c == '[' || c == '{' || c == '<') ++depth;
    if ((c == ')' || c == ']' || c == '}' || c == '>') && depth > 0) --depth;
    if (c == sep && depth == 0) out.push_back(i);
  }
  return out;
}

// The pieces of [begin, end) between the top-level separators.
std::vector<std::pair<std::size_t, std::size_t>> split(const std::string& s, std::size_t begin,
                                                       std::size_t end, char sep) {
  std::vector<std::pair<std::size_t, std::size_t>> out;
  std::size_t from = begin;
  for (const std::size_t at : split_points(s, begin, end, sep)) {
    out.emplace_back(from, at);
    from = at + 1;
  }
  out.emplace_back(from, end);
  return out;
}

// The whole word `word` at depth 0 in [begin, end), first occurrence.
std::optional<std::size_t> find_word(const std::string& s, std::size_t begin, std::size_t end,
                                     std::string_view word) {
  int depth = 0;
  for (std::size_t i = begin; i + word.size() <= end; ++i) {
    const char c = s[i];
    if (c == '(' || c == '[' || c == '{') ++depth;
    if ((c == ')' || c == ']' || c == '}') && depth > 0) --depth;
    if (depth != 0 || s.compare(i, word.size(), word) != 0) continue;
    const bool left_ok = i == begin || !ident_char(s[i - 1]);
    const bool right_ok = i + word.size() == end || !ident_char(s[i + word.size()]);
    if (left_ok && right_ok) return i;
  }
  return std::nullopt;
}

std::size_t skip_blanks(const std::string& s, std::size_t i, std::size_t end) {
  while (i < end && (is_blank(s[i]) || s[i] == '\n'))
    ++i;
  return i;
}

// An identifier at i (after blanks); returns its end, or fails with `what`.
std::size_t identifier_at(const Statement& st, std::size_t i, std::size_t end,
                          const std::string& what) {
  if (i >= end || !ident_start(st.text[i])) st.fail(i, "expected " + what);
  while (i < end && ident_char(st.text[i]))
    ++i;
  return i;
}

void meta_line(const Statement& st, std::vector<MetaDecl>& metas) {
  const std::string& s = st.text;
  for (const auto& [b, e] : split(s, 4, s.size(), ',')) {
    const std::size_t name_begin = skip_blanks(s, b, e);
    const std::size_t name_end =
        identifier_at(st, name_begin, e, "a metavariable name in 'meta M : T'");
    const std::size_t colon = skip_blanks(s, name_end, e);
    if (colon >= e || s[colon] != ':')
      st.fail(colon, "expected ':' after the metavariable name in 'meta M : T'");
    const Fragment type = st.piece(colon + 1, e);
    if (type.text.empty()) st.fail(colon + 1, "expected a type after ':' in 'meta M : T'");
    MetaDecl d{s.substr(name_begin, name_end - name_begin), type, st.at(name_begin)};
    std::erase_if(metas, [&](const MetaDecl& m) { return m.name == d.name; });
    metas.push_back(std::move(d));
  }
}

Condition condition(const Statement& st, std::size_t b, std::size_t e) {
  const std::string& s = st.text;
  const Fragment whole = st.piece(b, e);
  if (whole.text.empty()) st.fail(b, "expected a side condition after 'when' or ','");
  Condition c;
  c.text = whole.text;
  c.pos = whole.pos;
  if (const auto hash = split_points(s, b, e, '#'); !hash.empty()) {
    c.kind = Condition::Kind::not_free;
    c.left = st.piece(b, hash.front());
    c.right = st.piece(hash.front() + 1, e);
  } else if (const auto word = find_word(s, b, e, "not"); word) {
    const std::size_t after_not = skip_blanks(s, *word + 3, e);
    const auto free = find_word(s, after_not, e, "free");
    const auto in = free ? find_word(s, *free + 4, e, "in") : std::nullopt;
    if (!free || *free != after_not || !in || *in != skip_blanks(s, *free + 4, e))
      st.fail(after_not, "expected 'not free in' in the side condition 'x not free in M'");
    c.kind = Condition::Kind::not_free;
    c.left = st.piece(b, *word);
    c.right = st.piece(*in + 2, e);
  } else if (const auto eq = split_points(s, b, e, '='); eq.size() == 1) {
    c.kind = Condition::Kind::type_equal;
    c.left = st.piece(b, eq.front());
    c.right = st.piece(eq.front() + 1, e);
    if (c.left.text.empty() || c.right.text.empty())
      st.fail(eq.front(), "expected a type on each side of '=' in the side condition");
    return c;
  } else {
    st.fail(skip_blanks(s, b, e),
            "expected a side condition: 'x # M', 'x not free in M' or 'T = U' (a type equality)");
  }
  for (const Fragment* f : {&c.left, &c.right}) {
    if (f->text.empty() || identifiers(f->text) != std::vector<std::string>{f->text})
      throw AdsemError(ErrorKind::parse,
                       "expected an identifier in the side condition 'x # M' (a variable, then a "
                       "metavariable)",
                       f->pos);
  }
  return c;
}

// The statement starts with the keyword `word` followed by a blank (so a rule may still be named
// "replace" or "remove": `replace: ...`).
bool starts_with_keyword(const Statement& st, std::string_view word) {
  const std::string& s = st.text;
  return s.starts_with(word) && s.size() > word.size() &&
         (is_blank(s[word.size()]) || s[word.size()] == '\n');
}

// `remove PAPER-NAME`: the rest of the statement, trimmed, is the name.
RuleDecl remove_line(const Statement& st) {
  RuleDecl r;
  r.action = RuleDecl::Action::remove;
  r.pos = st.at(0);
  const Fragment name = st.piece(6, st.text.size());
  if (name.text.empty()) st.fail(6, "expected the name of a paper rule after 'remove'");
  if (name.text.find(':') != std::string::npos)
    throw AdsemError(ErrorKind::parse,
                     "'remove NAME' takes only a rule's name (to change a rule, write "
                     "'replace NAME: LHS --> RHS')",
                     name.pos);
  r.name = name.text;
  r.name_pos = name.pos;
  return r;
}

// `priority K` at the end of a rule: K a decimal integer.
int priority_value(const Statement& st, std::size_t at) {
  const Fragment k = st.piece(at + 8, st.text.size());
  const bool digits =
      !k.text.empty() && k.text.size() <= 6 && std::ranges::all_of(k.text, [](char c) {
        return std::isdigit(static_cast<unsigned char>(c)) != 0;
      });
  if (!digits) // at what follows 'priority', else just after it
    throw AdsemError(ErrorKind::parse,
                     "expected a class number after 'priority' (e.g. 'priority 3'), and nothing "
                     "after it",
                     k.text.empty() ? st.at(at + 8) : k.pos);
  return std::stoi(k.text);
}

RuleDecl rule_line(const Statement& st, const std::vector<MetaDecl>& metas) {
  const std::string& s = st.text;
  RuleDecl r;
  r.pos = st.at(0);
  std::size_t i = 0;
  std::size_t colon = 0;
  if (starts_with_keyword(st, "replace")) {
    // A paper rule's name is any text up to the ':' ("O-add", "(9)", "Dfwd[λ]", "13a").
    r.action = RuleDecl::Action::replace;
    colon = s.find(':', 8);
    if (colon == std::string::npos)
      st.fail(s.size(), "expected ':' after the paper rule's name in 'replace NAME: LHS --> RHS'");
    const Fragment name = st.piece(8, colon);
    if (name.text.empty()) st.fail(8, "expected the name of a paper rule after 'replace'");
    r.name = name.text;
    r.name_pos = name.pos;
  } else {
    if (!ident_start(s[0]))
      st.fail(0, "expected a rule 'name: LHS --> RHS', 'replace NAME: LHS --> RHS', "
                 "'remove NAME' or a declaration 'meta M : T'");
    while (i < s.size() && (ident_char(s[i]) || s[i] == '-'))
      ++i;
    r.name = s.substr(0, i);
    r.name_pos = r.pos;
    while (!r.name.empty() && r.name.back() == '-') {
      r.name.pop_back();
      --i;
    }
    colon = skip_blanks(s, i, s.size());
    if (colon >= s.size() || s[colon] != ':')
      st.fail(colon, fmt::format("expected ':' after the rule name '{}' (rules are written "
                                 "'name: LHS --> RHS')",
                                 r.name));
  }
  const auto arrow = s.find("-->", colon + 1);
  if (arrow == std::string::npos)
    st.fail(s.size(), fmt::format("expected '-->' in rule '{}'", r.name));
  r.lhs = st.piece(colon + 1, arrow);
  if (r.lhs.text.empty()) st.fail(colon + 1, "expected a left-hand side before '-->'");
  const auto priority = find_word(s, arrow + 3, s.size(), "priority");
  const std::size_t end = priority ? *priority : s.size();
  if (priority) {
    r.priority = priority_value(st, *priority);
    r.priority_pos = st.at(*priority);
  }
  const auto when = find_word(s, arrow + 3, end, "when");
  const std::size_t rhs_end = when ? *when : end;
  r.rhs = st.piece(arrow + 3, rhs_end);
  if (r.rhs.text.empty()) st.fail(arrow + 3, "expected a right-hand side after '-->'");
  if (when)
    for (const auto& [b, e] : split(s, *when + 4, end, ','))
      r.conditions.push_back(condition(st, b, e));
  r.metas = metas;
  return r;
}

} // namespace

RuleFile parse_rule_file(std::string_view source) {
  RuleFile file;
  std::vector<MetaDecl> metas;
  std::map<std::string, int> lines; // rule name -> line of its definition
  for (const Statement& st : statements(source)) {
    if (st.text.starts_with("meta") && st.text.size() > 4 &&
        (is_blank(st.text[4]) || st.text[4] == '\n')) {
      meta_line(st, metas);
      continue;
    }
    RuleDecl r = starts_with_keyword(st, "remove") ? remove_line(st) : rule_line(st, metas);
    if (const auto [it, fresh] = lines.emplace(r.name, r.pos.line); !fresh)
      throw AdsemError(ErrorKind::parse,
                       fmt::format("rule '{}' is defined, replaced or removed twice (first at "
                                   "line {})",
                                   r.name, it->second),
                       r.pos);
    file.rules.push_back(std::move(r));
  }
  if (file.rules.empty())
    throw AdsemError(ErrorKind::parse,
                     "the rule file defines no rule ('name: LHS --> RHS', 'replace NAME: LHS --> "
                     "RHS' or 'remove NAME')",
                     SourcePos{1, 1});
  return file;
}

SourcePos locate(const Fragment& fragment, SourcePos inner) {
  // Continuation lines are kept whole in the fragment text, so only the first line is shifted.
  if (inner.line <= 1) return SourcePos{fragment.pos.line, fragment.pos.column + inner.column - 1};
  return SourcePos{fragment.pos.line + inner.line - 1, inner.column};
}

const MetaDecl* find_meta(const RuleDecl& rule, std::string_view name) {
  for (const MetaDecl& m : rule.metas)
    if (m.name == name) return &m;
  return nullptr;
}

std::vector<std::string> identifiers(std::string_view text) {
  std::vector<std::string> out;
  for (std::size_t i = 0; i < text.size();) {
    const bool after_number =
        i > 0 && (std::isdigit(static_cast<unsigned char>(text[i - 1])) != 0 || text[i - 1] == '.');
    if (ident_start(text[i]) && !(after_number && (text[i] == 'e' || text[i] == 'E'))) {
      std::size_t j = i;
      while (j < text.size() && ident_char(text[j]))
        ++j;
      out.emplace_back(text.substr(i, j - i));
      i = j;
    } else if (ident_char(text[i])) {
      while (i < text.size() && ident_char(text[i]))
        ++i;
    } else {
      ++i;
    }
  }
  return out;
}

std::string swap_identifiers(std::string_view text, std::string_view a, std::string_view b) {
  std::string out;
  for (std::size_t i = 0; i < text.size();) {
    if (ident_start(text[i]) && (i == 0 || !ident_char(text[i - 1]))) {
      std::size_t j = i;
      while (j < text.size() && ident_char(text[j]))
        ++j;
      const std::string_view word = text.substr(i, j - i);
      out += word == a ? b : word == b ? a : word;
      i = j;
    } else {
      out += text[i++];
    }
  }
  return out;
}

std::string print_rule(const RuleDecl& rule) {
  if (rule.action == RuleDecl::Action::remove) return "remove " + rule.name;
  std::string out = (rule.action == RuleDecl::Action::replace ? "replace " : "") + rule.name +
                    ": " + rule.lhs.text + " --> " + rule.rhs.text;
  for (std::size_t i = 0; i < rule.conditions.size(); ++i)
    out += (i == 0 ? " when " : ", ") + rule.conditions[i].text;
  if (rule.priority) out += fmt::format(" priority {}", *rule.priority);
  std::string flat; // continuation lines printed on one line, blank runs collapsed
  for (const char c : out) {
    const char d = c == '\n' || c == '\t' ? ' ' : c;
    if (d != ' ' || flat.empty() || flat.back() != ' ') flat.push_back(d);
  }
  return flat;
}

} // namespace adsem::rules
