// nnfab_tensor_vec Verilated alone on the sim's AXI memory model, one
// slave per port over one memory (port A: sources A and C; port B: source
// B; the write port: the result): random vector-engine instructions (every
// function the engine takes, INT32 and BOOL8 lanes, 1 to 3 sources at
// random byte offsets, random lengths) under random memory timing, drawn
// for each port on its own (read latency, beat intervals, outstanding-read
// and -write limits, write response latency), against the ISA's element
// function as the
// reference model: every destination element right, every byte outside the
// destination untouched, the memory model's AXI checks and the RTL's
// assertions quiet; and R never held back (the engine's credits). Prints a
// coverage summary (functions, burst shapes, back-pressure).
#include <gtest/gtest.h>
#include <verilated.h>

#include <cstring>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "unit_context.h"
#include "Vnnfab_tensor_vec.h"
#include "axi_memory.h"
#include "hls/tensor_test_util.h"
#include "rtl_assert.h"

namespace nnfab::fabric::test {
namespace {

using sim::AxiMasterOut;
using sim::AxiMemory;
using sim::AxiMemoryConfig;
using sim::AxiSlaveOut;
using sim::kBeatBytes;
using sim::kBeatWords;

constexpr uint64_t kMemoryBytes = 256 * 1024;

struct VecBench {
  nnfab::rtl_test::UnitContext context;
  Vnnfab_tensor_vec dut{&context};
  std::vector<uint8_t> memory = std::vector<uint8_t>(kMemoryBytes);
  AxiMemory::BeatMap map = [this](uint64_t a) -> uint8_t* {
    return a + kBeatBytes <= memory.size() ? memory.data() + a : nullptr;
  };
  AxiMemory axi, axiB, axiW;  // port A, port B, the write port
  uint64_t cycle = 0;
  uint64_t bothReadsAndWrite = 0;  // cycles with a beat on all three ports at once
  std::map<std::string, int>& hits;

  VecBench(const AxiMemoryConfig (&config)[3], std::map<std::string, int>& coverage)
      : axi("vec port A", config[0], map), axiB("vec port B", config[1], map), axiW("vec write port", config[2], map),
        hits(coverage) {
    context.fatalOnError(false);
    dut.rst = 1;
    step();
    dut.rst = 0;
  }

  void countRead(const AxiMasterOut& m, const AxiSlaveOut& s, const std::string& port) {
    if (m.arvalid && s.arready) hits[m.arlen == 0 ? "read burst 1" : m.arlen == 63 ? "read burst 64" : "read burst 2-63"]++;
    if (m.arvalid && !s.arready) hits["AR waits for memory on " + port]++;
    if (s.rvalid && !m.rready) hits["R waits for engine"]++;
  }

  bool idle() const { return axi.idle() && axiB.idle() && axiW.idle(); }

  void step() {
    const AxiSlaveOut s = axi.drive(cycle);
    const AxiSlaveOut sb = axiB.drive(cycle);
    const AxiSlaveOut sw = axiW.drive(cycle);
    dut.rd_ready = s.arready;
    dut.r_valid = s.rvalid;
    dut.r_last = s.rlast;
    for (uint32_t i = 0; i < kBeatWords; ++i) dut.r_data[i] = s.rdata[i];
    dut.b_rd_ready = sb.arready;
    dut.b_r_valid = sb.rvalid;
    dut.b_r_last = sb.rlast;
    for (uint32_t i = 0; i < kBeatWords; ++i) dut.b_r_data[i] = sb.rdata[i];
    dut.aw_ready = sw.awready;
    dut.w_ready = sw.wready;
    dut.clk = 0;
    dut.eval();
    AxiMasterOut m, mb, mw;
    m.arvalid = dut.rd_valid;
    m.araddr = dut.rd_addr;
    m.arlen = dut.rd_len;
    m.arsize = 6;
    m.arburst = 1;
    m.rready = dut.r_ready;
    mb.arvalid = dut.b_rd_valid;
    mb.araddr = dut.b_rd_addr;
    mb.arlen = dut.b_rd_len;
    mb.arsize = 6;
    mb.arburst = 1;
    mb.rready = dut.b_r_ready;
    mw.awvalid = dut.aw_valid;
    mw.awaddr = dut.aw_addr;
    mw.awlen = dut.aw_len;
    mw.awsize = 6;
    mw.awburst = 1;
    mw.wvalid = dut.w_valid;
    for (uint32_t i = 0; i < kBeatWords; ++i) mw.wdata[i] = dut.w_data[i];
    mw.wstrb = dut.w_strb;
    mw.wlast = dut.w_last;
    mw.bready = true;
    countRead(m, s, "port A");
    countRead(mb, sb, "port B");
    if (mw.awvalid && sw.awready) hits[mw.awlen == 0 ? "write burst 1" : mw.awlen == 63 ? "write burst 64" : "write burst 2-63"]++;
    if (mw.awvalid && !sw.awready) hits["AW waits for memory"]++;
    if (mw.wvalid && !sw.wready) hits["W waits for memory"]++;
    if (s.rvalid && m.rready && sb.rvalid && mb.rready && mw.wvalid && sw.wready) ++bothReadsAndWrite;
    axi.edge(cycle, m, s);
    axiB.edge(cycle, mb, sb);
    axiW.edge(cycle, mw, sw);
    dut.clk = 1;
    dut.eval();
    ++cycle;
  }
};

struct Case {
  uint32_t fn, type, n;
  uint64_t src[3], dst;
};

// abortAt >= 0: abort the instruction at that cycle after its start; the
// engine must finish every burst it started (promised beats empty), touch
// nothing outside the destination, and, once idle, drive no W beat.
void runCase(uint32_t seed, std::map<std::string, int>& hits, int abortAt = -1) {
  std::mt19937 rng(seed);
  auto rand = [&](uint32_t n) { return std::uniform_int_distribution<uint32_t>(0, n - 1)(rng); };
  // Each port's slave on its own timing: back-pressure on every channel.
  AxiMemoryConfig config[3];
  for (AxiMemoryConfig& port : config) {
    port.readLatency = 1 + rand(40);
    port.readBeatInterval = 1 + rand(3);
    port.writeBeatInterval = 1 + rand(3);
    port.maxOutstandingReads = 1 + rand(8);
    port.maxOutstandingWrites = 1 + rand(16);
    port.writeResponseLatency = 1 + rand(20);
    // An abort withdraws a waiting AR or AW, which the core's data port
    // absorbs (it completes what AXI holds it to) but a bare AXI slave
    // would see as a protocol violation: in the abort cases AR and AW are
    // always accepted at once (no outstanding limit), W and R still wait.
    if (abortAt >= 0) port.maxOutstandingReads = port.maxOutstandingWrites = 1 << 20;
  }
  VecBench b(config, hits);
  for (auto& byte : b.memory) byte = static_cast<uint8_t>(rng());

  // A function the vector engine takes: every source of the result's size.
  Case c{};
  for (;;) {
    c.fn = rand(isa::kNumAluFns);
    c.type = rand(2) == 0 ? isa::kTypeINT32 : isa::kTypeBOOL8;
    if (c.fn == isa::kFnDIV || isa::fnTensorOnly(c.fn) || !(isa::fnTypeMask(c.fn) & (1u << c.type))) continue;
    const uint32_t rb = resultBytes(c.fn, c.type);
    bool same = true;
    for (uint32_t s = 0; s < isa::fnOperands(c.fn); ++s) same = same && sourceBytes(c.fn, c.type, int(s)) == rb;
    if (same) break;
  }
  const uint32_t eb = resultBytes(c.fn, c.type);
  const uint32_t nsrc = isa::fnOperands(c.fn);
  c.n = 1 + (rand(4) == 0 ? rand(8) : rand(3000));
  const uint64_t bytes = uint64_t{c.n} * eb;
  // Four disjoint slots of 64 KiB; each operand at a random element offset.
  for (uint32_t s = 0; s < 3; ++s) c.src[s] = s * 65536 + uint64_t{rand(65536 - uint32_t(bytes)) / eb} * eb;
  c.dst = 3 * 65536 + uint64_t{rand(65536 - uint32_t(bytes)) / eb} * eb;
  hits[std::string("fn ") + std::to_string(c.fn) + (c.type == isa::kTypeBOOL8 ? " bool8" : " int32")]++;

  const std::vector<uint8_t> before = b.memory;
  std::vector<uint8_t> expect = before;
  for (uint64_t i = 0; i < c.n; ++i) {
    uint32_t v[3] = {0, 0, 0};
    for (uint32_t s = 0; s < nsrc; ++s) std::memcpy(&v[s], &before[c.src[s] + i * eb], eb);
    const uint32_t y = isaFunction(c.fn, v[0], v[1], v[2]);
    std::memcpy(&expect[c.dst + i * eb], &y, eb);
  }

  Vnnfab_tensor_vec& d = b.dut;
  d.fn = c.fn;
  d.nsrc = nsrc;
  d.byte_lanes = eb == 1;
  d.src0 = c.src[0];
  d.src1 = c.src[1];
  d.src2 = c.src[2];
  d.dst = c.dst;
  d.total_bytes = uint32_t(bytes);
  d.start = 1;
  b.step();
  d.start = 0;
  const std::string what = "seed " + std::to_string(seed) + " fn " + std::to_string(c.fn) + " type " +
                           std::to_string(c.type) + " n " + std::to_string(c.n);
  if (abortAt >= 0) {
    for (int i = 0; i < abortAt && !d.done; ++i) b.step();
    if (d.w_valid && !d.w_ready) hits["abort with a result beat waiting"]++;
    d.__SYM__abort = 1;  // `abort` is a C function: Verilator renames the port
    b.step();
    d.__SYM__abort = 0;
    for (int i = 0; i < 200000 && (d.busy || !b.idle()); ++i) {
      b.step();
      ASSERT_FALSE(b.context.gotError()) << what << ": " << sim::takeRtlAssertionFailure();
    }
    ASSERT_FALSE(d.busy) << what << ": still busy after the abort";
    for (int i = 0; i < 100; ++i) {
      ASSERT_FALSE(d.w_valid) << what << ": a W beat from the idle engine, " << i << " cycles after the abort";
      b.step();
    }
    for (uint64_t a = 0; a < kMemoryBytes; ++a) {
      if (a < c.dst || a >= c.dst + bytes) {
        ASSERT_EQ(b.memory[a], before[a]) << what << ": byte " << a << " (outside)";
      }
    }
    return;
  }
  bool done = false;
  for (int i = 0; i < 200000 && !done; ++i) {
    done = d.done;
    b.step();
    ASSERT_FALSE(b.context.gotError()) << what << ": " << sim::takeRtlAssertionFailure();
  }
  ASSERT_TRUE(done) << what << ": no done";
  for (int i = 0; i < 64 && !b.idle(); ++i) b.step();  // the last writes land
  ASSERT_TRUE(b.idle()) << what;
  if (nsrc >= 2) hits["A and B read and a result written in one cycle"] += b.bothReadsAndWrite > 0;
  for (uint64_t a = 0; a < kMemoryBytes; ++a) {
    ASSERT_EQ(b.memory[a], expect[a]) << what << ": byte " << a
                                      << (a >= c.dst && a < c.dst + bytes ? " (destination)" : " (outside)");
  }
}

TEST(RtlTensorVec, RandomInstructionsAndMemoryTimingMatchTheIsa) {
  std::map<std::string, int> hits;
  for (uint32_t seed = 1; seed <= 60; ++seed) {
    runCase(seed, hits);
    if (::testing::Test::HasFailure()) return;
  }
  std::string summary = "tensor_vec coverage:";
  for (const auto& [what, n] : hits) {
    summary += " [";
    summary += what;
    summary += ' ';
    summary += std::to_string(n);
    summary += ']';
  }
  std::printf("%s\n", summary.c_str());
  for (const char* must : {"read burst 1", "read burst 2-63", "read burst 64", "write burst 2-63", "write burst 64",
                           "AR waits for memory on port A", "AR waits for memory on port B", "AW waits for memory",
                           "W waits for memory", "A and B read and a result written in one cycle"})
    EXPECT_GT(hits[must], 0) << "stimulus never reached: " << must;
  // Credits: a burst is requested only when its FIFO has room for all of
  // it, so the engine never holds back read data (docs/rtl.md).
  EXPECT_EQ(hits["R waits for engine"], 0);
}

// Aborts at random points of random instructions: nothing after the abort
// but the bursts already started, and no W beat once the engine is idle
// (a result beat waiting at the abort is dropped, not sent without an AW).
TEST(RtlTensorVec, AnAbortLeavesNoBeatBehind) {
  std::map<std::string, int> hits;
  for (uint32_t seed = 1; seed <= 80; ++seed) {
    runCase(1000 + seed, hits, static_cast<int>(5 + (seed * 37) % 400));
    if (::testing::Test::HasFailure()) return;
  }
  EXPECT_GT(hits["abort with a result beat waiting"], 0) << "stimulus never reached an abort with a beat waiting";
}

}  // namespace
}  // namespace nnfab::fabric::test
