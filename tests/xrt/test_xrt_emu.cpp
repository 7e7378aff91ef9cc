// End to end through XRT's own hw_emu flow: the unmodified xrt backend
// (xrt::device, xrt::bo, xrt::ip) on XRT 2.13's hw_emu shim, whose device
// process is nnfab's Verilated core (sim/xrt_emu). Ctest label xrt-emu.
//   XrtEmuFabric.*  CoreDriver on the XrtBackend against the sim backend:
//                   results AND CYCLES equal (same RTL, same memory model);
//                   a loop watchdog timeout; a preemption with resume.
//   XrtEmuModels.*  models through the xrt-emu device against cpu: outputs
//                   bit-equal (WHILE, IF, tensors), the loop timeout status.
//   XrtEmuHang.*    a card whose memory never answers: host watchdog, the soft
//                   reset cannot complete, clear status, card reported failed.
//                   (A hung core with a working memory is soft reset:
//                   XrtEmuFabric.AHungCoreIsSoftReset...)
//   XrtEmuCli.*     `nnfab run --device xrt-emu` prints what --device cpu does.
// Each group is one ctest test (one process, one ~10 s load): XRT picks its
// shim once per process and sleeps in every load and close.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cstdio>
#include <fstream>
#include <memory>
#include <random>
#include <sstream>

#include "backends/sim_backend.h"
#include "backends/xrt_backend.h"
#include "fabric/fabric_test_util.h"
#include "fabric/soft_reset.h"
#include "model/json_io.h"
#include "runtime/device.h"
#include "api/run_model.h"
#include "runtime/xrt_device.h"
#include "sim/random_program.h"
#include "support/cli_fixture.h"
#include "support/loop_models.h"
#include "support/model_builder.h"
#include "support/random_model.h"
#include "support/tolerance.h"

namespace nnfab {
namespace {

using namespace fabric;
using namespace fabric::test;

// The emulated card, opened once per process.
backends::XrtBackend& emu() {
  static std::unique_ptr<backends::XrtBackend> backend = [] {
    auto b = openXrtEmuBackend();
    if (!b.isOk()) {
      ADD_FAILURE() << "xrt-emu: " << b.status().message();
      std::abort();
    }
    return std::move(b).value();
  }();
  return *backend;
}

backends::SimBackendOptions simOptions() {
  backends::SimBackendOptions o;
  o.memoryBytes = uint64_t{64} << 20;
  return o;
}

void expectSameRun(const Outcome& sim, const Outcome& xrt, const std::string& what) {
  EXPECT_EQ(xrt.report.coreStatus, sim.report.coreStatus) << what << ": " << xrt.report.status.message();
  EXPECT_EQ(xrt.report.haltPc, sim.report.haltPc) << what;
  EXPECT_EQ(xrt.report.faultInfo, sim.report.faultInfo) << what;
  EXPECT_EQ(xrt.report.cycles, sim.report.cycles) << what << ": CYCLES";
  EXPECT_EQ(xrt.report.instret, sim.report.instret) << what;
  EXPECT_EQ(xrt.report.iterations, sim.report.iterations) << what;
  EXPECT_TRUE(xrt.data == sim.data) << what << ": data regions differ";
}

TEST(XrtEmuFabric, TheCardIsTheNnfabCore) {
  EXPECT_EQ(emu().readRegister(isa::kRegID), isa::kCORE_ID);
  EXPECT_EQ(emu().readRegister(isa::kRegISA_VERSION), isa::kIsaVersion);
  EXPECT_EQ(emu().name(), "xrt");
  // The emulation shim has no IP interrupts: the backend says it polls, and why.
  const std::string description = emu().description();
  EXPECT_NE(description.find("completion polled every 50 us (no IP interrupt:"), std::string::npos) << description;
}

// Every data port addresses the one data region (docs/deploy.md "Data
// ports"): the backend writes DATA_ADDR into the m_axi_srcb and m_axi_dst
// arguments too, and the RTL reads them back.
TEST(XrtEmuFabric, TheSrcbAndDstArgumentsFollowDataAddr) {
  const Outcome x = runOn(emu(), counterLoop(10).code, {}, 64);
  ASSERT_TRUE(x.report.completed()) << x.report.status.message();
  auto read64 = [](uint32_t offset) {
    return (uint64_t{emu().readRegister(offset + 4)} << 32) | emu().readRegister(offset);
  };
  const uint64_t data = read64(isa::kRegDATA_ADDR);
  EXPECT_NE(data, 0u);
  EXPECT_EQ(read64(isa::kRegSRCB_ADDR), data);
  EXPECT_EQ(read64(isa::kRegDST_ADDR), data);
}

TEST(XrtEmuFabric, AWhileLoopGivesTheSimResultAndCycles) {
  const Asm a = counterLoop(3000, /*watchdog=*/true);
  backends::SimBackend sim(simOptions());
  const Outcome s = runOn(sim, a.code, {}, 64);
  const Outcome x = runOn(emu(), a.code, {}, 64);
  ASSERT_TRUE(x.report.completed()) << x.report.status.message();
  EXPECT_EQ(word(x.data, 0), 3000);
  expectSameRun(s, x, "counter loop");
}

TEST(XrtEmuFabric, RandomProgramsWithBranchesLoopsAndTensorsGiveTheSimResultAndCycles) {
  std::mt19937 rng(20261125);
  RandomProgramOptions options;
  options.faults = false;
  for (int i = 0; i < 6; ++i) {
    const RandomProgram p = randomProgram(rng, options);
    backends::SimBackend sim(simOptions());
    const Outcome s = runOn(sim, p.a.code, p.image, p.dataBytes);
    const Outcome x = runOn(emu(), p.a.code, p.image, p.dataBytes);
    expectSameRun(s, x, "random program " + std::to_string(i));
  }
}

TEST(XrtEmuFabric, TheLoopWatchdogStopsAnInfiniteLoop) {
  const Asm a = infiniteLoop(/*watchdog=*/true);
  RunLimits limits;
  limits.loopTimeout = std::chrono::milliseconds(50);
  backends::SimBackend sim(simOptions());
  const Outcome s = runOn(sim, a.code, {}, 64, limits);
  const Outcome x = runOn(emu(), a.code, {}, 64, limits);
  EXPECT_FALSE(x.report.completed());
  EXPECT_EQ(x.report.status.code(), s.report.status.code()) << x.report.status.message();
  EXPECT_EQ(x.report.coreStatus, s.report.coreStatus);
  // The core is usable again afterwards.
  const Outcome after = runOn(emu(), counterLoop(10).code, {}, 64);
  EXPECT_TRUE(after.report.completed()) << after.report.status.message();
  EXPECT_EQ(word(after.data, 0), 10);
}

TEST(XrtEmuFabric, APreemptedAndResumedLoopEqualsAnUninterruptedSimRun) {
  const Asm a = counterLoop(20000, /*watchdog=*/true);
  backends::SimBackend sim(simOptions());
  const Outcome whole = runOn(sim, a.code, {}, 64);
  ASSERT_TRUE(whole.report.completed());

  Result<DeviceProgram> p = DeviceProgram::load(emu(), a.code, {}, 64);
  ASSERT_TRUE(p.isOk()) << p.status().message();
  CoreDriver driver(emu());
  RunLimits preempt;
  preempt.preemptRequested = [] { return true; };  // at the driver's first poll
  Result<RunReport> r = driver.run(p->loaded(), preempt);
  ASSERT_TRUE(r.isOk()) << r.status().message();
  int stops = 0;
  while (r->resumable()) {
    ++stops;
    EXPECT_EQ(r->coreStatus, isa::kStatusPREEMPTED);
    r = driver.run(p->resumed(), stops < 3 ? preempt : RunLimits{});
    ASSERT_TRUE(r.isOk()) << r.status().message();
  }
  EXPECT_GE(stops, 1);
  EXPECT_TRUE(r->completed()) << r->status.message();
  EXPECT_EQ(r->cycles, whole.report.cycles);
  EXPECT_EQ(r->instret, whole.report.instret);
  std::vector<uint8_t> data(64);
  ASSERT_TRUE(p->readData(0, data.data(), data.size()).isOk());
  EXPECT_TRUE(data == whole.data);
}

// The card as a core deaf to preemption requests (they are dropped on the
// way; everything else, the soft reset's key included, goes through).
class PreemptDeafCard final : public FabricBackend {
 public:
  explicit PreemptDeafCard(FabricBackend& card) : card_(card) {}
  std::string_view name() const override { return card_.name(); }
  uint64_t memoryBytes() const override { return card_.memoryBytes(); }
  double clockMhz() const override { return card_.clockMhz(); }
  Result<DeviceAddress> allocate(uint64_t bytes) override { return card_.allocate(bytes); }
  void release(DeviceAddress address) override { card_.release(address); }
  Status copyToDevice(DeviceAddress dst, const void* src, uint64_t bytes) override {
    return card_.copyToDevice(dst, src, bytes);
  }
  Status copyFromDevice(void* dst, DeviceAddress src, uint64_t bytes) override {
    return card_.copyFromDevice(dst, src, bytes);
  }
  void writeRegister(uint32_t offset, uint32_t value) override {
    if (offset == isa::kRegPREEMPT && value == isa::kPreemptRequest) return;
    card_.writeRegister(offset, value);
  }
  uint32_t readRegister(uint32_t offset) override { return card_.readRegister(offset); }
  WaitOutcome waitDone(std::chrono::nanoseconds timeout) override { return card_.waitDone(timeout); }
  void reset() override { card_.reset(); }

 private:
  FabricBackend& card_;
};

// Issue 10: a hung compute unit is recovered through XRT. An endless loop
// with the loop watchdog off whose core ignores PREEMPT: the host watchdog
// ends it with the register soft reset (not a card reset), and the next run
// on the same card is right.
TEST(XrtEmuFabric, AHungCoreIsSoftResetByTheHostWatchdogAndTheNextRunIsRight) {
  PreemptDeafCard card(emu());
  Result<DeviceProgram> p = DeviceProgram::load(card, infiniteLoop(/*watchdog=*/false).code, {}, 64);
  ASSERT_TRUE(p.isOk()) << p.status().message();
  CoreDriver driver(card);
  RunLimits limits;
  limits.deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(200);
  limits.preemptGrace = std::chrono::milliseconds(100);
  limits.resetTimeout = std::chrono::seconds(5);  // hw_emu register accesses are slow
  const auto start = std::chrono::steady_clock::now();
  Result<RunReport> r = driver.run(p->loaded(), limits);
  ASSERT_TRUE(r.isOk()) << r.status().message();
  EXPECT_EQ(r->status.code(), ErrorStatus::MISSED_DEADLINE_TRANSIENT) << r->status.message();
  EXPECT_NE(r->status.message().find("was reset"), std::string::npos) << r->status.message();
  EXPECT_EQ(r->status.message().find("did not complete"), std::string::npos) << r->status.message();
  EXPECT_EQ(r->coreStatus, isa::kStatusIDLE);
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(10));
  const Outcome after = runOn(emu(), counterLoop(10).code, {}, 64);
  EXPECT_TRUE(after.report.completed()) << after.report.status.message();
  EXPECT_EQ(word(after.data, 0), 10);
  // What one soft reset costs through XRT (docs/performance.md "xrt-emu").
  const auto t0 = std::chrono::steady_clock::now();
  EXPECT_EQ(resetCore(emu(), std::chrono::seconds(5)), ResetOutcome::SOFT);
  std::printf("xrt-emu: soft reset of an idle core %.1f ms; the hung run (deadline 200 ms, grace 100 ms, soft "
              "reset) ended after %.1f ms\n",
              std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count(),
              std::chrono::duration<double, std::milli>(r->wallTime).count());
}

// A card whose memory stops answering (NNFAB_HWEMU_FAULT=hang, inherited
// by the device process the shim starts): the host watchdog ends the run
// with a clear status, the backend reports the core as needing a card
// reset, and the process goes on.
TEST(XrtEmuHang, TheHostWatchdogEndsTheRunAndTheCardIsReportedFailed) {
  ASSERT_EQ(::setenv("NNFAB_HWEMU_FAULT", "hang", 1), 0);
  const Asm a = counterLoop(1000);
  Result<DeviceProgram> p = DeviceProgram::load(emu(), a.code, {}, 64);
  ASSERT_TRUE(p.isOk()) << p.status().message();
  CoreDriver driver(emu());
  RunLimits limits;
  limits.hangTimeout = std::chrono::milliseconds(300);
  limits.preemptGrace = std::chrono::milliseconds(100);
  const auto start = std::chrono::steady_clock::now();
  Result<RunReport> r = driver.run(p->loaded(), limits);
  ASSERT_TRUE(r.isOk()) << r.status().message();
  EXPECT_FALSE(r->completed());
  EXPECT_NE(r->status.message().find("no progress"), std::string::npos) << r->status.message();
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(5));
  const auto more = emu().allocate(4096);
  EXPECT_EQ(more.status().code(), ErrorStatus::DEVICE_UNAVAILABLE);
  EXPECT_NE(more.status().message().find("xbutil reset"), std::string::npos);
}

// ---- models through the xrt-emu device --------------------------------

// The xrt-emu device, opened (else a fabric device without a backend would
// run every step on the CPU and these comparisons would prove nothing).
const Device& xrtEmu() {
  static const Device* device = [] {
    const Status opened = openXrtEmu();
    if (!opened.isOk()) {
      ADD_FAILURE() << "xrt-emu: " << opened.message();
      std::abort();
    }
    return findDevice("xrt-emu");
  }();
  return *device;
}

ExecutionResult runOnDevice(const Device& device, const Model& model, const std::vector<TensorValue>& inputs,
                            uint64_t loopTimeoutMs = 2000) {
  RunOptions o;
  o.device = &device;
  o.loopTimeoutMs = loopTimeoutMs;
  return runModel(model, inputs, o);
}

void expectSameAsCpu(const Model& model, const std::vector<TensorValue>& inputs, const std::string& what) {
  const ExecutionResult cpu = runOnDevice(*findDevice("cpu"), model, inputs);
  const ExecutionResult emuResult = runOnDevice(xrtEmu(), model, inputs);
  ASSERT_EQ(emuResult.status.code(), cpu.status.code()) << what << ": " << emuResult.status.message();
  ASSERT_EQ(emuResult.outputs.size(), cpu.outputs.size()) << what;
  for (size_t i = 0; i < cpu.outputs.size(); ++i) {
    EXPECT_EQ(testing::compareOutput(cpu.outputs[i], emuResult.outputs[i], /*relaxed=*/false), "")
        << what << ", output " << i;
  }
}

std::string slurp(const std::string& path) {
  std::ifstream in(path);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

TEST(XrtEmuModels, TheWhileExampleEqualsCpu) {
  const std::string root = std::getenv("NNFAB_SOURCE_DIR");
  auto model = parseModel(slurp(root + "/examples/while_sum.json"));
  ASSERT_TRUE(model.isOk()) << model.status().message();
  auto inputs = parseInputs(slurp(root + "/examples/while_sum.inputs.json"), *model);
  ASSERT_TRUE(inputs.isOk());
  expectSameAsCpu(*model, *inputs, "examples/while_sum");
  std::vector<std::string> why;
  const auto supported = xrtEmu().getSupportedOperations(*model, &why);
  EXPECT_TRUE(std::find(supported.begin(), supported.end(), true) != supported.end())
      << "the example should run on the fabric, not only on the CPU";
}

TEST(XrtEmuModels, IfAndNestedLoopsEqualCpu) {
  expectSameAsCpu(testing::deepIfChain(4), {testing::int32s({1}, {41})}, "deep IF chain");
  expectSameAsCpu(testing::nestedLoops(), {testing::int32s({1}, {12})}, "nested loops");
  expectSameAsCpu(testing::counterLoop(true), {testing::int32s({1}, {50})}, "accumulating loop");
}

TEST(XrtEmuModels, RandomTensorModelsEqualCpu) {
  for (uint64_t seed = 1; seed <= 4; ++seed) {
    const Model model = testing::randomModel(seed);
    testing::RandomSource rng(seed);
    expectSameAsCpu(model, testing::randomInputs(model, rng), "random model " + std::to_string(seed));
  }
}

TEST(XrtEmuModels, AnInfiniteLoopEndsAtTheLoopTimeoutLikeOnCpu) {
  const std::vector<TensorValue> in = {testing::int32s({1}, {1})};
  const ExecutionResult cpu = runOnDevice(*findDevice("cpu"), testing::infiniteLoop(), in, 100);
  const ExecutionResult e = runOnDevice(xrtEmu(), testing::infiniteLoop(), in, 100);
  EXPECT_EQ(cpu.status.code(), ErrorStatus::MISSED_DEADLINE_TRANSIENT);
  EXPECT_EQ(e.status.code(), cpu.status.code()) << e.status.message();
}

// ---- the command line -------------------------------------------------

namespace clitest {

using Json = nlohmann::json;
using XrtEmuCli = nnfab::test::CliFixture;

// The acceptance command: the same result JSON as --device cpu
// (timing aside), and nothing but that JSON on stdout.
TEST_F(XrtEmuCli, TheWhileExamplePrintsTheCpuResult) {
  const std::string run = "run examples/while_sum.json --inputs examples/while_sum.inputs.json --device ";
  const auto cpu = nnfab(run + "cpu");
  const auto emu = nnfab(run + "xrt-emu");
  ASSERT_EQ(emu.exitCode, 0) << emu.err;
  ASSERT_TRUE(Json::accept(emu.out)) << "stdout is not just JSON:\n" << emu.out;
  Json a = Json::parse(cpu.out), b = Json::parse(emu.out);
  a.erase("timing");
  b.erase("timing");
  EXPECT_EQ(a, b);
  EXPECT_EQ(b["outputs"][1]["data"], Json::parse("[4950]"));
}

// `nnfab bench --device xrt-emu`: the groups run through the xrt backend on
// one load (bench/shared_backend.h), and the CYCLES the card path reports
// are the sim device's: the same RTL behind XRT's shim.
TEST_F(XrtEmuCli, BenchOnTheCardPathReportsSimsCycles) {
  const std::string emuJson = (dir_ / "bench_xrt_emu.json").string();
  const std::string simJson = (dir_ / "bench_sim.json").string();
  const auto emu = nnfab("bench --quick --only loops,if --device xrt-emu --json " + emuJson);
  ASSERT_EQ(emu.exitCode, 0) << emu.err;
  const auto sim = nnfab("bench --quick --only loops,if --device sim --json " + simJson);
  ASSERT_EQ(sim.exitCode, 0) << sim.err;
  std::ifstream a(emuJson), b(simJson);
  const Json e = Json::parse(a), s = Json::parse(b);
  EXPECT_EQ(e["device"], "xrt-emu");
  EXPECT_TRUE(e["errors"].empty()) << e["errors"].dump();
  size_t compared = 0;
  for (const auto& [name, metric] : s["metrics"].items()) {
    if (metric["unit"] != "cycles" && metric["unit"] != "cycles/IF") continue;
    ASSERT_TRUE(e["metrics"].contains(name)) << name;
    EXPECT_EQ(e["metrics"][name]["value"], metric["value"]) << name;
    ++compared;
  }
  EXPECT_GE(compared, 6u);
  EXPECT_EQ(e["metrics"]["counter_loop.marginal_cycles_per_iteration"]["value"], 2.0);
}

TEST_F(XrtEmuCli, BenchRefusesACardWithoutAnXclbin) {
  const auto out = nnfab("bench --quick --only loops --device xrt:7 --xclbin /nonexistent.xclbin");
  EXPECT_EQ(out.exitCode, 2);  // a usage problem, before any group runs
  EXPECT_NE(out.err.find("nonexistent.xclbin: cannot be read"), std::string::npos) << out.err;
  EXPECT_TRUE(out.out.empty()) << out.out;
}

}  // namespace clitest

}  // namespace
}  // namespace nnfab
