// The soft reset's register side and bus side Verilated alone
// (docs/register-map.md "Soft reset", docs/rtl.md "Soft reset"):
//  - nnfab_ctrl_slave: only SOFT_RESET_KEY written to PREEMPT as a whole
//    word raises soft_reset; meanwhile AP_IDLE reads 0 and AP_START is
//    refused; soft_reset_done clears what the core reported and keeps what
//    the host wrote.
//  - nnfab_data_port: quiesce with reads, burst writes and queued writes
//    outstanding and one AR and one AW waiting for READY: the waiting ones
//    stay up until accepted, nothing new goes out, every read beat is taken,
//    the queue drains, and quiet rises only once every response is in; the
//    AXI assertions hold throughout.
#include <gtest/gtest.h>
#include <verilated.h>

#include <deque>
#include <string>

#include "unit_context.h"
#include "Vnnfab_ctrl_slave.h"
#include "Vnnfab_data_port.h"
#include "nnfab_isa.h"
#include "rtl_assert.h"

namespace nnfab::sim {
namespace {

namespace isa = nnfab::isa;

// ------------------------------------------------------------ ctrl slave

struct Slave {
  nnfab::rtl_test::UnitContext context;
  Vnnfab_ctrl_slave dut{&context};
  Slave() {
    context.fatalOnError(false);  // a failed assertion fails the test
    dut.core_idle = 1;
    dut.rst = 1;
    tick();
    dut.rst = 0;
  }
  void tick() {
    dut.clk = 0;
    dut.eval();
    dut.clk = 1;
    dut.eval();
    EXPECT_FALSE(context.gotError()) << takeRtlAssertionFailure();
  }
  void write(uint32_t offset, uint32_t value, uint32_t strb = 0xF) {
    dut.awvalid = 1;
    dut.awaddr = offset;
    dut.wvalid = 1;
    dut.wdata = value;
    dut.wstrb = strb;
    dut.bready = 1;
    for (int i = 0; i < 10 && !dut.bvalid; ++i) {
      dut.clk = 0;
      dut.eval();
      const bool aw = dut.awvalid && dut.awready, w = dut.wvalid && dut.wready;
      tick();
      if (aw) dut.awvalid = 0;
      if (w) dut.wvalid = 0;
    }
    ASSERT_TRUE(dut.bvalid);
    tick();  // B taken
  }
  uint32_t read(uint32_t offset) {
    dut.arvalid = 1;
    dut.araddr = offset;
    dut.rready = 1;
    dut.clk = 0;
    dut.eval();
    tick();
    dut.arvalid = 0;
    const uint32_t v = dut.rdata;
    tick();
    return v;
  }
};

TEST(RtlSoftReset, OnlyTheWholeKeyInPreemptRequestsIt) {
  Slave s;
  s.write(isa::kRegPREEMPT, isa::kSOFT_RESET_KEY ^ 0x100);  // one bit off: an ordinary PREEMPT value
  EXPECT_FALSE(s.dut.soft_reset);
  EXPECT_EQ(s.read(isa::kRegPREEMPT), isa::kSOFT_RESET_KEY ^ 0x100);
  s.write(isa::kRegPREEMPT, 0);
  s.write(isa::kRegPREEMPT, isa::kSOFT_RESET_KEY, 0x7);  // not a whole word
  EXPECT_FALSE(s.dut.soft_reset);
  s.write(isa::kRegMODE, isa::kSOFT_RESET_KEY);  // another register
  EXPECT_FALSE(s.dut.soft_reset);
  s.write(isa::kRegPREEMPT, isa::kSOFT_RESET_KEY);
  EXPECT_TRUE(s.dut.soft_reset);
}

TEST(RtlSoftReset, RegistersWhileAndAfterTheReset) {
  Slave s;
  s.write(isa::kRegGIE, 1);
  s.write(isa::kRegIER, 1);
  s.write(isa::kRegPROG_ADDR, 0x1234);
  s.write(isa::kRegAP_CTRL, isa::kAP_START);
  s.dut.core_idle = 0;  // the core runs
  s.dut.start_accepted = 1;
  s.tick();
  s.dut.start_accepted = 0;
  s.dut.core_done = 1;  // a stop the host has not collected: AP_DONE, ISR
  s.tick();
  s.dut.core_done = 0;
  s.dut.core_idle = 0;  // and runs again (a start the host did not see end)
  s.write(isa::kRegPREEMPT, isa::kPreemptRequest);
  ASSERT_TRUE(s.dut.__SYM__interrupt);

  s.write(isa::kRegPREEMPT, isa::kSOFT_RESET_KEY);
  ASSERT_TRUE(s.dut.soft_reset);
  s.dut.core_idle = 1;  // even an idle core reads busy until the reset is done
  EXPECT_EQ(s.read(isa::kRegAP_CTRL) & isa::kAP_IDLE, 0u);
  s.write(isa::kRegAP_CTRL, isa::kAP_START);
  EXPECT_FALSE(s.dut.ap_start) << "a start during the soft reset must be refused";
  EXPECT_EQ(s.read(isa::kRegPREEMPT), isa::kPreemptRequest) << "the key is not stored";
  s.write(isa::kRegISR, 1);  // clear the pending done interrupt (toggle-on-write)
  ASSERT_FALSE(s.dut.__SYM__interrupt);
  s.dut.core_done = 1;  // the core stops on its own meanwhile: not reported
  s.tick();
  s.dut.core_done = 0;
  EXPECT_EQ(s.read(isa::kRegAP_CTRL) & isa::kAP_DONE, 0u) << "a stop during the reset set AP_DONE";
  EXPECT_FALSE(s.dut.__SYM__interrupt) << "a stop during the reset raised the interrupt";
  s.write(isa::kRegISR, 1);  // set ISR again, for the reset to clear
  ASSERT_TRUE(s.dut.__SYM__interrupt);

  s.dut.soft_reset_done = 1;
  s.tick();
  s.dut.soft_reset_done = 0;
  EXPECT_FALSE(s.dut.soft_reset);
  EXPECT_FALSE(s.dut.__SYM__interrupt);
  EXPECT_EQ(s.read(isa::kRegAP_CTRL), isa::kAP_IDLE);  // no AP_DONE/AP_READY/AP_START left
  EXPECT_EQ(s.read(isa::kRegISR), 0u);
  EXPECT_EQ(s.read(isa::kRegPREEMPT), 0u);
  EXPECT_EQ(s.read(isa::kRegGIE), 1u);  // what the host wrote stays
  EXPECT_EQ(s.read(isa::kRegIER), 1u);
  EXPECT_EQ(s.read(isa::kRegPROG_ADDR), 0x1234u);
  s.write(isa::kRegAP_CTRL, isa::kAP_START);
  EXPECT_TRUE(s.dut.ap_start) << "the core accepts a new start afterwards";
}

// ------------------------------------------------------------- data port

struct Port {
  nnfab::rtl_test::UnitContext context;
  Vnnfab_data_port dut{&context};
  int cycle = 0;
  Port() {
    context.fatalOnError(false);
    dut.rst = 1;
    dut.clk = 0;
    dut.eval();
    dut.clk = 1;
    dut.eval();
    dut.rst = 0;
  }
  // One clock: `drive` sets the inputs, `observe` sees this cycle's
  // handshakes before the edge takes them.
  template <typename D, typename O>
  void tick(D drive, O observe) {
    dut.clk = 0;
    drive();
    dut.eval();
    observe();
    dut.clk = 1;
    dut.eval();
    ++cycle;
    ASSERT_FALSE(context.gotError()) << "cycle " << cycle << ": " << takeRtlAssertionFailure();
  }
};

// A slave that accepts AR/AW when told, answers reads in order and each
// write burst after its last W beat once told to answer; a client that
// holds a request until it is accepted (AXI) and then asks for nothing more.
TEST(RtlSoftReset, TheDataPortFinishesEverythingAlreadyIssuedAndStartsNothing) {
  Port p;
  Vnnfab_data_port& d = p.dut;
  std::deque<int> readBursts;  // beats left of each accepted read burst, in order
  int bOwed = 0, wBeats = 0, arAccepted = 0, awAccepted = 0, rBeats = 0;
  bool arReady = true, awReady = true, answer = false, quiesce = false;
  // Client requests, dropped once accepted.
  bool rdValid = false, bwAwValid = false;
  uint64_t rdAddr = 0;
  int sqPushes = 0;  // queue pushes to make, one per cycle
  uint64_t sqAddr = 0x2000;
  auto drive = [&] {
    d.arready = arReady;
    d.awready = awReady;
    d.wready = 1;
    d.rvalid = answer && !readBursts.empty();
    d.rlast = !readBursts.empty() && readBursts.front() == 1;
    d.rresp = 0;
    d.bvalid = answer && bOwed > 0;
    d.bresp = 0;
    d.quiesce = quiesce;
    d.rd_valid = rdValid;
    d.rd_addr = rdAddr;
    d.rd_len = rdAddr == 0x3000 ? 1 : 3;
    d.r_ready = !quiesce;
    d.sq_push = sqPushes > 0;
    d.sq_addr = sqAddr;
    d.sq_strb = ~0ull;
    d.bw_aw_valid = bwAwValid;
    d.bw_aw_addr = 0x8000;
    d.bw_aw_len = 0;
    d.bw_w_valid = 0;
  };
  auto observe = [&] {
    if (quiesce) {
      EXPECT_TRUE(d.sq_full) << "the queue must look full while quiescing";
    }
    if (d.arvalid && d.arready) {
      ++arAccepted;
      readBursts.push_back(d.arlen + 1);
    }
    if (d.rd_valid && d.rd_ready) rdValid = false;
    if (d.rvalid && d.rready) {
      ++rBeats;
      if (--readBursts.front() == 0) readBursts.pop_front();
    }
    if (d.awvalid && d.awready) ++awAccepted;
    if (d.wvalid && d.wready) {
      ++wBeats;
      if (d.wlast) ++bOwed;
    }
    if (d.bvalid) --bOwed;
    if (d.sq_push && !d.sq_full) {
      --sqPushes;
      sqAddr += 0x40;
    }
  };

  // Two read bursts of 4 beats accepted, not answered.
  for (uint64_t a : {0x1000, 0x1100}) {
    rdValid = true;
    rdAddr = a;
    p.tick(drive, observe);
  }
  ASSERT_EQ(arAccepted, 2);
  // Two queued single-beat writes whose AW the slave does not take yet, and
  // a third AR waiting for ARREADY.
  arReady = false;
  awReady = false;
  sqPushes = 2;
  p.tick(drive, observe);
  p.tick(drive, observe);
  rdValid = true;
  rdAddr = 0x3000;
  p.tick(drive, observe);
  ASSERT_EQ(sqPushes, 0);
  ASSERT_EQ(arAccepted, 2);
  EXPECT_TRUE(d.arvalid);
  EXPECT_FALSE(d.quiet);

  // The soft reset. The clients ask for more: a push, a burst write.
  quiesce = true;
  int quietAt = -1;
  for (int c = 0; c < 200 && quietAt < 0; ++c) {
    if (c == 3) arReady = true;  // the waiting AR is accepted late
    if (c == 5) awReady = true;
    if (c == 8) answer = true;  // the memory answers from now on
    sqPushes = c % 3 == 0 ? 1 : 0;
    bwAwValid = c > 1;
    p.tick(drive, observe);
    if (::testing::Test::HasFatalFailure()) return;
    d.clk = 0;
    drive();
    d.eval();
    if (d.quiet) quietAt = c;
  }
  EXPECT_GE(quietAt, 8) << "quiet before the memory answered";
  EXPECT_EQ(arAccepted, 3) << "the AR waiting at the reset goes out, nothing else";
  EXPECT_EQ(awAccepted, 2) << "the two queued writes go out, the new burst does not";
  EXPECT_EQ(rBeats, 4 + 4 + 2) << "every beat of every accepted burst is taken";
  EXPECT_TRUE(readBursts.empty());
  EXPECT_EQ(wBeats, 2);
  EXPECT_EQ(bOwed, 0) << "quiet with a write response still owed";
  EXPECT_GE(quietAt, 0) << "quiet never rose";
}


// The clients withdraw everything when the reset comes: the port completes
// the AR, the burst AW and the W beat that were waiting for READY from its
// own copies, hides the read beats of its own AR from the clients, and
// sends the beats every accepted burst still owes with no byte enabled,
// ignoring the client's; every burst's WLAST is on its last beat.
TEST(RtlSoftReset, TheDataPortCompletesRequestsItsClientsWithdraw) {
  Port p;
  Vnnfab_data_port& d = p.dut;
  std::deque<int> readBursts, writeBursts;  // beats left of accepted bursts, in order
  int bOwed = 0, clientBeats = 0, clientOwed = 0, clientRBeats = 0, zeroStrbBeats = 0;
  bool arReady = true, awReady = true, wReady = true, answer = false, quiesce = false;
  bool rdValid = false, awValid = false, wValid = false;
  uint64_t rdAddr = 0, awAddr = 0;
  int awLen = 0;
  auto drive = [&] {
    d.arready = arReady;
    d.awready = awReady;
    d.wready = wReady;
    d.rvalid = answer && !readBursts.empty();
    d.rlast = !readBursts.empty() && readBursts.front() == 1;
    d.rresp = 0;
    d.bvalid = answer && bOwed > 0;
    d.bresp = 0;
    d.quiesce = quiesce;
    d.rd_valid = rdValid;
    d.rd_addr = rdAddr;
    d.rd_len = 1;
    d.r_ready = 1;
    d.sq_push = 0;
    d.bw_aw_valid = awValid;
    d.bw_aw_addr = awAddr;
    d.bw_aw_len = awLen;
    // The client's W: data beats before the reset, then (aborted) only the
    // beats its accepted bursts still owe, with no byte enabled.
    d.bw_w_valid = quiesce ? clientOwed > 0 : wValid;
    for (int i = 0; i < 16; ++i) d.bw_w_data[i] = 0xA0000000u + clientBeats;
    d.bw_w_strb = quiesce ? 0 : ~0ull;
    d.bw_w_last = quiesce && clientOwed == 1;  // it owes the rest of one burst
  };
  auto observe = [&] {
    if (d.arvalid && d.arready) readBursts.push_back(d.arlen + 1);
    if (d.rd_valid && d.rd_ready) rdValid = false;
    if (d.r_valid) ++clientRBeats;
    if (d.rvalid && d.rready && --readBursts.front() == 0) readBursts.pop_front();
    if (d.awvalid && d.awready) writeBursts.push_back(d.awlen + 1);
    if (d.bw_aw_valid && d.bw_aw_ready) {
      awValid = false;
      clientOwed += d.bw_aw_len + 1;
    }
    if (d.bw_w_valid && d.bw_w_ready) {
      ++clientBeats;
      --clientOwed;
    }
    if (d.wvalid && d.wready) {
      ASSERT_FALSE(writeBursts.empty()) << "W beat before its AW";
      EXPECT_EQ(bool(d.wlast), writeBursts.front() == 1) << "WLAST misplaced";
      if (quiesce && d.wstrb == 0) ++zeroStrbBeats;
      if (--writeBursts.front() == 0) {
        writeBursts.pop_front();
        ++bOwed;
      }
    }
    if (d.bvalid) --bOwed;
  };
  // A read burst of 2 beats accepted; a burst write of 4 beats accepted
  // with one beat sent.
  rdValid = true;
  rdAddr = 0x1000;
  awValid = true;
  awAddr = 0x4000;
  awLen = 3;
  wValid = true;
  // The client's W presents the first beat before the AW has fired: the AW
  // and W of the first cycle go together.
  p.tick(drive, observe);
  wValid = false;
  // Now an AR, a second burst AW (8 beats) and the burst's second W beat,
  // all waiting for READY.
  arReady = awReady = wReady = false;
  rdValid = true;
  rdAddr = 0x2000;
  awValid = true;
  awAddr = 0x5000;
  awLen = 7;
  wValid = true;
  p.tick(drive, observe);
  p.tick(drive, observe);
  ASSERT_EQ(clientOwed, 3);
  ASSERT_EQ(clientBeats, 1);

  // The reset: the clients withdraw their requests.
  quiesce = true;
  rdValid = awValid = wValid = false;
  bool quiet = false;
  for (int c = 0; c < 300 && !quiet; ++c) {
    arReady = c >= 4;
    awReady = c >= 6;
    wReady = c >= 2 && c % 2 == 0;
    answer = c >= 10;
    p.tick(drive, observe);
    if (::testing::Test::HasFatalFailure()) return;
    d.clk = 0;
    drive();
    d.eval();
    quiet = d.quiet;
  }
  EXPECT_TRUE(quiet) << "quiet never rose";
  EXPECT_TRUE(readBursts.empty()) << "read beats still owed";
  EXPECT_TRUE(writeBursts.empty()) << "write beats still owed";
  EXPECT_EQ(bOwed, 0);
  EXPECT_EQ(clientOwed, 3) << "under quiesce the client gets no W READY: the port sends the beats itself";
  EXPECT_EQ(clientRBeats, 2) << "the clients saw read beats of the port's own burst";
  // The waiting W beat (a data beat, copied) plus the client's 2 owed ones
  // and the port's 8 for the second burst, the last 10 with no byte enabled.
  EXPECT_EQ(zeroStrbBeats, 10);
}

// Burst writes run ahead of their W beats (as the vector engine's do): three
// AWs accepted, the first partly written, when the reset comes. The port
// sends every beat they still owe, WLAST on each burst's last.
TEST(RtlSoftReset, TheDataPortFinishesSeveralWriteBurstsAlone) {
  Port p;
  Vnnfab_data_port& d = p.dut;
  std::deque<int> writeBursts;  // beats left of accepted bursts, in order
  int bOwed = 0, afterReset = 0;
  bool quiesce = false, answer = false;
  const int lens[3] = {61, 63, 1};  // AWLEN: 62, 64 and 2 beats
  int awSent = 0, wSent = 0;
  auto drive = [&] {
    d.arready = 1;
    d.awready = 1;
    d.wready = 1;
    d.rvalid = 0;
    d.rlast = 0;
    d.rresp = 0;
    d.bvalid = answer && bOwed > 0;
    d.bresp = 0;
    d.quiesce = quiesce;
    d.rd_valid = 0;
    d.sq_push = 0;
    d.bw_aw_valid = !quiesce && awSent < 3;
    d.bw_aw_addr = 0x10000 + 0x1000 * awSent;
    d.bw_aw_len = awSent < 3 ? lens[awSent] : 0;
    d.bw_w_valid = !quiesce && awSent == 3 && wSent < 10;
    d.bw_w_strb = ~0ull;
    d.bw_w_last = 0;
  };
  auto observe = [&] {
    if (d.bw_aw_valid && d.bw_aw_ready) ++awSent;
    if (d.bw_w_valid && d.bw_w_ready) ++wSent;
    if (d.awvalid && d.awready) writeBursts.push_back(d.awlen + 1);
    if (d.wvalid && d.wready) {
      ASSERT_FALSE(writeBursts.empty()) << "W beat before its AW";
      EXPECT_EQ(bool(d.wlast), writeBursts.front() == 1) << "WLAST misplaced, beats left " << writeBursts.front();
      if (quiesce) {
        ++afterReset;
        EXPECT_EQ(d.wstrb, 0u) << "a beat the port made enables bytes";
      }
      if (--writeBursts.front() == 0) {
        writeBursts.pop_front();
        ++bOwed;
      }
    }
    if (d.bvalid) --bOwed;
  };
  for (int c = 0; c < 14; ++c) p.tick(drive, observe);
  ASSERT_EQ(awSent, 3);
  ASSERT_EQ(wSent, 10);
  quiesce = true;
  bool quiet = false;
  for (int c = 0; c < 400 && !quiet; ++c) {
    answer = c > 100;
    p.tick(drive, observe);
    if (::testing::Test::HasFatalFailure()) return;
    d.clk = 0;
    drive();
    d.eval();
    quiet = d.quiet;
  }
  EXPECT_TRUE(quiet);
  EXPECT_TRUE(writeBursts.empty());
  EXPECT_EQ(bOwed, 0);
  EXPECT_EQ(afterReset, 62 + 64 + 2 - 10);
}

// W beats ran ahead of a burst whose AW the client had not presented yet
// when the reset came: the port takes that AW when the client presents it
// (it still runs), issues it, and finishes the burst.
TEST(RtlSoftReset, TheDataPortFinishesABurstWhoseBeatsRanAheadOfItsAw) {
  Port p;
  Vnnfab_data_port& d = p.dut;
  std::deque<int> writeBursts;
  int bOwed = 0, wBeats = 0, awSent = 0, wSent = 0, cycle = 0, unmatched = 0;
  bool quiesce = false;
  auto drive = [&] {
    d.arready = 1;
    d.awready = 1;
    d.wready = 1;
    d.rvalid = 0;
    d.rlast = 0;
    d.rresp = 0;
    d.bvalid = bOwed > 0;
    d.bresp = 0;
    d.quiesce = quiesce;
    d.rd_valid = 0;
    d.sq_push = 0;
    // AW of burst 1 (4 beats) at once; that of burst 2 (6 beats) only from
    // cycle 12, after the reset; W: burst 1 and two beats of burst 2.
    d.bw_aw_valid = awSent == 0 || (awSent == 1 && cycle >= 12);
    d.bw_aw_addr = awSent == 0 ? 0x10000 : 0x20000;
    d.bw_aw_len = awSent == 0 ? 3 : 5;
    d.bw_w_valid = !quiesce && wSent < 6;
    d.bw_w_strb = ~0ull;
    d.bw_w_last = wSent == 3;
  };
  auto observe = [&] {
    if (d.bw_aw_valid && d.bw_aw_ready) ++awSent;
    if (d.bw_w_valid && d.bw_w_ready) ++wSent;
    if (d.awvalid && d.awready) writeBursts.push_back(d.awlen + 1);
    if (d.wvalid && d.wready) {
      ++wBeats;
      if (writeBursts.empty()) {
        ++unmatched;  // ahead of its AW: matched when the AW comes
      } else {
        EXPECT_EQ(bool(d.wlast), writeBursts.front() == 1) << "WLAST misplaced";
        if (--writeBursts.front() == 0) {
          writeBursts.pop_front();
          ++bOwed;
        }
      }
    }
    if (d.bvalid) --bOwed;
  };
  for (; cycle < 8; ++cycle) p.tick(drive, observe);
  ASSERT_EQ(wSent, 6);
  ASSERT_EQ(awSent, 1);
  ASSERT_EQ(unmatched, 2);
  quiesce = true;
  bool quiet = false;
  for (; cycle < 100 && !quiet; ++cycle) {
    p.tick(drive, observe);
    if (::testing::Test::HasFatalFailure()) return;
    if (writeBursts.size() == 1 && unmatched > 0) {  // the late AW: the beats that went ahead count
      writeBursts.front() -= unmatched;
      unmatched = 0;
    }
    d.clk = 0;
    drive();
    d.eval();
    quiet = d.quiet;
  }
  EXPECT_TRUE(quiet);
  EXPECT_TRUE(writeBursts.empty());
  EXPECT_EQ(wBeats, 4 + 6) << "burst 2 must get exactly its 6 beats";
  EXPECT_EQ(bOwed, 0);
}

}  // namespace
}  // namespace nnfab::sim
