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
#include <map>
#include <random>
#include <set>
#include <sstream>

#include "backends/sim_backend.h"
#include "backends/xrt_backend.h"
#include "fabric/fabric_test_util.h"
#include "fabric/soft_reset.h"
#include "model/json_io.h"
#include "runtime/device.h"
#include "runtime/fabric_device.h"
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

// The emulated card has three banks every data port reaches (docs/xrt-emu.md):
// the windows of a data region land one in each, inside the bank chosen for
// it, and hold what is copied there.
TEST(XrtEmuFabric, TheWindowsOfTheDataRegionLandInThreeBanks) {
  const backends::XclbinCheck& check = emu().xclbin();
  EXPECT_EQ(check.windows.distinct(), 3);
  std::vector<int32_t> banks;
  for (const DataWindow w : {DataWindow::A, DataWindow::B, DataWindow::D}) {
    Result<DeviceAddress> a = emu().allocateWindow(4096, w);
    ASSERT_TRUE(a.isOk()) << a.status().message();
    const backends::XrtMemory* bank = check.memory(check.windows.of(w));
    ASSERT_NE(bank, nullptr);
    EXPECT_GE(*a, bank->base) << bank->tag;
    EXPECT_LE(*a + 4096, bank->base + bank->bytes) << bank->tag;
    banks.push_back(bank->index);
    std::vector<uint8_t> in(4096), out(4096);
    for (size_t i = 0; i < in.size(); ++i) in[i] = static_cast<uint8_t>(i * 7 + banks.size());
    ASSERT_TRUE(emu().copyToDevice(*a, in.data(), in.size()).isOk());
    ASSERT_TRUE(emu().copyFromDevice(out.data(), *a, out.size()).isOk());
    EXPECT_TRUE(in == out) << bank->tag;
    emu().release(*a);
  }
  EXPECT_NE(banks[0], banks[1]);
  EXPECT_NE(banks[0], banks[2]);
  EXPECT_NE(banks[1], banks[2]);
  // Everything else (program, context) goes with window A.
  Result<DeviceAddress> other = emu().allocate(64);
  ASSERT_TRUE(other.isOk());
  const backends::XrtMemory* a = check.memory(check.windows.a);
  EXPECT_TRUE(*other >= a->base && *other < a->base + a->bytes);
  emu().release(*other);
  EXPECT_NE(emu().description().find("window A in HBM[0], B in HBM[1], D in HBM[2]"), std::string::npos)
      << emu().description();
}

// The card, forwarding everything, remembering in which bank each buffer
// the runtime allocates lies (by window: A for allocate() as well).
class WindowRecordingCard final : public FabricBackend {
 public:
  struct Allocation {
    DataWindow window;
    bool viaWindow;  // allocateWindow, not allocate
    uint64_t bytes;
    int32_t bank;    // memory index holding it, -1: none
  };

  WindowRecordingCard(backends::XrtBackend& card, std::vector<Allocation>* log) : card_(card), log_(log) {}
  std::string_view name() const override { return card_.name(); }
  uint64_t memoryBytes() const override { return card_.memoryBytes(); }
  double clockMhz() const override { return card_.clockMhz(); }
  Result<DeviceAddress> allocate(uint64_t bytes) override { return record(card_.allocate(bytes), bytes, DataWindow::A, false); }
  Result<DeviceAddress> allocateHigh(uint64_t bytes) override {
    return record(card_.allocateHigh(bytes), bytes, DataWindow::A, false);
  }
  Result<DeviceAddress> allocateWindow(uint64_t bytes, DataWindow window) override {
    return record(card_.allocateWindow(bytes, window), bytes, window, true);
  }
  void release(DeviceAddress address) override { card_.release(address); }
  Status copyToDevice(DeviceAddress dst, const void* src, uint64_t bytes) override {
    return card_.copyToDevice(dst, src, bytes);
  }
  Status copyFromDevice(void* dst, DeviceAddress src, uint64_t bytes) override {
    return card_.copyFromDevice(dst, src, bytes);
  }
  void writeRegister(uint32_t offset, uint32_t value) override { card_.writeRegister(offset, value); }
  uint32_t readRegister(uint32_t offset) override { return card_.readRegister(offset); }
  WaitOutcome waitDone(std::chrono::nanoseconds timeout) override { return card_.waitDone(timeout); }
  void wakeWaiter() override { card_.wakeWaiter(); }
  void reset() override { card_.reset(); }

 private:
  Result<DeviceAddress> record(Result<DeviceAddress> a, uint64_t bytes, DataWindow window, bool viaWindow) {
    if (a.isOk()) {
      int32_t bank = -1;
      for (const backends::XrtMemory& m : card_.xclbin().memories) {
        if (*a >= m.base && *a + bytes <= m.base + m.bytes) bank = m.index;
      }
      log_->push_back({window, viaWindow, bytes, bank});
    }
    return a;
  }
  backends::XrtBackend& card_;
  std::vector<Allocation>* log_;
};

// A data region of three windows on the emulated card (docs/isa.md "Memory
// model"), loaded by DeviceProgram and run by CoreDriver: the vector engine
// reads A from window A (HBM[0]) and B from window B (HBM[1]) and writes
// the result in window D (HBM[2]). The sums are computed here on the CPU;
// the same program over one buffer gives the same bytes and CYCLES.
TEST(XrtEmuFabric, AVectorAddOverWindowsInThreeBanksGivesTheCpuSums) {
  constexpr uint32_t n = 3000, kSrcbStart = 0x4000, kDstStart = 0x8000, kSize = 0xC000;
  constexpr uint32_t kA = 0x40, kB = kSrcbStart + 0x80, kSum = kDstStart + 0x40;
  std::vector<uint8_t> image(kSize, 0);
  std::vector<int32_t> descriptor(16, 0);
  descriptor[0] = descriptor[1] = descriptor[2] = 1;
  descriptor[3] = n;
  descriptor[7] = descriptor[11] = 1;  // unit strides of A and B
  put(image, 0, descriptor);
  std::vector<int32_t> a(n), b(n);
  for (uint32_t i = 0; i < n; ++i) {
    a[i] = static_cast<int32_t>(i * 2654435761u);
    b[i] = static_cast<int32_t>(0x7FFFFF00u - i * 40503u);
  }
  put(image, kA, a);
  put(image, kB, b);
  Asm p;
  p.emit(insn::li(1, kSum));
  p.emit(insn::li(2, kA));
  p.emit(insn::li(3, kB));
  p.emit(insn::tensor(isa::kFnADD, isa::kTypeINT32, 1, 2, 3, 0, 0));
  p.emit(insn::halt());

  std::vector<WindowRecordingCard::Allocation> log;
  WindowRecordingCard card(emu(), &log);
  const Outcome w = runOn(card, p.code, image, kSize, {}, WindowStarts{kSrcbStart, kDstStart});
  ASSERT_TRUE(w.report.completed()) << w.report.status.message();
  std::map<DataWindow, int32_t> bankOf;
  for (const auto& allocation : log) {
    if (allocation.viaWindow) bankOf[allocation.window] = allocation.bank;
  }
  ASSERT_EQ(bankOf.size(), 3u) << "DeviceProgram allocated no buffer for some window";
  EXPECT_NE(bankOf[DataWindow::A], bankOf[DataWindow::B]);
  EXPECT_NE(bankOf[DataWindow::A], bankOf[DataWindow::D]);
  EXPECT_NE(bankOf[DataWindow::B], bankOf[DataWindow::D]);
  const std::vector<int32_t> sum = get<int32_t>(w.data, kSum, n);
  for (uint32_t i = 0; i < n; ++i) {
    ASSERT_EQ(sum[i], static_cast<int32_t>(static_cast<uint32_t>(a[i]) + static_cast<uint32_t>(b[i])))
        << "element " << i;
  }
  const Outcome one = runOn(emu(), p.code, image, kSize);
  ASSERT_TRUE(one.report.completed()) << one.report.status.message();
  EXPECT_TRUE(one.data == w.data) << "one buffer and three windows differ";
  EXPECT_EQ(one.report.cycles, w.report.cycles);
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
  // The next run fails at once with the same advice (FabricBackend::usable),
  // not after another hang timeout.
  const auto again = std::chrono::steady_clock::now();
  Result<RunReport> next = driver.run(p->loaded(), limits);
  EXPECT_LT(std::chrono::steady_clock::now() - again, limits.hangTimeout);
  ASSERT_FALSE(next.isOk());
  EXPECT_EQ(next.status().code(), ErrorStatus::DEVICE_UNAVAILABLE);
  EXPECT_NE(next.status().message().find("xbutil reset"), std::string::npos) << next.status().message();
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

// Issue 15 end to end: a model's vector ADD through the runtime (the
// compiler puts its B input in window B and its result in window D;
// DeviceProgram allocates each window; CoreDriver writes the window
// registers) on the emulated card: windows A, B and D in three different
// banks, and the outputs bit-equal to the cpu device's.
TEST(XrtEmuFabric, AModelsVectorAddRunsWithItsWindowsInThreeBanksAndEqualsCpu) {
  constexpr uint32_t rows = 48, cols = 64;
  testing::SubgraphBuilder main;
  const uint32_t x = main.input(OperandType::TENSOR_INT32, {rows, cols});
  const uint32_t y = main.input(OperandType::TENSOR_INT32, {rows, cols});
  const uint32_t sum = main.output(OperandType::TENSOR_INT32, {rows, cols});
  main.op(OperationType::ADD, {x, y, main.scalar(0)}, {sum});
  Model model;
  model.main = main.build();
  std::vector<int32_t> a(rows * cols), b(rows * cols);
  for (uint32_t i = 0; i < a.size(); ++i) {
    a[i] = static_cast<int32_t>(i * 2654435761u);
    b[i] = static_cast<int32_t>(0x7FFFFF00u - i * 40503u);
  }
  const std::vector<TensorValue> inputs = {testing::int32s({rows, cols}, a), testing::int32s({rows, cols}, b)};

  std::vector<WindowRecordingCard::Allocation> log;
  FabricDevice device(
      "xrt-emu-windows", "the emulated card, its allocations recorded", isa::kNOMINAL_CLOCK_MHZ,
      [&log]() -> std::unique_ptr<FabricBackend> { return std::make_unique<WindowRecordingCard>(emu(), &log); },
      runtime::EngineOptions{}, std::nullopt, [] { return emu().readRegister(isa::kRegFEATURES); });
  const ExecutionResult cpu = runOnDevice(*findDevice("cpu"), model, inputs);
  const ExecutionResult card = runOnDevice(device, model, inputs);
  ASSERT_TRUE(card.status.isOk()) << card.status.message();
  ASSERT_EQ(card.outputs.size(), 1u);
  EXPECT_EQ(testing::compareOutput(cpu.outputs[0], card.outputs[0], /*relaxed=*/false), "");

  const backends::XrtWindowBanks& banks = emu().xclbin().windows;
  std::map<DataWindow, std::set<int32_t>> seen;
  for (const auto& allocation : log) {
    EXPECT_NE(allocation.bank, -1) << "an allocation outside every bank";
    seen[allocation.window].insert(allocation.bank);
  }
  ASSERT_TRUE(seen.count(DataWindow::B) && seen.count(DataWindow::D))
      << "the runtime allocated no window B or D: the ADD's operand and result are not in their windows";
  EXPECT_EQ(seen[DataWindow::A], std::set<int32_t>{banks.a});
  EXPECT_EQ(seen[DataWindow::B], std::set<int32_t>{banks.b});
  EXPECT_EQ(seen[DataWindow::D], std::set<int32_t>{banks.d});
  EXPECT_EQ(banks.distinct(), 3);
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
