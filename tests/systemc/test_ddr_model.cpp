// The device-memory model's timing rule and storage, checked against the
// arithmetic its parameters imply. Tolerance: SystemC rounds every computed
// duration to its time resolution (1 ps), once per duration summed.
#include <gtest/gtest.h>

#include <systemc>

#include "ddr_model.h"
#include "fresh_simulation.h"
#include "platform_params.h"
#include "tlm_probe.h"

namespace nnfab::sim::test {
namespace {

using sc_core::SC_NS;
using sc_core::sc_time;

constexpr uint64_t kMiB = uint64_t{1} << 20;
constexpr uint64_t kBurst = 4096;

const sc_time kResolution = sc_core::sc_get_time_resolution();

MemoryProfile u250() { return cardProfile("u250")->memory; }

sc_time transfer(uint64_t bytes, double gbps) { return sc_time(static_cast<double>(bytes) / gbps, SC_NS); }

struct Rig {
  fabric::DeviceMemory memory{64 * kMiB};
  uint64_t base = 0;
  Rig() { base = *memory.allocate(32 * kMiB); }
};

std::vector<ProbeTransaction> reads(uint64_t address, uint64_t bytes, uint64_t each) {
  std::vector<ProbeTransaction> script;
  for (uint64_t at = 0; at < bytes; at += each) {
    script.push_back(transaction(false, address + at, std::vector<uint8_t>(each), sc_core::SC_ZERO_TIME));
  }
  return script;
}

void expectNear(const sc_time& actual, const sc_time& expected, const sc_time& tolerance) {
  const sc_time diff = actual > expected ? actual - expected : expected - actual;
  EXPECT_LE(diff, tolerance) << "actual " << actual << ", expected " << expected;
}

TEST(DdrModel, OneMiBReadTakesLatencyPlusSizeOverBandwidth) {
  freshSimulation();
  Rig rig;
  const MemoryProfile p = u250();
  DdrModel ddr("ddr", p, rig.memory);
  TlmProbe probe("probe", reads(rig.base, kMiB, kMiB));
  probe.socket.bind(ddr.socket);
  sc_core::sc_start(1, sc_core::SC_MS);
  ASSERT_EQ(probe.results()[0].status, tlm::TLM_OK_RESPONSE);
  expectNear(probe.lastCompletion(), sc_time(p.latencyNs, SC_NS) + transfer(kMiB, p.readGBps), 3 * kResolution);
}

// 256 AXI-sized bursts in flight at once: each latency hides behind the
// transfers of the others, so the whole MiB again takes latency + size /
// bandwidth; the first burst is back after latency + 4 KiB / bandwidth.
TEST(DdrModel, OutstandingBurstsReachTheChannelBandwidth) {
  freshSimulation();
  Rig rig;
  const MemoryProfile p = u250();
  DdrModel ddr("ddr", p, rig.memory);
  TlmProbe probe("probe", reads(rig.base, kMiB, kBurst));
  probe.socket.bind(ddr.socket);
  sc_core::sc_start(1, sc_core::SC_MS);
  const uint64_t n = kMiB / kBurst;
  expectNear(probe.results()[0].completeAt, sc_time(p.latencyNs, SC_NS) + transfer(kBurst, p.readGBps),
             3 * kResolution);
  expectNear(probe.lastCompletion(), sc_time(p.latencyNs, SC_NS) + transfer(kBurst, p.readGBps) * double(n),
             (n + 2) * kResolution);
  EXPECT_EQ(ddr.bytesRead(), kMiB);
  EXPECT_EQ(ddr.transactions(), n);
}

TEST(DdrModel, WritesUseTheWriteBandwidthAndLatency) {
  freshSimulation();
  Rig rig;
  const MemoryProfile p = u250();
  DdrModel ddr("ddr", p, rig.memory);
  auto script = reads(rig.base, kMiB, kMiB);
  script[0].write = true;
  TlmProbe probe("probe", script);
  probe.socket.bind(ddr.socket);
  sc_core::sc_start(1, sc_core::SC_MS);
  expectNear(probe.lastCompletion(), sc_time(p.writeLatencyNs, SC_NS) + transfer(kMiB, p.writeGBps),
             3 * kResolution);
}

// Two channels serve two transfers in the time of one; one channel, twice.
TEST(DdrModel, ChannelsWorkInParallel) {
  freshSimulation();
  Rig rig;
  MemoryProfile p = u250();
  p.channelBytes = 8 * kMiB;  // small channels, so that a small memory spans several
  DdrModel ddr("ddr", p, rig.memory);
  const uint64_t channel0 = rig.base, channel1 = 8 * kMiB, alsoChannel0 = rig.base + kMiB;
  ASSERT_EQ(ddr.channelOf(channel0), 0u);
  ASSERT_EQ(ddr.channelOf(channel1), 1u);
  auto script = reads(channel0, kMiB, kMiB);
  script.push_back(reads(channel1, kMiB, kMiB)[0]);
  script.push_back(reads(alsoChannel0, kMiB, kMiB)[0]);
  TlmProbe probe("probe", script);
  probe.socket.bind(ddr.socket);
  sc_core::sc_start(1, sc_core::SC_MS);
  const sc_time one = sc_time(p.latencyNs, SC_NS) + transfer(kMiB, p.readGBps);
  expectNear(probe.results()[0].completeAt, one, 3 * kResolution);
  expectNear(probe.results()[1].completeAt, one, 3 * kResolution);
  expectNear(probe.results()[2].completeAt, one + transfer(kMiB, p.readGBps), 4 * kResolution);
}

TEST(DdrModel, StoresBytesAndHonoursByteEnables) {
  freshSimulation();
  Rig rig;
  DdrModel ddr("ddr", u250(), rig.memory);
  std::vector<uint8_t> pattern(256);
  for (size_t i = 0; i < pattern.size(); ++i) pattern[i] = static_cast<uint8_t>(i * 7 + 1);
  std::vector<ProbeTransaction> script;
  script.push_back(transaction(true, rig.base, pattern, sc_core::SC_ZERO_TIME));
  script.push_back(transaction(false, rig.base, std::vector<uint8_t>(256), sc_time(1, sc_core::SC_US)));
  TlmProbe probe("probe", script);
  probe.socket.bind(ddr.socket);
  sc_core::sc_start(10, sc_core::SC_US);
  EXPECT_EQ(probe.results()[1].data, pattern);
}

TEST(DdrModel, ByteEnablesLeaveDisabledBytesAlone) {
  freshSimulation();
  Rig rig;
  DdrModel ddr("ddr", u250(), rig.memory);
  const std::vector<uint8_t> before = {1, 2, 3, 4, 5, 6, 7, 8};
  ASSERT_TRUE(rig.memory.copyTo(rig.base, before.data(), before.size()).isOk());
  ProbeTransaction write = transaction(true, rig.base, std::vector<uint8_t>(8, 0xFF));
  write.byteEnables = {TLM_BYTE_ENABLED, TLM_BYTE_DISABLED, TLM_BYTE_ENABLED, TLM_BYTE_DISABLED};  // repeats
  TlmProbe probe("probe", {write});
  probe.socket.bind(ddr.socket);
  sc_core::sc_start(1, sc_core::SC_US);
  ASSERT_EQ(probe.results()[0].status, tlm::TLM_OK_RESPONSE);
  std::vector<uint8_t> after(8);
  ASSERT_TRUE(rig.memory.copyFrom(after.data(), rig.base, after.size()).isOk());
  EXPECT_EQ(after, (std::vector<uint8_t>{0xFF, 2, 0xFF, 4, 0xFF, 6, 0xFF, 8}));
}

TEST(DdrModel, OutsideTheMemoryIsAnAddressError) {
  freshSimulation();
  Rig rig;
  DdrModel ddr("ddr", u250(), rig.memory);
  TlmProbe probe("probe", reads(64 * kMiB + fabric::DeviceMemory::kBase, 4096, 4096));
  probe.socket.bind(ddr.socket);
  sc_core::sc_start(1, sc_core::SC_US);
  EXPECT_EQ(probe.results()[0].status, tlm::TLM_ADDRESS_ERROR_RESPONSE);
  EXPECT_EQ(ddr.transactions(), 0u);
}

TEST(CardProfiles, FollowTheAnchors) {
  const CardProfile u250 = *cardProfile("u250"), u280 = *cardProfile("u280"), hbm = *cardProfile("u280-hbm");
  EXPECT_EQ(u250.memory.channels, 4u);  // docs/platform-model.md [S1]: 4 x 16 GB DDR4
  EXPECT_EQ(u280.memory.channels, 2u);  // 2 x 16 GB DDR4 (+ HBM)
  EXPECT_EQ(hbm.memory.channels, 32u);
  // Sustained per-port figures stay below the 512-bit x 300 MHz port limit.
  EXPECT_LT(u250.memory.readGBps, 64.0 * 300e6 / 1e9);
  EXPECT_NEAR(hbm.memory.readGBps * 32, 421.3, 0.1);
  // [S5] (XRT#4592): 1/102,492 - 1/213,653 s per command, in ns.
  EXPECT_NEAR(u250.pcie.interruptNs, 5077, 1);
  // [S4] host_global_bandwidth: 64 B at 4.7 MB/s, in us.
  EXPECT_NEAR(u250.pcie.transferUs, 13.6, 0.05);
  EXPECT_FALSE(cardProfile("u55c").has_value());
}

}  // namespace
}  // namespace nnfab::sim::test
