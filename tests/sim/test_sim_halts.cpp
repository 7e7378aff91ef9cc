// Every way the RTL core stops, through the device interface (CoreDriver on
// SimBackend), against the hls device where both can produce it.
#include <chrono>
#include <thread>

#include "sim/sim_test_util.h"

namespace nnfab::fabric::test {
namespace {

using namespace std::chrono_literals;
using std::chrono::steady_clock;

void expectHealthy(SimBackend& backend) {
  const Outcome ok = runOn(backend, counterLoop(5).code, {}, 64);
  EXPECT_CORE_STATUS(ok, isa::kStatusDONE);
  EXPECT_EQ(word(ok.data, 0), 5);
}

// Runs `a` on both backends and compares everything but CYCLES.
void expectSameOnBoth(const Asm& a, const std::vector<uint8_t>& image, uint64_t dataBytes, uint32_t status,
                      const RunLimits& limits = {}) {
  const Outcome h = run(a, image, dataBytes, limits);
  const Outcome s = runSim(a, image, dataBytes, limits);
  EXPECT_CORE_STATUS(s, status);
  expectSameArchitecture(h, s, "hls vs sim");
}

TEST(SimHalts, LoopWatchdogMatchesTheHlsCoreToTheCycle) {
  RunLimits limits;
  limits.loopTimeout = 1us;  // LOOP_BUDGET 300 cycles: long before the host's first poll
  const Outcome h = run(infiniteLoop(), {}, 64, limits);
  const Outcome s = runSim(infiniteLoop(), {}, 64, limits);
  EXPECT_CORE_STATUS(s, isa::kStatusLOOP_TIMEOUT);
  EXPECT_EQ(s.report.status.code(), ErrorStatus::MISSED_DEADLINE_TRANSIENT);
  expectSameArchitecture(h, s, "loop watchdog");
  EXPECT_EQ(s.report.cycles, h.report.cycles);
}

// Starts `a` through the registers with EXEC_BUDGET and waits for it.
void startWithBudget(SimBackend& backend, const DeviceProgram& p, uint64_t budget) {
  const LoadedProgram& l = p.loaded();
  writeProgramRegisters(backend, l);
  writeRegister64(backend, isa::kRegEXEC_BUDGET, budget);
  backend.writeRegister(isa::kRegAP_CTRL, isa::kAP_START);
}

TEST(SimHalts, ExecBudgetStopsWithin16CyclesOfExpiry) {
  SimBackend backend(smallSim());
  Asm a;
  a.emit(insn::jmp(0));
  Result<DeviceProgram> p = DeviceProgram::load(backend, a.code, {}, 64);
  ASSERT_TRUE(p.isOk());
  startWithBudget(backend, *p, 5000);
  ASSERT_EQ(backend.waitDone(10s), WaitOutcome::DONE);
  EXPECT_EQ(backend.readRegister(isa::kRegSTATUS), isa::kStatusEXEC_TIMEOUT);
  EXPECT_EQ(readRegister64(backend, isa::kRegCYCLES), 5000u);
  EXPECT_EQ(backend.readRegister(isa::kRegHALT_PC), 0u);
  // Every cycle from the accepted start to AP_DONE is either counted in
  // CYCLES or part of the start (size check, fetch priming) and the stop
  // (drain, status): the budget's expiry is at most 16 cycles before AP_DONE.
  const backends::SimRunEvents e = backend.lastRunEvents();
  ASSERT_GT(e.done, e.startAccepted);
  const uint64_t uncounted = e.done - e.startAccepted - 5000;
  EXPECT_LE(uncounted, 16u);
}

TEST(SimHalts, LoopBudgetExpiryToHaltWithin16Cycles) {
  SimBackend backend(smallSim());
  Result<DeviceProgram> p = DeviceProgram::load(backend, infiniteLoop().code, {}, 64);
  ASSERT_TRUE(p.isOk());
  const LoadedProgram& l = p->loaded();
  writeRegister64(backend, isa::kRegLOOP_BUDGET, 1000);
  startWithBudget(backend, *p, 0);
  ASSERT_EQ(backend.waitDone(10s), WaitOutcome::DONE);
  EXPECT_EQ(backend.readRegister(isa::kRegSTATUS), isa::kStatusLOOP_TIMEOUT);
  // WDARM at CYCLES = load (33): expiry once CYCLES - 33 > 1000.
  const uint64_t cycles = readRegister64(backend, isa::kRegCYCLES);
  EXPECT_EQ(cycles, programLoadCycles(l.programBytes / 8) + 1001);
  const backends::SimRunEvents e = backend.lastRunEvents();
  EXPECT_LE(e.done - e.startAccepted - cycles, 16u);
}

// The watchdog's elapsed count (CYCLES - LOOP_START) carries from its low
// word into its high word through a registered flag in the RTL: resumed
// from contexts whose elapsed count is just below 2^32 (the flag computed
// from the restored count, or by counting up to the wrap), the loop
// watchdog stops at the same cycle on both cores, once the count exceeds a
// budget above 2^32.
TEST(SimHalts, LoopWatchdogAcrossTheElapsedCountsLowWordWrap) {
  constexpr uint64_t kCycles = 0x1'0000'0010ull;
  constexpr uint64_t kBudget = 0x1'0000'0002ull;
  for (const uint64_t elapsed : {0xFFFF'FFFFull, 0xFFFF'FFFCull, 0xFFFF'FFF0ull}) {
    uint64_t cycles[2] = {};
    for (const bool sim : {false, true}) {
      std::unique_ptr<FabricBackend> backend;
      if (sim) backend = std::make_unique<SimBackend>(smallSim());
      else backend = std::make_unique<HlsBackend>(smallDevice());
      Asm a;
      a.emit(insn::jmp(0));
      Result<DeviceProgram> p = DeviceProgram::load(*backend, a.code, {}, 64);
      ASSERT_TRUE(p.isOk());
      const LoadedProgram& l = p->loaded();
      std::vector<uint32_t> ctx(64, 0);
      auto put64 = [&](uint32_t word, uint64_t v) {
        ctx[word] = static_cast<uint32_t>(v);
        ctx[word + 1] = static_cast<uint32_t>(v >> 32);
      };
      ctx[isa::kCtxMAGIC] = isa::kCONTEXT_MAGIC;
      ctx[isa::kCtxWD_ARMED] = 1;
      ctx[isa::kCtxWD_ARMS] = 1;
      put64(isa::kCtxCYCLES, kCycles);
      put64(isa::kCtxLOOP_START, kCycles - elapsed);
      ASSERT_TRUE(backend->copyToDevice(l.context, ctx.data(), ctx.size() * 4).isOk());
      writeProgramRegisters(*backend, l);
      writeRegister64(*backend, isa::kRegEXEC_BUDGET, 0);
      writeRegister64(*backend, isa::kRegLOOP_BUDGET, kBudget);
      backend->writeRegister(isa::kRegMODE, isa::kModeResume);
      backend->writeRegister(isa::kRegAP_CTRL, isa::kAP_START);
      ASSERT_EQ(backend->waitDone(10s), WaitOutcome::DONE);
      EXPECT_EQ(backend->readRegister(isa::kRegSTATUS), isa::kStatusLOOP_TIMEOUT) << sim << " " << elapsed;
      cycles[sim] = readRegister64(*backend, isa::kRegCYCLES);
      // The first boundary where CYCLES - LOOP_START > budget.
      EXPECT_EQ(cycles[sim] - (kCycles - elapsed), kBudget + 1) << sim << " " << elapsed;
    }
    EXPECT_EQ(cycles[0], cycles[1]) << elapsed;
  }
}

TEST(SimHalts, AccessFaultsIllegalInstructionsAndProgramFaultsMatchTheHlsCore) {
  Asm load;
  load.emit(insn::ldw(1, 0, 64));  // one past the 64-byte region
  expectSameOnBoth(load, {}, 64, isa::kStatusACCESS_FAULT);
  Asm misaligned;
  misaligned.emit(insn::li(2, 2));
  misaligned.emit(insn::stw(1, 2, 0));
  expectSameOnBoth(misaligned, {}, 64, isa::kStatusACCESS_FAULT);
  Asm reserved;
  reserved.emit(insn::nop() | (uint64_t{1} << 31));
  expectSameOnBoth(reserved, {}, 64, isa::kStatusILLEGAL_INSTRUCTION);
  Asm unknown;
  unknown.emit(insn::alu(isa::kNumAluFns, 1, 1, 1));
  expectSameOnBoth(unknown, {}, 64, isa::kStatusILLEGAL_INSTRUCTION);
  Asm away;
  away.emit(insn::jmp(100));
  expectSameOnBoth(away, {}, 64, isa::kStatusPROGRAM_FAULT);
  Asm error;
  error.emit(insn::halt(77));
  expectSameOnBoth(error, {}, 64, isa::kStatusPROGRAM_ERROR);
}

TEST(SimHalts, TensorRegionChecksInTheIsaOrder) {
  // Descriptor at 0: 8 INT32 elements; each case breaks one region.
  std::vector<uint8_t> image(512, 0);
  put<uint32_t>(image, 0, {1, 1, 1, 8, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1});
  struct Case {
    uint32_t desc, dst, a, b, c;
  };
  const Case cases[] = {
      {4, 512, 512, 512, 512},    // descriptor misaligned (every other region bad too)
      {512, 64, 128, 192, 256},   // descriptor outside
      {0, 500, 512, 512, 512},    // destination outside
      {0, 66, 128, 192, 256},     // destination misaligned
      {0, 64, 490, 512, 512},     // A outside
      {0, 64, 128, 510, 512},     // B outside
      {0, 64, 128, 192, 511},     // C (SEL) outside
  };
  for (const Case& c : cases) {
    Asm a;
    a.emit(insn::li(1, static_cast<int32_t>(c.dst)));
    a.emit(insn::li(2, static_cast<int32_t>(c.a)));
    a.emit(insn::li(3, static_cast<int32_t>(c.b)));
    a.emit(insn::li(4, static_cast<int32_t>(c.c)));
    a.emit(insn::tensor(isa::kFnSEL, isa::kTypeINT32, 1, 2, 3, 4, c.desc));
    a.emit(insn::halt());
    expectSameOnBoth(a, image, image.size(), isa::kStatusACCESS_FAULT);
  }
}

TEST(SimHalts, BusErrorOnALoadStopsWithItsAddressAndTheNextRunSucceeds) {
  SimBackend backend(smallSim());
  std::vector<uint8_t> image(256, 0);
  Asm a;
  a.emit(insn::li(1, 5));
  a.emit(insn::ldw(2, 0, 132));
  a.emit(insn::halt());
  Result<DeviceProgram> q = DeviceProgram::load(backend, a.code, image, image.size());
  ASSERT_TRUE(q.isOk());
  const DeviceAddress qbad = q->loaded().data + 128;
  backend.injectBusErrorAt(qbad);
  CoreDriver driver(backend);
  Result<RunReport> r = driver.run(q->loaded(), {});
  ASSERT_TRUE(r.isOk());
  EXPECT_EQ(r->coreStatus, isa::kStatusBUS_ERROR);
  EXPECT_EQ(r->status.code(), ErrorStatus::GENERAL_FAILURE);
  EXPECT_EQ(r->haltPc, 1u);
  EXPECT_EQ(r->faultInfo, static_cast<uint32_t>(qbad));
  EXPECT_EQ(r->instret, 1u);
  backend.reset();  // clears the injected error
  expectHealthy(backend);
}

TEST(SimHalts, BusErrorOnAPostedStoreFailsTheRun) {
  SimBackend backend(smallSim());
  Asm a;
  a.emit(insn::li(1, 5));
  a.emit(insn::stw(1, 0, 8));
  a.emit(insn::halt());
  backend.injectFault(backends::SimFault::BUS_ERROR);
  const Outcome out = runOn(backend, a.code, {}, 64);
  EXPECT_CORE_STATUS(out, isa::kStatusBUS_ERROR);
  expectHealthy(backend);
}

TEST(SimHalts, HungMemoryIsResetByTheHostWatchdogAndTheNextRunSucceeds) {
  SimBackend backend(smallSim());
  backend.injectFault(backends::SimFault::HANG);
  RunLimits limits;
  limits.deadline = steady_clock::now() + 50ms;
  limits.preemptGrace = 50ms;
  const auto start = steady_clock::now();
  const Outcome out = runOn(backend, counterLoop(10).code, {}, 64, limits);
  EXPECT_EQ(out.report.status.code(), ErrorStatus::MISSED_DEADLINE_TRANSIENT) << out.report.status.message();
  EXPECT_NE(out.report.status.message().find("reset"), std::string::npos) << out.report.status.message();
  EXPECT_EQ(out.report.coreStatus, isa::kStatusIDLE);
  EXPECT_LT(steady_clock::now() - start, 2s);
  expectHealthy(backend);
}

// Without a deadline or a loop timeout, only the host's hang check can end a
// run stalled on a memory that never answers; the core keeps counting cycles
// while it waits, so the check must watch retired instructions.
TEST(SimHalts, HungMemoryWithoutAnyDeadlineIsCaughtByTheHangCheck) {
  SimBackend backend(smallSim());
  backend.injectFault(backends::SimFault::HANG);
  RunLimits limits;
  limits.hangTimeout = 200ms;
  const auto start = steady_clock::now();
  const Outcome out = runOn(backend, counterLoop(10).code, {}, 64, limits);
  EXPECT_EQ(out.report.status.code(), ErrorStatus::GENERAL_FAILURE) << out.report.status.message();
  EXPECT_NE(out.report.status.message().find("did not respond"), std::string::npos)
      << out.report.status.message();
  EXPECT_LT(steady_clock::now() - start, 2s);
  expectHealthy(backend);
}

TEST(SimHalts, LoopTimeoutHoldsInWallTime) {
  // The fabric budget would take 100 ms * 300 MHz = 30 M cycles of
  // simulation; the host watchdog stops the loop after ~100 ms instead.
  SimBackend backend(smallSim());
  RunLimits limits;
  limits.loopTimeout = 100ms;
  const auto start = steady_clock::now();
  const Outcome out = runOn(backend, infiniteLoop().code, {}, 64, limits);
  const auto elapsed = steady_clock::now() - start;
  EXPECT_EQ(out.report.status.code(), ErrorStatus::MISSED_DEADLINE_TRANSIENT) << out.report.status.message();
  EXPECT_GE(elapsed, 90ms);
  EXPECT_LT(elapsed, 1s);
  expectHealthy(backend);
}

TEST(SimHalts, BadContextAndBadProgramSizeMatchTheHlsCore) {
  for (const bool sim : {false, true}) {
    std::unique_ptr<FabricBackend> backend;
    if (sim) backend = std::make_unique<SimBackend>(smallSim());
    else backend = std::make_unique<HlsBackend>(smallDevice());
    Result<DeviceProgram> p = DeviceProgram::load(*backend, counterLoop(3).code, {}, 64);
    ASSERT_TRUE(p.isOk());
    const uint32_t junk[4] = {0x12345678, 0, 0, 0};
    ASSERT_TRUE(backend->copyToDevice(p->loaded().context, junk, sizeof(junk)).isOk());
    CoreDriver driver(*backend);
    Result<RunReport> r = driver.run(p->resumed(), {});
    ASSERT_TRUE(r.isOk());
    EXPECT_EQ(r->coreStatus, isa::kStatusBAD_CONTEXT) << sim;
    EXPECT_EQ(r->faultInfo, 0x12345678u) << sim;
    EXPECT_EQ(r->haltPc, 0u) << sim;
    LoadedProgram odd = p->loaded();
    odd.programBytes = 12;
    r = driver.run(odd, {});
    ASSERT_TRUE(r.isOk());
    EXPECT_EQ(r->coreStatus, isa::kStatusPROGRAM_FAULT) << sim;
    EXPECT_EQ(r->faultInfo, 12u) << sim;
    EXPECT_EQ(r->cycles, 0u) << sim;
  }
}

}  // namespace
}  // namespace nnfab::fabric::test
