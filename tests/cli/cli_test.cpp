// The nnfab binary as users and external tools run it: exit codes, stdout
// carrying only the result JSON, usage errors, the examples.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>
#include "support/cli_fixture.h"

namespace {

namespace fs = std::filesystem;
using Json = nlohmann::json;

using Outcome = nnfab::test::CliOutcome;

class Cli : public nnfab::test::CliFixture {
 protected:
  // stdout must be one JSON document and nothing else.
  static Json result(const Outcome& o) {
    EXPECT_TRUE(Json::accept(o.out)) << "stdout is not just JSON:\n" << o.out;
    return Json::parse(o.out, nullptr, false);
  }

};

TEST_F(Cli, RunsTheWhileExample) {
  const Outcome o = nnfab("run examples/while_sum.json --inputs examples/while_sum.inputs.json");
  EXPECT_EQ(o.exitCode, 0) << o.err;
  const Json r = result(o);
  EXPECT_EQ(r["status"], "NO_ERROR");
  EXPECT_EQ(r["outputs"][0]["data"], Json::parse("[100]"));
  EXPECT_EQ(r["outputs"][1]["data"], Json::parse("[4950]"));
  EXPECT_EQ(r["outputs"][1]["dimensions"], Json::parse("[1]"));
  EXPECT_TRUE(r["timing"].contains("onDeviceNs"));
}

TEST_F(Cli, RunsTheIfExampleWithInfinities) {
  const Outcome o = nnfab("run examples/if_abs_scale.json --inputs examples/if_abs_scale.inputs.json --device cpu");
  EXPECT_EQ(o.exitCode, 0) << o.err;
  const Json r = result(o);
  // else branch: RELU(x * 0.5) of [-1.5, 2, -inf, 0.25]
  EXPECT_EQ(r["outputs"][0]["data"], Json::parse("[0.0, 1.0, 0.0, 0.125]"));
}

TEST_F(Cli, InfiniteLoopEndsAtTheLoopTimeout) {
  const Outcome o = nnfab(
      "run examples/while_infinite.json --inputs examples/while_infinite.inputs.json "
      "--loop-timeout-ms 100");
  EXPECT_EQ(o.exitCode, 1);
  const Json r = result(o);
  EXPECT_EQ(r["status"], "MISSED_DEADLINE_TRANSIENT");
  EXPECT_TRUE(r.contains("message"));
  EXPECT_FALSE(r.contains("outputs"));
  EXPECT_GE(o.elapsed.count(), 100);
  EXPECT_LT(o.elapsed.count(), 5000);  // generous: catches a hang, not a slow machine
}

TEST_F(Cli, DeadlineEndsAnInfiniteLoop) {
  const Outcome o = nnfab(
      "run examples/while_infinite.json --inputs examples/while_infinite.inputs.json "
      "--loop-timeout-ms 15000 --timeout-ms 100");
  EXPECT_EQ(o.exitCode, 1);
  EXPECT_EQ(result(o)["status"], "MISSED_DEADLINE_TRANSIENT");
  EXPECT_LT(o.elapsed.count(), 5000);
}

TEST_F(Cli, LoopTimeoutAboveTheMaximumIsClamped) {
  const Outcome o = nnfab(
      "run examples/while_sum.json --inputs examples/while_sum.inputs.json "
      "--loop-timeout-ms 99999999999 --timeout-ms 0 --priority high");
  EXPECT_EQ(o.exitCode, 0) << o.err;
  EXPECT_EQ(result(o)["status"], "NO_ERROR");
}

TEST_F(Cli, UsageErrorsExitTwoWithNothingOnStdout) {
  const char* cases[] = {
      "run examples/while_sum.json --inputs examples/while_sum.inputs.json --bogus",
      "run examples/while_sum.json --inputs examples/while_sum.inputs.json --priority urgent",
      "run examples/while_sum.json --inputs examples/while_sum.inputs.json --device nosuch",
      "run examples/while_sum.json --inputs examples/while_sum.inputs.json --timeout-ms -1",
      "run examples/while_sum.json --inputs examples/while_sum.inputs.json --timeout-ms abc",
      "run examples/while_sum.json",                                   // --inputs missing
      "run no_such_model.json --inputs examples/while_sum.inputs.json",
      "run examples --inputs examples/while_sum.inputs.json",          // a directory
      "run examples/while_sum.json --inputs no_such_inputs.json",
      "frobnicate",
      "",
  };
  for (const char* args : cases) {
    const Outcome o = nnfab(args);
    EXPECT_EQ(o.exitCode, 2) << args;
    EXPECT_EQ(o.out, "") << args;
    EXPECT_NE(o.err, "") << args;
  }
}

TEST_F(Cli, MalformedModelIsAnInvalidArgumentResult) {
  const fs::path model = write("bad.json", R"({"main": {"operands": [], "operations": [)");
  const Outcome o = nnfab("run " + model.string() + " --inputs examples/while_sum.inputs.json");
  EXPECT_EQ(o.exitCode, 1);
  const Json r = result(o);
  EXPECT_EQ(r["status"], "INVALID_ARGUMENT");
  EXPECT_FALSE(r["message"].get<std::string>().empty());
}

TEST_F(Cli, InvalidModelNamesTheJsonPathOrPlace) {
  std::string text = nnfab::test::slurpFile(fs::path(NNFAB_SOURCE_ROOT) / "examples/while_sum.json");
  text.replace(text.find("\"LESS\""), 6, "\"LESS_THAN\"");  // not an operation name
  const fs::path model = write("bad_op.json", text);
  const Outcome o = nnfab("run " + model.string() + " --inputs examples/while_sum.inputs.json");
  EXPECT_EQ(o.exitCode, 1);
  const Json r = result(o);
  EXPECT_EQ(r["status"], "INVALID_ARGUMENT");
  EXPECT_NE(r["message"].get<std::string>().find("referenced[0].operations[0]"), std::string::npos)
      << r["message"];
}

TEST_F(Cli, WrongInputCountIsInvalidArgument) {
  const fs::path inputs = write("two.json", R"({"inputs": [{"data": [1]}, {"data": [2]}]})");
  const Outcome o = nnfab("run examples/while_sum.json --inputs " + inputs.string());
  EXPECT_EQ(o.exitCode, 1);
  EXPECT_EQ(result(o)["status"], "INVALID_ARGUMENT");
}

TEST_F(Cli, HelpIsAvailableEverywhere) {
  for (const char* args : {"--help", "run --help", "validate --help", "devices --help"}) {
    const Outcome o = nnfab(args);
    EXPECT_EQ(o.exitCode, 0) << args;
    EXPECT_NE(o.out.find("Usage"), std::string::npos) << args << o.out;
  }
}

TEST_F(Cli, ValidateReportsStatus) {
  Outcome o = nnfab("validate examples/while_sum.json");
  EXPECT_EQ(o.exitCode, 0) << o.err;
  EXPECT_EQ(result(o)["status"], "NO_ERROR");
  o = nnfab("validate examples/while_sum.json --driver");
  EXPECT_EQ(o.exitCode, 0) << o.err;

  std::string text = nnfab::test::slurpFile(fs::path(NNFAB_SOURCE_ROOT) / "examples/while_sum.json");
  // Make the condition's output TENSOR_INT32: a WHILE rule violation.
  text.replace(text.find("\"TENSOR_BOOL8\""), 14, "\"TENSOR_INT32\"");
  const fs::path model = write("bad_cond.json", text);
  o = nnfab("validate " + model.string());
  EXPECT_EQ(o.exitCode, 1);
  const Json r = result(o);
  EXPECT_EQ(r["status"], "INVALID_ARGUMENT");
  EXPECT_NE(r["message"].get<std::string>().find("WHILE"), std::string::npos) << r["message"];
}

TEST_F(Cli, DevicesListsTheCpu) {
  Outcome o = nnfab("devices");
  EXPECT_EQ(o.exitCode, 0);
  EXPECT_NE(o.out.find("cpu"), std::string::npos);
  o = nnfab("devices --json");
  EXPECT_EQ(o.exitCode, 0);
  const Json devices = result(o);
  ASSERT_TRUE(devices.is_array());
  bool cpu = false;
  for (const auto& d : devices) cpu |= d["name"] == "cpu";
  EXPECT_TRUE(cpu);
}

TEST_F(Cli, TraceNeedsTheSimDevice) {
  const Outcome o = nnfab("run examples/while_sum.json --inputs examples/while_sum.inputs.json --device cpu --trace " +
                          (dir_ / "t.fst").string());
  EXPECT_EQ(o.exitCode, 2) << o.err;
  EXPECT_NE(o.err.find("--device sim"), std::string::npos) << o.err;
  EXPECT_EQ(o.out, "");
  EXPECT_FALSE(fs::exists(dir_ / "t.fst"));
}

#ifdef NNFAB_TEST_HAS_SIM
TEST_F(Cli, TraceWritesAnFstWaveformOfTheRtl) {
  const fs::path trace = dir_ / "while_sum.fst";
  const Outcome o = nnfab("run examples/while_sum.json --inputs examples/while_sum.inputs.json --device sim --trace " +
                          trace.string());
  EXPECT_EQ(o.exitCode, 0) << o.err;
  EXPECT_EQ(result(o)["status"], "NO_ERROR");
  ASSERT_TRUE(fs::exists(trace));
  // An FST file starts with its header block: type 0, then the block's
  // length (329) as a big-endian 64-bit number.
  const std::string bytes = nnfab::test::slurpFile(trace);
  ASSERT_GT(bytes.size(), 329u);
  EXPECT_EQ(bytes.substr(0, 9), std::string("\0\0\0\0\0\0\0\x01\x49", 9));
}
#endif

}  // namespace
