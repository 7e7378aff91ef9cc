#include "sim_harness.h"

#include <verilated.h>
#include <verilated_fst_c.h>

#include <algorithm>
#include <array>

#include "Vnnfab_core.h"
#include "Vnnfab_core___024root.h"
#include "rtl_assert.h"
#include "sim_coverage.h"
#include "sim_tap.h"

namespace nnfab::sim {

namespace {
constexpr uint32_t kAllBytes = 0xF;  // WSTRB of a whole register
constexpr int kTraceDepth = 99;
// The most edges one eval() runs (nnfab_sim_top.sv; each is one of the
// scheduling rounds Verilator's --converge-limit in sim/CMakeLists.txt
// bounds).
constexpr uint64_t kMaxRun = 4096;
}  // namespace

struct SimHarness::Impl {
  // The context outlives the model (a model destroyed after its context
  // hangs the process at exit).
  std::unique_ptr<VerilatedContext> context;
  std::unique_ptr<Vnnfab_core> top;
  std::unique_ptr<VerilatedFstC> trace;
  AxiMemory prog;
  AxiMemory data;
  AxiMemory srcb;  // m_axi_srcb: read channels only
  AxiMemory dst;   // m_axi_dst: write channels only
  uint32_t registerTimeout;
  bool checkSettled;
  SimTap* tap = nullptr;  // tests' fault planting (sim_tap.h)
  uint64_t cycle = 0;
  uint64_t evaluations = 0;  // eval() calls with an edge
  // AXI4-Lite handshakes of the last edge.
  bool awFire = false, wFire = false, bFire = false, arFire = false, rFire = false;
  uint32_t rdata = 0;
  bool idle = true;
  uint64_t startCycle = 0, stopCycle = 0, stops = 0;
  // Per data port bookkeeping for the coverage (sim_coverage.h).
  struct AxiCount {
    int64_t awWithoutW = 0, readsOut = 0, writesOut = 0;
  };
  AxiCount dataCount, srcbCount, dstCount;
  // Every port's signals of the current cycle, reused from cycle to cycle
  // (no 64-byte beats cleared per cycle), and whether the model's R data
  // inputs are all zero (they are zero whenever RVALID is low, as a fresh
  // AxiSlaveOut would drive them, but written only when that changes).
  AxiSlaveOut ps, ds, bs, ws;
  AxiMasterOut pm, dm, bm, wm;
  bool progRdataZero = false, dataRdataZero = false, srcbRdataZero = false;
  // While a port's memory is quiet (AxiMemory::quiet) and the core raises
  // no VALID on it, its slave model is neither driven nor clocked (the
  // model's inputs stay those of the quiet slave: progQuiet, ...). m_axi_srcb
  // and m_axi_dst carry only vector instructions, m_axi_prog only program
  // loads, m_axi_data nothing in a loop of register instructions.
  bool progQuiet = false, dataQuiet = false, srcbQuiet = false, dstQuiet = false;
  // Retired instructions folded into the process's coverage so far (the
  // top counts them: nnfab_sim_top.sv).
  uint64_t retiredFolded = 0;

  Impl(const HarnessConfig& config, const AxiMemory::BeatMap& map)
      : context(std::make_unique<VerilatedContext>()),
        prog("m_axi_prog", config.memory, map),
        data("m_axi_data", config.memory, map),
        srcb("m_axi_srcb", config.srcbMemory.value_or(config.memory), map),
        dst("m_axi_dst", config.dstMemory.value_or(config.memory), map),
        registerTimeout(config.registerTimeoutCycles),
        checkSettled(config.checkSettledOutputs) {
    // A failed assertion must not abort the process: vl_stop (rtl_assert.cpp)
    // records it and tick() throws.
    context->fatalOnError(false);
    // One simulation thread, this one. Verilator 5.006's context defaults to
    // one per hardware thread and, when the model joins it, starts a pool of
    // all but one of them; the model is Verilated single-threaded, so they
    // would only idle (63 per sim device on a 64-core host), and their start
    // races with another context's creation in Verilator's runtime (TSan).
    context->threads(1);
    if (!config.traceFile.empty()) context->traceEverOn(true);
    top = std::make_unique<Vnnfab_core>(context.get(), "nnfab_core");
    if (!config.traceFile.empty()) {
      trace = std::make_unique<VerilatedFstC>();
      top->trace(trace.get(), kTraceDepth);
      trace->open(config.traceFile.c_str());
    }
    // Settle once with sim_step low, so that its first change is an edge.
    top->sim_step = 0;
    top->eval();
  }

  ~Impl() {
    foldRetired();
    if (trace) trace->close();
    trace.reset();
    top->final();
    top.reset();  // before the context
  }

  // R data into the model: the beat when RVALID, else zeros.
  static void driveRdata(const AxiSlaveOut& s, uint32_t* rdata, bool& zero) {
    if (s.rvalid) {
      for (uint32_t i = 0; i < kBeatWords; ++i) rdata[i] = s.rdata[i];
      zero = false;
    } else if (!zero) {
      for (uint32_t i = 0; i < kBeatWords; ++i) rdata[i] = 0;
      zero = true;
    }
  }

  void driveProg(const AxiSlaveOut& p) {
    top->m_axi_prog_arready = p.arready;
    top->m_axi_prog_rvalid = p.rvalid;
    top->m_axi_prog_rresp = p.rresp;
    top->m_axi_prog_rlast = p.rlast;
    driveRdata(p, top->m_axi_prog_rdata.data(), progRdataZero);
  }

  void driveData(const AxiSlaveOut& d) {
    top->m_axi_data_arready = d.arready;
    top->m_axi_data_rvalid = d.rvalid;
    top->m_axi_data_rresp = d.rresp;
    top->m_axi_data_rlast = d.rlast;
    driveRdata(d, top->m_axi_data_rdata.data(), dataRdataZero);
    top->m_axi_data_awready = d.awready;
    top->m_axi_data_wready = d.wready;
    top->m_axi_data_bvalid = d.bvalid;
    top->m_axi_data_bresp = d.bresp;
  }

  void driveSrcb(const AxiSlaveOut& b) {
    top->m_axi_srcb_arready = b.arready;
    top->m_axi_srcb_rvalid = b.rvalid;
    top->m_axi_srcb_rresp = b.rresp;
    top->m_axi_srcb_rlast = b.rlast;
    driveRdata(b, top->m_axi_srcb_rdata.data(), srcbRdataZero);
  }

  void driveDst(const AxiSlaveOut& w) {
    top->m_axi_dst_awready = w.awready;
    top->m_axi_dst_wready = w.wready;
    top->m_axi_dst_bvalid = w.bvalid;
    top->m_axi_dst_bresp = w.bresp;
  }

  void progOut(AxiMasterOut& m) const {
    m.arvalid = top->m_axi_prog_arvalid;
    m.araddr = top->m_axi_prog_araddr;
    m.arlen = top->m_axi_prog_arlen;
    m.arsize = top->m_axi_prog_arsize;
    m.arburst = top->m_axi_prog_arburst;
    m.rready = top->m_axi_prog_rready;
  }

  // wdata only with WVALID (it is read only then).
  void dataOut(AxiMasterOut& m) const {
    m.arvalid = top->m_axi_data_arvalid;
    m.araddr = top->m_axi_data_araddr;
    m.arlen = top->m_axi_data_arlen;
    m.arsize = top->m_axi_data_arsize;
    m.arburst = top->m_axi_data_arburst;
    m.rready = top->m_axi_data_rready;
    m.awvalid = top->m_axi_data_awvalid;
    m.awaddr = top->m_axi_data_awaddr;
    m.awlen = top->m_axi_data_awlen;
    m.awsize = top->m_axi_data_awsize;
    m.awburst = top->m_axi_data_awburst;
    m.wvalid = top->m_axi_data_wvalid;
    if (m.wvalid) {
      for (uint32_t i = 0; i < kBeatWords; ++i) m.wdata[i] = top->m_axi_data_wdata[i];
    }
    m.wstrb = top->m_axi_data_wstrb;
    m.wlast = top->m_axi_data_wlast;
    m.bready = top->m_axi_data_bready;
  }

  void srcbOut(AxiMasterOut& m) const {
    m.arvalid = top->m_axi_srcb_arvalid;
    m.araddr = top->m_axi_srcb_araddr;
    m.arlen = top->m_axi_srcb_arlen;
    m.arsize = top->m_axi_srcb_arsize;
    m.arburst = top->m_axi_srcb_arburst;
    m.rready = top->m_axi_srcb_rready;
  }

  // wdata only with WVALID, as on m_axi_data.
  void dstOut(AxiMasterOut& m) const {
    m.awvalid = top->m_axi_dst_awvalid;
    m.awaddr = top->m_axi_dst_awaddr;
    m.awlen = top->m_axi_dst_awlen;
    m.awsize = top->m_axi_dst_awsize;
    m.awburst = top->m_axi_dst_awburst;
    m.wvalid = top->m_axi_dst_wvalid;
    if (m.wvalid) {
      for (uint32_t i = 0; i < kBeatWords; ++i) m.wdata[i] = top->m_axi_dst_wdata[i];
    }
    m.wstrb = top->m_axi_dst_wstrb;
    m.wlast = top->m_axi_dst_wlast;
    m.bready = top->m_axi_dst_bready;
  }

  // The outputs the harness samples before an edge, as they are now (the
  // settle check: HarnessConfig::checkSettledOutputs).
  struct SampledOutputs {
    AxiMasterOut p, d, b, w;
    bool awready, wready, bvalid, arready, rvalid, interrupt;
    uint32_t rdata;
    bool operator==(const SampledOutputs& o) const {
      return same(p, o.p) && same(d, o.d) && same(b, o.b) && same(w, o.w) && awready == o.awready &&
             wready == o.wready && bvalid == o.bvalid && arready == o.arready && rvalid == o.rvalid &&
             interrupt == o.interrupt && rdata == o.rdata;
    }
    static bool same(const AxiMasterOut& x, const AxiMasterOut& y) {
      bool eq = x.arvalid == y.arvalid && x.araddr == y.araddr && x.arlen == y.arlen && x.arsize == y.arsize &&
                x.arburst == y.arburst && x.rready == y.rready && x.awvalid == y.awvalid && x.awaddr == y.awaddr &&
                x.awlen == y.awlen && x.awsize == y.awsize && x.awburst == y.awburst && x.wvalid == y.wvalid &&
                x.wstrb == y.wstrb && x.wlast == y.wlast && x.bready == y.bready;
      for (uint32_t i = 0; eq && x.wvalid && i < kBeatWords; ++i) eq = x.wdata[i] == y.wdata[i];
      return eq;
    }
  };
  SampledOutputs sampleOutputs() const {
    SampledOutputs o{};
    progOut(o.p);
    dataOut(o.d);
    srcbOut(o.b);
    dstOut(o.w);
    o.awready = top->s_axi_control_awready;
    o.wready = top->s_axi_control_wready;
    o.bvalid = top->s_axi_control_bvalid;
    o.arready = top->s_axi_control_arready;
    o.rvalid = top->s_axi_control_rvalid;
    o.interrupt = top->__SYM__interrupt;
    o.rdata = top->s_axi_control_rdata;
    return o;
  }

  // The top's counts of retired instructions, by opcode, into the process's
  // coverage (only when something retired since the last fold).
  void foldRetired() {
    const uint64_t total = top->rootp->nnfab_sim_top__DOT__sim_retired_total;
    if (total == retiredFolded) return;
    retiredFolded = total;
    SimCoverage& c = coverage();
    auto& counts = top->rootp->nnfab_sim_top__DOT__sim_retired_count;
    for (uint32_t op = 0; op < folded.size(); ++op) {
      const uint64_t n = counts[op];
      if (n != folded[op]) {
        c.opcodes[op] += n - folded[op];
        folded[op] = n;
      }
    }
  }
  std::array<uint64_t, 256> folded{};

  // One cycle, one eval() of the model (docs/sim.md "One evaluation per
  // cycle"): the memory models drive the cycle's inputs; the handshakes of
  // the coming edge are taken from the outputs the last eval() left (every
  // output is a function of registers); sim_step's change makes the edge
  // (nnfab_sim_top.sv); then the memory models take the handshakes.
  //
  // Up to `limit` cycles when this one is quiet (docs/sim.md "Runs of quiet
  // cycles"): no VALID raised to any memory, no AXI4-Lite transaction, the
  // core running, no tap, trace or settle check, and no memory offering
  // anything before the run's end (a quiet one drives the same outputs until
  // a VALID arrives; one with work in flight until its next beat or response:
  // AxiMemory::quietUntil). Then the top clocks the core again inside the
  // same eval() while the cycles stay quiet; each cycle sees the inputs this
  // one has. Returns the cycles clocked.
  uint64_t tick(uint64_t limit = 1) {
    const bool pQuiet = prog.quiet(cycle), dQuiet = data.quiet(cycle);
    if (!pQuiet || !progQuiet) {
      prog.drive(cycle, ps);
      driveProg(ps);
    }
    if (!dQuiet || !dataQuiet) {
      data.drive(cycle, ds);
      driveData(ds);
    }
    progQuiet = pQuiet;
    dataQuiet = dQuiet;
    const bool bQuiet = srcb.quiet(cycle), wQuiet = dst.quiet(cycle);
    if (!bQuiet || !srcbQuiet) {
      srcb.drive(cycle, bs);
      driveSrcb(bs);
    }
    if (!wQuiet || !dstQuiet) {
      dst.drive(cycle, ws);
      driveDst(ws);
    }
    srcbQuiet = bQuiet;
    dstQuiet = wQuiet;
    if (trace || checkSettled) {
      // Settle with the cycle's inputs (no edge: sim_step unchanged).
      std::optional<SampledOutputs> before;
      if (checkSettled) before = sampleOutputs();
      top->eval();
      if (trace) trace->dump(2 * cycle);
      if (checkSettled && !(sampleOutputs() == *before)) {
        throw RtlAssertionError("an output of the core changed with its inputs at cycle " + std::to_string(cycle) +
                                " (the one-evaluation clock needs outputs that are functions of registers)");
      }
    }
    // Handshakes at the coming edge, from the pre-edge outputs.
    awFire = top->s_axi_control_awvalid && top->s_axi_control_awready;
    wFire = top->s_axi_control_wvalid && top->s_axi_control_wready;
    bFire = top->s_axi_control_bvalid && top->s_axi_control_bready;
    arFire = top->s_axi_control_arvalid && top->s_axi_control_arready;
    rFire = top->s_axi_control_rvalid && top->s_axi_control_rready;
    rdata = top->s_axi_control_rdata;
    // The VALIDs each master raises for the coming edge, read once: they
    // decide which slave models take part and whether a run may start.
    const bool pValid = top->m_axi_prog_arvalid;
    const bool dValid = top->m_axi_data_arvalid || top->m_axi_data_awvalid || top->m_axi_data_wvalid;
    const bool bValid = top->m_axi_srcb_arvalid;
    const bool wValid = top->m_axi_dst_awvalid || top->m_axi_dst_wvalid;
    const bool pSkip = pQuiet && !pValid;
    const bool dSkip = dQuiet && !dValid;
    if (dSkip) {
      dm.arvalid = dm.awvalid = dm.wvalid = false;
    } else {
      dataOut(dm);
    }
    if (pSkip) {
      pm.arvalid = false;
    } else {
      progOut(pm);
    }
    const bool bSkip = bQuiet && !bValid;
    const bool wSkip = wQuiet && !wValid;
    if (bSkip) {
      bm.arvalid = false;
    } else {
      srcbOut(bm);
    }
    if (wSkip) {
      wm.awvalid = wm.wvalid = false;
    } else {
      dstOut(wm);
    }
    // A memory with work in flight bounds the run: it ends where that memory
    // may offer something (AxiMemory::quietUntil), e.g. a load's first beat.
    uint64_t until = cycle + std::min(limit, kMaxRun);
    bool quietRun = limit > 1 && !idle && !trace && !checkSettled && !tap && !top->s_axi_control_awvalid &&
                    !top->s_axi_control_wvalid && !top->s_axi_control_arvalid && !pValid && !dValid && !bValid &&
                    !wValid;
    if (quietRun) {
      if (!pQuiet) until = std::min(until, prog.quietUntil(cycle));
      if (!dQuiet) until = std::min(until, data.quietUntil(cycle));
      if (!bQuiet) until = std::min(until, srcb.quietUntil(cycle));
      if (!wQuiet) until = std::min(until, dst.quietUntil(cycle));
      quietRun = until > cycle + 1;
    }
    top->sim_until = quietRun ? until : 0;
    top->sim_step = !top->sim_step;
    top->eval();
    ++evaluations;
    const uint64_t edges = top->rootp->nnfab_sim_top__DOT__sim_edges - cycle;
    if (trace) trace->dump(2 * cycle + 1);
    if (tap) {
      // What retired at the edge: the top's copies (nnfab_sim_top.sv).
      const bool retired = top->rootp->nnfab_sim_top__DOT__sim_retired_q;
      const uint8_t opcode = top->rootp->nnfab_sim_top__DOT__sim_opcode_q;
      TapCycle c{cycle, retired, opcode, &dm, &ds, &wm, &ws};
      tap->beforeEdge(c);
    }
    if (!dSkip) countAxi(dm, ds, dataCount, edges);
    if (!bSkip) countAxi(bm, bs, srcbCount, edges);
    if (!wSkip) countAxi(wm, ws, dstCount, edges);
    if (!pSkip) prog.edge(cycle, pm, ps);
    if (!dSkip) data.edge(cycle, dm, ds);
    if (!bSkip) srcb.edge(cycle, bm, bs);
    if (!wSkip) dst.edge(cycle, wm, ws);
    cycle += edges;
    if (context->gotError()) {
      context->gotError(false);
      context->gotFinish(false);
      throw RtlAssertionError("RTL assertion failed at cycle " + std::to_string(cycle) + ": " +
                              takeRtlAssertionFailure());
    }
    const bool nowIdle = top->rootp->nnfab_sim_top__DOT__u_core__DOT__sim_idle;
    if (nowIdle != idle) {
      idle = nowIdle;
      if (idle) {
        stopCycle = cycle;
        ++stops;
        ++coverage().stops[top->rootp->nnfab_sim_top__DOT__u_core__DOT__sim_status % 32];
      } else {
        startCycle = cycle;
      }
    }
    return edges;
  }

  static SimCoverage& coverage() { return SimCoverage::process(); }

  static uint32_t burstClass(uint32_t len, uint32_t first) {
    return first + (len == 0 ? 0 : len < 15 ? 1 : len < 63 ? 2 : 3);
  }

  // `edges` clocks of a data port, from the values the first edge samples:
  // beyond the first, a run offers and takes nothing (AxiMemory::quietUntil),
  // so only the count of cycles with reads and writes outstanding grows.
  static void countAxi(const AxiMasterOut& m, const AxiSlaveOut& s, AxiCount& n, uint64_t edges) {
    SimCoverage& c = coverage();
    const bool ar = m.arvalid && s.arready, aw = m.awvalid && s.awready, w = m.wvalid && s.wready;
    if (ar) ++c.axi[burstClass(m.arlen, SimCoverage::kReadBurst1)];
    if (aw) ++c.axi[burstClass(m.awlen, SimCoverage::kWriteBurst1)];
    if (m.arvalid && !s.arready) ++c.axi[SimCoverage::kArWaitsForSlave];
    if (m.awvalid && !s.awready) ++c.axi[SimCoverage::kAwWaitsForSlave];
    if (m.wvalid && !s.wready) ++c.axi[SimCoverage::kWWaitsForSlave];
    if (s.rvalid && !m.rready) ++c.axi[SimCoverage::kRWaitsForCore];
    if (m.wvalid && n.awWithoutW + (aw ? 1 : 0) <= 0) ++c.axi[SimCoverage::kWBeforeAw];
    if (n.readsOut > 0 && n.writesOut > 0) c.axi[SimCoverage::kReadsAndWritesAtOnce] += edges;
    n.awWithoutW += (aw ? 1 : 0) - (w && m.wlast ? 1 : 0);
    n.readsOut += (ar ? 1 : 0) - (s.rvalid && m.rready && s.rlast ? 1 : 0);
    n.writesOut += (aw ? 1 : 0) - (s.bvalid && m.bready ? 1 : 0);
  }

  void checkTimeout(uint64_t start, const char* what) const {
    if (cycle - start > registerTimeout) {
      throw AxiProtocolError(std::string("AXI4-Lite ") + what + " not answered by the core");
    }
  }
};

SimHarness::SimHarness(const HarnessConfig& config, AxiMemory::BeatMap map)
    : impl_(std::make_unique<Impl>(config, map)) {
  reset();
}

SimHarness::~SimHarness() = default;

void SimHarness::tick() {
  impl_->tick();
  impl_->foldRetired();
}

uint64_t SimHarness::run(uint64_t cycles, bool untilIdle) {
  uint64_t n = 0;
  while (n < cycles && !(untilIdle && coreIdle())) n += impl_->tick(cycles - n);
  impl_->foldRetired();
  return n;
}

uint64_t SimHarness::cycle() const { return impl_->cycle; }
uint64_t SimHarness::evaluations() const { return impl_->evaluations; }

void SimHarness::writeRegister(uint32_t offset, uint32_t value) {
  Vnnfab_core& top = *impl_->top;
  const uint64_t start = impl_->cycle;
  bool aw = false, w = false;
  top.s_axi_control_awaddr = offset;
  top.s_axi_control_wdata = value;
  top.s_axi_control_wstrb = kAllBytes;
  top.s_axi_control_bready = 1;
  for (;;) {
    top.s_axi_control_awvalid = !aw;
    top.s_axi_control_wvalid = !w;
    impl_->tick();
    aw = aw || impl_->awFire;
    w = w || impl_->wFire;
    if (impl_->bFire) break;
    impl_->checkTimeout(start, "write");
  }
  top.s_axi_control_awvalid = 0;
  top.s_axi_control_wvalid = 0;
  top.s_axi_control_bready = 0;
  impl_->foldRetired();
}

uint32_t SimHarness::readRegister(uint32_t offset) {
  Vnnfab_core& top = *impl_->top;
  const uint64_t start = impl_->cycle;
  bool ar = false;
  top.s_axi_control_araddr = offset;
  top.s_axi_control_rready = 1;
  for (;;) {
    top.s_axi_control_arvalid = !ar;
    impl_->tick();
    ar = ar || impl_->arFire;
    if (impl_->rFire) break;
    impl_->checkTimeout(start, "read");
  }
  top.s_axi_control_arvalid = 0;
  top.s_axi_control_rready = 0;
  impl_->foldRetired();
  return impl_->rdata;
}

void SimHarness::reset(uint32_t cycles) {
  Vnnfab_core& top = *impl_->top;
  top.s_axi_control_awvalid = 0;
  top.s_axi_control_wvalid = 0;
  top.s_axi_control_bready = 0;
  top.s_axi_control_arvalid = 0;
  top.s_axi_control_rready = 0;
  impl_->prog.reset();
  impl_->data.reset();
  impl_->srcb.reset();
  impl_->dst.reset();
  top.ap_rst_n = 0;
  for (uint32_t i = 0; i < cycles; ++i) impl_->tick();
  top.ap_rst_n = 1;
  // The memories forget what the core asked for during the reset.
  impl_->prog.reset();
  impl_->data.reset();
  impl_->srcb.reset();
  impl_->dst.reset();
  impl_->dataCount = impl_->srcbCount = impl_->dstCount = Impl::AxiCount{};
  // drive them again from the next cycle
  impl_->progQuiet = impl_->dataQuiet = impl_->srcbQuiet = impl_->dstQuiet = false;
}

bool SimHarness::coreIdle() const { return impl_->idle; }
uint64_t SimHarness::lastStartCycle() const { return impl_->startCycle; }
uint64_t SimHarness::lastStopCycle() const { return impl_->stopCycle; }
uint64_t SimHarness::stops() const { return impl_->stops; }
// Verilator renames the port `interrupt` (a C++ keyword in some compilers).
bool SimHarness::interrupt() const { return impl_->top->__SYM__interrupt; }
AxiMemory& SimHarness::programMemory() { return impl_->prog; }
AxiMemory& SimHarness::dataMemory() { return impl_->data; }
AxiMemory& SimHarness::srcbMemory() { return impl_->srcb; }
AxiMemory& SimHarness::dstMemory() { return impl_->dst; }
void SimHarness::setTap(SimTap* tap) { impl_->tap = tap; }

}  // namespace nnfab::sim
