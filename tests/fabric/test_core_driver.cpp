// CoreDriver on the hls device: the fabric loop watchdog and EXEC_BUDGET
// through the registers, the host watchdog in wall time (loop timeout,
// deadline), a core that ignores PREEMPT or hangs, reset of a running loop,
// and that the device always serves the next run.
#include <gtest/gtest.h>

#include <thread>
#include <chrono>

#include "fabric/core_status.h"
#include "fabric/fabric_test_util.h"
#include "fabric/soft_reset.h"

namespace nnfab::fabric::test {
namespace {

using namespace std::chrono_literals;
using std::chrono::steady_clock;

// A short program that must work after whatever happened before.
void expectHealthy(HlsBackend& backend) {
  const Asm a = counterLoop(1000);
  const Outcome out = runOn(backend, a.code, {}, 64);
  EXPECT_CORE_STATUS(out, isa::kStatusDONE);
  EXPECT_TRUE(out.report.status.isOk()) << out.report.status.message();
  EXPECT_EQ(word(out.data, 0), 1000);
  EXPECT_NE(backend.readRegister(isa::kRegAP_CTRL) & isa::kAP_IDLE, 0u);
}

TEST(CoreDriver, CyclesFor) {
  EXPECT_EQ(cyclesFor(0ns, 300), 0u);
  EXPECT_EQ(cyclesFor(1ns, 300), 1u);  // never 0: that would disable the budget
  EXPECT_EQ(cyclesFor(1ms, 300), 300000u);
  EXPECT_EQ(cyclesFor(2s, 250), 500000000u);
  EXPECT_EQ(cyclesFor(std::chrono::nanoseconds::max(), 1e6), std::numeric_limits<uint64_t>::max());
}

TEST(CoreDriver, StatusMappingComesFromTheIsaTable) {
  EXPECT_EQ(nnapiStatusOf(isa::kStatusDONE), ErrorStatus::NONE);
  EXPECT_EQ(nnapiStatusOf(isa::kStatusPREEMPTED), ErrorStatus::NONE);
  EXPECT_EQ(nnapiStatusOf(isa::kStatusLOOP_TIMEOUT), ErrorStatus::MISSED_DEADLINE_TRANSIENT);
  EXPECT_EQ(nnapiStatusOf(isa::kStatusEXEC_TIMEOUT), ErrorStatus::MISSED_DEADLINE_TRANSIENT);
  EXPECT_EQ(nnapiStatusOf(isa::kStatusACCESS_FAULT), ErrorStatus::GENERAL_FAILURE);
  EXPECT_EQ(nnapiStatusOf(isa::kNumStatuses), ErrorStatus::GENERAL_FAILURE);
  EXPECT_EQ(coreStatusName(isa::kStatusBAD_CONTEXT), "BAD_CONTEXT");
  EXPECT_EQ(coreStatusName(99), "status 99");
}

TEST(CoreDriver, FabricLoopWatchdogThroughTheRegisters) {
  // loopTimeout 1 us = LOOP_BUDGET 300 cycles: the fabric watchdog fires long
  // before the host's 1 ms poll can.
  RunLimits limits;
  limits.loopTimeout = 1us;
  const Outcome out = run(infiniteLoop(), {}, 64, limits);
  EXPECT_CORE_STATUS(out, isa::kStatusLOOP_TIMEOUT);
  EXPECT_EQ(out.report.status.code(), ErrorStatus::MISSED_DEADLINE_TRANSIENT);
  // wdarm retires at load + 1; the loop body costs 2 cycles per iteration.
  const uint64_t loopStart = programLoadCycles(3);
  EXPECT_GT(out.report.cycles - loopStart, 300u);
  EXPECT_LE(out.report.cycles - loopStart, 302u);
}

TEST(CoreDriver, LoopTimeoutOnAnInfiniteLoopIsEnforcedInWallTime) {
  HlsBackend backend(smallDevice());
  RunLimits limits;
  limits.loopTimeout = 50ms;
  const auto start = steady_clock::now();
  const Outcome out = runOn(backend, infiniteLoop().code, {}, 64, limits);
  const auto elapsed = steady_clock::now() - start;
  EXPECT_EQ(out.report.status.code(), ErrorStatus::MISSED_DEADLINE_TRANSIENT) << out.report.status.message();
  // Whichever watchdog fired, the run took about the loop timeout, not more.
  EXPECT_GE(elapsed, 40ms);
  EXPECT_LT(elapsed, 2s);
  expectHealthy(backend);
}

TEST(CoreDriver, ExecBudgetThroughTheRegisters) {
  // EXEC_BUDGET 5000 on a 1-cycle loop, across slices of 1000 instructions:
  // the core stops when CYCLES reaches the budget, wherever the slices fell.
  HlsBackend backend(smallDevice(/*slice=*/1000));
  Asm a;
  a.emit(insn::jmp(0));
  Result<DeviceProgram> p = DeviceProgram::load(backend, a.code, {}, 64);
  ASSERT_TRUE(p.isOk());
  const LoadedProgram& l = p->loaded();
  writeProgramRegisters(backend, l);
  writeRegister64(backend, isa::kRegEXEC_BUDGET, 5000);
  backend.writeRegister(isa::kRegAP_CTRL, isa::kAP_START);
  ASSERT_EQ(backend.waitDone(5s), WaitOutcome::DONE);
  EXPECT_EQ(backend.readRegister(isa::kRegSTATUS), isa::kStatusEXEC_TIMEOUT);
  EXPECT_EQ(readRegister64(backend, isa::kRegCYCLES), 5000u);
  EXPECT_GE(backend.slicesRun(), 5u);
}

// Runs `a` with a deadline `in` from the moment the program is loaded.
RunReport runWithDeadlineIn(HlsBackend& backend, const Asm& a, std::chrono::nanoseconds in) {
  Result<DeviceProgram> p = DeviceProgram::load(backend, a.code, {}, 64);
  EXPECT_TRUE(p.isOk());
  if (!p) return {};
  CoreDriver driver(backend);
  RunLimits limits;
  limits.deadline = steady_clock::now() + in;
  Result<RunReport> r = driver.run(p->loaded(), limits);
  EXPECT_TRUE(r.isOk()) << r.status().message();
  return r ? *r : RunReport{};
}

TEST(CoreDriver, DeadlineBecomesExecBudget) {
  // A deadline 3 ms away is EXEC_BUDGET ~900,000 cycles: whichever of the
  // fabric budget and the host's wall-clock check comes first, the run
  // misses its deadline, transiently.
  HlsBackend backend(smallDevice());
  Asm a;
  a.emit(insn::jmp(0));
  const RunReport r = runWithDeadlineIn(backend, a, 3ms);
  EXPECT_EQ(r.status.code(), ErrorStatus::MISSED_DEADLINE_TRANSIENT) << r.status.message();
  if (r.coreStatus == isa::kStatusEXEC_TIMEOUT) {
    EXPECT_LE(r.cycles, 900000u);
  } else {
    EXPECT_EQ(r.coreStatus, isa::kStatusPREEMPTED);
  }
}

TEST(CoreDriver, DeadlineOnAnUnwatchedLoopIsEnforcedInWallTime) {
  HlsBackend backend(smallDevice());
  const auto start = steady_clock::now();
  // No WDARM: only the deadline can stop it. EXEC_BUDGET is 15M cycles, so
  // in C-simulation the host's wall-clock check usually fires first.
  const RunReport r = runWithDeadlineIn(backend, infiniteLoop(false), 50ms);
  EXPECT_EQ(r.status.code(), ErrorStatus::MISSED_DEADLINE_TRANSIENT) << r.status.message();
  EXPECT_LT(steady_clock::now() - start, 2s);
  expectHealthy(backend);
}

TEST(CoreDriver, DeadlineAlreadyPassed) {
  HlsBackend backend(smallDevice());
  Result<DeviceProgram> p = DeviceProgram::load(backend, counterLoop(10).code, {}, 64);
  ASSERT_TRUE(p.isOk());
  CoreDriver driver(backend);
  RunLimits limits;
  limits.deadline = steady_clock::now() - 1ms;
  const Result<RunReport> r = driver.run(p->loaded(), limits);
  ASSERT_FALSE(r.isOk());
  EXPECT_EQ(r.status().code(), ErrorStatus::MISSED_DEADLINE_PERSISTENT);
  EXPECT_EQ(backend.slicesRun(), 0u);  // never started
}

TEST(CoreDriver, CoreIgnoringPreemptIsResetAfterTheGrace) {
  HlsBackend backend(smallDevice());
  backend.injectFault(backends::InjectedFault::IGNORE_PREEMPT);
  RunLimits limits;
  limits.loopTimeout = 30ms;
  limits.preemptGrace = 50ms;
  const auto start = steady_clock::now();
  std::vector<uint8_t> image;
  const Asm loop = slowLoop(1u << 16, &image);
  const Outcome out = runOn(backend, loop.code, image, image.size(), limits);
  EXPECT_EQ(out.report.status.code(), ErrorStatus::MISSED_DEADLINE_TRANSIENT) << out.report.status.message();
  EXPECT_NE(out.report.status.message().find("reset"), std::string::npos) << out.report.status.message();
  // The register soft reset ended it (the core still sees SOFT_RESET_KEY).
  EXPECT_EQ(out.report.status.message().find("did not complete"), std::string::npos) << out.report.status.message();
  EXPECT_EQ(out.report.coreStatus, isa::kStatusIDLE);
  EXPECT_LT(steady_clock::now() - start, 2s);
  expectHealthy(backend);
}

TEST(CoreDriver, HungDeviceIsResetAndReported) {
  HlsBackend backend(smallDevice());
  backend.injectFault(backends::InjectedFault::HANG);
  RunLimits limits;
  limits.hangTimeout = 100ms;
  const auto start = steady_clock::now();
  const Outcome out = runOn(backend, counterLoop(10).code, {}, 64, limits);
  EXPECT_EQ(out.report.status.code(), ErrorStatus::GENERAL_FAILURE);
  EXPECT_NE(out.report.status.message().find("did not respond"), std::string::npos)
      << out.report.status.message();
  // A HANG core never reaches an instruction boundary: the soft reset cannot
  // complete, and the backend's own reset ends it.
  EXPECT_NE(out.report.status.message().find("soft reset did not complete"), std::string::npos)
      << out.report.status.message();
  EXPECT_LT(steady_clock::now() - start, 2s);
  expectHealthy(backend);
}

// Starts a loaded program through the registers, as a host that then lost
// track of it would.
void startThroughRegisters(HlsBackend& backend, const LoadedProgram& l) {
  writeProgramRegisters(backend, l);
  backend.writeRegister(isa::kRegAP_CTRL, isa::kAP_START);
}

// The register soft reset on the hls device, as on sim (docs/register-map.md
// "Soft reset"): a running endless loop stops at its next instruction
// boundary; STATUS, counters and PREEMPT read 0, AP_DONE is not set, the
// host's arguments stay, and the next run is right.
TEST(CoreDriver, SoftResetStopsARunningLoopAndKeepsTheArguments) {
  HlsBackend backend(smallDevice(/*slice=*/1000));
  Result<DeviceProgram> p = DeviceProgram::load(backend, infiniteLoop(false).code, {}, 64);
  ASSERT_TRUE(p.isOk());
  const LoadedProgram& l = p->loaded();
  startThroughRegisters(backend, l);
  while (backend.slicesRun() < 3) std::this_thread::sleep_for(1ms);
  ASSERT_EQ(backend.readRegister(isa::kRegAP_CTRL) & isa::kAP_IDLE, 0u);
  backend.writeRegister(isa::kRegPREEMPT, isa::kSOFT_RESET_KEY ^ 0x100);  // not the key (nor a preemption request)
  std::this_thread::sleep_for(5ms);
  EXPECT_EQ(backend.readRegister(isa::kRegAP_CTRL) & isa::kAP_IDLE, 0u) << "a near-key must not reset";
  backend.writeRegister(isa::kRegPREEMPT, 0);
  EXPECT_TRUE(softReset(backend, 500ms));
  EXPECT_EQ(backend.readRegister(isa::kRegAP_CTRL), isa::kAP_IDLE);
  EXPECT_EQ(backend.readRegister(isa::kRegSTATUS), isa::kStatusIDLE);
  EXPECT_EQ(readRegister64(backend, isa::kRegINSTRET), 0u);
  EXPECT_EQ(readRegister64(backend, isa::kRegCYCLES), 0u);
  EXPECT_EQ(backend.readRegister(isa::kRegPREEMPT), 0u);
  EXPECT_EQ(readRegister64(backend, isa::kRegPROG_ADDR), l.program) << "the host's arguments stay";
  const uint64_t slices = backend.slicesRun();
  std::this_thread::sleep_for(20ms);
  EXPECT_EQ(backend.slicesRun(), slices) << "the core kept running after the soft reset";
  expectHealthy(backend);
}

TEST(CoreDriver, ResetStopsARunningInfiniteLoopWithinOneSlice) {
  HlsBackend backend(smallDevice(/*slice=*/1000));
  Result<DeviceProgram> p = DeviceProgram::load(backend, infiniteLoop(false).code, {}, 64);
  ASSERT_TRUE(p.isOk());
  startThroughRegisters(backend, p->loaded());
  while (backend.slicesRun() < 3) std::this_thread::sleep_for(1ms);
  EXPECT_EQ(backend.readRegister(isa::kRegAP_CTRL) & isa::kAP_IDLE, 0u);
  EXPECT_EQ(backend.waitDone(20ms), WaitOutcome::TIMED_OUT);
  const auto start = steady_clock::now();
  backend.reset();
  EXPECT_LT(steady_clock::now() - start, 500ms);
  EXPECT_NE(backend.readRegister(isa::kRegAP_CTRL) & isa::kAP_IDLE, 0u);
  EXPECT_EQ(backend.readRegister(isa::kRegSTATUS), isa::kStatusIDLE);
  EXPECT_EQ(backend.readRegister(isa::kRegPROG_ADDR), 0u);  // registers are back at their reset values
  const uint64_t slices = backend.slicesRun();
  std::this_thread::sleep_for(20ms);
  EXPECT_EQ(backend.slicesRun(), slices) << "the core kept running after reset";
  expectHealthy(backend);
}

TEST(CoreDriver, NextRunSucceedsAfterEveryKindOfFailure) {
  HlsBackend backend(smallDevice());
  Asm illegal;
  illegal.emit(insn::nop() | (uint64_t{1} << 31));
  EXPECT_CORE_STATUS(runOn(backend, illegal.code, {}, 64), isa::kStatusILLEGAL_INSTRUCTION);
  expectHealthy(backend);
  Asm fault;
  fault.emit(insn::ldw(1, 0, 64));
  EXPECT_CORE_STATUS(runOn(backend, fault.code, {}, 64), isa::kStatusACCESS_FAULT);
  expectHealthy(backend);
  RunLimits limits;
  limits.loopTimeout = 1us;
  EXPECT_CORE_STATUS(runOn(backend, infiniteLoop().code, {}, 64, limits), isa::kStatusLOOP_TIMEOUT);
  expectHealthy(backend);
}

}  // namespace
}  // namespace nnfab::fabric::test

namespace nnfab::fabric::test {
namespace {

// Passes everything to an hls backend and records how the driver reached
// the registers: one call per hand-off, and every access in order.
class RecordingBackend final : public FabricBackend {
 public:
  explicit RecordingBackend(HlsBackend& inner) : inner_(inner) {}
  std::string_view name() const override { return inner_.name(); }
  uint64_t memoryBytes() const override { return inner_.memoryBytes(); }
  double clockMhz() const override { return inner_.clockMhz(); }
  Result<DeviceAddress> allocate(uint64_t bytes) override { return inner_.allocate(bytes); }
  void release(DeviceAddress address) override { inner_.release(address); }
  Status copyToDevice(DeviceAddress dst, const void* src, uint64_t bytes) override {
    return inner_.copyToDevice(dst, src, bytes);
  }
  Status copyFromDevice(void* dst, DeviceAddress src, uint64_t bytes) override {
    return inner_.copyFromDevice(dst, src, bytes);
  }
  void writeRegister(uint32_t offset, uint32_t value) override {
    ++calls;
    accesses.push_back({RegisterAccess::Kind::WRITE, offset, value});
    inner_.writeRegister(offset, value);
  }
  uint32_t readRegister(uint32_t offset) override {
    ++calls;
    accesses.push_back({RegisterAccess::Kind::READ, offset, 0});
    return inner_.readRegister(offset);
  }
  void accessRegisters(std::span<RegisterAccess> batch) override {
    ++calls;
    accesses.insert(accesses.end(), batch.begin(), batch.end());
    inner_.accessRegisters(batch);
  }
  WaitOutcome waitDone(std::chrono::nanoseconds timeout) override { return inner_.waitDone(timeout); }
  void reset() override { inner_.reset(); }

  uint64_t calls = 0;
  std::vector<RegisterAccess> accesses;

 private:
  HlsBackend& inner_;
};

// Issue 15: a run reaches the registers in three round trips (is the core
// idle; set-up and start; status, counters and PREEMPT cleared), with every
// access of the register protocol still made, in its order.
TEST(CoreDriver, ARunReachesTheRegistersInThreeRoundTrips) {
  HlsBackend hls(smallDevice());
  RecordingBackend backend(hls);
  const Asm a = counterLoop(100);
  Result<DeviceProgram> p = DeviceProgram::load(backend, a.code, {}, 64);
  ASSERT_TRUE(p.isOk()) << p.status().message();
  CoreDriver driver(backend);
  RunLimits limits;
  limits.pollInterval = 10s;  // a 100-iteration loop ends long before the first poll
  Result<RunReport> r = driver.run(p->loaded(), limits);
  ASSERT_TRUE(r.isOk()) << r.status().message();
  EXPECT_EQ(r->coreStatus, isa::kStatusDONE);
  EXPECT_EQ(r->iterations, 99u);
  EXPECT_EQ(backend.calls, 3u);

  using K = RegisterAccess::Kind;
  const std::vector<std::pair<K, uint32_t>> expected = {
      {K::READ, isa::kRegAP_CTRL},
      {K::WRITE, isa::kRegPROG_ADDR}, {K::WRITE, isa::kRegPROG_ADDR + 4},
      {K::WRITE, isa::kRegDATA_ADDR}, {K::WRITE, isa::kRegDATA_ADDR + 4},
      {K::WRITE, isa::kRegCTX_ADDR}, {K::WRITE, isa::kRegCTX_ADDR + 4},
      {K::WRITE, isa::kRegSRCB_ADDR}, {K::WRITE, isa::kRegSRCB_ADDR + 4},
      {K::WRITE, isa::kRegDST_ADDR}, {K::WRITE, isa::kRegDST_ADDR + 4},
      {K::WRITE, isa::kRegPROG_SIZE}, {K::WRITE, isa::kRegDATA_SIZE},
      {K::WRITE, isa::kRegSRCB_START}, {K::WRITE, isa::kRegDST_START}, {K::WRITE, isa::kRegMODE},
      {K::WRITE, isa::kRegINSN_LIMIT},
      {K::WRITE, isa::kRegLOOP_BUDGET}, {K::WRITE, isa::kRegLOOP_BUDGET + 4},
      {K::WRITE, isa::kRegEXEC_BUDGET}, {K::WRITE, isa::kRegEXEC_BUDGET + 4},
      {K::WRITE, isa::kRegPREEMPT}, {K::WRITE, isa::kRegAP_CTRL},
      {K::READ, isa::kRegAP_CTRL}, {K::READ, isa::kRegSTATUS}, {K::READ, isa::kRegHALT_PC},
      {K::READ, isa::kRegFAULT_INFO},
      {K::READ, isa::kRegCYCLES}, {K::READ, isa::kRegCYCLES + 4},
      {K::READ, isa::kRegITERATIONS}, {K::READ, isa::kRegITERATIONS + 4},
      {K::READ, isa::kRegINSTRET}, {K::READ, isa::kRegINSTRET + 4},
      {K::WRITE, isa::kRegPREEMPT},
  };
  ASSERT_EQ(backend.accesses.size(), expected.size());
  for (size_t i = 0; i < expected.size(); ++i) {
    EXPECT_EQ(backend.accesses[i].kind, expected[i].first) << "access " << i;
    EXPECT_EQ(backend.accesses[i].offset, expected[i].second) << "access " << i;
  }
  EXPECT_EQ(backend.accesses[22].value, isa::kAP_START);
  // The batched reads were filled in: the report's counters came from them.
  EXPECT_EQ(r->cycles, readRegister64(hls, isa::kRegCYCLES));
}

TEST(RegisterBatch, ReadsAndWritesInOrder) {
  HlsBackend backend(smallDevice());
  RegisterBatch batch;
  batch.write(isa::kRegINSN_LIMIT, 1234);
  const size_t limitAt = batch.read(isa::kRegINSN_LIMIT);
  const size_t idAt = batch.read(isa::kRegID);
  batch.write64(isa::kRegLOOP_BUDGET, 0x1122334455667788ull);
  const size_t budgetAt = batch.read64(isa::kRegLOOP_BUDGET);
  batch.run(backend);
  EXPECT_EQ(batch.value(limitAt), 1234u);
  EXPECT_EQ(batch.value(idAt), isa::kCORE_ID);
  EXPECT_EQ(batch.value64(budgetAt), 0x1122334455667788ull);
}

}  // namespace
}  // namespace nnfab::fabric::test
