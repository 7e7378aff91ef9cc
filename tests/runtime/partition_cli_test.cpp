// `nnfab partition` as a user runs it: the plan alone on stdout, errors on
// stderr with exit 1, usage errors with exit 2.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include <nlohmann/json.hpp>

#include "model/json_io.h"
#include "runtime/runtime_models.h"
#include "support/cli_fixture.h"

namespace {

namespace fs = std::filesystem;

using Outcome = nnfab::test::CliOutcome;

class PartitionCli : public nnfab::test::CliFixture {};

TEST_F(PartitionCli, PrintsTheCpuPlan) {
  const Outcome o = nnfab("partition examples/while_sum.json --device cpu");
  EXPECT_EQ(o.exitCode, 0) << o.err;
  EXPECT_EQ(o.out,
            "plan on cpu: 0 fabric step(s), 1 CPU step(s), 0 interpreted IF/WHILE\n"
            "subgraph 0 (main):\n"
            "  step 0: cpu operations [0 WHILE] inputs [4] outputs [5 6]\n");
  EXPECT_EQ(o.err, "");
}

// The cpu device has no fabric: every operation is off it, with the code
// no_fabric, while the text plan stays as above.
TEST_F(PartitionCli, JsonOnTheCpuGivesEveryOperationNoFabric) {
  const Outcome o = nnfab("partition --json examples/if_abs_scale.json --device cpu");
  ASSERT_EQ(o.exitCode, 0) << o.err;
  const auto doc = nlohmann::json::parse(o.out);
  EXPECT_EQ(doc["device"], "cpu");
  EXPECT_EQ(doc["fabricSteps"], 0);
  size_t operations = 0;
  for (const auto& step : doc["subgraphs"][0]["steps"]) {
    EXPECT_EQ(step["kind"], "cpu");
    for (const auto& op : step["operations"]) {
      ++operations;
      EXPECT_EQ(op["onFabric"], false);
      EXPECT_EQ(op["reasonCode"], "no_fabric");
      EXPECT_FALSE(op["reason"].get<std::string>().empty());
    }
  }
  EXPECT_GT(operations, 0u);
}

TEST_F(PartitionCli, DefaultsToTheMostHardwareLikeDevice) {
  const Outcome o = nnfab("partition examples/if_abs_scale.json");
  EXPECT_EQ(o.exitCode, 0) << o.err;
  EXPECT_EQ(o.out.rfind("plan on ", 0), 0u) << o.out;
}

#ifdef NNFAB_HAS_SIM_DEVICE
// sim's FEATURES say FLOAT32 (the RTL core's FP units): the mixed loop
// (INT32 counter, FLOAT32 MUL body) is one fabric step. Devices without
// FLOAT32 weigh the hand-offs of such a loop instead (partition_test,
// fabric_device_test: the loop runs whole on the CPU there).
TEST_F(PartitionCli, MixedFloatLoopIsOneSimFabricStep) {
  const fs::path model = write("mixed_loop.json", nnfab::writeModel(nnfab::testing::mixedLoop()));
  const Outcome o = nnfab("partition " + model.string() + " --device sim");
  EXPECT_EQ(o.exitCode, 0) << o.err;
  EXPECT_NE(o.out.find("plan on sim: 1 fabric step(s), 0 CPU step(s), 0 interpreted IF/WHILE"), std::string::npos)
      << o.out;
  EXPECT_EQ(o.err, "");
}
#endif

#ifdef NNFAB_HAS_HLS

TEST_F(PartitionCli, JsonGivesStepsKindsDevicesAndReasonCodes) {
  const std::string path = std::string(NNFAB_SOURCE_ROOT) + "/examples/";
  for (const char* name : {"while_fib", "while_sum", "if_abs_scale", "rnn_loop"}) {
    const Outcome o = nnfab("partition --json " + path + std::string(name) + ".json --device hls");
    ASSERT_EQ(o.exitCode, 0) << name << ": " << o.err;
    EXPECT_EQ(o.err, "") << name;
    const auto doc = nlohmann::json::parse(o.out);  // throws (fails the test) if invalid
    EXPECT_EQ(doc["device"], "hls") << name;
    size_t counted = 0;
    for (const auto& sg : doc["subgraphs"]) {
      for (const auto& step : sg["steps"]) {
        ++counted;
        const std::string kind = step["kind"];
        EXPECT_TRUE(kind == "fabric" || kind == "cpu" || kind == "if" || kind == "while") << kind;
        EXPECT_EQ(step["device"], kind == "fabric" ? "hls" : kind == "cpu" ? "cpu" : "host") << name;
        for (const auto& op : step["operations"]) {
          EXPECT_EQ(op["onFabric"].get<bool>(), kind == "fabric") << name << ": " << op.dump();
          if (op["onFabric"]) continue;
          EXPECT_FALSE(op["reasonCode"].get<std::string>().empty()) << op.dump();
          EXPECT_FALSE(op["reason"].get<std::string>().empty()) << op.dump();
        }
      }
    }
    EXPECT_EQ(counted, doc["fabricSteps"].get<size_t>() + doc["cpuSteps"].get<size_t>() +
                           doc["interpretedSteps"].get<size_t>())
        << name;
  }
  // while_fib (FLOAT32 state, FULLY_CONNECTED body): hls executes FLOAT32,
  // so the whole WHILE is one fabric step.
  const Outcome fib = nnfab("partition --json " + path + "while_fib.json --device hls");
  const auto doc = nlohmann::json::parse(fib.out);
  ASSERT_EQ(doc["subgraphs"].size(), 1u) << fib.out;
  EXPECT_EQ(doc["fabricSteps"], 1) << fib.out;
  EXPECT_EQ(doc["interpretedSteps"], 0) << fib.out;
  EXPECT_EQ(doc["subgraphs"][0]["steps"][0]["kind"], "fabric");
  EXPECT_EQ(doc["subgraphs"][0]["steps"][0]["operations"][0]["onFabric"], true);
#ifdef NNFAB_HAS_SIM_DEVICE
  // sim (FEATURES FLOAT32 and FC: the RTL core's FP units and FC lane):
  // the same, the whole WHILE is one fabric step.
  const auto simDoc = nlohmann::json::parse(nnfab("partition --json " + path + "while_fib.json --device sim").out);
  EXPECT_EQ(simDoc["fabricSteps"], 1) << simDoc.dump();
  EXPECT_EQ(simDoc["interpretedSteps"], 0) << simDoc.dump();
  EXPECT_EQ(simDoc["subgraphs"][0]["steps"][0]["kind"], "fabric");
  EXPECT_EQ(simDoc["subgraphs"][0]["steps"][0]["operations"][0]["onFabric"], true);
#endif
  // rnn_loop (FLOAT32 state, two FULLY_CONNECTED, ADD with RELU, a
  // data-dependent trip count): wholly on the hls fabric.
  const auto rnn = nlohmann::json::parse(nnfab("partition --json " + path + "rnn_loop.json --device hls").out);
  EXPECT_EQ(rnn["fabricSteps"], 1);
  EXPECT_EQ(rnn["cpuSteps"], 0);
  EXPECT_EQ(rnn["interpretedSteps"], 0);
  EXPECT_EQ(rnn["subgraphs"][0]["steps"][0]["operations"][0]["onFabric"], true);
  // while_sum (INT32 only): one fabric step.
  const auto sum = nlohmann::json::parse(nnfab("partition --json " + path + "while_sum.json --device hls").out);
  EXPECT_EQ(sum["fabricSteps"], 1);
  EXPECT_EQ(sum["subgraphs"][0]["steps"][0]["operations"][0]["onFabric"], true);
}

TEST_F(PartitionCli, SupportedLoopIsOneHlsStep) {
  const Outcome o = nnfab("partition examples/while_sum.json --device hls");
  EXPECT_EQ(o.exitCode, 0) << o.err;
  EXPECT_EQ(o.out,
            "plan on hls: 1 fabric step(s), 0 CPU step(s), 0 interpreted IF/WHILE\n"
            "subgraph 0 (main):\n"
            "  step 0: hls operations [0 WHILE] inputs [4] outputs [5 6]\n");
}
#endif

TEST_F(PartitionCli, UsageErrorsExitWithTwo) {
  for (const std::string& args :
       {std::string("partition"), std::string("partition examples/while_sum.json --device nope"),
        std::string("partition no/such/file.json"),
        std::string("partition examples/while_sum.json --bogus")}) {
    const Outcome o = nnfab(args);
    EXPECT_EQ(o.exitCode, 2) << args;
    EXPECT_EQ(o.out, "") << args;
    EXPECT_NE(o.err, "") << args;
  }
}

TEST_F(PartitionCli, BadModelsExitWithOneAndNothingOnStdout) {
  const fs::path notJson = write("bad.json", "{ not json");
  const fs::path invalid = write(
      "invalid.json",
      R"({"main": {"operands": [{"type": "TENSOR_INT32", "dimensions": [1], "lifetime": "SUBGRAPH_INPUT"},
                               {"type": "TENSOR_INT32", "dimensions": [1], "lifetime": "SUBGRAPH_OUTPUT"}],
                  "operations": [{"type": "ADD", "inputs": [0], "outputs": [1]}],
                  "inputIndexes": [0], "outputIndexes": [1]}})");
  const fs::path unsupported = write(
      "unsupported.json",
      R"({"main": {"operands": [{"type": "TENSOR_FLOAT32", "dimensions": [2], "lifetime": "SUBGRAPH_INPUT"},
                               {"type": "FLOAT32", "dimensions": [], "lifetime": "CONSTANT_COPY", "value": [1.0]},
                               {"type": "TENSOR_FLOAT32", "dimensions": [2], "lifetime": "SUBGRAPH_OUTPUT"}],
                  "operations": [{"type": "SOFTMAX", "inputs": [0, 1], "outputs": [2]}],
                  "inputIndexes": [0], "outputIndexes": [2]}})");
  for (const fs::path& path : {notJson, invalid, unsupported}) {
    const Outcome o = nnfab("partition " + path.string());
    EXPECT_EQ(o.exitCode, 1) << path << "\n" << o.out;
    EXPECT_EQ(o.out, "") << path;
    EXPECT_NE(o.err.find("nnfab: "), std::string::npos) << path << ": " << o.err;
  }
}

}  // namespace
