// The hls device's AXI4-Lite window against docs/register-map.md: the
// ap_ctrl_hs handshake (AP_START accepted, AP_IDLE, AP_DONE and AP_READY
// clear-on-read), interrupt registers, read-only registers, PREEMPT cleared
// at the stop, live counters and WATCHDOG_STATE while the core runs.
#include <gtest/gtest.h>

#include <chrono>
#include <thread>
#include <vector>

#include "fabric/fabric_test_util.h"
#include "nnfab_isa_names.h"

namespace nnfab::fabric::test {
namespace {

using namespace std::chrono_literals;

struct Loaded {
  HlsBackend backend{smallDevice(/*slice=*/1000)};
  std::optional<DeviceProgram> program;

  explicit Loaded(const Asm& a) {
    Result<DeviceProgram> p = DeviceProgram::load(backend, a.code, {}, 64);
    EXPECT_TRUE(p.isOk());
    if (p) program.emplace(std::move(*p));
  }
  void start(uint32_t mode = 0) {
    const LoadedProgram& l = program->loaded();
    writeProgramRegisters(backend, l);
    backend.writeRegister(isa::kRegMODE, mode);
    backend.writeRegister(isa::kRegAP_CTRL, isa::kAP_START);
  }
};

TEST(Registers, ApCtrlHsHandshake) {
  Loaded d(counterLoop(100));
  HlsBackend& b = d.backend;
  EXPECT_EQ(b.readRegister(isa::kRegAP_CTRL), isa::kAP_IDLE);  // after reset: idle, nothing done
  EXPECT_EQ(b.readRegister(isa::kRegSTATUS), isa::kStatusIDLE);
  EXPECT_EQ(b.waitDone(1ms), WaitOutcome::TIMED_OUT);
  d.start();
  ASSERT_EQ(b.waitDone(5s), WaitOutcome::DONE);
  EXPECT_EQ(b.waitDone(0ns), WaitOutcome::DONE);  // waiting does not consume AP_DONE
  const uint32_t ctrl = b.readRegister(isa::kRegAP_CTRL);
  EXPECT_EQ(ctrl, isa::kAP_DONE | isa::kAP_READY | isa::kAP_IDLE);  // AP_START was accepted (cleared)
  EXPECT_EQ(b.readRegister(isa::kRegAP_CTRL), isa::kAP_IDLE);        // DONE and READY cleared on read
  EXPECT_EQ(b.waitDone(1ms), WaitOutcome::TIMED_OUT);
  EXPECT_EQ(b.readRegister(isa::kRegSTATUS), isa::kStatusDONE);
  EXPECT_EQ(b.readRegister(isa::kRegITERATIONS), 99u);
  EXPECT_EQ(b.readRegister(isa::kRegID), isa::kCORE_ID);
  EXPECT_EQ(b.readRegister(isa::kRegISA_VERSION), isa::kIsaVersion);
}

// A short program ends inside the AP_START write (the writer's thread runs
// the first inlineInstructions), so it is done before anyone waits; the
// handshake is the same as for a start the worker runs.
TEST(Registers, ShortStartCompletesWithinTheStartWrite) {
  Loaded d(counterLoop(100));  // ~200 instructions, below inlineInstructions
  HlsBackend& b = d.backend;
  d.start();
  EXPECT_EQ(b.waitDone(0ns), WaitOutcome::DONE);
  EXPECT_EQ(b.readRegister(isa::kRegAP_CTRL), isa::kAP_DONE | isa::kAP_READY | isa::kAP_IDLE);
  EXPECT_EQ(b.readRegister(isa::kRegSTATUS), isa::kStatusDONE);
  EXPECT_EQ(b.readRegister(isa::kRegITERATIONS), 99u);
}

// A long program runs its first instructions inline and the rest on the
// worker, with the same counters as a start the worker runs whole.
TEST(Registers, LongStartContinuesOnTheWorkerWithTheSameCounters) {
  uint64_t cycles[2] = {0, 0};
  for (uint32_t inlineInstructions : {0u, 4096u}) {
    HlsBackendOptions options = smallDevice(/*slice=*/1000);
    options.inlineInstructions = inlineInstructions;
    HlsBackend b(options);
    Result<DeviceProgram> p = DeviceProgram::load(b, counterLoop(20000).code, {}, 64);
    ASSERT_TRUE(p.isOk());
    const LoadedProgram& l = p->loaded();
    writeProgramRegisters(b, l);
    b.writeRegister(isa::kRegAP_CTRL, isa::kAP_START);
    ASSERT_EQ(b.waitDone(5s), WaitOutcome::DONE);
    EXPECT_EQ(b.readRegister(isa::kRegSTATUS), isa::kStatusDONE);
    EXPECT_EQ(readRegister64(b, isa::kRegITERATIONS), 19999u);
    EXPECT_GT(b.slicesRun(), 20u);  // 40,000 instructions in slices of 1,000
    cycles[inlineInstructions == 0 ? 0 : 1] = readRegister64(b, isa::kRegCYCLES);
  }
  EXPECT_EQ(cycles[0], cycles[1]);
}

TEST(Registers, ReadOnlyRegistersIgnoreWritesAndArgumentsReadBack) {
  Loaded d(counterLoop(10));
  HlsBackend& b = d.backend;
  for (uint32_t reg : {isa::kRegSTATUS, isa::kRegHALT_PC, isa::kRegFAULT_INFO, isa::kRegCYCLES,
                       isa::kRegWATCHDOG_STATE, isa::kRegID, isa::kRegISA_VERSION, isa::kRegFEATURES}) {
    const uint32_t before = b.readRegister(reg);
    b.writeRegister(reg, 0x5A5A5A5A);
    EXPECT_EQ(b.readRegister(reg), before) << isa::registerName(reg);
  }
  writeRegister64(b, isa::kRegLOOP_BUDGET, 0x123456789ABCull);
  EXPECT_EQ(readRegister64(b, isa::kRegLOOP_BUDGET), 0x123456789ABCull);
  b.writeRegister(isa::kRegINSN_LIMIT, 77);
  EXPECT_EQ(b.readRegister(isa::kRegINSN_LIMIT), 77u);
  writeRegister64(b, isa::kRegTRACE_ADDR, 0xABCDEF012340ull);
  EXPECT_EQ(readRegister64(b, isa::kRegTRACE_ADDR), 0xABCDEF012340ull);
  // The map's former gap is FEATURES: the HLS core executes FLOAT32 and FC,
  // has the trace ring and writes it to TRACE_ADDR.
  EXPECT_EQ(b.readRegister(isa::kRegFEATURES),
            isa::kFEATURE_FLOAT32 | isa::kFEATURE_FC | isa::kFEATURE_TRACE | isa::kFEATURE_TRACE_DMA |
                isa::kFEATURE_TRACE_HEADER);
  EXPECT_EQ(b.readRegister(0x200), 0u);  // outside the window
  b.writeRegister(0x200, 1);
}

// HlsBackend::accessRegisters holds its lock over each run of reads: a
// batch reads and writes exactly as the single calls do, in order (a write
// between reads is seen by the reads after it, AP_DONE clears on its read).
TEST(Registers, ABatchActsAsTheSingleAccessesInOrder) {
  Loaded d(counterLoop(10));
  HlsBackend& b = d.backend;
  d.start();
  ASSERT_EQ(b.waitDone(5s), WaitOutcome::DONE);
  std::vector<RegisterAccess> batch = {
      {RegisterAccess::Kind::READ, isa::kRegAP_CTRL, 0},      {RegisterAccess::Kind::READ, isa::kRegAP_CTRL, 0},
      {RegisterAccess::Kind::READ, isa::kRegINSN_LIMIT, 0},   {RegisterAccess::Kind::WRITE, isa::kRegINSN_LIMIT, 41},
      {RegisterAccess::Kind::READ, isa::kRegINSN_LIMIT, 0},   {RegisterAccess::Kind::READ, isa::kRegCYCLES, 0},
      {RegisterAccess::Kind::READ, isa::kRegFEATURES, 0},     {RegisterAccess::Kind::READ, 0x201, 0}};
  b.writeRegister(isa::kRegINSN_LIMIT, 7);
  b.accessRegisters(batch);
  EXPECT_NE(batch[0].value & isa::kAP_DONE, 0u);
  EXPECT_EQ(batch[1].value & isa::kAP_DONE, 0u);  // cleared by the read before
  EXPECT_EQ(batch[2].value, 7u);
  EXPECT_EQ(batch[4].value, 41u);
  EXPECT_EQ(batch[5].value, b.readRegister(isa::kRegCYCLES));
  EXPECT_NE(batch[5].value, 0u);
  EXPECT_EQ(batch[6].value, b.readRegister(isa::kRegFEATURES));
  EXPECT_EQ(batch[7].value, 0u);  // unaligned
}

TEST(Registers, InterruptStatusFollowsIerAndToggles) {
  Loaded d(counterLoop(10));
  HlsBackend& b = d.backend;
  b.writeRegister(isa::kRegGIE, 0xFFFFFFFF);
  EXPECT_EQ(b.readRegister(isa::kRegGIE), 1u);
  b.writeRegister(isa::kRegIER, 0x1);  // done only
  d.start();
  ASSERT_EQ(b.waitDone(5s), WaitOutcome::DONE);
  EXPECT_EQ(b.readRegister(isa::kRegISR), 0x1u);
  b.writeRegister(isa::kRegISR, 0x1);  // toggle to clear
  EXPECT_EQ(b.readRegister(isa::kRegISR), 0u);
  b.readRegister(isa::kRegAP_CTRL);
  b.writeRegister(isa::kRegIER, 0x3);
  d.start();
  ASSERT_EQ(b.waitDone(5s), WaitOutcome::DONE);
  EXPECT_EQ(b.readRegister(isa::kRegISR), 0x3u);
}

TEST(Registers, RunningCoreShowsLiveStateAndIgnoresASecondStart) {
  Loaded d(infiniteLoop());
  HlsBackend& b = d.backend;
  d.start();
  while (b.slicesRun() < 2) std::this_thread::sleep_for(1ms);
  EXPECT_EQ(b.readRegister(isa::kRegAP_CTRL) & (isa::kAP_IDLE | isa::kAP_DONE), 0u);
  const uint32_t state = b.readRegister(isa::kRegWATCHDOG_STATE);
  EXPECT_TRUE(watchdogArmed(state));
  EXPECT_EQ(watchdogArms(state), 1u);
  const uint64_t c1 = readRegister64(b, isa::kRegCYCLES);
  std::this_thread::sleep_for(5ms);
  EXPECT_GT(readRegister64(b, isa::kRegCYCLES), c1);
  const uint64_t slices = b.slicesRun();
  b.writeRegister(isa::kRegAP_CTRL, isa::kAP_START);  // ignored while running
  // PREEMPT stops it at a boundary; the core clears PREEMPT.
  b.writeRegister(isa::kRegPREEMPT, isa::kPreemptRequest);
  ASSERT_EQ(b.waitDone(5s), WaitOutcome::DONE);
  EXPECT_GE(b.slicesRun(), slices);
  EXPECT_EQ(b.readRegister(isa::kRegSTATUS), isa::kStatusPREEMPTED);
  EXPECT_EQ(b.readRegister(isa::kRegPREEMPT), 0u);
  EXPECT_EQ(b.readRegister(isa::kRegAP_CTRL), isa::kAP_DONE | isa::kAP_READY | isa::kAP_IDLE);
  std::this_thread::sleep_for(5ms);
  EXPECT_EQ(b.readRegister(isa::kRegAP_CTRL), isa::kAP_IDLE) << "the ignored start must not have been queued";
  // The saved context is where PREEMPT stopped it.
  uint32_t ctx[2];
  ASSERT_TRUE(b.copyFromDevice(ctx, d.program->loaded().context, sizeof(ctx)).isOk());
  EXPECT_EQ(ctx[isa::kCtxMAGIC], isa::kCONTEXT_MAGIC);
  EXPECT_EQ(ctx[isa::kCtxPC], b.readRegister(isa::kRegHALT_PC));
}

}  // namespace
}  // namespace nnfab::fabric::test

namespace nnfab::fabric::test {
namespace {

// Issue 15: wakeWaiter ends a waitDone that is blocked on a running core
// (TIMED_OUT, the core still running) long before its timeout; a finished
// run is still DONE.
TEST(Registers, WakeWaiterEndsAWaitAtOnce) {
  Loaded d(counterLoop(2000000000));
  HlsBackend& b = d.backend;
  d.start();
  std::thread waker([&b] {
    std::this_thread::sleep_for(50ms);
    b.wakeWaiter();
  });
  const auto start = std::chrono::steady_clock::now();
  const WaitOutcome outcome = b.waitDone(30s);
  const auto waited = std::chrono::steady_clock::now() - start;
  waker.join();
  EXPECT_EQ(outcome, WaitOutcome::TIMED_OUT);
  EXPECT_GE(waited, 40ms);
  EXPECT_LT(waited, 10s);
  EXPECT_EQ(b.readRegister(isa::kRegAP_CTRL) & isa::kAP_IDLE, 0u);  // still running
  b.reset();
  Loaded short_(counterLoop(10));
  short_.start();
  short_.backend.wakeWaiter();  // nobody waits: no effect on the next wait
  EXPECT_EQ(short_.backend.waitDone(5s), WaitOutcome::DONE);
}

}  // namespace
}  // namespace nnfab::fabric::test

namespace nnfab::fabric::test {
namespace {

// Issue 15: a short start right after a long run still completes inside the
// AP_START write. CYCLES holds the long run's count until the new start's
// first slice; the inline part once read it as its own and handed every
// start after a long (or preempted) run to the worker at once, so a HIGH
// step after a preemption waited for the worker's thread to get a CPU.
TEST(Registers, ShortStartAfterALongRunStillCompletesWithinTheStartWrite) {
  HlsBackend b(smallDevice(/*slice=*/1000));
  Result<DeviceProgram> longRun = DeviceProgram::load(b, counterLoop(20000).code, {}, 64);
  Result<DeviceProgram> shortRun = DeviceProgram::load(b, counterLoop(100).code, {}, 64);
  ASSERT_TRUE(longRun.isOk());
  ASSERT_TRUE(shortRun.isOk());
  auto start = [&b](const LoadedProgram& l) {
    writeProgramRegisters(b, l);
    b.writeRegister(isa::kRegAP_CTRL, isa::kAP_START);
  };
  start(longRun->loaded());
  ASSERT_EQ(b.waitDone(5s), WaitOutcome::DONE);
  ASSERT_GT(readRegister64(b, isa::kRegCYCLES), HlsBackendOptions{}.inlineCycles);
  (void)b.readRegister(isa::kRegAP_CTRL);  // collect AP_DONE
  start(shortRun->loaded());
  EXPECT_EQ(b.waitDone(0ns), WaitOutcome::DONE);
  EXPECT_EQ(b.readRegister(isa::kRegSTATUS), isa::kStatusDONE);
  EXPECT_EQ(b.readRegister(isa::kRegITERATIONS), 99u);
}

// Issue 15: requestPreempt, from a thread other than the driver's, stops a
// running core at its next instruction boundary as the host's PREEMPT
// write does (the scheduler's nudge uses it).
TEST(Registers, RequestPreemptStopsARunningCoreFromAnotherThread) {
  Loaded d(counterLoop(2000000000));
  HlsBackend& b = d.backend;
  d.start();
  std::thread other([&b] { EXPECT_TRUE(b.requestPreempt()); });
  other.join();
  ASSERT_EQ(b.waitDone(30s), WaitOutcome::DONE);
  EXPECT_EQ(b.readRegister(isa::kRegSTATUS), isa::kStatusPREEMPTED);
  EXPECT_EQ(b.readRegister(isa::kRegPREEMPT), 0u);  // cleared at the stop
}

}  // namespace
}  // namespace nnfab::fabric::test
