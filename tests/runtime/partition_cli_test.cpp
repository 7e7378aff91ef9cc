// `nnfab partition` as a user runs it: the plan alone on stdout, errors on
// stderr with exit 1, usage errors with exit 2.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

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

TEST_F(PartitionCli, DefaultsToTheMostHardwareLikeDevice) {
  const Outcome o = nnfab("partition examples/if_abs_scale.json");
  EXPECT_EQ(o.exitCode, 0) << o.err;
  EXPECT_EQ(o.out.rfind("plan on ", 0), 0u) << o.out;
}

#ifdef NNFAB_HAS_HLS
TEST_F(PartitionCli, ShowsInterpretedLoopsAndReasonsOnHls) {
  const fs::path model = write("mixed_loop.json", nnfab::writeModel(nnfab::testing::mixedLoop()));
  const Outcome o = nnfab("partition " + model.string() + " --device hls");
  EXPECT_EQ(o.exitCode, 0) << o.err;
  EXPECT_NE(o.out.find("step 0: host-interpreted operations [0 WHILE]"), std::string::npos) << o.out;
  EXPECT_NE(o.out.find("operation 0 (WHILE) not on hls:"), std::string::npos) << o.out;
  EXPECT_NE(o.out.find("body: subgraph 2 (referenced[1]):"), std::string::npos) << o.out;
  EXPECT_NE(o.out.find("step 0: hls operations [0 ADD]"), std::string::npos) << o.out;
  EXPECT_NE(o.out.find("step 1: cpu operations [1 MUL]"), std::string::npos) << o.out;
  EXPECT_NE(o.out.find("operation 1 (MUL) not on hls:"), std::string::npos) << o.out;
  EXPECT_EQ(o.err, "");
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
