// The trace ring and the per-class cycle counters (docs/isa.md "Trace
// ring") on the RTL core against the HLS core: the same entries with the
// same cycle stamps for scalar loop/IF programs, keep-first overflow with
// the dropped count, the classes adding up to CYCLES, and nothing recorded
// (and no cycle changed) without MODE.TRACE.
#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstring>
#include <memory>
#include <numeric>
#include <string>
#include <thread>

#include "backends/hls_backend.h"
#include "fabric/device_trace.h"
#include "fabric/registers.h"
#include "fabric/soft_reset.h"
#include "sim/random_program.h"
#include "sim/sim_test_util.h"
#include "sim_tap.h"

namespace nnfab::fabric::test {
namespace {

Outcome runTraced(FabricBackend& backend, const Asm& a, uint64_t dataBytes, bool trace,
                  const std::vector<uint8_t>& image = {}) {
  Outcome out;
  Result<DeviceProgram> program = DeviceProgram::load(backend, a.code, image, dataBytes);
  EXPECT_TRUE(program.isOk()) << program.status().message();
  if (!program) return out;
  if (trace) {
    EXPECT_TRUE(program->traceArea().isOk());
  }
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
  EXPECT_TRUE(program->traceArea().isOk());
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

// ---------------------------------------------------------------- the dump
// With TRACE_ADDR the core writes the ring's entries to device memory at
// its stop (docs/isa.md "Trace ring"). A tap counts the dump's write beats
// on the RTL's m_axi_data.
class DumpCounter final : public sim::SimTap {
 public:
  DumpCounter(uint64_t from, uint64_t to) : from_(from), to_(to) {}
  void beforeEdge(sim::TapCycle& c) override {
    if (c.data->awvalid && c.dataSlave->awready && c.data->awaddr >= from_.load() && c.data->awaddr < to_.load()) {
      ++beats;
    }
  }
  void watch(uint64_t from, uint64_t to) {
    from_ = from;
    to_ = to;
    beats = 0;
  }
  std::atomic<uint32_t> beats{0};

 private:
  std::atomic<uint64_t> from_, to_;
};

constexpr uint8_t kFill = 0xA5;
constexpr uint64_t kArena = 3 * 4096;  // the trace area inside it, across a 4 KiB page boundary

struct Dumped {
  RunReport report;
  std::vector<uint8_t> arena;  // kArena bytes, the area at areaAt
  uint64_t areaAt = 0;
  DeviceTrace window;  // the same start's ring read through the window
};

// One traced run with TRACE_ADDR inside an arena filled with kFill.
Dumped runDumped(FabricBackend& backend, const Asm& a, DumpCounter* counter = nullptr) {
  Dumped d;
  Result<DeviceProgram> program = DeviceProgram::load(backend, a.code, {}, 256);
  EXPECT_TRUE(program.isOk()) << program.status().message();
  Result<DeviceAddress> arena = backend.allocate(kArena);
  EXPECT_TRUE(arena.isOk());
  if (!program || !arena) return d;
  const DeviceAddress base = *arena;
  // 64-byte aligned, 1 KiB below a page boundary: the area crosses it.
  d.areaAt = (base + 4096) / 4096 * 4096 + 4096 - 1024 - base;
  std::vector<uint8_t> fill(kArena, kFill);
  EXPECT_TRUE(backend.copyToDevice(base, fill.data(), kArena));
  if (counter) counter->watch(base, base + kArena);
  LoadedProgram loaded = program->loaded();
  loaded.trace = true;
  loaded.traceArea = base + d.areaAt;
  CoreDriver driver(backend);
  Result<RunReport> report = driver.run(loaded, {});
  EXPECT_TRUE(report.isOk()) << report.status().message();
  if (report) d.report = *report;
  d.window = readDeviceTrace(backend);
  d.arena.resize(kArena);
  EXPECT_TRUE(backend.copyFromDevice(d.arena.data(), base, kArena));
  backend.release(base);
  return d;
}

// The header beat and the entries after it in the area; the header's
// counters, the registers' (the window's read) and the report's alike, and
// the same for the entries; every other byte of the arena as it was.
void expectDump(const Dumped& d, size_t entries, const std::string& what) {
  EXPECT_EQ(d.report.coreStatus, isa::kStatusDONE) << what << ": " << d.report.status.message();
  ASSERT_TRUE(d.report.trace.has_value()) << what;
  ASSERT_EQ(d.report.trace->entries.size(), entries) << what;
  EXPECT_EQ(d.window.entries, d.report.trace->entries) << what << ": the window and the area differ";
  EXPECT_EQ(d.window.dropped, d.report.trace->dropped) << what << ": TRACE_DROPPED and the header differ";
  EXPECT_EQ(d.window.classCycles, d.report.trace->classCycles) << what << ": CLASS_CYCLES_* and the header differ";
  const uint64_t end = d.areaAt + isa::kTRACE_HEADER_BYTES + entries * 8;
  ASSERT_LE(end - d.areaAt, kTraceAreaBytes) << what;
  for (uint64_t i = 0; i < d.arena.size(); ++i) {
    if (i >= d.areaAt && i < end) continue;
    ASSERT_EQ(d.arena[i], kFill) << what << ": byte " << i << " outside the trace area (" << d.areaAt << ".."
                                 << end << ") was written";
  }
  // The header word by word (isa.json trace_header_words).
  uint32_t header[isa::kTRACE_HEADER_BYTES / 4];
  std::memcpy(header, d.arena.data() + d.areaAt, sizeof(header));
  EXPECT_EQ(header[isa::kTraceHdrCOUNT], entries) << what;
  EXPECT_EQ(header[isa::kTraceHdrDROPPED], d.window.dropped) << what;
  for (uint32_t k = 0; k < isa::kNumTraceClasses; ++k) {
    const uint64_t cycles = (uint64_t{header[isa::kTraceHdrCLASS_CYCLES + 2 * k + 1]} << 32) |
                            header[isa::kTraceHdrCLASS_CYCLES + 2 * k];
    EXPECT_EQ(cycles, d.window.classCycles[k]) << what << ": class " << k;
  }
  for (uint32_t w = isa::kTraceHdrZERO; w < isa::kTRACE_HEADER_BYTES / 4; ++w) EXPECT_EQ(header[w], 0u) << what;
  std::vector<uint64_t> inArea(entries);
  if (entries != 0) std::memcpy(inArea.data(), d.arena.data() + d.areaAt + isa::kTRACE_HEADER_BYTES, entries * 8);
  EXPECT_EQ(inArea, d.report.trace->entries) << what;
}

TEST(SimTrace, TheStopWritesTheRingToTraceAddrAndNothingElse) {
  struct Case {
    const char* what;
    Asm program;
    size_t entries;
    uint32_t beats;
  };
  Asm noBranch;
  noBranch.emit(insn::halt());
  const Case cases[] = {
      {"empty ring", noBranch, 0, 1},              // the header alone
      {"101 entries", counterLoop(100), 101, 14},  // the header, 12 full beats and one of 5 entries
      {"full ring", counterLoop(300), isa::kTRACE_DEPTH, 33},
  };
  backends::HlsBackend hls;
  auto counter = std::make_shared<DumpCounter>(0, 0);
  SimBackendOptions options = smallSim();
  options.tap = counter;
  SimBackend sim(options);
  for (const Case& c : cases) {
    const Dumped h = runDumped(hls, c.program);
    const Dumped r = runDumped(sim, c.program, counter.get());
    expectDump(h, c.entries, std::string("hls, ") + c.what);
    expectDump(r, c.entries, std::string("sim, ") + c.what);
    EXPECT_EQ(counter->beats.load(), c.beats) << c.what << ": write beats of the dump";
    EXPECT_EQ(r.arena, h.arena) << c.what << ": the RTL and the HLS core wrote different bytes";
    EXPECT_EQ(r.report.cycles, h.report.cycles) << c.what;
    EXPECT_EQ(r.report.trace->classCycles, h.report.trace->classCycles) << c.what;
    if (c.entries == isa::kTRACE_DEPTH) {
      EXPECT_GT(r.report.trace->dropped, 0u) << c.what;
    }
  }
}

// What the dump costs a stop: a beat per cycle (the header and the entries'),
// a few cycles to start and to await the last response, nothing counted in
// CYCLES.
TEST(SimTrace, TheDumpTakesAboutABeatPerCycleAfterCyclesStopped) {
  SimBackend sim(smallSim());
  for (int32_t n : {100, 300}) {
    const Asm a = counterLoop(n);
    const uint32_t beats = 1 + (std::min<uint32_t>(static_cast<uint32_t>(n) + 1, isa::kTRACE_DEPTH) + 7) / 8;
    const Outcome off = runTraced(sim, a, 256, false);
    const backends::SimRunEvents offAt = sim.lastRunEvents();
    const Outcome on = runTraced(sim, a, 256, true);
    const backends::SimRunEvents onAt = sim.lastRunEvents();
    ASSERT_TRUE(on.report.trace.has_value());
    EXPECT_EQ(on.report.cycles, off.report.cycles);
    const uint64_t stopOff = offAt.done - offAt.startAccepted;
    const uint64_t stopOn = onAt.done - onAt.startAccepted;
    std::printf("n %d: start to done %llu cycles without MODE.TRACE, %llu with (%u beats)\n", n,
                static_cast<unsigned long long>(stopOff), static_cast<unsigned long long>(stopOn), beats);
    EXPECT_GE(stopOn, stopOff + beats) << n;
    EXPECT_LE(stopOn, stopOff + beats + 8) << n;
  }
}

// TRACE_ADDR 0 or misaligned: nothing is written, the window still works.
TEST(SimTrace, NoOrAMisalignedTraceAddrWritesNothing) {
  SimBackend sim(smallSim());
  backends::HlsBackend hls;
  for (FabricBackend* backend : {static_cast<FabricBackend*>(&hls), static_cast<FabricBackend*>(&sim)}) {
    Result<DeviceProgram> program = DeviceProgram::load(*backend, counterLoop(20).code, {}, 256);
    ASSERT_TRUE(program.isOk());
    Result<DeviceAddress> arena = backend->allocate(4096);
    ASSERT_TRUE(arena.isOk());
    const std::vector<uint8_t> fill(4096, kFill);
    ASSERT_TRUE(backend->copyToDevice(*arena, fill.data(), fill.size()));
    for (uint64_t at : {uint64_t{0}, *arena + 8}) {
      // Started through the registers (the driver never writes such a TRACE_ADDR).
      const LoadedProgram& loaded = program->loaded();
      RegisterBatch start;
      start.write64(isa::kRegTRACE_ADDR, at);
      start.write64(isa::kRegPROG_ADDR, loaded.program);
      start.write(isa::kRegPROG_SIZE, loaded.programBytes);
      start.write64(isa::kRegDATA_ADDR, loaded.data);
      start.write(isa::kRegDATA_SIZE, loaded.dataBytes);
      start.write64(isa::kRegCTX_ADDR, loaded.context);
      start.write(isa::kRegMODE, isa::kMODE_TRACE);
      start.write(isa::kRegINSN_LIMIT, 0);
      start.write64(isa::kRegLOOP_BUDGET, 0);
      start.write64(isa::kRegEXEC_BUDGET, 0);
      start.write(isa::kRegAP_CTRL, isa::kAP_START);
      start.run(*backend);
      ASSERT_EQ(backend->waitDone(std::chrono::seconds(10)), WaitOutcome::DONE) << backend->name();
      EXPECT_EQ(backend->readRegister(isa::kRegSTATUS), isa::kStatusDONE);
      EXPECT_EQ(readRegister64(*backend, isa::kRegTRACE_ADDR), at) << backend->name();
      EXPECT_EQ(readDeviceTrace(*backend).entries.size(), 21u) << backend->name();
      std::vector<uint8_t> after(4096);
      ASSERT_TRUE(backend->copyFromDevice(after.data(), *arena, after.size()));
      EXPECT_EQ(after, fill) << backend->name() << ": TRACE_ADDR " << at << " was written";
    }
    backend->release(*arena);
  }
}

// Preempted and resumed starts each write their part to the same area; the
// host reads it after every stop and joins the parts into the trace of an
// uninterrupted run.
TEST(SimTrace, PreemptedStartsJoinToTheUninterruptedTrace) {
  // Long enough (200,000 cycles, about 0.1 s of simulation) that the
  // driver's first 200 us poll comes before the end even when its thread
  // waits for a CPU on a loaded machine: with 4,000 iterations the run
  // sometimes ended unpreempted.
  const Asm a = counterLoop(100000);
  const Both whole = runBoth(a);
  SimBackend sim(smallSim());
  Result<DeviceProgram> program = DeviceProgram::load(sim, a.code, {}, 256);
  ASSERT_TRUE(program.isOk());
  ASSERT_TRUE(program->traceArea().isOk());
  CoreDriver driver(sim);
  RunLimits limits;
  limits.pollInterval = std::chrono::microseconds(200);
  limits.preemptRequested = [] { return true; };
  DeviceTrace joined;
  int preempted = 0;
  bool resume = false;
  for (int starts = 0; starts < 10000; ++starts) {
    LoadedProgram loaded = resume ? program->resumed() : program->loaded();
    loaded.trace = true;
    Result<RunReport> report = driver.run(loaded, limits);
    ASSERT_TRUE(report.isOk()) << report.status().message();
    ASSERT_TRUE(report->trace.has_value());
    joined.append(*report->trace);
    if (report->coreStatus == isa::kStatusPREEMPTED) ++preempted;
    if (!report->resumable()) {
      EXPECT_EQ(report->coreStatus, isa::kStatusDONE);
      break;
    }
    resume = true;
  }
  EXPECT_GT(preempted, 0) << "the run was never preempted: nothing tested";
  EXPECT_EQ(joined.entries, whole.sim.report.trace->entries);
  EXPECT_EQ(joined.dropped, whole.sim.report.trace->dropped);
  EXPECT_EQ(joined.classCycles, whole.sim.report.trace->classCycles);
}

// A soft reset while the ring is being written: a memory whose write
// responses take 20,000 cycles (one write outstanding) keeps the dump going
// long enough to be hit. The reset completes (every AXI assertion holds),
// nothing outside the trace area was written, AP_DONE is not set, and the
// next profiled run is right and writes its whole ring.
TEST(SimTrace, ASoftResetDuringTheDumpCompletes) {
  auto counter = std::make_shared<DumpCounter>(0, 0);
  SimBackendOptions options = smallSim();
  options.memory.writeResponseLatency = 20000;
  options.memory.maxOutstandingWrites = 1;
  options.tap = counter;
  SimBackend sim(options);
  const Asm a = counterLoop(300);
  Result<DeviceProgram> program = DeviceProgram::load(sim, a.code, {}, 256);
  ASSERT_TRUE(program.isOk());
  Result<DeviceAddress> arena = sim.allocate(kArena);
  ASSERT_TRUE(arena.isOk());
  const std::vector<uint8_t> fill(kArena, kFill);
  ASSERT_TRUE(sim.copyToDevice(*arena, fill.data(), kArena));
  const DeviceAddress area = *arena + 4096;
  counter->watch(area, area + kTraceAreaBytes);
  const LoadedProgram& l = program->loaded();
  RegisterBatch start;
  start.write64(isa::kRegPROG_ADDR, l.program);
  start.write(isa::kRegPROG_SIZE, l.programBytes);
  start.write64(isa::kRegDATA_ADDR, l.data);
  start.write(isa::kRegDATA_SIZE, l.dataBytes);
  start.write64(isa::kRegCTX_ADDR, l.context);
  start.write64(isa::kRegTRACE_ADDR, area);
  start.write(isa::kRegMODE, isa::kMODE_TRACE);
  start.write(isa::kRegINSN_LIMIT, 0);
  start.write64(isa::kRegLOOP_BUDGET, 0);
  start.write64(isa::kRegEXEC_BUDGET, 0);
  start.write(isa::kRegAP_CTRL, isa::kAP_START);
  start.run(sim);
  const auto giveUp = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  while (counter->beats.load() == 0 && std::chrono::steady_clock::now() < giveUp) {
    std::this_thread::sleep_for(std::chrono::microseconds(100));
  }
  ASSERT_GT(counter->beats.load(), 0u) << "the dump never started";
  ASSERT_EQ(sim.readRegister(isa::kRegAP_CTRL) & isa::kAP_IDLE, 0u) << "the dump was over before the reset";
  ASSERT_TRUE(softReset(sim, std::chrono::seconds(10)));
  EXPECT_LT(counter->beats.load(), 33u) << "the whole dump went out: the reset did not stop it";
  const uint32_t ctrl = sim.readRegister(isa::kRegAP_CTRL);
  EXPECT_EQ(ctrl & isa::kAP_DONE, 0u);
  EXPECT_NE(ctrl & isa::kAP_IDLE, 0u);
  EXPECT_EQ(sim.readRegister(isa::kRegSTATUS), isa::kStatusIDLE);
  std::vector<uint8_t> after(kArena);
  ASSERT_TRUE(sim.copyFromDevice(after.data(), *arena, kArena));
  for (uint64_t i = 0; i < kArena; ++i) {
    if (i >= 4096 && i < 4096 + kTraceAreaBytes) continue;
    ASSERT_EQ(after[i], kFill) << "byte " << i << " outside the trace area was written";
  }
  sim.release(*arena);
  // The device runs again, profiled, with its whole ring written.
  const Dumped d = runDumped(sim, a, counter.get());
  expectDump(d, isa::kTRACE_DEPTH, "after the soft reset");
  EXPECT_EQ(counter->beats.load(), 33u);
}

// A core without FEATURE_TRACE (an older bitstream, whose 7-bit control
// slave would alias the trace offsets onto other registers): the driver
// never sets MODE.TRACE there and reads no trace.
class CoreWithoutTrace final : public FabricBackend {
 public:
  explicit CoreWithoutTrace(uint32_t hidden = isa::kFEATURE_TRACE | isa::kFEATURE_TRACE_DMA) : hidden_(hidden) {}
  std::string_view name() const override { return "no-trace"; }
  uint64_t memoryBytes() const override { return inner_.memoryBytes(); }
  double clockMhz() const override { return inner_.clockMhz(); }
  Result<DeviceAddress> allocate(uint64_t bytes) override { return inner_.allocate(bytes); }
  void release(DeviceAddress address) override { inner_.release(address); }
  Status copyToDevice(DeviceAddress dst, const void* src, uint64_t bytes) override {
    return inner_.copyToDevice(dst, src, bytes);
  }
  Status copyFromDevice(void* dst, DeviceAddress src, uint64_t bytes) override {
    ++copiesFrom;
    return inner_.copyFromDevice(dst, src, bytes);
  }
  void writeRegister(uint32_t offset, uint32_t value) override {
    if (offset == isa::kRegMODE) modes.push_back(value);
    if (offset == isa::kRegTRACE_ADDR || offset == isa::kRegTRACE_ADDR + kRegisterHighWord) ++traceAddrWrites;
    inner_.writeRegister(offset, value);
  }
  uint32_t readRegister(uint32_t offset) override {
    if (offset >= isa::kRegTRACE_COUNT && offset != isa::kRegFEATURES) ++traceReads;
    if (offset >= isa::kTRACE_RING_OFFSET) ++windowReads;
    const uint32_t value = inner_.readRegister(offset);
    return offset == isa::kRegFEATURES ? value & ~hidden_ : value;
  }
  WaitOutcome waitDone(std::chrono::nanoseconds timeout) override { return inner_.waitDone(timeout); }
  void reset() override { inner_.reset(); }

  std::vector<uint32_t> modes;
  int traceReads = 0;
  int windowReads = 0;
  int traceAddrWrites = 0;
  int copiesFrom = 0;

 private:
  uint32_t hidden_;
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

// A core with the ring but without FEATURE_TRACE_DMA (a bitstream before
// TRACE_ADDR): the driver never writes TRACE_ADDR and reads the window.
TEST(SimTrace, ACoreWithoutTheDumpIsReadThroughTheWindow) {
  CoreWithoutTrace core(isa::kFEATURE_TRACE_DMA);
  const Outcome out = runTraced(core, counterLoop(30), 256, true);
  EXPECT_CORE_STATUS(out, isa::kStatusDONE);
  ASSERT_TRUE(out.report.trace.has_value());
  backends::HlsBackend hls;
  const Outcome direct = runTraced(hls, counterLoop(30), 256, true);
  ASSERT_TRUE(direct.report.trace.has_value());
  EXPECT_EQ(out.report.trace->entries, direct.report.trace->entries);
  EXPECT_EQ(out.report.trace->entries.size(), 31u);
  EXPECT_EQ(core.traceAddrWrites, 0);
  EXPECT_EQ(core.windowReads, 2 * 31);
}

// A core with FEATURE_TRACE_HEADER (both cores): the driver reads the trace
// with one copy of the area and not one trace register, and gets what the
// registers and the window hold.
TEST(SimTrace, ACoreWithTheHeaderIsReadWithOneCopyAndNoTraceRegister) {
  Asm noBranch;
  noBranch.emit(insn::halt());
  for (int32_t n : {0, 30, 300}) {  // an empty ring, some entries, a full ring with drops
    CoreWithoutTrace core(0);
    const Asm program = n == 0 ? noBranch : counterLoop(n);
    const Outcome out = runTraced(core, program, 256, true);
    EXPECT_CORE_STATUS(out, isa::kStatusDONE);
    ASSERT_TRUE(out.report.trace.has_value());
    EXPECT_EQ(core.traceReads, 0) << n;
    EXPECT_EQ(core.windowReads, 0) << n;
    EXPECT_EQ(core.copiesFrom, 1) << n;
    const DeviceTrace registers = readDeviceTrace(core);
    EXPECT_EQ(out.report.trace->entries, registers.entries) << n;
    EXPECT_EQ(out.report.trace->dropped, registers.dropped) << n;
    EXPECT_EQ(out.report.trace->classCycles, registers.classCycles) << n;
    EXPECT_EQ(out.report.trace->entries.size(),
              n == 0 ? 0u : std::min<size_t>(static_cast<size_t>(n) + 1, isa::kTRACE_DEPTH)) << n;
    EXPECT_EQ(out.report.trace->dropped, n == 300 ? 301u - isa::kTRACE_DEPTH : 0u) << n;
    EXPECT_GT(classSum(*out.report.trace), 0u) << n;
  }
}

// The readout of a core with the dump but without the header (its entries
// at TRACE_ADDR, its counters in registers): here a header core's area read
// from where its entries begin, against the header readout.
TEST(SimTrace, TheReadoutWithoutTheHeaderReadsTheCountersAsRegisters) {
  backends::HlsBackend hls;
  SimBackend sim(smallSim());
  for (FabricBackend* backend : {static_cast<FabricBackend*>(&hls), static_cast<FabricBackend*>(&sim)}) {
    Result<DeviceProgram> program = DeviceProgram::load(*backend, counterLoop(40).code, {}, 256);
    ASSERT_TRUE(program.isOk());
    Result<DeviceAddress> area = program->traceArea();
    ASSERT_TRUE(area.isOk());
    LoadedProgram loaded = program->loaded();
    loaded.trace = true;
    CoreDriver driver(*backend);
    Result<RunReport> report = driver.run(loaded, {});
    ASSERT_TRUE(report.isOk()) << report.status().message();
    ASSERT_TRUE(report->trace.has_value());
    RegisterBatch batch;
    TraceReadout old(*area + isa::kTRACE_HEADER_BYTES, false);
    old.addTo(batch);
    batch.run(*backend);
    const DeviceTrace t = old.finish(batch, *backend);
    EXPECT_EQ(t.entries, report->trace->entries) << backend->name();
    EXPECT_EQ(t.entries.size(), 41u) << backend->name();
    EXPECT_EQ(t.dropped, report->trace->dropped) << backend->name();
    EXPECT_EQ(t.classCycles, report->trace->classCycles) << backend->name();
  }
}

// The class counters are no longer kept per instruction by the HLS core
// (per straight-line run, summed at the stop): random scalar programs,
// with branches, loops, HALT errors and faults, traced on both cores give
// the same ring and the same cycles per class (the RTL counts each cycle
// into the executing instruction's class), and the classes add up to the
// cycles the program ran.
TEST(SimTrace, RandomProgramsTraceAlikeOnBothCores) {
  std::mt19937 rng(16);
  backends::HlsBackend hls(smallDevice());
  SimBackend sim(smallSim());
  RandomProgramOptions o;
  o.tensors = false;
  o.loads = false;  // the RTL's CYCLES then equal the model's (docs/rtl.md "Where CYCLES differ")
  int faulted = 0;
  for (int i = 0; i < randomProgramCount(120); ++i) {
    const RandomProgram p = randomProgram(rng, o);
    Outcome out[2];
    FabricBackend* backends[2] = {&hls, &sim};
    for (int b = 0; b < 2; ++b) out[b] = runTraced(*backends[b], p.a, p.dataBytes, true, p.image);
    if (HasFailure()) break;
    const std::string what = "program " + std::to_string(i);
    const RunReport& h = out[0].report;
    const RunReport& r = out[1].report;
    ASSERT_EQ(r.coreStatus, h.coreStatus) << what;
    if (h.coreStatus != isa::kStatusDONE) ++faulted;
    ASSERT_TRUE(h.trace && r.trace) << what;
    EXPECT_EQ(r.cycles, h.cycles) << what;
    EXPECT_EQ(r.trace->entries, h.trace->entries) << what;
    EXPECT_EQ(r.trace->dropped, h.trace->dropped) << what;
    // Also for a load/store outside the region, which the RTL finds a cycle
    // late (S_MEMFAULT): that cycle leaves CYCLES and the MEM class alike.
    EXPECT_EQ(r.trace->classCycles, h.trace->classCycles) << what;
    EXPECT_EQ(classSum(*h.trace) + programLoadCycles(p.a.code.size()), h.cycles) << what;
    if (HasFailure()) break;
  }
  EXPECT_GT(faulted, 0) << "no program stopped with a fault: the fault path is untested";
}

// A TENSOR instruction that faults (an operand or its descriptor outside
// the data region) costs no cycles: CYCLES goes back to its value at the
// issue, and on both cores the TENSOR class gives back every cycle the
// tensor unit ran before the fault, so the classes still add up to CYCLES.
TEST(SimTrace, AFaultingTensorInstructionLeavesNoCyclesInAnyClass) {
  // Descriptor at 0: 8 INT32 elements (as SimHalts.TensorRegionChecksInTheIsaOrder).
  std::vector<uint8_t> image(512, 0);
  const uint32_t desc[16] = {1, 1, 1, 8, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1};
  std::memcpy(image.data(), desc, sizeof desc);
  struct Case {
    uint32_t desc, dst, a, b;
  };
  const Case cases[] = {
      {512, 64, 128, 192},  // descriptor outside
      {0, 500, 128, 192},   // destination outside
      {0, 64, 490, 192},    // A outside
      {0, 64, 128, 510},    // B outside
  };
  backends::HlsBackend hls(smallDevice());
  SimBackend sim(smallSim());
  for (const Case& c : cases) {
    Asm a;
    a.emit(insn::li(1, static_cast<int32_t>(c.dst)));
    a.emit(insn::li(2, static_cast<int32_t>(c.a)));
    a.emit(insn::li(3, static_cast<int32_t>(c.b)));
    a.emit(insn::tensor(isa::kFnADD, isa::kTypeINT32, 1, 2, 3, 0, c.desc));
    a.emit(insn::halt());
    const std::string what = "descriptor " + std::to_string(c.desc) + " dst " + std::to_string(c.dst) + " a " +
                             std::to_string(c.a) + " b " + std::to_string(c.b);
    RunReport out[2];
    FabricBackend* backends[2] = {&hls, &sim};
    for (int b = 0; b < 2; ++b) {
      out[b] = runTraced(*backends[b], a, image.size(), true, image).report;
      const std::string on = what + " on " + std::string(backends[b]->name());
      EXPECT_EQ(out[b].coreStatus, isa::kStatusACCESS_FAULT) << on;
      ASSERT_TRUE(out[b].trace.has_value()) << on;
      EXPECT_EQ(out[b].trace->classCycles[isa::kTraceClassTensor], 0u) << on;
      EXPECT_EQ(classSum(*out[b].trace) + programLoadCycles(a.code.size()), out[b].cycles) << on;
    }
    EXPECT_EQ(out[1].cycles, out[0].cycles) << what;
    EXPECT_EQ(out[1].trace->classCycles, out[0].trace->classCycles) << what;
  }
}

// An error response to the dump's writes (here: the area runs past the end
// of device memory, so the header beat lands and the first entry beat does
// not) fails the run as any posted write's does: BUS_ERROR, FAULT_INFO the
// failing beat's address, HALT_PC where the program stopped, CYCLES as
// without the trace; the driver says the trace was lost. Then a run with a
// good area succeeds (the error is cleared at the start).
TEST(SimTrace, AnErrorResponseToTheDumpFailsTheRunWithItsAddress) {
  backends::HlsBackend hls(smallDevice());
  SimBackend sim(smallSim());
  for (FabricBackend* backend : {static_cast<FabricBackend*>(&hls), static_cast<FabricBackend*>(&sim)}) {
    const std::string name(backend->name());
    const Asm a = counterLoop(20);
    const Outcome off = runTraced(*backend, a, 256, false);
    Result<DeviceProgram> program = DeviceProgram::load(*backend, a.code, {}, 256);
    ASSERT_TRUE(program.isOk());
    const DeviceAddress end = DeviceMemory::kBase + backend->memoryBytes();
    LoadedProgram loaded = program->loaded();
    loaded.trace = true;
    loaded.traceArea = end - isa::kTRACE_HEADER_BYTES;
    CoreDriver driver(*backend);
    Result<RunReport> report = driver.run(loaded, {});
    ASSERT_TRUE(report.isOk()) << report.status().message();
    EXPECT_EQ(report->coreStatus, isa::kStatusBUS_ERROR) << name;
    EXPECT_EQ(report->faultInfo, static_cast<uint32_t>(end)) << name;
    EXPECT_EQ(report->haltPc, static_cast<uint32_t>(a.code.size() - 1)) << name << ": the HALT";
    EXPECT_EQ(report->cycles, off.report.cycles) << name;
    EXPECT_EQ(report->status.code(), ErrorStatus::GENERAL_FAILURE) << name;
    EXPECT_NE(report->status.message().find("trace dump failed"), std::string::npos) << report->status.message();
    EXPECT_FALSE(report->trace.has_value()) << name;

    loaded.traceArea = 0;  // the driver's own area
    Result<RunReport> next = driver.run(loaded, {});
    ASSERT_TRUE(next.isOk());
    EXPECT_EQ(next->coreStatus, isa::kStatusDONE) << name << ": " << next->status.message();
    ASSERT_TRUE(next->trace.has_value());
    EXPECT_EQ(next->trace->entries.size(), 21u) << name;
  }
}

// The same on the RTL with an error answered inside device memory (the
// harness's memory answers SLVERR for one beat): the second entry beat.
TEST(SimTrace, AnErrorResponseInsideMemoryToTheDumpIsReported) {
  SimBackend sim(smallSim());
  Result<DeviceProgram> program = DeviceProgram::load(sim, counterLoop(20).code, {}, 256);
  ASSERT_TRUE(program.isOk());
  Result<DeviceAddress> area = program->traceArea();
  ASSERT_TRUE(area.isOk());
  const DeviceAddress bad = *area + 2 * isa::kMEM_BEAT_BYTES;
  sim.injectBusErrorAt(bad);
  LoadedProgram loaded = program->loaded();
  loaded.trace = true;
  CoreDriver driver(sim);
  Result<RunReport> report = driver.run(loaded, {});
  ASSERT_TRUE(report.isOk());
  EXPECT_EQ(report->coreStatus, isa::kStatusBUS_ERROR);
  EXPECT_EQ(report->faultInfo, static_cast<uint32_t>(bad));
  EXPECT_NE(report->status.message().find("trace dump failed"), std::string::npos) << report->status.message();
  sim.reset();  // clears the injected error
  Result<RunReport> next = driver.run(loaded, {});
  ASSERT_TRUE(next.isOk());
  EXPECT_EQ(next->coreStatus, isa::kStatusDONE) << next->status.message();
}

// A driver prepared for profiling (CoreDriver::prepareTrace) has its trace
// area before any run, and profiled runs without an area of their own use
// it: the trace is read from it, and no run allocates device memory. The
// area does not move where later programs and data land (it comes from
// the top of the memory), and the first profiled run's entries go into the
// buffer prepareTrace reserved (their capacity is a full ring's), not into
// one the run allocates.
TEST(SimTrace, APreparedDriverReadsEveryRunFromItsOwnArea) {
  backends::HlsBackend hls(smallDevice());
  SimBackend sim(smallSim());
  for (FabricBackend* backend : {static_cast<FabricBackend*>(&hls), static_cast<FabricBackend*>(&sim)}) {
    Result<DeviceProgram> program = DeviceProgram::load(*backend, counterLoop(30).code, {}, 256);
    ASSERT_TRUE(program.isOk());
    Result<DeviceAddress> unprepared = backend->allocate(64);
    ASSERT_TRUE(unprepared.isOk());
    backend->release(*unprepared);
    CoreDriver driver(*backend);
    EXPECT_FALSE(driver.traceEntriesPrepared());
    ASSERT_TRUE(driver.prepareTrace().isOk());
    EXPECT_TRUE(driver.traceEntriesPrepared());
    Result<DeviceAddress> probe = backend->allocate(64);
    ASSERT_TRUE(probe.isOk());
    EXPECT_EQ(*probe, *unprepared) << backend->name() << ": the trace area moved the next allocation";
    backend->release(*probe);
    LoadedProgram loaded = program->loaded();
    loaded.trace = true;
    for (int k = 0; k < 2; ++k) {
      Result<RunReport> report = driver.run(loaded, {});
      ASSERT_TRUE(report.isOk());
      ASSERT_TRUE(report->trace.has_value());
      EXPECT_EQ(report->trace->entries.size(), 31u) << backend->name();
      if (k == 0) {
        EXPECT_GE(report->trace->entries.capacity(), size_t{isa::kTRACE_DEPTH})
            << backend->name() << ": the first run's entries are not in the prepared buffer";
        EXPECT_FALSE(driver.traceEntriesPrepared()) << backend->name() << ": the run did not take it";
      }
      Result<DeviceAddress> again = backend->allocate(64);
      ASSERT_TRUE(again.isOk());
      EXPECT_EQ(*again, *probe) << backend->name() << ": a run kept device memory";
      backend->release(*again);
    }
    const uint64_t traceAddr = readRegister64(*backend, isa::kRegTRACE_ADDR);
    EXPECT_NE(traceAddr, 0u);
    EXPECT_GT(traceAddr, *probe) << backend->name() << ": allocated by prepareTrace, at the top";
    // A later preparation (another model prepared for profiling) sets a
    // buffer aside again.
    ASSERT_TRUE(driver.prepareTrace().isOk());
    EXPECT_TRUE(driver.traceEntriesPrepared());
  }
}

}  // namespace
}  // namespace nnfab::fabric::test
