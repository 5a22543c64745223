#pragma once
// Shared helpers of the delta-reverse tests: run the paper's wrappers on surface syntax and
// compare tapes in the spec's notation (§2.2: "8 = Add(Scale(5.5, Var 2), ...)").
#include <algorithm>
#include <cmath>
#include <regex>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "properties/delta_reverse/frontend.hpp"
#include "semantics/delta_reverse/wrappers.hpp"
#include "syntax/delta_reverse/parser.hpp"

namespace adsem::delta_reverse::testing {

inline std::string read_example(const std::string& name) {
  const std::string path = std::string(ADSEM_SOURCE_DIR) + "/examples/delta_reverse/" + name;
  FILE* f = std::fopen(path.c_str(), "r");
  if (f == nullptr) return "";
  std::string out;
  char buffer[4096];
  std::size_t n = 0;
  while ((n = std::fread(buffer, 1, sizeof buffer, f)) > 0)
    out.append(buffer, n);
  std::fclose(f);
  return out;
}

struct Fixture {
  Program program;
  Value s;
};
inline Fixture setup(const std::string& source, const std::vector<double>& at) {
  const RealProgram rp = real_program(parse_closed(source));
  return {rp.program, point_of(rp.program.s, at)};
}

// "id = rhs" lines of a tape.
inline std::vector<std::string> tape_lines(const ReverseRun& run) {
  std::vector<std::string> out;
  for (const auto& [id, rhs] : run.binds)
    out.push_back(std::to_string(id) + " = " + print_delta(rhs));
  out.push_back("result = " + print_delta(run.final_delta));
  return out;
}

// Equal up to whitespace, with numbers compared to a relative 1e-12 (spec §8 Ex. 6B).
inline bool same_tape_line(const std::string& a, const std::string& b) {
  static const std::regex number(R"(-?[0-9]+(\.[0-9]+)?(e[-+]?[0-9]+)?)");
  const auto strip = [](std::string s) {
    s.erase(std::remove(s.begin(), s.end(), ' '), s.end());
    return s;
  };
  const std::string x = strip(a), y = strip(b);
  std::sregex_iterator i(x.begin(), x.end(), number), j(y.begin(), y.end(), number), end;
  if (std::regex_replace(x, number, "#") != std::regex_replace(y, number, "#")) return false;
  for (; i != end && j != end; ++i, ++j) {
    const double p = std::stod(i->str()), q = std::stod(j->str());
    if (std::abs(p - q) > 1e-12 * std::max(1.0, std::abs(p))) return false;
  }
  return true;
}

inline void expect_tape(const ReverseRun& run, const std::vector<std::string>& expected) {
  const std::vector<std::string> got = tape_lines(run);
  ASSERT_EQ(got.size(), expected.size()) << ::testing::PrintToString(got);
  for (std::size_t i = 0; i < got.size(); ++i)
    EXPECT_TRUE(same_tape_line(got[i], expected[i]))
        << "line " << i << ": got " << got[i] << ", expected " << expected[i];
}

inline std::vector<double> reals(const Value& v) {
  return flatten_reals(v);
}

inline void expect_near_all(const std::vector<double>& got, const std::vector<double>& want,
                            double tol = 1e-12) {
  ASSERT_EQ(got.size(), want.size());
  for (std::size_t i = 0; i < got.size(); ++i)
    EXPECT_NEAR(got[i], want[i], tol * std::max(1.0, std::abs(want[i]))) << "component " << i;
}

} // namespace adsem::delta_reverse::testing

namespace adsem::delta_reverse::testing {

// Parses a Delta in the spec's tape notation: Zero | Var N | Scale(r, d) | Add(d, d).
class DeltaReader {
public:
  explicit DeltaReader(std::string text) : s_(std::move(text)) {
    s_.erase(std::remove(s_.begin(), s_.end(), ' '), s_.end());
  }
  Delta read() {
    if (take("Zero")) return d_zero();
    if (take("Var")) return d_var(static_cast<std::int64_t>(number()));
    if (take("Scale(")) {
      const double r = number();
      take(",");
      Delta d = read();
      take(")");
      return d_scale(r, d);
    }
    if (take("Add(")) {
      Delta a = read();
      take(",");
      Delta b = read();
      take(")");
      return d_add(a, b);
    }
    ADD_FAILURE() << "bad tape text at " << s_.substr(i_);
    return d_zero();
  }

private:
  bool take(const std::string& word) {
    if (s_.compare(i_, word.size(), word) != 0) return false;
    i_ += word.size();
    return true;
  }
  double number() {
    std::size_t used = 0;
    const double x = std::stod(s_.substr(i_), &used);
    i_ += used;
    return x;
  }
  std::string s_;
  std::size_t i_ = 0;
};

// "8=Add(...)" lines to bindings.
inline Binds read_tape(const std::vector<std::string>& lines) {
  Binds out;
  for (const std::string& line : lines) {
    const auto eq = line.find('=');
    out.emplace_back(std::stoll(line.substr(0, eq)), DeltaReader(line.substr(eq + 1)).read());
  }
  return out;
}

} // namespace adsem::delta_reverse::testing
