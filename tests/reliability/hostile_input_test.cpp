// Hostile input through every per-term command of every registered calculus that has
// terms: 100,000-deep nesting, a 10 MB term file, non-finite and huge literals, out-of-domain
// primitive calls, unknown primitives, non-UTF-8 bytes and empty input. Each run happens in a
// forked child (properties/core/isolation.hpp) so that a stack overflow or hang is reported as a
// failure naming the input, instead of ending the test program. The outcome must be an answer
// (exit 0) or a clear error: exit 1 or 2 with an "error" message, or valid JSON with --json.
#include <filesystem>
#include <fstream>
#include <sstream>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "cli/app.hpp"
#include "cli/builtin_registry.hpp"
#include "hostile_inputs.hpp"
#include "properties/core/isolation.hpp"
#include "support/scratch.hpp"

namespace adsem::hostile_input_test {
namespace {

struct Outcome {
  props::ChildOutcome child;
  int code = -1;
  std::string out;
  std::string err;
};

const props::Registry& registry() {
  static const props::Registry r = cli::builtin_registry();
  return r;
}

// Resident memory a hostile run may take: far above what any of them needs, far below the machine.
constexpr std::size_t hostile_memory_ceiling = std::size_t{2} << 30;

// Runs `adsem ARGS...` in a child process; at most `timeout` seconds and hostile_memory_ceiling.
Outcome run_isolated(const std::vector<std::string>& args, double timeout = 20.0) {
  Outcome o;
  o.child = props::run_in_child(
      [&](int fd) {
        std::vector<std::string> argv = {"adsem"};
        argv.insert(argv.end(), args.begin(), args.end());
        std::ostringstream out, err;
        const int code = cli::run(argv, registry(), cli::Io{out, err});
        const auto cut = [](const std::string& s) { return s.substr(0, 2000); };
        props::write_line(
            fd,
            reports::dump_json({{"code", code}, {"out", cut(out.str())}, {"err", cut(err.str())}}));
        return 0;
      },
      timeout,
      [&](const std::string& line) {
        const auto j = nlohmann::json::parse(line);
        o.code = j.at("code");
        o.out = j.at("out");
        o.err = j.at("err");
      },
      nullptr, hostile_memory_ceiling);
  return o;
}

std::string describe(const std::vector<std::string>& args) {
  std::string text;
  for (const auto& a : args)
    text += (text.empty() ? "" : " ") +
            (a.size() > 60 ? a.substr(0, 60) + "...(" + std::to_string(a.size()) + " bytes)" : a);
  return text;
}

// An answer, or a clear error: never a signal, a hang or an unexplained exit code.
void expect_answer_or_clear_error(const std::vector<std::string>& args, double timeout = 20.0) {
  const Outcome o = run_isolated(args, timeout);
  const std::string what = describe(args);
  ASSERT_EQ(o.child.end, props::ChildOutcome::End::exited)
      << what << ": "
      << (o.child.end == props::ChildOutcome::End::timed_out ? "hung (killed after the timeout)"
          : o.child.end == props::ChildOutcome::End::over_memory
              ? "went over the memory ceiling of the test"
              : "killed by " + props::signal_name(o.child.code));
  ASSERT_EQ(o.child.code, 0) << what << ": the child did not report";
  EXPECT_TRUE(o.code == 0 || o.code == 1 || o.code == 2) << what << ": exit code " << o.code;
  if (o.code != 0) {
    EXPECT_NE(o.err.find("error"), std::string::npos) << what << ": " << o.err;
    // An exception that is not an AdsemError (bad_alloc, out_of_range...) is not a clear error.
    EXPECT_EQ(o.err.find("internal error"), std::string::npos) << what << ": " << o.err;
  }
}

std::vector<const props::CalculusEntry*> calculi_with_terms() {
  std::vector<const props::CalculusEntry*> out;
  for (const auto& entry : registry().calculi())
    if (entry.frontend) out.push_back(&entry);
  return out;
}

// Every per-term command on one source text, given with -e.
std::vector<std::vector<std::string>> commands_on(const std::string& calculus,
                                                  const std::string& source) {
  return {{"type", calculus, "-e", source},
          {"eval", calculus, "-e", source},
          {"reduce", calculus, "-e", source, "--trace"},
          {"denote", calculus, "-e", source},
          {"denote", calculus, "-e", source, "--at", "1"},
          {"grad", calculus, "-e", source, "--at", "1"}};
}

std::string nest(const testing::Wrap& wrap, int depth) {
  std::string text;
  text.reserve((wrap.open.size() + wrap.close.size()) * depth + wrap.leaf.size());
  for (int i = 0; i < depth; ++i)
    text += wrap.open;
  text += wrap.leaf;
  for (int i = 0; i < depth; ++i)
    text += wrap.close;
  return text;
}

TEST(HostileInput, SomeCalculusHasTerms) {
  ASSERT_FALSE(calculi_with_terms().empty());
}

// 100,000 levels (past every depth guard) and 2,000 levels (under the parsers' guard of 10,000,
// so type checkers, evaluators, denotations and printers see a deep term).
TEST(HostileInput, DeepNestingGivesAnAnswerOrAClearError) {
  for (const auto* entry : calculi_with_terms())
    for (const auto& wrap : testing::hostile_table(entry->id).wraps)
      for (const int depth : {100'000, wrap.below_guard_depth})
        for (const auto& args : commands_on(entry->id, nest(wrap, depth))) {
          SCOPED_TRACE(entry->id + " " + wrap.name + " depth " + std::to_string(depth));
          expect_answer_or_clear_error(args);
        }
}

testing::Scratch write_file(const std::string& name, const std::string& text) {
  auto path = testing::scratch_path("reliability-" + name);
  std::ofstream(path.path(), std::ios::binary) << text;
  return path;
}

TEST(HostileInput, TenMegabyteTermFile) {
  constexpr std::size_t ten_mb = 10u << 20;
  for (const auto* entry : calculi_with_terms()) {
    const auto table = testing::hostile_table(entry->id);
    // A long flat term (left-nested operators: deep trees from a loop in the parser) and
    // 10 MB of whitespace around one literal.
    std::string flat = table.flat_item;
    if (!table.flat_join.empty())
      while (flat.size() < ten_mb)
        flat += table.flat_join + table.flat_item;
    const std::string spaces = std::string(ten_mb / 2, ' ') + "1" + std::string(ten_mb / 2, '\n');
    for (const auto& [name, text] : {std::pair{"flat", flat}, std::pair{"spaces", spaces}}) {
      const auto file = write_file(entry->id + "-" + name, text);
      for (const char* command : {"type", "eval"}) {
        SCOPED_TRACE(entry->id + " 10 MB " + name);
        expect_answer_or_clear_error({command, entry->id, file.string()});
      }
    }
  }
}

TEST(HostileInput, LiteralsDomainsUnknownPrimitivesAndBytes) {
  for (const auto* entry : calculi_with_terms())
    for (const auto& term : testing::hostile_table(entry->id).terms)
      for (const auto& args : commands_on(entry->id, term)) {
        SCOPED_TRACE(entry->id + " term " + term);
        expect_answer_or_clear_error(args);
      }
}

// Errors are reported as JSON with --json even when the input holds bytes that are not UTF-8.
TEST(HostileInput, JsonErrorsStayValidJsonOnBadBytes) {
  for (const auto* entry : calculi_with_terms())
    for (const std::string term : {"\xff\xfe", "1 \xc3", "frobnicate(\xff)"}) {
      const Outcome o = run_isolated({"eval", entry->id, "-e", term, "--json"});
      ASSERT_EQ(o.child.end, props::ChildOutcome::End::exited);
      EXPECT_NE(o.code, 0);
      const auto j = nlohmann::json::parse(o.out + o.err.substr(0, 0), nullptr, false);
      const auto je = nlohmann::json::parse(o.err, nullptr, false);
      EXPECT_TRUE((!j.is_discarded() && j.contains("error")) ||
                  (!je.is_discarded() && je.contains("error")))
          << entry->id << ": out=" << o.out << " err=" << o.err;
    }
}

TEST(HostileInput, EmptyInputIsAClearError) {
  for (const auto* entry : calculi_with_terms()) {
    const auto empty = write_file(entry->id + "-empty", "");
    const auto blank = write_file(entry->id + "-blank", "  \n\t\n");
    for (const auto* file : {&empty, &blank})
      for (const char* command : {"type", "eval", "reduce", "denote"}) {
        const Outcome o = run_isolated({command, entry->id, file->string()});
        ASSERT_EQ(o.child.end, props::ChildOutcome::End::exited) << entry->id << " " << command;
        EXPECT_EQ(o.code, 2) << entry->id << " " << command << ": " << o.err;
        EXPECT_NE(o.err.find("error"), std::string::npos) << o.err;
      }
  }
}

} // namespace
} // namespace adsem::hostile_input_test
