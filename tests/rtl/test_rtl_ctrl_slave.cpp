// nnfab_ctrl_slave Verilated alone against a reference model of
// docs/register-map.md: random AXI4-Lite writes (any register, any WSTRB, AW
// and W in either order with random delays) and reads, random core events
// (start accepted, stop, idle), and every read value and the interrupt line
// compared with the model each cycle. Register semantics checked: arguments
// honour WSTRB, AP_START set only while idle and cleared on acceptance,
// AP_DONE/AP_READY clear-on-read, ISR toggle-on-write and |= IER at a stop,
// PREEMPT cleared at a stop, interrupt = GIE & (ISR != 0), read-only
// registers ignore writes, the windows' registers (SRCB_ADDR .. DST_START)
// read back as written, SRCB_START and DST_START reset to 0xFFFFFFFF (no
// window B or D) and reach the core.
#include <gtest/gtest.h>
#include <verilated.h>

#include <array>
#include <map>
#include <random>
#include <string>

#include "unit_context.h"
#include "Vnnfab_ctrl_slave.h"
#include "rtl_assert.h"
#include "nnfab_isa.h"

namespace nnfab::sim {
namespace {

namespace isa = nnfab::isa;

// The registers as the host sees them (docs/register-map.md), updated at
// each clock edge from the events of that edge, in the register map's
// priority: acceptance clears AP_START before a host write may set it again;
// a stop wins over the host (ISR, PREEMPT, AP_DONE/AP_READY).
struct RegisterModel {
  bool apStart = false, apDone = false, apReady = false, gie = false;
  uint32_t ier = 0, isr = 0;
  std::map<uint32_t, uint32_t> args = {{isa::kRegSRCB_START, 0xFFFFFFFFu},
                                       {isa::kRegDST_START, 0xFFFFFFFFu}};  // plain read/write registers by offset

  static bool isArgument(uint32_t off) {
    return (off >= isa::kRegPROG_ADDR && off <= isa::kRegPREEMPT) ||
           (off >= isa::kRegSRCB_ADDR && off <= isa::kRegDST_START);
  }
  uint32_t read(uint32_t off, bool coreIdle, const std::map<uint32_t, uint32_t>& status) const {
    if (off == isa::kRegAP_CTRL)
      return (apStart ? isa::kAP_START : 0) | (apDone ? isa::kAP_DONE : 0) | (coreIdle ? isa::kAP_IDLE : 0) |
             (apReady ? isa::kAP_READY : 0);
    if (off == isa::kRegGIE) return gie;
    if (off == isa::kRegIER) return ier;
    if (off == isa::kRegISR) return isr;
    if (isArgument(off)) {
      auto it = args.find(off);
      return it == args.end() ? 0 : it->second;
    }
    if (off == isa::kRegID) return isa::kCORE_ID;
    if (off == isa::kRegISA_VERSION) return isa::kIsaVersion;
    if (off == isa::kRegFEATURES) return isa::kRtlFeatures;
    auto it = status.find(off);
    return it == status.end() ? 0 : it->second;
  }
};

uint32_t merge(uint32_t old, uint32_t value, uint32_t strb) {
  uint32_t mask = 0;
  for (int i = 0; i < 4; ++i)
    if (strb & (1u << i)) mask |= 0xFFu << (8 * i);
  return (old & ~mask) | (value & mask);
}

struct Bench {
  nnfab::rtl_test::UnitContext context;
  Vnnfab_ctrl_slave dut{&context};
  std::mt19937 rng;
  RegisterModel model;
  std::map<uint32_t, uint32_t> status;  // read-only registers driven by the "core"
  // Coverage of what the random stimulus reached.
  std::map<std::string, int> hits;

  explicit Bench(uint32_t seed) : rng(seed) {
    context.fatalOnError(false);  // a failed assertion fails the test
    dut.rst = 1;
    tick();
    dut.rst = 0;
  }
  uint32_t rand(uint32_t n) { return std::uniform_int_distribution<uint32_t>(0, n - 1)(rng); }
  void tick() {
    dut.clk = 0;
    dut.eval();
    dut.clk = 1;
    dut.eval();
  }
  void driveStatus() {
    const uint64_t cycles = (uint64_t{rng()} << 32) | rng();
    status = {{isa::kRegWATCHDOG_STATE, rng()}, {isa::kRegSTATUS, rng()},     {isa::kRegHALT_PC, rng()},
              {isa::kRegFAULT_INFO, rng()},     {isa::kRegCYCLES, uint32_t(cycles)},
              {isa::kRegCYCLES + 4, uint32_t(cycles >> 32)}};
    dut.watchdog_state = status[isa::kRegWATCHDOG_STATE];
    dut.status = status[isa::kRegSTATUS];
    dut.halt_pc = status[isa::kRegHALT_PC];
    dut.fault_info = status[isa::kRegFAULT_INFO];
    dut.cycles = cycles;
    dut.iterations = 0;
    dut.instret = 0;
  }
  uint32_t randomOffset() {
    // Mostly defined registers, sometimes holes and the 64-bit halves.
    static const uint32_t regs[] = {isa::kRegAP_CTRL,       isa::kRegGIE,           isa::kRegIER,
                                    isa::kRegISR,           isa::kRegPROG_ADDR,     isa::kRegPROG_ADDR + 4,
                                    isa::kRegDATA_ADDR,     isa::kRegCTX_ADDR + 4,  isa::kRegPROG_SIZE,
                                    isa::kRegDATA_SIZE,     isa::kRegMODE,          isa::kRegINSN_LIMIT,
                                    isa::kRegLOOP_BUDGET,   isa::kRegEXEC_BUDGET + 4, isa::kRegPREEMPT,
                                    isa::kRegSTATUS,        isa::kRegCYCLES,        isa::kRegID,
                                    isa::kRegISA_VERSION,   isa::kRegFEATURES,      isa::kRegSRCB_ADDR,
                                    isa::kRegDST_ADDR + 4,  isa::kRegSRCB_START,    isa::kRegDST_START};
    return rand(8) == 0 ? rand(32) * 4 : regs[rand(sizeof(regs) / sizeof(regs[0]))];
  }
};

// One random session: `ops` AXI4-Lite transactions interleaved with core
// events; every read and the interrupt line against the model.
void runSession(uint32_t seed, int ops) {
  Bench b(seed);
  bool coreIdle = true;
  for (int op = 0; op < ops; ++op) {
    const bool isWrite = b.rand(2) == 0;
    const uint32_t off = b.randomOffset();
    uint32_t value = b.rng();
    if (off == isa::kRegAP_CTRL || off == isa::kRegISR || off == isa::kRegIER || off == isa::kRegGIE)
      value = b.rand(16);  // the bits that mean something, often set
    const uint32_t strb = b.rand(3) == 0 ? b.rand(16) : 0xF;
    int awDelay = isWrite ? int(b.rand(3)) : -1, wDelay = isWrite ? int(b.rand(3)) : -1;
    if (isWrite) b.hits[awDelay < wDelay ? "write AW first" : awDelay > wDelay ? "write W first" : "write AW+W together"]++;
    if (isWrite && strb != 0xF) b.hits["write partial WSTRB"]++;
    bool awGot = false, wGot = false, arGot = false, done = false;
    int readyDelay = int(b.rand(3));  // BREADY/RREADY back-pressure
    if (readyDelay) b.hits["response back-pressure"]++;
    for (int cycle = 0; cycle < 40 && !done; ++cycle) {
      // Core side: random idle level, acceptance while AP_START, stops.
      coreIdle = b.rand(8) == 0 ? !coreIdle : coreIdle;
      const bool accept = b.model.apStart && b.rand(3) == 0;
      const bool stop = b.rand(12) == 0;
      b.dut.core_idle = coreIdle;
      b.dut.start_accepted = accept;
      b.dut.core_done = stop;
      b.driveStatus();
      // Host side.
      b.dut.awvalid = isWrite && !awGot && cycle >= awDelay;
      b.dut.awaddr = off;
      b.dut.wvalid = isWrite && !wGot && cycle >= wDelay;
      b.dut.wdata = value;
      b.dut.wstrb = strb;
      b.dut.arvalid = !isWrite && !arGot;
      b.dut.araddr = off;
      b.dut.bready = cycle >= readyDelay;
      b.dut.rready = cycle >= readyDelay;
      b.dut.clk = 0;
      b.dut.eval();
      // Pre-edge handshakes and what the edge will do.
      const bool awFire = b.dut.awvalid && b.dut.awready;
      const bool wFire = b.dut.wvalid && b.dut.wready;
      const bool arFire = b.dut.arvalid && b.dut.arready;
      const bool bFire = b.dut.bvalid && b.dut.bready;
      const bool rFire = b.dut.rvalid && b.dut.rready;
      const bool doWrite = isWrite && awGot && wGot && !b.dut.bvalid;
      uint32_t expectRead = 0;
      if (arFire) expectRead = b.model.read(off, coreIdle, b.status);
      if (rFire) done = true;  // RDATA was checked when the slave captured it
      if (bFire) done = true;
      // Model update at the edge, in the register map's priority.
      RegisterModel& m = b.model;
      const RegisterModel before = m;
      if (accept) m.apStart = false;
      if (arFire && off == isa::kRegAP_CTRL) {
        if (before.apDone) b.hits["AP_DONE cleared on read"]++;
        m.apDone = m.apReady = false;
      }
      if (doWrite && (strb & 1)) {
        if (off == isa::kRegAP_CTRL && (value & isa::kAP_START)) {
          b.hits[coreIdle ? "AP_START set while idle" : "AP_START ignored while running"]++;
          if (coreIdle) m.apStart = true;
        }
        if (off == isa::kRegGIE) m.gie = value & 1;
        if (off == isa::kRegIER) m.ier = value & 3;
        if (off == isa::kRegISR) {
          if (value & 3) b.hits["ISR toggled"]++;
          m.isr ^= value & 3;
        }
      }
      if (doWrite && RegisterModel::isArgument(off)) m.args[off] = merge(m.args[off], value, strb);
      if (stop) {
        m.apDone = m.apReady = true;
        m.isr = before.isr | before.ier;
        m.args[isa::kRegPREEMPT] = 0;
        b.hits["stop"]++;
      }
      b.dut.clk = 1;
      b.dut.eval();
      awGot = awGot || awFire;
      wGot = wGot || wFire;
      arGot = arGot || arFire;
      if (doWrite) awGot = wGot = true;  // the write is answered; no second one
      if (arFire) {
        // The slave captured the value at this edge: it is what RDATA shows.
        EXPECT_EQ(b.dut.rdata, expectRead) << "seed " << seed << " op " << op << " read 0x" << std::hex << off;
      }
      // The interrupt line after the edge.
      EXPECT_EQ(bool(b.dut.__SYM__interrupt), m.gie && m.isr != 0) << "seed " << seed << " op " << op;
      EXPECT_EQ(bool(b.dut.ap_start), m.apStart) << "seed " << seed << " op " << op;
      EXPECT_EQ(bool(b.dut.preempt), (m.args[isa::kRegPREEMPT] & 1) != 0) << "seed " << seed << " op " << op;
      EXPECT_FALSE(b.context.gotError()) << "seed " << seed << " op " << op << ": " << takeRtlAssertionFailure();
      if (::testing::Test::HasFailure()) return;
    }
    ASSERT_TRUE(done) << "seed " << seed << " op " << op << ": transaction not answered";
  }
  std::string summary = "ctrl_slave coverage:";
  for (const auto& [what, n] : b.hits) summary += " [" + what + " " + std::to_string(n) + "]";
  std::printf("%s\n", summary.c_str());
  for (const char* must : {"write AW first", "write W first", "write AW+W together", "write partial WSTRB",
                           "AP_DONE cleared on read", "AP_START set while idle", "AP_START ignored while running",
                           "ISR toggled", "stop", "response back-pressure"})
    EXPECT_GT(b.hits[must], 0) << "stimulus never reached: " << must;
}

TEST(RtlCtrlSlave, RandomRegisterTrafficMatchesTheRegisterMap) {
  for (uint32_t seed = 1; seed <= 4; ++seed) runSession(seed, 3000);
}

// One AXI4-Lite write (AW and W together) and one read, no back-pressure.
void axiWrite(Bench& b, uint32_t off, uint32_t value, uint32_t strb = 0xF) {
  b.dut.awvalid = 1;
  b.dut.awaddr = off;
  b.dut.wvalid = 1;
  b.dut.wdata = value;
  b.dut.wstrb = strb;
  b.dut.bready = 1;
  for (int i = 0; i < 8 && !b.dut.bvalid; ++i) {
    b.tick();
    if (b.dut.awready == 0) b.dut.awvalid = 0;
    if (b.dut.wready == 0) b.dut.wvalid = 0;
  }
  ASSERT_TRUE(b.dut.bvalid) << "write 0x" << std::hex << off << " not answered";
  b.dut.awvalid = b.dut.wvalid = 0;
  b.tick();
}
uint32_t axiRead(Bench& b, uint32_t off) {
  b.dut.arvalid = 1;
  b.dut.araddr = off;
  b.dut.rready = 1;
  b.tick();
  b.dut.arvalid = 0;
  EXPECT_TRUE(b.dut.rvalid) << "read 0x" << std::hex << off << " not answered";
  const uint32_t v = b.dut.rdata;
  b.tick();
  return v;
}

// docs/isa.md "Memory model": SRCB_START and DST_START reset to 0xFFFFFFFF
// (no window B or D: ISA version 2's one region), read back as written
// (WSTRB honoured) and drive the core's ports; a soft reset keeps them
// (what the host wrote is kept); the window addresses read back too.
TEST(RtlCtrlSlave, WindowRegistersResetToNoWindowAndReadBackAsWritten) {
  Bench b(7);
  b.dut.core_idle = 1;
  b.dut.start_accepted = b.dut.core_done = b.dut.soft_reset_done = 0;
  b.driveStatus();
  EXPECT_EQ(axiRead(b, isa::kRegSRCB_START), 0xFFFFFFFFu);
  EXPECT_EQ(axiRead(b, isa::kRegDST_START), 0xFFFFFFFFu);
  EXPECT_EQ(b.dut.srcb_start, 0xFFFFFFFFu);
  EXPECT_EQ(b.dut.dst_start, 0xFFFFFFFFu);
  EXPECT_EQ(axiRead(b, isa::kRegSRCB_ADDR), 0u);
  EXPECT_EQ(axiRead(b, isa::kRegDST_ADDR + 4), 0u);

  axiWrite(b, isa::kRegSRCB_START, 0x00012345u);
  axiWrite(b, isa::kRegDST_START, 0x00ABCDC0u);
  axiWrite(b, isa::kRegSRCB_ADDR, 0x89ABCDEFu);
  axiWrite(b, isa::kRegSRCB_ADDR + 4, 0x01234567u);
  axiWrite(b, isa::kRegDST_ADDR, 0x40000000u);
  axiWrite(b, isa::kRegDST_ADDR + 4, 0x00000002u);
  // All 32 bits read back, bits 5:0 included (the core drops them at start).
  EXPECT_EQ(axiRead(b, isa::kRegSRCB_START), 0x00012345u);
  EXPECT_EQ(axiRead(b, isa::kRegDST_START), 0x00ABCDC0u);
  EXPECT_EQ(axiRead(b, isa::kRegSRCB_ADDR), 0x89ABCDEFu);
  EXPECT_EQ(axiRead(b, isa::kRegSRCB_ADDR + 4), 0x01234567u);
  EXPECT_EQ(axiRead(b, isa::kRegDST_ADDR), 0x40000000u);
  EXPECT_EQ(axiRead(b, isa::kRegDST_ADDR + 4), 0x00000002u);
  EXPECT_EQ(b.dut.srcb_start, 0x00012345u);
  EXPECT_EQ(b.dut.dst_start, 0x00ABCDC0u);
  EXPECT_EQ(b.dut.srcb_addr, 0x0123456789ABCDEFull);
  EXPECT_EQ(b.dut.dst_addr, 0x0000000240000000ull);
  // WSTRB: only the enabled bytes change.
  axiWrite(b, isa::kRegDST_START, 0x77665544u, 0x6);
  EXPECT_EQ(axiRead(b, isa::kRegDST_START), 0x006655C0u);
  // DATA_SIZE and the neighbours are their own registers.
  EXPECT_EQ(axiRead(b, isa::kRegDATA_SIZE), 0u);
  // A hardware reset brings back the reset values.
  b.dut.rst = 1;
  b.tick();
  b.dut.rst = 0;
  EXPECT_EQ(axiRead(b, isa::kRegSRCB_START), 0xFFFFFFFFu);
  EXPECT_EQ(axiRead(b, isa::kRegDST_START), 0xFFFFFFFFu);
  EXPECT_EQ(b.dut.srcb_start, 0xFFFFFFFFu);
  EXPECT_FALSE(b.context.gotError()) << takeRtlAssertionFailure();
}

}  // namespace
}  // namespace nnfab::sim
