// The per-term commands of design.md's CLI contract for delta-reverse, in process, with the JSON
// shapes fixed there: type, eval, reduce (rule names), denote --at, grad (every mechanism), and
// located errors with their exit codes.
#include <sstream>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "cli/app.hpp"
#include "cli/builtin_registry.hpp"

namespace adsem::cli_test {
namespace {

struct Run {
  int code;
  std::string out;
  std::string err;
};

Run run_cli(std::vector<std::string> args) {
  args.insert(args.begin(), "adsem");
  std::ostringstream out, err;
  static const auto registry = cli::builtin_registry();
  const int code = cli::run(args, registry, cli::Io{out, err});
  return {code, out.str(), err.str()};
}

const char* const mul = R"(\(x : Real, y : Real). x * y)";

TEST(DeltaReverseCli, TypeEvalReduceDenote) {
  auto r = run_cli({"type", "delta-reverse", "-e", mul, "--json"});
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(nlohmann::json::parse(r.out)["type"], "Real * Real -> Real");
  r = run_cli({"eval", "krawiec", "-e", "(\\(x : Real). x * x) 3.0", "--json"});
  const auto eval = nlohmann::json::parse(r.out);
  EXPECT_EQ(eval["value"], "9.0");
  EXPECT_EQ(eval["reals"], nlohmann::json::array({9.0}));
  EXPECT_GT(eval["steps"].get<long>(), 0);
  r = run_cli({"reduce", "delta-reverse", "-e", "(\\(x : Real). x * x) 3.0"});
  EXPECT_NE(r.out.find("E-Apply-Op: mulR"), std::string::npos) << r.out;
  r = run_cli({"denote", "delta-reverse", "-e", mul, "--at", "3,4", "--json"});
  const auto den = nlohmann::json::parse(r.out);
  EXPECT_EQ(den["jacobian"], nlohmann::json::parse("[[4.0, 3.0]]"));
}

TEST(DeltaReverseCli, GradEveryMechanism) {
  for (const char* m :
       {"R", "R-array", "R-fig11", "R-fig12", "R-seeded", "R-overloading", "F", "R1", "R2"}) {
    const auto r =
        run_cli({"grad", "delta-reverse", "-e", mul, "--at", "3,4", "--mechanism", m, "--json"});
    ASSERT_EQ(r.code, 0) << m << ": " << r.err;
    const auto j = nlohmann::json::parse(r.out);
    EXPECT_EQ(j["value"], 12.0) << m;
    EXPECT_EQ(j["gradient"], nlohmann::json::array({4.0, 3.0})) << m;
  }
  // curried functions are accepted too
  const auto r = run_cli({"grad", "delta-reverse", "-e", "\\(x : Real). \\(y : Real). x * y",
                          "--at", "3,4", "--json"});
  EXPECT_EQ(nlohmann::json::parse(r.out)["gradient"], nlohmann::json::array({4.0, 3.0}));
}

TEST(DeltaReverseCli, ErrorsAreLocatedWithTheirExitCodes) {
  auto r = run_cli({"type", "delta-reverse", "-e", "\\(x : Real).\n x + y", "--json"});
  EXPECT_EQ(r.code, 1);
  const auto e = nlohmann::json::parse(r.out)["error"];
  EXPECT_EQ(e["kind"], "type");
  EXPECT_EQ(e["line"], 2);
  r = run_cli({"eval", "delta-reverse", "-e", "(1.0,", "--json"});
  EXPECT_EQ(r.code, 2);
  r = run_cli({"grad", "delta-reverse", "-e", "\\(x : Real). log x", "--at", "-1", "--json"});
  EXPECT_EQ(r.code, 1);
  EXPECT_EQ(nlohmann::json::parse(r.out)["error"]["kind"], "domain");
  std::string tower = "let t = \\(f : Real -> Real). \\(y : Real). f (f y) in (";
  for (int i = 0; i < 20; ++i)
    tower += "t (";
  tower += "\\(y : Real). y + 1.0";
  for (int i = 0; i < 20; ++i)
    tower += ")";
  tower += ") 0.0"; // 2^20 calls: far beyond the budget
  r = run_cli({"eval", "delta-reverse", "-e", tower, "--fuel", "10000", "--json"});
  EXPECT_EQ(r.code, 1);
  EXPECT_EQ(nlohmann::json::parse(r.out)["error"]["kind"], "fuel");
}

} // namespace
} // namespace adsem::cli_test
