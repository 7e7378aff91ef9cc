// The whole modelled card with the Verilated RTL core: models run by the
// host model give the CPU executor's outputs; with a memory configured like
// the Verilator C++ harness's (sim/axi_memory.h defaults) the core counts the
// same CYCLES as on the sim backend; with an Alveo profile it can only be
// slower, and never faster than its memory traffic at the channel bandwidth;
// the host copies exactly what DeviceProgram and the inputs need.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <string>

#include <nlohmann/json.hpp>
#include <systemc>

#include "sim/axi_memory.h"  // the harness memory's defaults (header only)
#include "cpu/cpu_executor.h"
#include "model/json_io.h"
#include "fresh_simulation.h"
#include "nnfab_isa.h"
#include "platform_run.h"
#include "support/loop_models.h"
#include "support/model_builder.h"

namespace nnfab::sim::test {
namespace {

using testing::int32s;

Model elementwiseAdd(uint32_t n) {
  testing::SubgraphBuilder main;
  const uint32_t a = main.input(OperandType::TENSOR_INT32, {n});
  const uint32_t b = main.input(OperandType::TENSOR_INT32, {n});
  const uint32_t c = main.output(OperandType::TENSOR_INT32, {n});
  main.op(OperationType::ADD, {a, b, main.scalar(0)}, {c});
  Model model;
  model.main = main.build();
  return model;
}

std::vector<TensorValue> addInputs(uint32_t n) {
  std::vector<int32_t> a(n), b(n);
  for (uint32_t i = 0; i < n; ++i) {
    a[i] = static_cast<int32_t>(i * 2654435761u);
    b[i] = static_cast<int32_t>(0x7FFFFFF0 - i);  // wraps for some a[i]
  }
  return {int32s({n}, a), int32s({n}, b)};
}

struct Case {
  Model model;
  std::vector<TensorValue> inputs;
};

Case counterLoop(int32_t n) { return {testing::counterLoop(true), {int32s({1}, {n})}}; }

std::vector<TensorValue> cpuOutputs(const Case& c) {
  auto cpu = cpu::CpuExecutor::prepare(c.model);
  EXPECT_TRUE(cpu.isOk());
  ExecutionResult r = (*cpu)->execute(c.inputs, ExecutionOptions{});
  EXPECT_TRUE(r.status.isOk()) << r.status.message();
  return r.outputs;
}

PlatformOptions u250() {
  PlatformOptions o;
  o.card = *cardProfile("u250");
  o.memoryBytes = uint64_t{256} << 20;
  return o;
}

// The C++ harness's memory (AxiMemoryConfig defaults) in the platform's
// terms: its latencies in cycles, no bandwidth limit beyond one beat per
// cycle on the pins, its number of outstanding reads.
PlatformOptions likeTheHarness() {
  PlatformOptions o = u250();
  const AxiMemoryConfig harness;
  const double periodNs = 1000.0 / o.card.clockMhz;
  o.card.memory.latencyNs = harness.readLatency * periodNs;
  o.card.memory.writeLatencyNs = harness.writeResponseLatency * periodNs;
  o.card.memory.readGBps = o.card.memory.writeGBps = 1e6;
  o.maxOutstanding = harness.maxOutstandingReads;
  return o;
}

PlatformRun onPlatform(const Case& c, const PlatformOptions& options) {
  freshSimulation();
  auto program = compileMainStep(c.model, c.inputs);
  EXPECT_TRUE(program.isOk()) << program.status().message();
  return runOnPlatform(options, *program, c.inputs, fabric::RunLimits{});
}

struct SimCounters {
  uint64_t cycles = 0, instret = 0;
};

// The same model through the sim backend (the Verilator C++ harness), in
// the sim_cycles helper's process.
SimCounters onSimBackend(const Case& c, const std::string& name) {
  const std::string dir = ::testing::TempDir();
  const std::string modelPath = dir + name + ".model.json", inputsPath = dir + name + ".inputs.json";
  std::ofstream(modelPath) << writeModel(c.model);
  std::ofstream(inputsPath) << writeInputs(c.inputs);
  const std::string command = std::string(NNFAB_SIM_CYCLES) + " " + modelPath + " " + inputsPath;
  std::string out;
  if (FILE* pipe = popen(command.c_str(), "r")) {
    char buffer[512];
    while (fgets(buffer, sizeof(buffer), pipe) != nullptr) out += buffer;
    EXPECT_EQ(pclose(pipe), 0) << command;
  }
  const nlohmann::json j = nlohmann::json::parse(out, nullptr, false);
  EXPECT_FALSE(j.is_discarded()) << "sim_cycles printed: " << out;
  if (j.is_discarded()) return {};
  return {j.at("cycles").get<uint64_t>(), j.at("instret").get<uint64_t>()};
}

// Measured difference between the two memory front ends for the same
// latencies: the harness counts AR handshake -> first R beat as readLatency
// cycles; the platform's bridge presents the beat at the first edge after the
// memory's completion and the core takes it one edge later. Each memory
// access the core waits for can therefore differ by up to 2 cycles; the
// programs here wait for a handful of accesses (program load, descriptors,
// scalar loads, result writes).
constexpr uint64_t kCyclesPerAccess = 2;

uint64_t waitedAccesses(const PlatformRun& run) {
  const BusCounters& b = run.projection.bus;
  return b.progBursts + b.dataReadBursts + b.dataWriteBursts;
}

TEST(Platform, CounterLoopGivesTheCpuResultsAndTheHarnessCycles) {
  const Case c = counterLoop(1000);
  const PlatformRun run = onPlatform(c, likeTheHarness());
  ASSERT_TRUE(run.status.isOk()) << run.status.message();
  EXPECT_EQ(compareOutputs(cpuOutputs(c), run.outputs), "");
  ASSERT_TRUE(run.report.has_value());
  EXPECT_EQ(run.report->iterations, 999u);
  const SimCounters sim = onSimBackend(c, "counter");
  const uint64_t tolerance = kCyclesPerAccess * waitedAccesses(run);
  EXPECT_NEAR(static_cast<double>(run.report->cycles), static_cast<double>(sim.cycles), static_cast<double>(tolerance))
      << "platform " << run.report->cycles << ", sim backend " << sim.cycles;
  EXPECT_EQ(run.report->instret, sim.instret);
}

TEST(Platform, ElementwiseAddGivesTheCpuResultsAndTheHarnessCycles) {
  const Case c{elementwiseAdd(65536), addInputs(65536)};
  const PlatformRun run = onPlatform(c, likeTheHarness());
  ASSERT_TRUE(run.status.isOk()) << run.status.message();
  EXPECT_EQ(compareOutputs(cpuOutputs(c), run.outputs), "");
  const SimCounters sim = onSimBackend(c, "add");
  // Streaming bursts overlap their latencies in both front ends; only the
  // accesses the core waits for (descriptor, first and last bursts, program)
  // can differ.
  const uint64_t tolerance = kCyclesPerAccess * 16;
  EXPECT_NEAR(static_cast<double>(run.report->cycles), static_cast<double>(sim.cycles), static_cast<double>(tolerance))
      << "platform " << run.report->cycles << ", sim backend " << sim.cycles;
}

TEST(Platform, AlveoMemoryIsNeverFasterThanItsBandwidth) {
  const uint32_t n = 65536;
  const Case c{elementwiseAdd(n), addInputs(n)};
  const PlatformRun alveo = onPlatform(c, u250());
  ASSERT_TRUE(alveo.status.isOk()) << alveo.status.message();
  EXPECT_EQ(compareOutputs(cpuOutputs(c), alveo.outputs), "");
  const PlatformRun ideal = onPlatform(c, likeTheHarness());
  EXPECT_GE(alveo.report->cycles, ideal.report->cycles);
  // One DDR4 channel (both ports on DDR[0]) moves 2n words in and n out.
  const MemoryProfile ddr = cardProfile("u250")->memory;
  const double boundUs = (8.0 * n / ddr.readGBps + 4.0 * n / ddr.writeGBps) / 1000.0;
  EXPECT_GE(alveo.projection.kernelUs, boundUs);
}

// The data region's windows (docs/isa.md "Memory model"): the compiler puts
// ADD's B operand in window B and its result in window D, and the backend
// puts each window in its own HBM pseudo-channel, so that the three ports
// stream in parallel. One channel shared carries all 12n bytes in turn.
TEST(Platform, WindowsInThreeHbmChannelsBeatOneSharedChannel) {
  const uint32_t n = 65536;
  const Case c{elementwiseAdd(n), addInputs(n)};
  PlatformOptions hbm;
  hbm.card = *cardProfile("u280-hbm");
  hbm.memoryBytes = uint64_t{1} << 30;  // four 256 MiB pseudo-channels
  const PlatformRun spread = onPlatform(c, hbm);
  ASSERT_TRUE(spread.status.isOk()) << spread.status.message();
  EXPECT_EQ(compareOutputs(cpuOutputs(c), spread.outputs), "");
  hbm.windowsPerChannel = false;
  const PlatformRun shared = onPlatform(c, hbm);
  ASSERT_TRUE(shared.status.isOk()) << shared.status.message();
  EXPECT_EQ(compareOutputs(cpuOutputs(c), shared.outputs), "");
  const MemoryProfile m = hbm.card.memory;
  const double sharedBoundUs = (8.0 * n / m.readGBps + 4.0 * n / m.writeGBps) / 1000.0;
  EXPECT_GE(shared.projection.kernelUs, sharedBoundUs);
  // Each channel carries 4n bytes: below the shared bound by far.
  EXPECT_LT(spread.projection.kernelUs, 0.6 * sharedBoundUs)
      << "spread " << spread.projection.kernelUs << " us, shared " << shared.projection.kernelUs << " us";
  EXPECT_GE(spread.projection.kernelUs, 4.0 * n / m.readGBps / 1000.0);
}

TEST(Platform, HostCopiesWhatTheRuntimeCopiesAndTimeAddsUp) {
  const uint32_t n = 4096;
  const Case c{elementwiseAdd(n), addInputs(n)};
  auto program = compileMainStep(c.model, c.inputs);
  ASSERT_TRUE(program.isOk());
  const PlatformRun run = onPlatform(c, u250());
  ASSERT_TRUE(run.status.isOk()) << run.status.message();
  const Projection& p = run.projection;
  // DeviceProgram::load: code, data image, the rest of the data region zeroed
  // except the input slots, context; then each input into its slot: the
  // data region crosses PCIe once.
  const uint64_t expectedIn =
      program->code.size() * isa::kINSTRUCTION_BYTES + program->dataBytes + isa::kCONTEXT_BYTES;
  EXPECT_EQ(p.bytesIn, expectedIn);
  EXPECT_EQ(p.bytesOut, 4u * n);
  const PcieProfile pcie = cardProfile("u250")->pcie;
  EXPECT_GE(p.pcieInUs, p.copiesIn * pcie.transferUs + p.bytesIn / pcie.h2dGBps / 1000.0 - 1e-3);
  EXPECT_NEAR(p.pcieInUs + p.kernelUs + p.pcieOutUs + p.hostOverheadUs, p.totalUs, 1e-6);
  // Host overhead: at least every register access and the interrupt.
  EXPECT_GE(p.hostOverheadUs, (p.registerReads * pcie.mmioReadNs + pcie.interruptNs) / 1000.0);
  EXPECT_GT(p.kernelCycles, 0u);
  EXPECT_EQ(p.bus.protocolErrors, 0u);
}

TEST(Platform, PollingGivesTheSameResultsWithMoreRegisterReads) {
  const Case c = counterLoop(3000);
  PlatformOptions polling = u250();
  polling.useInterrupt = false;
  polling.pollNs = 2000;
  const PlatformRun polled = onPlatform(c, polling);
  ASSERT_TRUE(polled.status.isOk()) << polled.status.message();
  EXPECT_EQ(compareOutputs(cpuOutputs(c), polled.outputs), "");
  const PlatformRun interrupted = onPlatform(c, u250());
  EXPECT_EQ(polled.report->cycles, interrupted.report->cycles);
  // 6000 cycles at 300 MHz = 20 us of kernel: ~10 polls of AP_CTRL.
  EXPECT_GE(polled.projection.registerReads, interrupted.projection.registerReads + 5);
}

// The host's loop watchdog is off in simulated time; the simulated-time limit
// ends an endless loop instead of simulating forever.
TEST(Platform, AnEndlessLoopEndsAtTheSimulatedTimeLimit) {
  const Case c{testing::infiniteLoop(), {int32s({1}, {1})}};
  PlatformOptions o = u250();
  o.limitMs = 0.2;
  const PlatformRun run = onPlatform(c, o);
  EXPECT_FALSE(run.status.isOk());
  EXPECT_NE(run.status.message().find("did not finish"), std::string::npos) << run.status.message();
  EXPECT_FALSE(run.report.has_value());
}

}  // namespace
}  // namespace nnfab::sim::test
