// The harness's one-evaluation clock (docs/sim.md "One evaluation per
// cycle"): SimHarness takes the AXI handshakes of an edge from the outputs
// the previous eval() left, which is right only while every output of the
// core is a function of its registers. HarnessConfig::checkSettledOutputs
// settles the model with each cycle's inputs first and throws if any
// sampled output moved; these tests run it over traffic that moves every
// handshake: random programs (loads, stores, tensor instructions on every
// engine, faults) against slow, back-pressuring memories, and a soft reset
// in the middle of bursts. The same runs without the check (the fast path,
// with runs of quiet cycles) end in the same cycle with the same memory and
// the same coverage counts.
#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "sim/random_program.h"
#include "sim/sim_test_util.h"
#include "sim_coverage.h"
#include "sim_harness.h"

namespace nnfab::fabric::test {
namespace {


// Memories that hold AR, AW and W waiting and answer late, port by port.
sim::HarnessConfig slowMemories(bool check) {
  sim::HarnessConfig config;
  config.memory.readBeatInterval = 2;
  config.memory.maxOutstandingReads = 2;
  config.memory.writeBeatInterval = 2;
  config.memory.maxOutstandingWrites = 2;
  config.memory.writeResponseLatency = 9;
  sim::AxiMemoryConfig srcb = config.memory;
  srcb.readLatency = 45;
  srcb.maxOutstandingReads = 1;
  sim::AxiMemoryConfig dst = config.memory;
  dst.writeBeatInterval = 3;
  dst.writeResponseLatency = 21;
  config.srcbMemory = srcb;
  config.dstMemory = dst;
  config.checkSettledOutputs = check;
  return config;
}

std::vector<uint64_t> retiredOpcodes() {
  const sim::SimCoverage& c = sim::SimCoverage::process();
  return std::vector<uint64_t>(c.opcodes.begin(), c.opcodes.end());
}

std::vector<uint64_t> axiCoverage() {
  const sim::SimCoverage& c = sim::SimCoverage::process();
  return std::vector<uint64_t>(c.axi.begin(), c.axi.end());
}

// What a run added to a coverage count.
std::vector<uint64_t> added(const std::vector<uint64_t>& before, const std::vector<uint64_t>& after) {
  std::vector<uint64_t> d(after.size());
  for (size_t i = 0; i < after.size(); ++i) d[i] = after[i] - before[i];
  return d;
}

struct End {
  uint64_t cycle = 0;
  uint32_t status = 0, cycles = 0;
  std::vector<uint8_t> memory;
  std::vector<uint64_t> opcodes, axi;  // the coverage the run added
};

// With the settle check (which turns runs of quiet cycles off) or without.
End runProgram(const RandomProgram& p, bool check) {
  const auto opcodesBefore = retiredOpcodes(), axiBefore = axiCoverage();
  HarnessBench b(slowMemories(check));
  b.start(p.a, p.image, p.dataBytes);
  b.harness.run(400000, true);
  EXPECT_TRUE(b.harness.coreIdle());
  End e;
  e.status = b.harness.readRegister(isa::kRegSTATUS);
  e.cycles = b.harness.readRegister(isa::kRegCYCLES);
  e.cycle = b.harness.cycle();
  e.memory = std::move(b.memory);
  e.opcodes = added(opcodesBefore, retiredOpcodes());
  e.axi = added(axiBefore, axiCoverage());
  return e;
}

TEST(SimClock, RandomProgramsLeaveEveryOutputSettledBeforeTheEdge) {
  std::mt19937 rng(15);
  RandomProgramOptions o;
  o.maxElements = 300;  // bursts long enough to back-pressure
  for (int i = 0; i < randomProgramCount(40); ++i) {
    const RandomProgram p = randomProgram(rng, o);
    ASSERT_LE(kBenchData + p.image.size(), kBenchMemoryBytes);
    const std::string what = "program " + std::to_string(i);
    End checked, fast;
    ASSERT_NO_THROW(checked = runProgram(p, true)) << what;
    fast = runProgram(p, false);
    EXPECT_EQ(fast.status, checked.status) << what;
    EXPECT_EQ(fast.cycles, checked.cycles) << what;
    EXPECT_EQ(fast.cycle, checked.cycle) << what;
    EXPECT_TRUE(fast.memory == checked.memory) << what << firstDifference(fast.memory, checked.memory);
    EXPECT_EQ(fast.opcodes, checked.opcodes) << what;
    EXPECT_EQ(fast.axi, checked.axi) << what;
    if (HasFailure()) break;
  }
}

// An endless vector ADD (all three ports busy) soft-reset mid-burst: the
// ports finish alone what AXI holds them to, with the check on.
TEST(SimClock, SoftResetMidBurstLeavesEveryOutputSettledBeforeTheEdge) {
  constexpr uint32_t n = 2048;
  constexpr uint32_t kA = 64, kB = kA + 4 * n, kC = kB + 4 * n, kEnd = kC + 4 * n;
  std::vector<uint8_t> image(kEnd, 0);
  put<uint32_t>(image, 0, {1, 1, 1, n, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 0});
  Asm loop;
  loop.emit(insn::li(1, kC));
  loop.emit(insn::li(2, kA));
  loop.emit(insn::li(3, kB));
  const uint32_t top = loop.emit(insn::tensor(isa::kFnADD, isa::kTypeINT32, 1, 2, 3, 0, 0));
  loop.emit(insn::jmp(top, true));
  for (uint32_t delay : {300u, 1201u, 2999u}) {
    HarnessBench b(slowMemories(true));
    b.start(loop, image, kEnd);
    ASSERT_NO_THROW({
      b.harness.run(delay, false);
      b.harness.writeRegister(isa::kRegPREEMPT, isa::kSOFT_RESET_KEY);
      b.harness.run(20000, true);
    }) << "delay " << delay;
    ASSERT_TRUE(b.harness.coreIdle()) << "delay " << delay;
    EXPECT_EQ(b.harness.readRegister(isa::kRegSTATUS), isa::kStatusIDLE) << "delay " << delay;
  }
}

// A program clocked one cycle per tick(), or by run() with its runs of
// quiet cycles; what the coverage counted is the run's share of it.
struct ClockedRun {
  End end;
  uint32_t instret = 0;
  uint64_t evaluations = 0, cycles = 0;  // from the start to the stop
  std::vector<uint64_t> opcodes, axi;
};

ClockedRun clockedRun(const Asm& a, const std::vector<uint8_t>& image, const sim::HarnessConfig& config,
                      bool oneByOne) {
  const auto opcodesBefore = retiredOpcodes(), axiBefore = axiCoverage();
  HarnessBench b(config);
  b.start(a, image, image.size());
  const uint64_t evaluationsBefore = b.harness.evaluations(), cycleBefore = b.harness.cycle();
  if (oneByOne) {
    for (int i = 0; i < 400000 && !b.harness.coreIdle(); ++i) b.harness.tick();
  } else {
    b.harness.run(400000, true);
  }
  EXPECT_TRUE(b.harness.coreIdle());
  ClockedRun r;
  r.evaluations = b.harness.evaluations() - evaluationsBefore;
  r.end.cycle = b.harness.cycle();
  r.end.memory = b.memory;
  r.cycles = r.end.cycle - cycleBefore;
  r.end.status = b.harness.readRegister(isa::kRegSTATUS);
  r.end.cycles = b.harness.readRegister(isa::kRegCYCLES);
  r.instret = b.harness.readRegister(isa::kRegINSTRET);
  r.opcodes = added(opcodesBefore, retiredOpcodes());
  r.axi = added(axiBefore, axiCoverage());
  return r;
}

// The same program clocked both ways ends alike: the same stop cycle,
// STATUS, CYCLES, memory, retired opcodes (summing to INSTRET) and port
// coverage. Returns the run with runs of quiet cycles.
ClockedRun expectSameEndBothWays(const Asm& a, const std::vector<uint8_t>& image, const sim::HarnessConfig& config) {
  const ClockedRun single = clockedRun(a, image, config, true), quiet = clockedRun(a, image, config, false);
  EXPECT_EQ(quiet.end.status, isa::kStatusDONE);
  EXPECT_EQ(quiet.end.status, single.end.status);
  EXPECT_EQ(quiet.end.cycles, single.end.cycles);
  EXPECT_EQ(quiet.end.cycle, single.end.cycle);
  EXPECT_TRUE(quiet.end.memory == single.end.memory) << firstDifference(single.end.memory, quiet.end.memory);
  EXPECT_EQ(quiet.opcodes, single.opcodes);
  EXPECT_EQ(quiet.axi, single.axi);
  uint64_t retired = 0;
  for (uint64_t n : quiet.opcodes) retired += n;
  EXPECT_EQ(retired, quiet.instret);
  EXPECT_EQ(single.evaluations, single.cycles);
  EXPECT_EQ(quiet.cycles, single.cycles);
  return quiet;
}

// Runs of quiet cycles (docs/sim.md): run() clocks the cycles in which the
// core runs and touches no memory several to one eval(). A loop of scalar
// inner loops with a store and a load in each outer round ends where the
// same program clocked one cycle per tick() ends, and run() needed far
// fewer evaluations than cycles.
TEST(SimClock, QuietCyclesRunSeveralToAnEvaluationAndEndWhereSingleCyclesEnd) {
  constexpr int kOuter = 40, kInner = 200;
  Asm a;
  a.emit(insn::li(1, 0));  // i
  a.emit(insn::li(2, kOuter));
  a.emit(insn::li(3, 1));
  a.emit(insn::li(6, 0));  // sum of the values loaded back
  const uint32_t outer = a.emit(insn::li(4, 0));
  a.emit(insn::li(5, kInner));
  const uint32_t inner = a.emit(insn::alu(isa::kFnADD, 4, 4, 3));
  a.emit(insn::brcmp(isa::kFnLT, 4, 5, inner, true));
  a.emit(insn::stw(1, 0, 0));
  a.emit(insn::ldw(7, 0, 0));
  a.emit(insn::alu(isa::kFnADD, 6, 6, 7));
  a.emit(insn::alu(isa::kFnADD, 1, 1, 3));
  a.emit(insn::brcmp(isa::kFnLT, 1, 2, outer, true));
  a.emit(insn::stw(6, 0, 4));
  a.emit(insn::halt());
  const std::vector<uint8_t> image(64, 0);

  const ClockedRun quiet = expectSameEndBothWays(a, image, sim::HarnessConfig{});
  uint32_t sum = 0;
  std::memcpy(&sum, quiet.end.memory.data() + kBenchData + 4, sizeof sum);
  EXPECT_EQ(sum, uint32_t{kOuter * (kOuter - 1) / 2});  // i = 0 .. kOuter - 1
  EXPECT_EQ(quiet.opcodes[isa::kOpSTW], uint64_t{kOuter + 1});
  EXPECT_LT(quiet.evaluations * 5, quiet.cycles) << quiet.evaluations << " evaluations for " << quiet.cycles
                                                 << " cycles";
}

// A memory with work in flight but nothing to offer yet (a load's latency,
// a store's response, a beat interval) does not end a run
// (AxiMemory::quietUntil): a loop of loads and stores through two beats,
// on the default memories and on slow ones, ends where single cycles end,
// with the same memory, opcodes and port coverage, in a fraction of the
// evaluations (each cycle was one before).
TEST(SimClock, CyclesWaitingOnAMemoryRunSeveralToAnEvaluationAndEndWhereSingleCyclesEnd) {
  constexpr int kIterations = 60;
  Asm a;
  a.emit(insn::li(1, 0));  // i
  a.emit(insn::li(2, kIterations));
  a.emit(insn::li(3, 1));
  const uint32_t loop = a.emit(insn::ldw(4, 0, 0));  // word 0 += 1
  a.emit(insn::alu(isa::kFnADD, 4, 4, 3));
  a.emit(insn::stw(4, 0, 0));
  a.emit(insn::ldw(5, 0, 64));  // the next beat's first word += word 0
  a.emit(insn::alu(isa::kFnADD, 5, 5, 4));
  a.emit(insn::stw(5, 0, 64));
  a.emit(insn::alu(isa::kFnADD, 1, 1, 3));
  a.emit(insn::brcmp(isa::kFnLT, 1, 2, loop, true));
  a.emit(insn::halt());
  const std::vector<uint8_t> image(128, 0);

  for (const bool slow : {false, true}) {
    SCOPED_TRACE(slow ? "slow memories" : "default memories");
    const ClockedRun quiet = expectSameEndBothWays(a, image, slow ? slowMemories(false) : sim::HarnessConfig{});
    uint32_t first = 0, second = 0;
    std::memcpy(&first, quiet.end.memory.data() + kBenchData, sizeof first);
    std::memcpy(&second, quiet.end.memory.data() + kBenchData + 64, sizeof second);
    EXPECT_EQ(first, uint32_t{kIterations});
    EXPECT_EQ(second, uint32_t{kIterations * (kIterations + 1) / 2});
    EXPECT_EQ(quiet.opcodes[isa::kOpLDW], uint64_t{2 * kIterations});
    EXPECT_LT(quiet.evaluations * 3, quiet.cycles) << quiet.evaluations << " evaluations for " << quiet.cycles
                                                   << " cycles";
  }
}

}  // namespace
}  // namespace nnfab::fabric::test
