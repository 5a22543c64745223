// Numbers the per-term commands must never get silently wrong, in all five calculi
// (docs/reliability.md "Numbers"): literals beyond the double range, results that are not finite,
// primitives stuck outside their domain, --at points that are not decimal reals, too few --at
// reals, and sources past the parsers' size limit.
#include <sys/resource.h>
#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "cli/builtin_registry.hpp"
#include "properties/core/isolation.hpp"
#include "support/cli_run.hpp"
#include "support/scratch.hpp"
#include "syntax/core/real_text.hpp"

namespace adsem::hostile_numbers_test {
namespace {

const props::Registry& registry() {
  static const props::Registry r = cli::builtin_registry();
  return r;
}

// Per calculus: the identity on one real, a product that overflows, and a term written around a
// literal (`{}` is where the literal goes).
struct Syntax {
  std::string identity;
  std::string overflow;
  std::string around_literal;
  std::string overflow_at_one; // a function of one real whose value at 1 overflows
};

const std::map<std::string, Syntax>& syntax() {
  static const std::map<std::string, Syntax> table = {
      {"simple-diff", {"x:real. x", "1e300 * 1e300", "exp({}) + 1", "x:real. x * 1e300 * 1e300"}},
      {"perturbative", {"\\x:R. x", "1e300 * 1e300", "exp {} + 1", "\\x:R. x * 1e300 * 1e300"}},
      {"linear-negation", {"\\x:R. x", "1e300 * 1e300", "exp({}) + 1", "\\x:R. x * 1e300 * 1e300"}},
      {"delta-reverse",
       {"\\(x : Real). x", "1.0e300 * 1.0e300", "exp({}) + 1.0",
        "\\(x : Real). x * 1.0e300 * 1.0e300"}},
      {"pullback",
       {"\\x:R. x", "mul(<1e300, 1e300>)", "exp({}) + 1", "\\x:R. mul(<x, mul(<1e300, 1e300>)>)"}},
  };
  return table;
}

std::vector<std::string> calculi() {
  std::vector<std::string> out;
  for (const auto& entry : registry().calculi())
    if (entry.frontend) out.push_back(entry.id);
  return out;
}

// `adsem ARGS... --json`, which must fail with an error of `kind`; returns the error object.
nlohmann::json json_error(std::vector<std::string> args, const std::string& kind) {
  args.push_back("--json");
  const auto run = testing::run_cli(registry(), args);
  std::string what;
  for (const auto& a : args)
    what += a + " ";
  EXPECT_NE(run.code, 0) << what << "printed " << run.out;
  const auto j = nlohmann::json::parse(run.out, nullptr, false);
  if (j.is_discarded() || !j.contains("error")) {
    ADD_FAILURE() << what << ": no JSON error: " << run.out << run.err;
    return {};
  }
  const auto& error = j.at("error");
  EXPECT_EQ(error.value("kind", ""), kind) << what << ": " << error.dump();
  EXPECT_EQ(run.code, kind == "parse" || kind == "usage" ? 2 : 1) << what;
  return error;
}

// The address space this process already holds (/proc/self/statm: its first field, in pages).
std::size_t address_space_bytes() {
  std::ifstream statm("/proc/self/statm");
  std::size_t pages = 0;
  statm >> pages;
  return pages * static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
}

std::string replace_hole(std::string text, const std::string& literal) {
  return text.replace(text.find("{}"), 2, literal);
}

TEST(HostileNumbers, EveryCalculusHasASyntaxRow) {
  for (const auto& calculus : calculi())
    EXPECT_TRUE(syntax().count(calculus)) << calculus << ": add a row to syntax()";
}

// 1e400 used to be read as 0 (from_chars leaves its result alone out of range): `1e400 + 1`
// printed 1. Now a located parse error in every calculus, for overflow and underflow alike.
TEST(HostileNumbers, LiteralsBeyondTheDoubleRangeAreLocatedParseErrors) {
  for (const auto& calculus : calculi()) {
    const std::string around = syntax().at(calculus).around_literal;
    const auto column = static_cast<int>(around.find("{}")) + 1;
    for (const std::string literal : {"1e400", "1.8e308", "1e-400", "2e-324"}) {
      const std::string term = replace_hole(around, literal);
      for (const char* command : {"type", "eval", "denote"}) {
        const auto error = json_error({command, calculus, "-e", term}, "parse");
        EXPECT_EQ(error.value("line", 0), 1) << calculus << " " << term;
        EXPECT_EQ(error.value("column", 0), column) << calculus << " " << term;
        EXPECT_NE(error.value("message", "").find(literal), std::string::npos) << error.dump();
      }
    }
  }
}

// The extremes of the range still read exactly (the shortest text that re-parses to them).
TEST(HostileNumbers, ExtremeFiniteLiteralsRoundTrip) {
  for (const auto& calculus : calculi())
    for (const double x : {1.7976931348623157e308, 2.2250738585072014e-308, 5e-324, 0.1}) {
      std::ostringstream text;
      text.precision(17);
      text << x;
      const std::string literal = text.str();
      const auto run = testing::run_cli(registry(), {"eval", calculus, "-e", literal, "--json"});
      ASSERT_EQ(run.code, 0) << calculus << " " << literal << ": " << run.out << run.err;
      const auto j = nlohmann::json::parse(run.out);
      ASSERT_TRUE(j.contains("reals")) << calculus << ": " << run.out;
      EXPECT_EQ(j.at("reals").at(0).get<double>(), x) << calculus << " " << literal;
      // The printed value is the shortest text (delta-reverse adds ".0" to mark a real; denote
      // printed 17 digits, 0.10000000000000001, and delta-reverse 4.94065645841247e-324)...
      const std::string shortest = shortest_real_text(x);
      EXPECT_LE(j.at("value").get<std::string>().size(), shortest.size() + 2)
          << calculus << ": " << j.at("value");
      const auto denoted = testing::run_cli(registry(), {"denote", calculus, "-e", literal});
      EXPECT_EQ(denoted.out, shortest + "\n") << calculus << " " << literal;
      // ...and reads back as the same value.
      const auto again = testing::run_cli(
          registry(), {"eval", calculus, "-e", j.at("value").get<std::string>(), "--json"});
      ASSERT_EQ(again.code, 0) << calculus << " " << j.at("value") << ": " << again.out;
      EXPECT_EQ(nlohmann::json::parse(again.out).at("reals").at(0).get<double>(), x) << calculus;
    }
}

// simple-diff and pullback printed `inf` (which reads back as a variable), delta-reverse
// `(1.0 / 0.0)`, linear-negation `1e999` (read back as 0), perturbative its own error. Now one
// behaviour: the primitive that overflows stops the run with an evaluation error naming the call
// (the primitive table that all five calculi share, semantics/core/primitives.cpp).
void expect_overflow_named(const std::vector<std::string>& args, const std::string& what) {
  const auto error = json_error(args, "eval");
  const std::string message = error.value("message", "");
  EXPECT_NE(message.find("non-finite result of mul(1e+300, 1e+300) (overflow)"), std::string::npos)
      << what << ": " << error.dump();
}

TEST(HostileNumbers, NonFiniteResultsNameTheOverflowingPrimitive) {
  for (const auto& calculus : calculi()) {
    const std::string term = syntax().at(calculus).overflow;
    for (const char* command : {"eval", "reduce"})
      expect_overflow_named({command, calculus, "-e", term}, calculus + " " + command);
    const auto text = testing::run_cli(registry(), {"eval", calculus, "-e", term});
    EXPECT_EQ(text.code, 1) << calculus;
    EXPECT_EQ(text.out, "") << calculus;
  }
}

// A value or a gradient that overflows at the point is reported, not printed as inf or nan.
TEST(HostileNumbers, NonFiniteValuesAtAPointNameTheOverflowingPrimitive) {
  for (const auto& calculus : calculi()) {
    const std::string f = syntax().at(calculus).overflow_at_one;
    for (const char* command : {"grad", "denote"})
      expect_overflow_named({command, calculus, "-e", f, "--at", "1"}, calculus + " " + command);
  }
}

// perturbative and linear-negation printed the stuck term with exit 0; denote said "domain".
TEST(HostileNumbers, StuckPrimitivesAreDomainErrorsNamingThePoint) {
  for (const auto& [calculus, terms] : std::map<std::string, std::vector<std::string>>{
           {"perturbative", {"sqrt(-1)", "div(1, 0)", "\\y:R. y + sqrt(-1)", "(1, sqrt(-1))"}},
           {"linear-negation", {"sqrt(-1)", "div(1, 0)", "(1, sqrt(-1))"}}}) {
    for (const auto& term : terms)
      for (const char* command : {"eval", "reduce"}) {
        const auto error = json_error({command, calculus, "-e", term}, "domain");
        const std::string message = error.value("message", "");
        EXPECT_TRUE(message.find("sqrt(-1)") != std::string::npos ||
                    message.find("div(1, 0)") != std::string::npos)
            << calculus << " " << term << ": " << message;
      }
    // grad at a point where the function is stuck: the same domain error, in the user's terms
    // (it said "the normal form is not a numeral" or "the wrapper did not reduce to ..."), by
    // every AD mechanism of the calculus.
    const std::string f = calculus == "perturbative" ? "\\x:R. sqrt x" : "\\x:R. sqrt(x)";
    const std::vector<std::string> mechanisms =
        calculus == "perturbative"
            ? std::vector<std::string>{"pushforward", "small-step"}
            : std::vector<std::string>{"backprop", "injection", "bp", "forward"};
    for (const auto& mechanism : mechanisms) {
      const auto error =
          json_error({"grad", calculus, "-e", f, "--at=-1", "--mechanism", mechanism}, "domain");
      EXPECT_NE(error.value("message", "").find("sqrt(-1)"), std::string::npos)
          << mechanism << ": " << error.dump();
    }
  }
}

// `--at nan` returned nan with exit 0; `--at 0x10` was read as 16.
TEST(HostileNumbers, AtTakesOnlyDecimalReals) {
  for (const auto& calculus : calculi()) {
    const std::string f = syntax().at(calculus).identity;
    for (const char* at : {"nan", "inf", "-inf", "infinity", "0x10", "1e400", "1,nan", " ", "1e"})
      for (const char* command : {"grad", "denote"}) {
        const auto error =
            json_error({command, calculus, "-e", f, std::string("--at=") + at}, "usage");
        EXPECT_NE(error.value("message", "").find("decimal"), std::string::npos) << error.dump();
      }
    for (const char* at : {"2", "+2", "2.", ".5e1", " 2 ", "-2e0"}) {
      const auto run =
          testing::run_cli(registry(), {"grad", calculus, "-e", f, std::string("--at=") + at});
      EXPECT_EQ(run.code, 0) << calculus << " --at " << at << ": " << run.err;
    }
  }
}

// delta-reverse printed "internal error: vector::_M_range_check" with fewer --at reals than
// inputs; every calculus gives a usage error.
TEST(HostileNumbers, TooFewAtRealsAreUsageErrors) {
  const std::map<std::string, std::string> two_inputs = {
      {"simple-diff", "x:real * real. fst(x) * snd(x)"},
      {"perturbative", "\\x:R. \\y:R. x * y"},
      {"linear-negation", "\\x:R. \\y:R. x * y"},
      {"delta-reverse", "\\(x : Real, y : Real). x * y"},
      {"pullback", "\\x:R. \\y:R. mul(<x, y>)"},
  };
  for (const auto& calculus : calculi())
    for (const char* command : {"grad", "denote"})
      for (const char* at : {"1", "1,2,3"}) {
        const auto error =
            json_error({command, calculus, "-e", two_inputs.at(calculus), "--at", at}, "usage");
        EXPECT_EQ(error.value("message", "").find("internal error"), std::string::npos)
            << error.dump();
      }
}

// A 50 MB flat chain cost 13-20 s and 1.9-3.95 GB before a parse error (or an answer): the
// whole file was read and tokenized first. Now refused at the size limit, located, in bounded
// memory: the child may grow its address space by 512 MiB at most.
TEST(HostileNumbers, FiftyMegabyteFlatChainIsRefusedEarly) {
  const auto path = testing::scratch_path("hostile-numbers-chain.txt");
  {
    std::ofstream out(path.path(), std::ios::binary);
    const std::string chunk = [] {
      std::string s;
      for (int i = 0; i < 1024; ++i)
        s += "1 + ";
      return s;
    }();
    for (std::size_t written = 0; written < 50'000'000; written += chunk.size())
      out << chunk;
    out << "1";
  }
  for (const auto& calculus : calculi()) {
    int code = -1;
    std::string out;
    const auto child = props::run_in_child(
        [&](int fd) {
#if !defined(__SANITIZE_ADDRESS__) // ASan reserves terabytes of address space
          const rlimit limit{address_space_bytes() + (std::size_t{512} << 20),
                             address_space_bytes() + (std::size_t{512} << 20)};
          setrlimit(RLIMIT_AS, &limit);
#endif
          const auto run =
              testing::run_cli(registry(), {"eval", calculus, path.string(), "--json"});
          props::write_line(fd, nlohmann::json{{"code", run.code}, {"out", run.out}}.dump());
          return 0;
        },
        20.0,
        [&](const std::string& line) {
          const auto j = nlohmann::json::parse(line);
          code = j.at("code");
          out = j.at("out");
        });
    ASSERT_EQ(child.end, props::ChildOutcome::End::exited) << calculus << ": hung or crashed";
    EXPECT_EQ(code, 2) << calculus << ": " << out;
    const auto error = nlohmann::json::parse(out, nullptr, false);
    ASSERT_FALSE(error.is_discarded()) << calculus << ": " << out;
    EXPECT_EQ(error["error"].value("kind", ""), "parse") << calculus << ": " << out;
    EXPECT_NE(error["error"].value("message", "").find("size limit"), std::string::npos)
        << calculus << ": " << out;
    EXPECT_EQ(error["error"].value("line", 0), 1) << calculus;
    EXPECT_EQ(error["error"].value("column", 0), (4 << 20) + 1) << calculus;
  }
  std::filesystem::remove(path);
}

} // namespace
} // namespace adsem::hostile_numbers_test
