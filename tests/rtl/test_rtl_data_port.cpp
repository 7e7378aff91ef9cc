// nnfab_data_port Verilated alone: random clients on one side (read bursts,
// single-beat posted writes, burst writes; never two write clients at once,
// as in the core) and a random AXI4 slave on the other (ARREADY/AWREADY/
// WREADY gaps, R and B latencies, error responses), against a reference
// model of docs/rtl.md "AXI behaviour": requests pass through in order with
// their payload, queued writes come out in push order as single-beat bursts,
// the write queue is full exactly at 4 entries, reads_idle/writes_idle follow
// the outstanding work, and the first error response sets bus_error with
// its beat's (reads) or burst's (writes) address. Prints a coverage summary
// of burst shapes and back-pressure patterns.
#include <gtest/gtest.h>
#include <verilated.h>

#include <array>
#include <deque>
#include <map>
#include <random>
#include <string>

#include "unit_context.h"
#include "Vnnfab_data_port.h"
#include "rtl_assert.h"

namespace nnfab::sim {
namespace {

constexpr int kWords = 16;  // 32-bit words of a 512-bit beat
constexpr uint32_t kQueueEntries = 4;

struct ReadBurst {
  uint64_t addr;
  uint32_t len;  // AXI len: beats - 1
  uint32_t sent = 0;
  bool error = false;
};
struct WriteReq {
  uint64_t addr;
  uint32_t len;
  std::array<uint32_t, kWords> data{};
  uint64_t strb = 0;
};

struct PortBench {
  nnfab::rtl_test::UnitContext context;
  Vnnfab_data_port dut{&context};
  std::mt19937 rng;
  std::map<std::string, int> hits;
  explicit PortBench(uint32_t seed) : rng(seed) {
    context.fatalOnError(false);  // a failed assertion fails the test below
    dut.rst = 1;
    dut.clk = 0;
    dut.eval();
    dut.clk = 1;
    dut.eval();
    dut.rst = 0;
  }
  uint32_t rand(uint32_t n) { return std::uniform_int_distribution<uint32_t>(0, n - 1)(rng); }
  bool chance(uint32_t percent) { return rand(100) < percent; }
  // A burst that never crosses 4 KiB, mostly short.
  std::pair<uint64_t, uint32_t> randomBurst() {
    const uint64_t beat = (uint64_t{rng()} << 6 | rand(64)) & 0xFFFFFFFFFFull;
    const uint32_t room = 64 - uint32_t(beat % 64);
    const uint32_t beats = chance(50) ? 1 : 1 + rand(room);
    hits[beats == 1 ? "burst 1 beat" : beats == room ? "burst to 4 KiB edge" : "burst 2..63 beats"]++;
    return {beat << 6, beats - 1};
  }
};

void runSession(uint32_t seed, int cycles) {
  PortBench b(seed);
  Vnnfab_data_port& d = b.dut;
  // Client side.
  std::deque<std::pair<uint64_t, uint32_t>> readRequests;  // not yet accepted
  std::deque<WriteReq> pushed;       // queued single-beat writes, expected on AW/W in order
  std::deque<WriteReq> bursts;       // burst writes: AW expected in order
  std::deque<WriteReq> burstBeats;   // their W beats, one entry per beat, in order
  bool burstPhase = false;           // which write client is active (never both)
  uint32_t queueCount = 0;           // model of the posted queue's occupancy
  bool headAw = false, headW = false;  // AW / W of the queue's head went out
  // Slave side.
  std::deque<ReadBurst> reads;       // accepted AR, answered in order
  std::deque<std::pair<uint64_t, bool>> awAccepted;  // address, error; W beats pending
  uint32_t wBeatsOfHead = 0;
  std::deque<std::pair<uint64_t, bool>> responses;   // B to send: address, error
  uint64_t outstandingReadBeats = 0, unansweredWrites = 0;
  bool busError = false;
  uint32_t busErrorAddr = 0;
  int drainLeft = 0;
  bool wHeld = false;

  for (int cycle = 0; cycle < cycles; ++cycle) {
    // ------------------------------------------------ drive the inputs
    if (readRequests.empty() && b.chance(20)) readRequests.push_back(b.randomBurst());
    d.rd_valid = !readRequests.empty();
    if (!readRequests.empty()) {
      d.rd_addr = readRequests.front().first;
      d.rd_len = readRequests.front().second;
    }
    if (queueCount == 0 && bursts.empty() && burstBeats.empty() && b.chance(5)) burstPhase = !burstPhase;
    WriteReq push{};
    d.sq_push = !burstPhase && !d.sq_full && b.chance(30);
    if (d.sq_push) {
      push.addr = (uint64_t{b.rng()} << 6) & 0xFFFFFFFFFFull;
      push.len = 0;
      for (auto& w : push.data) w = b.rng();
      push.strb = (uint64_t{b.rng()} << 32) | b.rng();
      d.sq_addr = push.addr;
      for (int i = 0; i < kWords; ++i) d.sq_data[i] = push.data[i];
      d.sq_strb = push.strb;
    }
    if (burstPhase && bursts.empty() && burstBeats.empty() && b.chance(20)) {
      auto [addr, len] = b.randomBurst();
      WriteReq w{addr, len};
      bursts.push_back(w);
      for (uint32_t i = 0; i <= len; ++i) {
        WriteReq beat{addr, i == len};
        for (auto& x : beat.data) x = b.rng();
        beat.strb = (uint64_t{b.rng()} << 32) | b.rng();
        burstBeats.push_back(beat);
      }
    }
    d.bw_aw_valid = !bursts.empty();
    if (!bursts.empty()) {
      d.bw_aw_addr = bursts.front().addr;
      d.bw_aw_len = bursts.front().len;
    }
    // W may lead or lag its AW; once offered, a beat is held until taken.
    d.bw_w_valid = !burstBeats.empty() && (wHeld || b.chance(80));
    if (!burstBeats.empty()) {
      for (int i = 0; i < kWords; ++i) d.bw_w_data[i] = burstBeats.front().data[i];
      d.bw_w_strb = burstBeats.front().strb;
      d.bw_w_last = burstBeats.front().len;  // len field reused: 1 on the last beat
    }
    d.r_ready = b.chance(75);
    if (!d.r_ready) b.hits["R back-pressure (client)"]++;
    if (drainLeft == 0 && b.chance(1)) drainLeft = 5;
    d.drain = drainLeft > 0;
    d.clear_error = busError && b.chance(2);
    // Slave.
    d.arready = b.chance(70);
    d.awready = b.chance(70);
    d.wready = b.chance(70);
    if (!d.arready || !d.awready || !d.wready) b.hits["ready gaps (slave)"]++;
    d.rvalid = !reads.empty() && b.chance(70);
    if (d.rvalid) {
      ReadBurst& r = reads.front();
      d.rlast = r.sent == r.len;
      d.rresp = b.chance(2) ? 2 : 0;
    }
    d.bvalid = !responses.empty() && b.chance(60);
    if (d.bvalid) d.bresp = responses.front().second ? 2 : 0;

    d.clk = 0;
    d.eval();

    // -------------------------------------- outputs against the model
    const std::string where = "seed " + std::to_string(seed) + " cycle " + std::to_string(cycle);
    ASSERT_EQ(bool(d.sq_full), queueCount == kQueueEntries) << where;
    ASSERT_EQ(bool(d.rready), d.r_ready || d.drain) << where;
    ASSERT_EQ(bool(d.r_valid), bool(d.rvalid)) << where;
    ASSERT_EQ(bool(d.reads_idle), outstandingReadBeats == 0) << where;
    ASSERT_EQ(bool(d.writes_idle), queueCount == 0 && unansweredWrites == 0) << where;
    ASSERT_EQ(bool(d.bus_error), busError) << where;
    if (busError) {
      ASSERT_EQ(d.bus_error_addr, busErrorAddr) << where;
    }
    if (d.arvalid) {
      ASSERT_TRUE(d.rd_valid) << where;
      ASSERT_EQ(d.araddr, readRequests.front().first) << where;
      ASSERT_EQ(d.arlen, readRequests.front().second) << where;
    }
    ASSERT_EQ(d.rd_valid && d.rd_ready, d.arvalid && d.arready) << where;
    // Writes: the queue's head first; the burst path only when it is empty.
    const bool fromQueue = queueCount != 0;
    if (d.awvalid) {
      const WriteReq& e = fromQueue ? pushed.front() : bursts.front();
      ASSERT_FALSE(fromQueue && headAw) << where << ": AW of the queue head twice";
      ASSERT_EQ(d.awaddr, e.addr) << where;
      ASSERT_EQ(d.awlen, e.len) << where;
    }
    if (d.wvalid) {
      if (fromQueue) {
        ASSERT_FALSE(headW) << where << ": W of the queue head twice";
        for (int i = 0; i < kWords; ++i) ASSERT_EQ(d.wdata[i], pushed.front().data[i]) << where;
        ASSERT_EQ(d.wstrb, pushed.front().strb) << where;
        ASSERT_TRUE(d.wlast) << where;
      } else {
        ASSERT_FALSE(burstBeats.empty()) << where;
        for (int i = 0; i < kWords; ++i) ASSERT_EQ(d.wdata[i], burstBeats.front().data[i]) << where;
        ASSERT_EQ(d.wstrb, burstBeats.front().strb) << where;
        ASSERT_EQ(bool(d.wlast), burstBeats.front().len == 1) << where;
      }
    }
    ASSERT_EQ(d.bw_aw_valid && d.bw_aw_ready, !fromQueue && d.awvalid && d.awready) << where;
    ASSERT_EQ(bool(d.bw_w_ready), !fromQueue && d.wready) << where;

    // ----------------------------------------- the edge, in the model
    const bool arFire = d.arvalid && d.arready, rFire = d.rvalid && d.rready;
    const bool awFire = d.awvalid && d.awready, wFire = d.wvalid && d.wready, bFire = d.bvalid;
    if (arFire) {
      reads.push_back(ReadBurst{d.araddr, d.arlen});
      outstandingReadBeats += d.arlen + 1;
      readRequests.pop_front();
    }
    if (rFire) {
      ReadBurst& r = reads.front();
      if (d.rresp != 0 && !busError) {
        busError = true;
        busErrorAddr = uint32_t(r.addr + 64 * r.sent);
        b.hits["read error"]++;
      }
      if (d.drain && !d.r_ready) b.hits["beat drained"]++;
      --outstandingReadBeats;
      if (r.sent++ == r.len) reads.pop_front();
    }
    if (awFire) {
      awAccepted.emplace_back(d.awaddr, b.chance(3));
      ++unansweredWrites;
      if (fromQueue) headAw = true;
      else bursts.pop_front();
    }
    if (wFire) {
      if (fromQueue) headW = true;
      else burstBeats.pop_front();
      if (d.wlast) {
        // The slave answers the oldest AW whose beats are all in. W may
        // lead its AW: count completed W bursts and answer in AW order.
        ++wBeatsOfHead;
      }
    }
    while (wBeatsOfHead > 0 && !awAccepted.empty()) {
      responses.push_back(awAccepted.front());
      awAccepted.pop_front();
      --wBeatsOfHead;
    }
    if (bFire) {
      if (responses.front().second && !busError) {
        busError = true;
        busErrorAddr = uint32_t(responses.front().first);
        b.hits["write error"]++;
      }
      responses.pop_front();
      --unansweredWrites;
    }
    if (d.clear_error) busError = false;
    if (fromQueue && headAw && headW) {
      pushed.pop_front();
      --queueCount;
      headAw = headW = false;
      b.hits["queued write out"]++;
    }
    if (d.sq_push) {
      pushed.push_back(push);
      ++queueCount;
      if (queueCount == kQueueEntries) b.hits["queue full"]++;
    }
    if (drainLeft > 0) --drainLeft;
    wHeld = d.bw_w_valid && !d.bw_w_ready;
    d.clk = 1;
    d.eval();
    ASSERT_FALSE(b.context.gotError()) << where << ": " << takeRtlAssertionFailure();
  }
  std::string summary = "data_port coverage:";
  for (const auto& [what, n] : b.hits) summary += " [" + what + " " + std::to_string(n) + "]";
  std::printf("%s\n", summary.c_str());
  for (const char* must : {"burst 1 beat", "burst 2..63 beats", "burst to 4 KiB edge", "R back-pressure (client)",
                           "ready gaps (slave)", "read error", "write error", "queued write out", "queue full",
                           "beat drained"})
    EXPECT_GT(b.hits[must], 0) << "stimulus never reached: " << must;
}

TEST(RtlDataPort, RandomTrafficMatchesTheModel) {
  for (uint32_t seed = 1; seed <= 3; ++seed) runSession(seed, 20000);
}

}  // namespace
}  // namespace nnfab::sim
