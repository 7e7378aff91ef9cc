// Placement a user can rely on (docs/runtime.md "Placement"): `nnfab run
// --strict-device` refuses a model any of whose operations would run off the
// fabric device, and a normal run says on stderr, in one line, what falls
// back. Both must agree with `nnfab partition --json`, the plan they report.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <string>
#include <vector>

#include "support/cli_fixture.h"

namespace {

using Json = nlohmann::json;
using Outcome = nnfab::test::CliOutcome;

// An IF whose output size is unknown until it runs: the IF runs whole on
// the CPU on every fabric device (the unknown-shape rule), whatever the
// fabric learns to do later.
constexpr const char* kUnknownSizeIf = R"({
  "main": {
    "operands": [
      {"type": "TENSOR_INT32", "dimensions": [4], "lifetime": "SUBGRAPH_INPUT"},
      {"type": "TENSOR_BOOL8", "dimensions": [1], "lifetime": "SUBGRAPH_INPUT"},
      {"type": "SUBGRAPH", "dimensions": [], "lifetime": "SUBGRAPH", "value": 0},
      {"type": "SUBGRAPH", "dimensions": [], "lifetime": "SUBGRAPH", "value": 1},
      {"type": "TENSOR_INT32", "dimensions": [0], "lifetime": "SUBGRAPH_OUTPUT"}
    ],
    "operations": [{"type": "IF", "inputs": [1, 2, 3, 0], "outputs": [4]}],
    "inputIndexes": [0, 1],
    "outputIndexes": [4]
  },
  "referenced": [
    {"operands": [{"type": "TENSOR_INT32", "dimensions": [4], "lifetime": "SUBGRAPH_INPUT"},
                  {"type": "TENSOR_INT32", "dimensions": [4], "lifetime": "SUBGRAPH_OUTPUT"}],
     "operations": [{"type": "ABS", "inputs": [0], "outputs": [1]}], "inputIndexes": [0], "outputIndexes": [1]},
    {"operands": [{"type": "TENSOR_INT32", "dimensions": [4], "lifetime": "SUBGRAPH_INPUT"},
                  {"type": "TENSOR_INT32", "dimensions": [4], "lifetime": "SUBGRAPH_OUTPUT"}],
     "operations": [{"type": "NEG", "inputs": [0], "outputs": [1]}], "inputIndexes": [0], "outputIndexes": [1]}
  ]
})";

class Placement : public nnfab::test::CliFixture {
 protected:
  struct Case {
    std::string model;
    std::string inputs;
  };

  std::vector<Case> cases() {
    std::vector<Case> c = {
        {"examples/while_sum.json", "examples/while_sum.inputs.json"},
        {"examples/while_fib.json", "examples/while_fib.inputs.json"},
        {"examples/if_abs_scale.json", "examples/if_abs_scale.inputs.json"},
    };
    c.push_back({write("unknown_if.json", kUnknownSizeIf).string(),
                 write("unknown_if.inputs.json", R"({"inputs": [{"data": [-1, 2, -3, 4]}, {"data": [false]}]})")
                     .string()});
    return c;
  }

  // The operations `nnfab partition --json` places off the device, as
  // "subgraph S operation I TYPE (code)".
  std::vector<std::string> offDevice(const std::string& model, const std::string& device) {
    const Outcome o = nnfab("partition " + model + " --device " + device + " --json");
    EXPECT_EQ(o.exitCode, 0) << o.err;
    std::vector<std::string> off;
    const Json plan = Json::parse(o.out);
    for (const Json& sg : plan["subgraphs"]) {
      for (const Json& step : sg["steps"]) {
        for (const Json& op : step["operations"]) {
          if (op["onFabric"].get<bool>()) continue;
          off.push_back("subgraph " + std::to_string(sg["subgraph"].get<int>()) + " operation " +
                        std::to_string(op["index"].get<int>()) + " " + op["type"].get<std::string>() + " (" +
                        op["reasonCode"].get<std::string>() + ")");
        }
      }
    }
    return off;
  }
};

size_t warnings(const std::string& err) {
  size_t n = 0;
  for (size_t at = err.find("nnfab: warning:"); at != std::string::npos; at = err.find("nnfab: warning:", at + 1)) ++n;
  return n;
}

TEST_F(Placement, StrictDeviceAndTheWarningFollowThePartition) {
  size_t refused = 0, wholly = 0;
  for (const Case& c : cases()) {
    SCOPED_TRACE(c.model);
    const std::vector<std::string> off = offDevice(c.model, "hls");
    const std::string run = "run " + c.model + " --inputs " + c.inputs + " --device hls";
    const Outcome strict = nnfab(run + " --strict-device");
    const Outcome normal = nnfab(run);
    const Outcome cpu = nnfab("run " + c.model + " --inputs " + c.inputs + " --device cpu");
    ASSERT_EQ(normal.exitCode, 0) << normal.err;
    Json a = Json::parse(normal.out), b = Json::parse(cpu.out);
    a.erase("timing");
    b.erase("timing");
    EXPECT_EQ(a, b);  // the fallback changes where, never what
    if (off.empty()) {
      ++wholly;
      EXPECT_EQ(strict.exitCode, 0) << strict.out << strict.err;
      Json s = Json::parse(strict.out);
      s.erase("timing");
      EXPECT_EQ(s, b);
      EXPECT_EQ(warnings(normal.err), 0u) << normal.err;
      EXPECT_EQ(warnings(strict.err), 0u) << strict.err;
    } else {
      ++refused;
      EXPECT_EQ(strict.exitCode, 1);
      const Json r = Json::parse(strict.out);
      EXPECT_EQ(r["status"], "INVALID_ARGUMENT");
      EXPECT_FALSE(r.contains("outputs"));
      const std::string message = r["message"];
      EXPECT_NE(message.find(std::to_string(off.size()) + " of the model's operations would not run on hls"),
                std::string::npos)
          << message;
      EXPECT_NE(message.find(off.front()), std::string::npos) << message;
      EXPECT_EQ(warnings(normal.err), 1u) << normal.err;
      EXPECT_NE(normal.err.find(off.front()), std::string::npos) << normal.err;
    }
  }
  // The unknown-size IF is always refused; the INT32 counter loop always runs
  // wholly on the fabric: both branches above were taken.
  EXPECT_GE(refused, 1u);
  EXPECT_GE(wholly, 1u);
}

TEST_F(Placement, StrictDeviceNeedsAFabricDevice) {
  const Outcome o = nnfab("run examples/while_sum.json --inputs examples/while_sum.inputs.json --device cpu --strict-device");
  EXPECT_EQ(o.exitCode, 2);
  EXPECT_TRUE(o.out.empty()) << o.out;
  EXPECT_NE(o.err.find("--strict-device"), std::string::npos) << o.err;
}

TEST_F(Placement, TheCpuDeviceNeverWarns) {
  const Outcome o = nnfab("run examples/while_fib.json --inputs examples/while_fib.inputs.json --device cpu");
  EXPECT_EQ(o.exitCode, 0) << o.err;
  EXPECT_EQ(warnings(o.err), 0u) << o.err;
}

}  // namespace
