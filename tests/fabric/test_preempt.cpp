// Preemption, host INSN_LIMIT slices and the hls backend's own slices: an
// interrupted execution must end with exactly the registers, data and
// counters of an uninterrupted one.
#include <gtest/gtest.h>

#include <chrono>

#include "fabric/fabric_test_util.h"

namespace nnfab::fabric::test {
namespace {

using namespace std::chrono_literals;

constexpr uint32_t kDump = 64;  // registers are dumped at data offset 64

// A counter loop of n iterations that also accumulates r4 += r1 (wrapping)
// and keeps a watchdog armed, then dumps every register.
Asm accumulatingLoop(int32_t n) {
  Asm a;
  a.emit(insn::li(1, 0));
  a.emit(insn::li(2, n));
  a.emit(insn::li(3, 1));
  a.emit(insn::wdarm());
  const uint32_t test = a.emit(0);
  const uint32_t top = a.emit(insn::alu(isa::kFnADD, 1, 1, 3));
  a.emit(insn::alu(isa::kFnMUL, 4, 4, 1));  // r4 = r4 * r1 + r1, wrapping
  a.emit(insn::alu(isa::kFnADD, 4, 4, 1));
  a.emit(insn::brcmp(isa::kFnLT, 1, 2, top, true));
  a.code[test] = insn::brcmp(isa::kFnGE, 1, 2, a.here());
  a.emit(insn::wdoff());
  a.dumpRegistersAndHalt(kDump);
  return a;
}

// Loops with a tensor instruction, loads, stores, SWAP and the watchdog:
// everything a slice boundary could fall between.
Asm mixedProgram(std::vector<uint8_t>* image) {
  image->assign(512, 0);
  const uint32_t desc[16] = {1, 1, 2, 4, 0, 0, 4, 1, 0, 0, 0, 1, 0, 0, 0, 0};
  std::memcpy(image->data(), desc, sizeof(desc));
  put<int32_t>(*image, 256, {1, 2, 3, 4, 5, 6, 7, 8});
  put<int32_t>(*image, 320, {10, 20, 30, 40});
  Asm a;
  a.emit(insn::li(1, 256));  // x
  a.emit(insn::li(2, 320));  // row
  a.emit(insn::li(3, 384));  // y
  a.emit(insn::li(5, 0));
  a.emit(insn::li(6, 37));
  a.emit(insn::li(7, 1));
  a.emit(insn::wdarm());
  const uint32_t top = a.emit(insn::tensor(isa::kFnADD, isa::kTypeINT32, 3, 1, 2, 0, 0));  // y = x + row
  a.emit(insn::swap(1, 3));
  a.emit(insn::ldw(8, 1, 4));
  a.emit(insn::alu(isa::kFnDIV, 9, 8, 6));
  a.emit(insn::stb(9, 5, 448));
  a.emit(insn::alu(isa::kFnADD, 5, 5, 7));
  a.emit(insn::brcmp(isa::kFnLT, 5, 6, top, true));
  a.emit(insn::wdoff());
  a.dumpRegistersAndHalt(kDump);
  return a;
}

void expectSameRun(const Outcome& got, const Outcome& want) {
  EXPECT_CORE_STATUS(got, isa::kStatusDONE);
  EXPECT_EQ(got.data, want.data);
  EXPECT_EQ(got.report.cycles, want.report.cycles);
  EXPECT_EQ(got.report.iterations, want.report.iterations);
  EXPECT_EQ(got.report.instret, want.report.instret);
  EXPECT_EQ(got.report.haltPc, want.report.haltPc);
}

// Resumes p's preempted run to its end and expects the uninterrupted
// run's result (256 bytes of data).
void expectResumedRunIsExact(CoreDriver& driver, DeviceProgram& p, const Outcome& reference) {
  Result<RunReport> rest = driver.run(p.resumed(), {});
  ASSERT_TRUE(rest.isOk());
  Outcome got{*rest, std::vector<uint8_t>(256)};
  ASSERT_TRUE(p.readData(0, got.data.data(), 256).isOk());
  expectSameRun(got, reference);
}

// Runs to completion, resuming after every PREEMPTED / SLICE_END; `limits`
// apply to every start. Returns the final outcome and counts the stops.
Outcome runResuming(HlsBackend& backend, const Asm& a, const std::vector<uint8_t>& image, uint64_t dataBytes,
                    const RunLimits& limits, int* stops) {
  Outcome out;
  Result<DeviceProgram> p = DeviceProgram::load(backend, a.code, image, dataBytes);
  EXPECT_TRUE(p.isOk());
  if (!p) return out;
  CoreDriver driver(backend);
  LoadedProgram start = p->loaded();
  *stops = 0;
  for (int guard = 0; guard < 100000; ++guard) {
    const Result<RunReport> r = driver.run(start, limits);
    EXPECT_TRUE(r.isOk()) << r.status().message();
    if (!r) return out;
    out.report = *r;
    if (!r->resumable()) break;
    EXPECT_TRUE(r->status.isOk()) << r->status.message();
    ++*stops;
    start = p->resumed();
  }
  out.data.resize(dataBytes);
  EXPECT_TRUE(p->readData(0, out.data.data(), dataBytes).isOk());
  return out;
}

// A loop loaded on a small hls device with its driver, and the loop's
// uninterrupted run (256 bytes of data) to compare resumed runs with.
struct LoopOnHls {
  explicit LoopOnHls(const Asm& a)
      : reference(run(a, {}, 256)),
        backend(smallDevice()),
        program(DeviceProgram::load(backend, a.code, {}, 256)),
        driver(backend) {}
  const Outcome reference;
  HlsBackend backend;
  Result<DeviceProgram> program;
  CoreDriver driver;
};

TEST(Preemption, PreemptedAndResumedMillionIterationLoopMatchesAnUninterruptedRun) {
  const Asm a = accumulatingLoop(1000000);
  const Outcome reference = run(a, {}, 256);
  ASSERT_EQ(word(reference.data, kDump + 4), 1000000);
  EXPECT_EQ(reference.report.iterations, 999999u);

  HlsBackend backend(smallDevice());
  RunLimits limits;
  limits.preemptRequested = [] { return true; };  // preempt each start at its first poll
  int stops = 0;
  const Outcome got = runResuming(backend, a, {}, 256, limits, &stops);
  EXPECT_GE(stops, 1);
  expectSameRun(got, reference);
}

TEST(Preemption, AnotherExecutionMayRunBetweenPreemptAndResume) {
  LoopOnHls l(accumulatingLoop(300000));
  ASSERT_TRUE(l.program.isOk());
  RunLimits preempt;
  preempt.preemptRequested = [] { return true; };
  Result<RunReport> first = l.driver.run(l.program->loaded(), preempt);
  ASSERT_TRUE(first.isOk());
  ASSERT_EQ(first->coreStatus, isa::kStatusPREEMPTED) << first->status.message();
  EXPECT_TRUE(first->status.isOk());
  EXPECT_LT(first->instret, l.reference.report.instret);

  const Outcome other = runOn(l.backend, counterLoop(5000).code, {}, 64);  // its own context area
  EXPECT_CORE_STATUS(other, isa::kStatusDONE);

  expectResumedRunIsExact(l.driver, *l.program, l.reference);
}

// Issue 15: a stop the scheduler requested before the start (its PREEMPT
// write reached the idle core while the step's thread was on its way to
// the start) is not cleared by the start: the core stops at its first
// instruction boundary, resumable, and the resumed run is exact. Cleared,
// the request was found only by the first poll, after the hls start's
// inline part (thousands of instructions) and a poll interval.
TEST(Preemption, AStopRequestedBeforeTheStartStopsTheCoreAtItsFirstBoundary) {
  LoopOnHls l(accumulatingLoop(300000));
  ASSERT_TRUE(l.program.isOk());
  RunLimits limits;
  limits.pollInterval = 1s;  // a poll would come far too late to explain an early stop
  limits.yieldBeforeStart = [] { return true; };
  l.backend.writeRegister(isa::kRegPREEMPT, isa::kPreemptRequest);  // the scheduler's request, on the idle core
  const auto start = std::chrono::steady_clock::now();
  Result<RunReport> first = l.driver.run(l.program->loaded(), limits);
  ASSERT_TRUE(first.isOk());
  ASSERT_EQ(first->coreStatus, isa::kStatusPREEMPTED) << first->status.message();
  EXPECT_TRUE(first->status.isOk());
  EXPECT_EQ(first->instret, 0u);
  EXPECT_LT(std::chrono::steady_clock::now() - start, 500ms);
  EXPECT_EQ(l.backend.readRegister(isa::kRegPREEMPT), 0u);  // cleared by the stop

  expectResumedRunIsExact(l.driver, *l.program, l.reference);
}

// Without a request for this run, a stale PREEMPT on the idle core (a
// nudge that came after the previous holder's stop) is cleared by the
// start, as before.
TEST(Preemption, AStaleStopRequestOnTheIdleCoreIsClearedByTheStart) {
  LoopOnHls l(accumulatingLoop(3000));
  ASSERT_TRUE(l.program.isOk());
  RunLimits limits;
  limits.yieldBeforeStart = [] { return false; };
  l.backend.writeRegister(isa::kRegPREEMPT, isa::kPreemptRequest);
  Result<RunReport> r = l.driver.run(l.program->loaded(), limits);
  ASSERT_TRUE(r.isOk());
  Outcome got{*r, std::vector<uint8_t>(256)};
  ASSERT_TRUE(l.program->readData(0, got.data.data(), 256).isOk());
  expectSameRun(got, l.reference);
}

TEST(Preemption, HostInstructionLimitSlices) {
  std::vector<uint8_t> image;
  const Asm a = mixedProgram(&image);
  const Outcome reference = run(a, image, image.size());
  EXPECT_CORE_STATUS(reference, isa::kStatusDONE);
  for (uint32_t limit : {1u, 2u, 3u, 7u, 50u}) {
    SCOPED_TRACE(limit);
    HlsBackend backend(smallDevice());
    RunLimits limits;
    limits.insnLimit = limit;
    int stops = 0;
    const Outcome got = runResuming(backend, a, image, image.size(), limits, &stops);
    EXPECT_EQ(static_cast<uint64_t>(stops), (reference.report.instret - 1) / limit);
    expectSameRun(got, reference);
  }
}

TEST(Preemption, BackendSliceSizesOneToSevenGiveIdenticalResults) {
  std::vector<uint8_t> image;
  const Asm a = mixedProgram(&image);
  const Outcome reference = run(a, image, image.size());
  EXPECT_CORE_STATUS(reference, isa::kStatusDONE);
  // Data written by the loop: y rows and the bytes at 448.
  EXPECT_NE(word(reference.data, 384), 0);
  for (uint32_t slice = 1; slice <= 7; ++slice) {
    SCOPED_TRACE(slice);
    HlsBackend backend(smallDevice(slice));
    const Outcome got = runOn(backend, a.code, image, image.size());
    expectSameRun(got, reference);
    EXPECT_GE(backend.slicesRun(), reference.report.instret / slice);
  }
}

TEST(Preemption, WatchdogExpiryDoesNotDependOnSlices) {
  RunLimits limits;
  limits.loopTimeout = 2us;  // LOOP_BUDGET 600 cycles
  const Outcome reference = run(infiniteLoop(), {}, 64, limits);
  EXPECT_CORE_STATUS(reference, isa::kStatusLOOP_TIMEOUT);
  for (uint32_t slice : {1u, 2u, 5u, 7u}) {
    SCOPED_TRACE(slice);
    const Outcome got = run(infiniteLoop(), {}, 64, limits, smallDevice(slice));
    EXPECT_CORE_STATUS(got, isa::kStatusLOOP_TIMEOUT);
    EXPECT_EQ(got.report.cycles, reference.report.cycles);
    EXPECT_EQ(got.report.instret, reference.report.instret);
    EXPECT_EQ(got.report.haltPc, reference.report.haltPc);
  }
}

TEST(Preemption, HostWatchdogStopsAnArmedLoopThroughPreempt) {
  // The slow loop keeps the fabric budget (9M cycles) far away: the host's
  // wall-clock watchdog fires after 30 ms and PREEMPT stops the core.
  HlsBackend backend(smallDevice());
  std::vector<uint8_t> image;
  const Asm loop = slowLoop(1u << 16, &image);
  RunLimits limits;
  limits.loopTimeout = 30ms;
  const Outcome out = runOn(backend, loop.code, image, image.size(), limits);
  EXPECT_EQ(out.report.status.code(), ErrorStatus::MISSED_DEADLINE_TRANSIENT);
  EXPECT_EQ(out.report.coreStatus, isa::kStatusPREEMPTED) << out.report.status.message();
  EXPECT_GE(out.report.wallTime, 30ms);
  EXPECT_LT(out.report.wallTime, 1s);
  EXPECT_EQ(backend.readRegister(isa::kRegPREEMPT), 0u);
}

TEST(Preemption, PreemptRequestThatTheCoreIgnoresEndsInReset) {
  HlsBackend backend(smallDevice());
  backend.injectFault(backends::InjectedFault::IGNORE_PREEMPT);
  RunLimits limits;
  limits.preemptRequested = [] { return true; };
  limits.preemptGrace = 30ms;
  const Outcome out = runOn(backend, infiniteLoop(false).code, {}, 64, limits);
  EXPECT_EQ(out.report.status.code(), ErrorStatus::GENERAL_FAILURE);
  EXPECT_NE(out.report.status.message().find("preemption"), std::string::npos) << out.report.status.message();
  EXPECT_FALSE(out.report.resumable());
  const Outcome next = runOn(backend, counterLoop(10).code, {}, 64);
  EXPECT_CORE_STATUS(next, isa::kStatusDONE);
}

}  // namespace
}  // namespace nnfab::fabric::test
