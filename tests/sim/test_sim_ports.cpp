// The three data ports of the RTL core (docs/rtl.md "Data ports", docs/isa.md
// "Memory model"): m_axi_data, m_axi_srcb (the vector engine's B) and
// m_axi_dst (its result) address one data region, each with its own slave
// model here.
//  - Ordering across ports: with memories whose writes land only when their
//    response is taken, and slow responses on one port, a load, a store and
//    a later vector instruction still see every earlier write, whichever
//    port carried it; the data region matches the hls device's exactly.
//  - Soft reset mid-burst on each port: the SimHarness is clocked until the
//    port under test has a burst in flight, then SOFT_RESET_KEY is written;
//    every port's memory ends with nothing outstanding, every RTL assertion
//    holds (a failed one throws), and the next run is right.
//  - Throughput: elementwise INT32 ADD at >= 90 % of the three-port bound of
//    16 elements per cycle, and no faster than it.
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "hls/tensor_test_util.h"
#include "sim/sim_test_util.h"
#include "sim_harness.h"

namespace nnfab::fabric::test {
namespace {

// A two-operand INT32 vector ADD: descriptor at `desc`, n elements.
void putAddDescriptor(std::vector<uint8_t>& image, uint32_t desc, uint32_t n) {
  put<uint32_t>(image, desc, {1, 1, 1, n, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 0});
}

std::vector<int32_t> iota(uint32_t n, int32_t from, int32_t step) {
  std::vector<int32_t> v(n);
  for (uint32_t i = 0; i < n; ++i) v[i] = from + static_cast<int32_t>(i) * step;
  return v;
}

TEST(SimPorts, ReadsSeeEveryEarlierWriteWhicheverPortCarriedIt) {
  constexpr uint32_t n = 2048;
  constexpr uint32_t kA = 64, kB = kA + 4 * n, kC = kB + 4 * n, kD = kC + 4 * n, kOut = kD + 4 * n;
  std::vector<uint8_t> image(kOut + 64, 0);
  putAddDescriptor(image, 0, n);
  const std::vector<int32_t> a = iota(n, 3, 7), b = iota(n, -100, 5);
  put(image, kA, a);
  put(image, kB, b);
  Asm p;
  p.emit(insn::li(1, kC));
  p.emit(insn::li(2, kA));
  p.emit(insn::li(3, kB));
  p.emit(insn::li(6, 12345));
  // A store on m_axi_data into B, read next by the vector engine on m_axi_srcb.
  p.emit(insn::stw(6, 3, 4 * 7));
  p.emit(insn::tensor(isa::kFnADD, isa::kTypeINT32, 1, 2, 3, 0, 0));  // C = A + B (C on m_axi_dst)
  // A load on m_axi_data of the result just written through m_axi_dst.
  p.emit(insn::ldw(4, 1, 4 * (n - 1)));
  p.emit(insn::stw(4, 0, kOut));
  // The result as B of the next vector instruction (m_axi_srcb).
  p.emit(insn::li(5, kD));
  p.emit(insn::tensor(isa::kFnADD, isa::kTypeINT32, 5, 2, 1, 0, 0));  // D = A + C
  p.emit(insn::ldw(4, 5, 4 * 7));
  p.emit(insn::stw(4, 0, kOut + 4));
  p.emit(insn::halt());

  // Writes land only with their response, and m_axi_dst answers late: a
  // read that did not wait for them would see the old bytes.
  SimBackendOptions options = smallSim();
  options.memory.writesVisibleAtResponse = true;
  options.memory.writeResponseLatency = 40;
  sim::AxiMemoryConfig dst = options.memory;
  dst.writeResponseLatency = 400;
  dst.writeBeatInterval = 2;
  options.dstMemory = dst;
  sim::AxiMemoryConfig srcb = options.memory;
  srcb.readLatency = 90;
  options.srcbMemory = srcb;
  const Outcome s = runSim(p, image, image.size(), {}, options);
  EXPECT_CORE_STATUS(s, isa::kStatusDONE);
  ASSERT_EQ(s.data.size(), image.size());

  std::vector<int32_t> bIn = b;
  bIn[7] = 12345;
  std::vector<int32_t> c(n), d(n);
  for (uint32_t i = 0; i < n; ++i) {
    c[i] = int32_math::wrapAdd(a[i], bIn[i]);
    d[i] = int32_math::wrapAdd(a[i], c[i]);
  }
  EXPECT_EQ(get<int32_t>(s.data, kC, n), c);
  EXPECT_EQ(get<int32_t>(s.data, kD, n), d);
  EXPECT_EQ(word(s.data, kOut), c[n - 1]) << "a load read the result before its write responses";
  EXPECT_EQ(word(s.data, kOut + 4), d[7]);
  const Outcome h = run(p, image, image.size());
  expectSameArchitecture(h, s, "hls vs sim, three ports");
}

// ------------------------------------------------- soft reset mid-burst


// The harness bench, and whether every memory has answered everything.
struct Bench : HarnessBench {
  using HarnessBench::HarnessBench;

  void start(const Asm& a, uint32_t dataBytes) { HarnessBench::start(a, {}, dataBytes); }

  bool allIdle() {
    return harness.programMemory().idle() && harness.dataMemory().idle() && harness.srcbMemory().idle() &&
           harness.dstMemory().idle();
  }
};

enum class Port { DATA, SRCB, DST };

sim::AxiMemory& memoryOf(sim::SimHarness& h, Port port) {
  return port == Port::DATA ? h.dataMemory() : port == Port::SRCB ? h.srcbMemory() : h.dstMemory();
}

// An endless vector ADD loop (C = A + B, three distinct regions, so all
// three ports carry bursts) reset when `port` is mid-burst, `delay` cycles
// after it first was.
void resetMidBurst(Port port, uint32_t delay) {
  constexpr uint32_t n = 4096;
  constexpr uint32_t kA = 64, kB = kA + 4 * n, kC = kB + 4 * n, kEnd = kC + 4 * n;
  sim::HarnessConfig config;
  // Slow, different ports: long bursts, AR/AW/W held waiting, late responses.
  config.memory.readBeatInterval = 3;
  config.memory.maxOutstandingReads = 2;
  sim::AxiMemoryConfig srcb = config.memory;
  srcb.readLatency = 70;
  srcb.readBeatInterval = 2;
  srcb.maxOutstandingReads = 1;
  sim::AxiMemoryConfig dst = config.memory;
  dst.writeBeatInterval = 3;
  dst.maxOutstandingWrites = 2;
  dst.writeResponseLatency = 25;
  config.srcbMemory = srcb;
  config.dstMemory = dst;
  Bench b(config);
  const std::string what = "port " + std::to_string(static_cast<int>(port)) + " delay " + std::to_string(delay);

  std::vector<uint8_t> image(kEnd, 0);
  putAddDescriptor(image, 0, n);
  put(image, kA, iota(n, 1, 3));
  put(image, kB, iota(n, 5, -2));
  std::memcpy(b.memory.data() + kBenchData, image.data(), image.size());
  Asm loop;
  loop.emit(insn::li(1, kC));
  loop.emit(insn::li(2, kA));
  loop.emit(insn::li(3, kB));
  const uint32_t top = loop.emit(insn::tensor(isa::kFnADD, isa::kTypeINT32, 1, 2, 3, 0, 0));
  loop.emit(insn::jmp(top, true));
  b.start(loop, kEnd);

  sim::AxiMemory& m = memoryOf(b.harness, port);
  uint64_t waited = 0;
  while (m.idle() && waited < 20000) waited += b.harness.run(1, false);
  ASSERT_FALSE(m.idle()) << what << ": the port never carried a burst";
  b.harness.run(delay, false);
  for (waited = 0; m.idle() && waited < 20000;) waited += b.harness.run(1, false);
  ASSERT_FALSE(m.idle()) << what;
  b.harness.writeRegister(isa::kRegPREEMPT, isa::kSOFT_RESET_KEY);
  EXPECT_FALSE(b.harness.coreIdle()) << what << ": AP_IDLE drops during the soft reset";
  b.harness.run(20000, true);
  ASSERT_TRUE(b.harness.coreIdle()) << what << ": the soft reset did not complete";
  b.harness.run(8, false);
  EXPECT_TRUE(b.allIdle()) << what << ": a port left a transaction unfinished";
  EXPECT_EQ(b.harness.readRegister(isa::kRegSTATUS), isa::kStatusIDLE) << what;

  // The next run: one ADD, then HALT, right.
  std::memcpy(b.memory.data() + kBenchData, image.data(), image.size());
  Asm once;
  once.emit(insn::li(1, kC));
  once.emit(insn::li(2, kA));
  once.emit(insn::li(3, kB));
  once.emit(insn::tensor(isa::kFnADD, isa::kTypeINT32, 1, 2, 3, 0, 0));
  once.emit(insn::halt());
  b.start(once, kEnd);
  b.harness.run(200000, true);
  ASSERT_TRUE(b.harness.coreIdle()) << what;
  EXPECT_EQ(b.harness.readRegister(isa::kRegSTATUS), isa::kStatusDONE) << what;
  std::vector<uint8_t> after(b.memory.begin() + kBenchData, b.memory.begin() + kBenchData + kEnd);
  const std::vector<int32_t> x = iota(n, 1, 3), y = iota(n, 5, -2), z = get<int32_t>(after, kC, n);
  for (uint32_t i = 0; i < n; ++i) ASSERT_EQ(z[i], int32_math::wrapAdd(x[i], y[i])) << what << " element " << i;
}

TEST(SimPorts, SoftResetMidBurstOnEachPortDrainsEveryPort) {
  for (Port port : {Port::DATA, Port::SRCB, Port::DST}) {
    for (uint32_t delay : {0u, 57u, 400u, 1333u}) {
      resetMidBurst(port, delay);
      if (::testing::Test::HasFatalFailure()) return;
    }
  }
}

// ------------------------------------------------------- throughput

// INT32 ADD of n elements: the instruction's own cycles (against a NOP).
uint64_t addCycles(uint32_t n, const SimBackendOptions& options) {
  std::vector<uint8_t> image(64 + 12 * uint64_t{n}, 0);
  putAddDescriptor(image, 0, n);
  put(image, 64, iota(n, 9, 11));
  put(image, 64 + 4 * n, iota(n, -3, 2));
  auto program = [n](bool tensor) { return vectorAddProgram(n, tensor); };
  const Outcome with = runSim(program(true), image, image.size(), {}, options);
  const Outcome without = runSim(program(false), image, image.size(), {}, options);
  EXPECT_CORE_STATUS(with, isa::kStatusDONE);
  const std::vector<int32_t> x = iota(n, 9, 11), y = iota(n, -3, 2), z = get<int32_t>(with.data, 64 + 8 * n, n);
  for (uint32_t i = 0; i < n; ++i) EXPECT_EQ(z[i], int32_math::wrapAdd(x[i], y[i])) << i;
  return with.report.cycles - without.report.cycles + 1;
}

TEST(SimPorts, AddReadsBothOperandsAndWritesTheResultInTheSameCycle) {
  constexpr uint32_t n = 1u << 16;
  const uint64_t cycles = addCycles(n, smallSim());
  // Three ports, one 64-byte beat per cycle each: 16 INT32 elements.
  const double bound = isa::kMEM_BEAT_BYTES / double(sizeof(int32_t));
  const double rate = static_cast<double>(n) / static_cast<double>(cycles);
  EXPECT_GE(rate, 0.9 * bound) << cycles << " cycles";
  EXPECT_LE(rate, bound) << cycles << " cycles";
  RecordProperty("elements_per_cycle_x1000", static_cast<int>(rate * 1000));
}

// Each port is its own bottleneck: halving only m_axi_srcb's, or only
// m_axi_dst's, bandwidth halves the rate.
TEST(SimPorts, EachPortsBandwidthBoundsTheAddOnItsOwn) {
  constexpr uint32_t n = 1u << 14;
  const double bound = isa::kMEM_BEAT_BYTES / double(sizeof(int32_t)) / 2;
  for (int port = 0; port < 3; ++port) {
    SimBackendOptions options = smallSim();
    const sim::AxiMemoryConfig fast = options.memory;
    sim::AxiMemoryConfig slow = fast;
    slow.readBeatInterval = 2;
    slow.writeBeatInterval = 2;
    options.memory = port == 0 ? slow : fast;
    options.srcbMemory = port == 1 ? slow : fast;
    options.dstMemory = port == 2 ? slow : fast;
    const uint64_t cycles = addCycles(n, options);
    const double rate = static_cast<double>(n) / static_cast<double>(cycles);
    EXPECT_GE(rate, 0.85 * bound) << "port " << port << ": " << cycles << " cycles";
    EXPECT_LE(rate, bound) << "port " << port << ": " << cycles << " cycles";
  }
}

}  // namespace
}  // namespace nnfab::fabric::test
