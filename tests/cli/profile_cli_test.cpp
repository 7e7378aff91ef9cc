// `nnfab run --profile` on the fabric devices: the Chrome trace-event file
// Perfetto loads (traceEvents with ph/ts/pid/tid), with one span per WHILE
// iteration inside the fabric program on a device-cycles track, in
// increasing device cycles, the same cycles on hls and sim, and the cycles
// per instruction class of the step.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <fstream>
#include <string>
#include <vector>

#include "support/cli_fixture.h"

namespace {

using Json = nlohmann::json;

class ProfileCli : public nnfab::test::CliFixture {
 protected:
  Json profile(const std::string& device, const std::string& inputs = "examples/while_sum.inputs.json") {
    const auto file = dir_ / ("profile_" + device + ".json");
    const auto o = nnfab("run examples/while_sum.json --inputs " + inputs + " --device " + device + " --profile " +
                         file.string());
    EXPECT_EQ(o.exitCode, 0) << o.err;
    std::ifstream in(file);
    return Json::parse(in, nullptr, false);
  }
};

// Every event has the fields Perfetto's JSON importer needs.
void expectPerfettoShape(const Json& doc) {
  ASSERT_TRUE(doc.is_object());
  ASSERT_TRUE(doc.contains("traceEvents") && doc["traceEvents"].is_array());
  for (const Json& e : doc["traceEvents"]) {
    ASSERT_TRUE(e.contains("ph") && e["ph"].is_string()) << e.dump();
    ASSERT_TRUE(e.contains("ts") && e["ts"].is_number()) << e.dump();
    ASSERT_TRUE(e.contains("pid") && e["pid"].is_number_integer()) << e.dump();
    ASSERT_TRUE(e.contains("tid") && e["tid"].is_number_integer()) << e.dump();
    if (e["ph"] == "X") {
      ASSERT_TRUE(e.contains("dur") && e["dur"].is_number() && e["dur"] >= 0) << e.dump();
    }
  }
}

// The start cycles of the fabric program's WHILE iterations, in file order.
std::vector<uint64_t> iterationCycles(const Json& doc) {
  std::vector<uint64_t> cycles;
  for (const Json& e : doc["traceEvents"]) {
    if (e["ph"] != "X" || !e["name"].get<std::string>().starts_with("WHILE iteration")) continue;
    if (e["args"]["clock"] != "device cycles") continue;
    cycles.push_back(e["args"]["start_cycle"].get<uint64_t>());
    EXPECT_GT(e["args"]["cycles"].get<uint64_t>(), 0u);
  }
  return cycles;
}

void expectFabricLoop(const Json& doc) {
  expectPerfettoShape(doc);
  const std::vector<uint64_t> cycles = iterationCycles(doc);
  EXPECT_EQ(cycles.size(), 100u);  // while_sum: 100 iterations, each one span
  for (size_t i = 1; i < cycles.size(); ++i) EXPECT_GT(cycles[i], cycles[i - 1]) << "iteration " << i;
  bool counters = false, program = false;
  for (const Json& e : doc["traceEvents"]) {
    if (e["ph"] == "C" && e["name"] == "cycles by instruction class") {
      counters = true;
      EXPECT_GT(e["args"]["branch"].get<uint64_t>(), 0u);
      EXPECT_GT(e["args"]["salu"].get<uint64_t>(), 0u);
    }
    if (e["ph"] == "X" && e["name"] == "fabric program") {
      program = true;
      EXPECT_EQ(e["args"]["dropped_branches"], "0");
      EXPECT_EQ(e["pid"], 2);
    }
    if (e["ph"] == "X" && e["pid"] == 1) {
      EXPECT_EQ(e["args"]["clock"], "host wall clock");
    }
  }
  EXPECT_TRUE(counters);
  EXPECT_TRUE(program);
}

TEST_F(ProfileCli, HlsProfileHasEveryFabricIteration) { expectFabricLoop(profile("hls")); }

// 1,000 iterations are 1,001 traced branches: the ring keeps the first 256
// (the entry test and 255 iterations) and the profile says how many it lost.
TEST_F(ProfileCli, OverflowIsReported) {
  const auto inputs = dir_ / "inputs_1000.json";
  std::ofstream(inputs) << R"({"inputs": [{"dimensions": [1], "data": [1000]}]})";
  for (const std::string device : {"hls"
#ifdef NNFAB_TEST_HAS_SIM
                                   , "sim"
#endif
       }) {
    const Json doc = profile(device, inputs.string());
    expectPerfettoShape(doc);
    EXPECT_EQ(iterationCycles(doc).size(), 255u) << device;
    bool note = false, program = false;
    for (const Json& e : doc["traceEvents"]) {
      if (e["name"] == "trace ring full: 745 later branches not recorded") {
        note = true;
        EXPECT_EQ(e["ph"], "i");
      }
      if (e["name"] == "fabric program") {
        program = true;
        EXPECT_EQ(e["args"]["dropped_branches"], "745") << device;
        EXPECT_EQ(e["args"]["traced_branches"], "256") << device;
      }
    }
    EXPECT_TRUE(note) << device;
    EXPECT_TRUE(program) << device;
  }
}

#ifdef NNFAB_TEST_HAS_SIM
TEST_F(ProfileCli, SimProfileHasEveryFabricIterationAtTheHlsCycles) {
  const Json sim = profile("sim");
  expectFabricLoop(sim);
  EXPECT_EQ(iterationCycles(sim), iterationCycles(profile("hls")));
}
#endif

}  // namespace
