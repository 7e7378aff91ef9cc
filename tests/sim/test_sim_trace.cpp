// The trace ring and the per-class cycle counters (docs/isa.md "Trace
// ring") on the RTL core against the HLS core: the same entries with the
// same cycle stamps for scalar loop/IF programs, keep-first overflow with
// the dropped count, the classes adding up to CYCLES, and nothing recorded
// (and no cycle changed) without MODE.TRACE.
#include <numeric>

#include "backends/hls_backend.h"
#include "fabric/device_trace.h"
#include "sim/sim_test_util.h"

namespace nnfab::fabric::test {
namespace {

Outcome runTraced(FabricBackend& backend, const Asm& a, uint64_t dataBytes, bool trace) {
  Outcome out;
  Result<DeviceProgram> program = DeviceProgram::load(backend, a.code, {}, dataBytes);
  EXPECT_TRUE(program.isOk()) << program.status().message();
  if (!program) return out;
  LoadedProgram loaded = program->loaded();
  loaded.trace = trace;
  CoreDriver driver(backend);
  Result<RunReport> report = driver.run(loaded, {});
  EXPECT_TRUE(report.isOk()) << report.status().message();
  if (report) out.report = *report;
  return out;
}

struct Both {
  Outcome hls, sim;
};

Both runBoth(const Asm& a, bool trace = true) {
  backends::HlsBackend hls;
  SimBackend sim(smallSim());
  return Both{runTraced(hls, a, 256, trace), runTraced(sim, a, 256, trace)};
}

// y = load; while (i < n) { if (i < half) x += 3 else x = x / 3 + half; store x; i += 1 }
// No load after a store: there the RTL waits for the write response and its
// CYCLES leave the model's (docs/rtl.md "Where CYCLES differ").
Asm loopWithIf(int32_t n, int32_t half) {
  Asm a;
  a.emit(insn::ldw(8, 0, 32));
  a.emit(insn::li(1, 0));     // i
  a.emit(insn::li(2, n));
  a.emit(insn::li(3, 1));
  a.emit(insn::li(4, 5));     // x
  a.emit(insn::li(6, half));
  a.emit(insn::li(7, 3));
  const uint32_t test = a.emit(0);  // bge r1, r2, exit
  const uint32_t top = a.emit(insn::alu(isa::kFnLT, 5, 1, 6));
  const uint32_t branch = a.emit(0);  // bz r5, else
  a.emit(insn::alu(isa::kFnADD, 4, 4, 7));
  const uint32_t jump = a.emit(0);  // jmp end
  const uint32_t elseAt = a.emit(insn::alu(isa::kFnDIV, 4, 4, 7));
  a.emit(insn::alu(isa::kFnADD, 4, 4, 6));
  const uint32_t end = a.emit(insn::stw(4, 0, 16));
  a.emit(insn::alu(isa::kFnADD, 1, 1, 3));
  a.emit(insn::brcmp(isa::kFnLT, 1, 2, top, /*backedge=*/true));
  const uint32_t exit = a.here();
  a.code[test] = insn::brcmp(isa::kFnGE, 1, 2, exit);
  a.code[branch] = insn::bz(5, elseAt);
  a.code[jump] = insn::jmp(end);
  a.emit(insn::stw(4, 0, 0));
  a.emit(insn::halt());
  return a;
}

uint64_t classSum(const DeviceTrace& t) { return std::accumulate(t.classCycles.begin(), t.classCycles.end(), uint64_t{0}); }

void expectSameTrace(const Both& b, const char* what) {
  EXPECT_CORE_STATUS(b.hls, isa::kStatusDONE);
  EXPECT_CORE_STATUS(b.sim, isa::kStatusDONE);
  ASSERT_TRUE(b.hls.report.trace && b.sim.report.trace) << what;
  const DeviceTrace& h = *b.hls.report.trace;
  const DeviceTrace& s = *b.sim.report.trace;
  EXPECT_EQ(b.sim.report.cycles, b.hls.report.cycles) << what;
  EXPECT_EQ(s.entries, h.entries) << what << ": the rings differ";
  EXPECT_EQ(s.dropped, h.dropped) << what;
  EXPECT_EQ(s.classCycles, h.classCycles) << what;
}

TEST(SimTrace, LoopAndIfRingsEqualTheHlsCore) {
  const Asm a = loopWithIf(8, 3);
  const Both b = runBoth(a);
  expectSameTrace(b, "loop with IF");
  const DeviceTrace& t = *b.sim.report.trace;
  // Entry test, then per iteration the IF's bz and the back edge.
  ASSERT_EQ(t.entries.size(), 1u + 8u * 2u);
  EXPECT_EQ(t.dropped, 0u);
  uint64_t last = 0;
  size_t thens = 0, elses = 0, iterations = 0, exits = 0;
  for (size_t i = 0; i < t.entries.size(); ++i) {
    const TraceEntry e = decodeTraceEntry(t.entries[i]);
    if (i > 0) {
      EXPECT_GT(e.cycle, last) << "entry " << i;
    }
    last = e.cycle;
    if (i == 0) {
      EXPECT_FALSE(e.taken || e.backedge);  // the loop is entered
      EXPECT_EQ(e.pc, 7u);
    } else if (e.backedge) {
      (e.taken ? iterations : exits) += 1;
    } else {
      EXPECT_EQ(e.pc, 9u);
      (e.taken ? elses : thens) += 1;
    }
  }
  EXPECT_EQ(thens, 3u);
  EXPECT_EQ(elses, 5u);
  EXPECT_EQ(iterations, 7u);
  EXPECT_EQ(exits, 1u);
  // Every counted cycle is in one class: the classes and the program load are CYCLES.
  EXPECT_EQ(classSum(t) + programLoadCycles(a.code.size()), b.sim.report.cycles);
  EXPECT_GE(t.classCycles[isa::kTraceClassSalu], 34u * 5u);  // five scalar DIVs
  EXPECT_GT(t.classCycles[isa::kTraceClassMem], 0u);
  EXPECT_EQ(t.classCycles[isa::kTraceClassTensor], 0u);
}

TEST(SimTrace, CounterLoopStampsTwoCyclesApart) {
  const Both b = runBoth(counterLoop(20));
  expectSameTrace(b, "counter loop");
  const DeviceTrace& t = *b.sim.report.trace;
  ASSERT_EQ(t.entries.size(), 21u);
  for (size_t i = 2; i < t.entries.size(); ++i) {
    EXPECT_EQ(decodeTraceEntry(t.entries[i]).cycle - decodeTraceEntry(t.entries[i - 1]).cycle, 2u);
  }
}

TEST(SimTrace, FullRingKeepsTheFirstEntriesAndCountsTheRest) {
  const Both b = runBoth(counterLoop(300));
  expectSameTrace(b, "overflow");
  const DeviceTrace& t = *b.sim.report.trace;
  EXPECT_EQ(t.entries.size(), isa::kTRACE_DEPTH);
  EXPECT_EQ(t.dropped, 301u - isa::kTRACE_DEPTH);  // entry test + 300 back edges
  EXPECT_FALSE(decodeTraceEntry(t.entries[0]).backedge);  // keep-first: the entry test is still there
}

TEST(SimTrace, WithoutTraceNothingIsRecordedAndNoCycleChanges) {
  const Asm a = loopWithIf(6, 2);
  const Both on = runBoth(a, true);
  const Both off = runBoth(a, false);
  EXPECT_FALSE(off.hls.report.trace.has_value());
  EXPECT_FALSE(off.sim.report.trace.has_value());
  EXPECT_EQ(off.sim.report.cycles, on.sim.report.cycles);
  EXPECT_EQ(off.hls.report.cycles, on.hls.report.cycles);
  EXPECT_EQ(off.sim.report.instret, on.sim.report.instret);
  // The registers of an untraced start read zero on both cores.
  backends::HlsBackend hls;
  SimBackend sim(smallSim());
  for (FabricBackend* backend : {static_cast<FabricBackend*>(&hls), static_cast<FabricBackend*>(&sim)}) {
    runTraced(*backend, a, 256, true);
    runTraced(*backend, a, 256, false);
    const DeviceTrace t = readDeviceTrace(*backend);
    EXPECT_TRUE(t.entries.empty()) << backend->name();
    EXPECT_EQ(t.dropped, 0u) << backend->name();
    EXPECT_EQ(classSum(t), 0u) << backend->name();
  }
}

// A sliced run: every start records its part, the host joins them
// (DeviceTrace::append) into the trace of an uninterrupted run.
DeviceTrace slicedTrace(FabricBackend& backend, const Asm& a, uint32_t insnLimit) {
  DeviceTrace joined;
  Result<DeviceProgram> program = DeviceProgram::load(backend, a.code, {}, 256);
  EXPECT_TRUE(program.isOk()) << program.status().message();
  if (!program) return joined;
  CoreDriver driver(backend);
  RunLimits limits;
  limits.insnLimit = insnLimit;
  bool resume = false;
  for (int starts = 0; starts < 1000; ++starts) {
    LoadedProgram loaded = resume ? program->resumed() : program->loaded();
    loaded.trace = true;
    Result<RunReport> report = driver.run(loaded, limits);
    EXPECT_TRUE(report.isOk()) << report.status().message();
    if (!report) break;
    EXPECT_TRUE(report->trace.has_value());
    if (report->trace) joined.append(*report->trace);
    if (!report->resumable()) break;
    resume = true;
  }
  return joined;
}

TEST(SimTrace, SlicedRunJoinsToTheUninterruptedTrace) {
  const Asm a = counterLoop(280);
  const Both whole = runBoth(a);
  backends::HlsBackend hls;
  SimBackend sim(smallSim());
  for (FabricBackend* backend : {static_cast<FabricBackend*>(&hls), static_cast<FabricBackend*>(&sim)}) {
    const DeviceTrace joined = slicedTrace(*backend, a, 37);
    EXPECT_EQ(joined.entries, whole.sim.report.trace->entries) << backend->name();
    EXPECT_EQ(joined.dropped, whole.sim.report.trace->dropped) << backend->name();
    EXPECT_EQ(joined.classCycles, whole.sim.report.trace->classCycles) << backend->name();
  }
}

// A core without FEATURE_TRACE (an older bitstream, whose 7-bit control
// slave would alias the trace offsets onto other registers): the driver
// never sets MODE.TRACE there and reads no trace.
class CoreWithoutTrace final : public FabricBackend {
 public:
  std::string_view name() const override { return "no-trace"; }
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
    if (offset == isa::kRegMODE) modes.push_back(value);
    inner_.writeRegister(offset, value);
  }
  uint32_t readRegister(uint32_t offset) override {
    if (offset >= isa::kRegTRACE_COUNT && offset != isa::kRegFEATURES) ++traceReads;
    const uint32_t value = inner_.readRegister(offset);
    return offset == isa::kRegFEATURES ? value & ~isa::kFEATURE_TRACE : value;
  }
  WaitOutcome waitDone(std::chrono::nanoseconds timeout) override { return inner_.waitDone(timeout); }
  void reset() override { inner_.reset(); }

  std::vector<uint32_t> modes;
  int traceReads = 0;

 private:
  backends::HlsBackend inner_;
};

TEST(SimTrace, ACoreWithoutTheRingIsNeverAskedForATrace) {
  CoreWithoutTrace core;
  const Outcome out = runTraced(core, counterLoop(5), 256, true);
  EXPECT_CORE_STATUS(out, isa::kStatusDONE);
  EXPECT_FALSE(out.report.trace.has_value());
  ASSERT_FALSE(core.modes.empty());
  for (uint32_t mode : core.modes) EXPECT_EQ(mode & isa::kMODE_TRACE, 0u);
  EXPECT_EQ(core.traceReads, 0);
}

}  // namespace
}  // namespace nnfab::fabric::test
