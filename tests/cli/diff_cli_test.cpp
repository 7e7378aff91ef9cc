// `nnfab diff` as users and tools run it: exit codes (0 agree, 1 disagree,
// 2 usage, 3 nothing compared), the text report and the stable JSON form.
// The planted-fault case (a disagreement) is tests/runtime/diff_test.cpp:
// its fault lives in test code, never in the installed binary.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <string>
#include <vector>

#include "support/cli_fixture.h"

namespace {

using Json = nlohmann::json;

class DiffCli : public nnfab::test::CliFixture {};

TEST_F(DiffCli, SameDeviceTwiceAgrees) {
  const auto o = nnfab("diff examples/while_sum.json --inputs examples/while_sum.inputs.json --device cpu --device cpu");
  EXPECT_EQ(o.exitCode, 0) << o.err;
  EXPECT_NE(o.out.find("cpu and cpu agree"), std::string::npos) << o.out;
  EXPECT_NE(o.out.find("status NO_ERROR"), std::string::npos) << o.out;
}

TEST_F(DiffCli, JsonWhenTheyAgree) {
  const auto o = nnfab(
      "diff examples/if_abs_scale.json --inputs examples/if_abs_scale.inputs.json --device cpu --device cpu --json");
  ASSERT_EQ(o.exitCode, 0) << o.err;
  const Json j = Json::parse(o.out);
  EXPECT_EQ(j["agree"], true);
  EXPECT_TRUE(j["divergence"].is_null());
  EXPECT_GT(j["operationsCompared"].get<int>(), 0);
  EXPECT_EQ(j["a"]["device"], "cpu");
  EXPECT_EQ(j["b"]["device"], "cpu");
  EXPECT_EQ(j["a"]["finished"], true);
  EXPECT_EQ(j["b"]["status"], "NO_ERROR");
}

#ifdef NNFAB_TEST_HAS_HLS
TEST_F(DiffCli, CpuAndHlsAgreeOnTheExamples) {
  for (const char* name : {"while_sum", "while_fib", "if_abs_scale", "rnn_loop"}) {
    const std::string m = std::string("examples/") + name;
    const auto o = nnfab("diff " + m + ".json --inputs " + m + ".inputs.json --device cpu --device hls --json");
    ASSERT_EQ(o.exitCode, 0) << name << ": " << o.out << o.err;
    EXPECT_EQ(Json::parse(o.out)["agree"], true) << name;
  }
}
#endif

TEST_F(DiffCli, OnnxModelsAreImportedAsForRun) {
  const std::string onnx = "/usr/share/libonnx-testdata/data/node/test_loop11/model.onnx";
  if (!std::filesystem::exists(onnx)) GTEST_SKIP() << "libonnx-testdata is not installed";
  // Inputs in the graph's order: trip_count, cond, y (docs/onnx.md).
  const auto inputs = write("loop11.inputs.json", R"({"inputs": [{"dimensions": [1], "data": [5]},
      {"dimensions": [1], "data": [true]}, {"dimensions": [1], "data": [-2.0]}]})");
  const auto o = nnfab("diff " + onnx + " --inputs " + inputs.string() + " --device cpu --device cpu --json");
  if (o.exitCode == 2 && o.err.find("without ONNX support") != std::string::npos) GTEST_SKIP() << o.err;
  ASSERT_EQ(o.exitCode, 0) << o.out << o.err;
  const Json j = Json::parse(o.out);
  EXPECT_EQ(j["agree"], true);
  EXPECT_GT(j["operationsCompared"].get<int>(), 5);  // every operation of every Loop iteration
}

TEST_F(DiffCli, UsageErrorsExit2) {
  const std::string model = "examples/while_sum.json --inputs examples/while_sum.inputs.json";
  for (const std::string& args : std::vector<std::string>{
           "diff " + model + " --device cpu",                                  // one device
           "diff " + model + " --device cpu --device cpu --device cpu",        // three
           "diff " + model + " --device cpu --device no_such_device",          // unknown device
           "diff examples/while_sum.json --device cpu --device cpu",          // no --inputs
           "diff missing.json --inputs examples/while_sum.inputs.json --device cpu --device cpu",
           "diff " + model + " --device cpu --device cpu --loop-timeout-ms -1",
           "diff " + model + " --device cpu --device cpu --no-such-flag",
       }) {
    const auto o = nnfab(args);
    EXPECT_EQ(o.exitCode, 2) << args << "\n" << o.err;
    EXPECT_TRUE(o.out.empty()) << args;
    EXPECT_FALSE(o.err.empty()) << args;
  }
}

TEST_F(DiffCli, NothingComparedExits3) {
  // Valid JSON, invalid model (an operation reads an operand nobody writes).
  const auto model = write("bad.json", R"({"main": {"operands": [
      {"type": "TENSOR_INT32", "dimensions": [1], "lifetime": "SUBGRAPH_INPUT"},
      {"type": "TENSOR_INT32", "dimensions": [1], "lifetime": "TEMPORARY_VARIABLE"},
      {"type": "TENSOR_INT32", "dimensions": [1], "lifetime": "SUBGRAPH_OUTPUT"}],
    "operations": [{"type": "ABS", "inputs": [1], "outputs": [2]}],
    "inputIndexes": [0], "outputIndexes": [2]}})");
  const auto inputs = write("bad.inputs.json", R"({"inputs": [{"data": [1]}]})");
  const auto o = nnfab("diff " + model.string() + " --inputs " + inputs.string() + " --device cpu --device cpu");
  EXPECT_EQ(o.exitCode, 3) << o.out << o.err;
  EXPECT_NE(o.err.find("nothing compared"), std::string::npos) << o.err;
  // Inputs that do not fit the model.
  const auto wrong = write("wrong.inputs.json", R"({"inputs": [{"data": [1, 2]}]})");
  const auto w = nnfab("diff examples/while_sum.json --inputs " + wrong.string() + " --device cpu --device cpu");
  EXPECT_EQ(w.exitCode, 3) << w.out << w.err;
}

}  // namespace
