// The AXI4 bridges on pins, driven by a scripted master, in front of the
// device-memory model: bursts and their data, beats one per cycle, several
// reads in flight, write data before and after its address, WSTRB, the
// 4 KiB and other burst rules, and memory errors turned into responses.
#include <gtest/gtest.h>

#include <systemc>

#include "axi_test_master.h"
#include "ddr_model.h"
#include "fresh_simulation.h"
#include "platform_params.h"

namespace nnfab::sim::test {
namespace {

using sc_core::SC_NS;
using sc_core::sc_time;

constexpr uint64_t kMiB = uint64_t{1} << 20;
const sc_time kPeriod(10.0 / 3, SC_NS);

struct Rig {
  sc_core::sc_clock clock{"clk", kPeriod};
  fabric::DeviceMemory memory{4 * kMiB};
  uint64_t base = *memory.allocate(kMiB);  // 0x1000: 4 KiB aligned
  MemoryProfile profile = cardProfile("u250")->memory;
  DdrModel ddr{"ddr", profile, memory};
  AxiReadBridge reader{"reader", AxiBridgeConfig{kPeriod, 8}};
  AxiWriteBridge writer{"writer", AxiBridgeConfig{kPeriod, 8}};
  AxiTestMaster master{"master"};

  Rig() {
    master.clk(clock);
    master.bind(reader);
    master.bind(writer);
    reader.socket.bind(ddr.socket);
    writer.socket.bind(ddr.socket);
    std::vector<uint8_t> fill(kMiB);
    for (size_t i = 0; i < fill.size(); ++i) fill[i] = static_cast<uint8_t>(i * 13 + i / 256);
    EXPECT_TRUE(memory.copyTo(base, fill.data(), fill.size()).isOk());
  }
  std::vector<uint8_t> bytes(uint64_t address, uint64_t n) {
    std::vector<uint8_t> v(n);
    EXPECT_TRUE(memory.copyFrom(v.data(), address, n).isOk());
    return v;
  }
  sc_time readTime(uint64_t bytes) const {
    return sc_time(profile.latencyNs, SC_NS) + sc_time(static_cast<double>(bytes) / profile.readGBps, SC_NS);
  }
};

WriteBeat beat(uint8_t value, bool last, uint64_t strobes = ~uint64_t{0}) {
  return WriteBeat{std::vector<uint8_t>(kAxiBeatBytes, value), strobes, last, sc_core::SC_ZERO_TIME};
}

TEST(AxiReadBridge, ReturnsABurstOneBeatPerCycleNoEarlierThanTheMemory) {
  freshSimulation();
  Rig rig;
  rig.master.reads.push_back({rig.base + 4096, 63, sc_core::SC_ZERO_TIME});
  sc_core::sc_start(5, sc_core::SC_US);
  const auto& got = rig.master.received;
  ASSERT_EQ(got.size(), 64u);
  const std::vector<uint8_t> expected = rig.bytes(rig.base + 4096, 4096);
  for (size_t i = 0; i < got.size(); ++i) {
    EXPECT_EQ(got[i].resp, kAxiOkay);
    EXPECT_EQ(got[i].last, i == 63);
    EXPECT_TRUE(std::equal(got[i].data.begin(), got[i].data.end(), expected.begin() + i * 64)) << "beat " << i;
    if (i > 0) {
      EXPECT_EQ(got[i].at - got[i - 1].at, kPeriod) << "beat " << i;
    }
  }
  // The last beat: when the memory completes the burst (annotated time),
  // give or take the edge it falls between and the R handshake.
  const sc_time done = rig.master.readAccepted[0] + rig.readTime(4096);
  EXPECT_GE(got.back().at, done);
  EXPECT_LE(got.back().at, done + kPeriod * 2);
  EXPECT_EQ(rig.reader.protocolErrors(), 0u);
}

// Eight bursts requested back to back: all are accepted before the first
// data returns, and together they take one latency plus their transfers at
// the channel bandwidth -- not eight latencies.
TEST(AxiReadBridge, KeepsSeveralReadsInFlight) {
  freshSimulation();
  Rig rig;
  for (int i = 0; i < 8; ++i) rig.master.reads.push_back({rig.base + i * 4096u, 63, sc_core::SC_ZERO_TIME});
  sc_core::sc_start(10, sc_core::SC_US);
  ASSERT_EQ(rig.master.received.size(), 8u * 64);
  ASSERT_EQ(rig.master.readAccepted.size(), 8u);
  EXPECT_LT(rig.master.readAccepted.back(), rig.master.received.front().at);
  const sc_time start = rig.master.readAccepted.front();
  const sc_time bandwidthBound = start + rig.readTime(8 * 4096);
  EXPECT_GE(rig.master.received.back().at, bandwidthBound);
  EXPECT_LE(rig.master.received.back().at, bandwidthBound + kPeriod * 3);
  for (uint32_t i = 0; i < 8; ++i) {
    const std::vector<uint8_t> expected = rig.bytes(rig.base + i * 4096u, 64);
    EXPECT_EQ(rig.master.received[i * 64].data, expected) << "burst " << i;
  }
}

TEST(AxiReadBridge, RefusesABurstAcrossA4KiBBoundary) {
  freshSimulation();
  Rig rig;
  rig.master.reads.push_back({rig.base + 4096 - 128, 3, sc_core::SC_ZERO_TIME});  // 2 beats past the boundary
  rig.master.reads.push_back({rig.base, 0, sc_core::SC_ZERO_TIME});               // and a good one after it
  sc_core::sc_start(5, sc_core::SC_US);
  ASSERT_EQ(rig.master.received.size(), 5u);
  for (int i = 0; i < 4; ++i) EXPECT_EQ(rig.master.received[i].resp, kAxiSlvErr);
  EXPECT_TRUE(rig.master.received[3].last);
  EXPECT_EQ(rig.master.received[4].resp, kAxiOkay);
  EXPECT_EQ(rig.reader.protocolErrors(), 1u);
  EXPECT_NE(rig.reader.lastProtocolError().find("4 KiB"), std::string::npos);
  EXPECT_EQ(rig.ddr.transactions(), 1u);
}

TEST(AxiReadBridge, RefusesOtherRuleBreaks) {
  freshSimulation();
  Rig rig;
  AddressRequest narrow{rig.base, 0, sc_core::SC_ZERO_TIME, 2};
  AddressRequest wrap{rig.base, 0, sc_core::SC_ZERO_TIME, 6, 2};
  AddressRequest unaligned{rig.base + 4, 0, sc_core::SC_ZERO_TIME};
  rig.master.reads = {narrow, wrap, unaligned};
  sc_core::sc_start(5, sc_core::SC_US);
  ASSERT_EQ(rig.master.received.size(), 3u);
  for (const ReceivedBeat& b : rig.master.received) EXPECT_EQ(b.resp, kAxiSlvErr);
  EXPECT_EQ(rig.reader.protocolErrors(), 3u);
  EXPECT_EQ(rig.ddr.transactions(), 0u);
}

TEST(AxiReadBridge, AMemoryErrorBecomesDecErrOnEveryBeat) {
  freshSimulation();
  Rig rig;
  rig.master.reads.push_back({16 * kMiB, 1, sc_core::SC_ZERO_TIME});  // beyond the 4 MiB memory
  sc_core::sc_start(5, sc_core::SC_US);
  ASSERT_EQ(rig.master.received.size(), 2u);
  EXPECT_EQ(rig.master.received[0].resp, kAxiDecErr);
  EXPECT_EQ(rig.master.received[1].resp, kAxiDecErr);
  EXPECT_EQ(rig.reader.errorBeats(), 2u);
  EXPECT_EQ(rig.reader.protocolErrors(), 0u);
}

TEST(AxiWriteBridge, AcceptsDataBeforeAndAfterItsAddressAndHonoursWstrb) {
  freshSimulation();
  Rig rig;
  const uint64_t a = rig.base + 8192, b = rig.base + 12288;
  // Burst 1: both beats go out at once, the address 100 ns later.
  rig.master.writes.push_back({a, 1, sc_time(100, SC_NS)});
  rig.master.beats.push_back(beat(0x11, false));
  rig.master.beats.push_back(beat(0x22, true));
  // Burst 2: address at once, data 300 ns later; only even bytes enabled.
  rig.master.writes.push_back({b, 0, sc_core::SC_ZERO_TIME});
  WriteBeat partial = beat(0x33, true, 0x5555555555555555ull);
  partial.notBefore = sc_time(300, SC_NS);
  rig.master.beats.push_back(partial);
  const std::vector<uint8_t> before = rig.bytes(b, 64);
  sc_core::sc_start(5, sc_core::SC_US);
  ASSERT_EQ(rig.master.responses.size(), 2u);
  EXPECT_EQ(rig.master.responses[0].resp, kAxiOkay);
  EXPECT_EQ(rig.master.responses[1].resp, kAxiOkay);
  EXPECT_EQ(rig.bytes(a, 64), std::vector<uint8_t>(64, 0x11));
  EXPECT_EQ(rig.bytes(a + 64, 64), std::vector<uint8_t>(64, 0x22));
  const std::vector<uint8_t> after = rig.bytes(b, 64);
  for (int i = 0; i < 64; ++i) EXPECT_EQ(after[i], i % 2 == 0 ? 0x33 : before[i]) << "byte " << i;
  // B no earlier than the memory's write completion after the last beat.
  EXPECT_GE(rig.master.responses[1].at,
            sc_time(300, SC_NS) + sc_time(rig.profile.writeLatencyNs, SC_NS));
  EXPECT_EQ(rig.writer.protocolErrors(), 0u);
}

TEST(AxiWriteBridge, RefusesABurstAcrossA4KiBBoundaryAndLeavesMemoryAlone) {
  freshSimulation();
  Rig rig;
  const uint64_t at = rig.base + 4096 - 64;
  const std::vector<uint8_t> before = rig.bytes(at, 128);
  rig.master.writes.push_back({at, 1, sc_core::SC_ZERO_TIME});
  rig.master.beats.push_back(beat(0x77, false));
  rig.master.beats.push_back(beat(0x77, true));
  sc_core::sc_start(5, sc_core::SC_US);
  ASSERT_EQ(rig.master.responses.size(), 1u);
  EXPECT_EQ(rig.master.responses[0].resp, kAxiSlvErr);
  EXPECT_EQ(rig.bytes(at, 128), before);
  EXPECT_EQ(rig.writer.protocolErrors(), 1u);
}

TEST(AxiWriteBridge, AWrongWlastIsAProtocolError) {
  freshSimulation();
  Rig rig;
  rig.master.writes.push_back({rig.base, 1, sc_core::SC_ZERO_TIME});
  rig.master.beats.push_back(beat(0x44, true));  // WLAST on the first of two beats
  sc_core::sc_start(5, sc_core::SC_US);
  ASSERT_EQ(rig.master.responses.size(), 1u);
  EXPECT_EQ(rig.master.responses[0].resp, kAxiSlvErr);
  EXPECT_EQ(rig.writer.protocolErrors(), 1u);
  EXPECT_NE(rig.writer.lastProtocolError().find("WLAST"), std::string::npos);
}

TEST(AxiWriteBridge, AMemoryErrorBecomesDecErr) {
  freshSimulation();
  Rig rig;
  rig.master.writes.push_back({16 * kMiB, 0, sc_core::SC_ZERO_TIME});
  rig.master.beats.push_back(beat(0x55, true));
  sc_core::sc_start(5, sc_core::SC_US);
  ASSERT_EQ(rig.master.responses.size(), 1u);
  EXPECT_EQ(rig.master.responses[0].resp, kAxiDecErr);
  EXPECT_EQ(rig.writer.errorResponses(), 1u);
}

TEST(AxiBridges, ResetDropsEverythingInFlight) {
  freshSimulation();
  Rig rig;
  for (int i = 0; i < 4; ++i) rig.master.reads.push_back({rig.base + i * 4096u, 63, sc_core::SC_ZERO_TIME});
  sc_core::sc_start(30, SC_NS);  // accepted, no data yet
  ASSERT_FALSE(rig.master.readAccepted.empty());
  rig.master.rst_n.write(false);
  sc_core::sc_start(20, SC_NS);
  const size_t beatsAtReset = rig.master.received.size();
  rig.master.reads.clear();
  rig.master.rst_n.write(true);
  sc_core::sc_start(5, sc_core::SC_US);
  EXPECT_EQ(rig.master.received.size(), beatsAtReset);
  EXPECT_EQ(beatsAtReset, 0u);
}

}  // namespace
}  // namespace nnfab::sim::test
