// The harness's one-evaluation clock (docs/sim.md "One evaluation per
// cycle"): SimHarness takes the AXI handshakes of an edge from the outputs
// the previous eval() left, which is right only while every output of the
// core is a function of its registers. HarnessConfig::checkSettledOutputs
// settles the model with each cycle's inputs first and throws if any
// sampled output moved; these tests run it over traffic that moves every
// handshake: random programs (loads, stores, tensor instructions on every
// engine, faults) against slow, back-pressuring memories, and a soft reset
// in the middle of bursts. The same runs without the check (the fast path)
// end in the same cycle with the same memory.
#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "sim/random_program.h"
#include "sim/sim_test_util.h"
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

struct End {
  uint64_t cycle = 0;
  uint32_t status = 0, cycles = 0;
  std::vector<uint8_t> memory;
};

End runProgram(const RandomProgram& p, bool check) {
  HarnessBench b(slowMemories(check));
  b.start(p.a, p.image, p.dataBytes);
  b.harness.run(400000, true);
  EXPECT_TRUE(b.harness.coreIdle());
  End e;
  e.status = b.harness.readRegister(isa::kRegSTATUS);
  e.cycles = b.harness.readRegister(isa::kRegCYCLES);
  e.cycle = b.harness.cycle();
  e.memory = std::move(b.memory);
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

}  // namespace
}  // namespace nnfab::fabric::test
