#include "platform.h"

#include "Vnnfab_core_sc.h"
#include "axi_lite_master.h"
#include "axi_read_bridge.h"
#include "axi_write_bridge.h"
#include "fabric/device_memory.h"
#include "host_interface.h"

namespace nnfab::sim {

using sc_core::sc_signal;

namespace {

// The wires of one AXI4 read channel pair, as the Verilated model types them.
struct ReadWires {
  sc_signal<bool> arvalid, arready, rvalid, rready, rlast;
  sc_signal<uint64_t> araddr;
  sc_signal<uint32_t> arlen, arsize, arburst, rresp;
  sc_signal<BeatBits> rdata;
};

struct WriteWires {
  sc_signal<bool> awvalid, awready, wvalid, wready, wlast, bvalid, bready;
  sc_signal<uint64_t> awaddr, wstrb;
  sc_signal<uint32_t> awlen, awsize, awburst, bresp;
  sc_signal<BeatBits> wdata;
};

struct LiteWires {
  sc_signal<bool> awvalid, awready, wvalid, wready, bvalid, bready, arvalid, arready, rvalid, rready;
  sc_signal<uint32_t> awaddr, wdata, wstrb, bresp, araddr, rdata, rresp;
};

// Verilator's default context, which the SystemC model joins, with one
// simulation thread (SystemC's): left at its default, one per hardware
// thread, it would start a pool of idle workers for this single-threaded
// model, as sim_harness.cpp explains. Set before the first model joins the
// context; later platforms find it set.
struct OneVerilatorThread {
  OneVerilatorThread() {
    VerilatedContext* context = Verilated::threadContextp();
    if (context->threads() != 1) context->threads(1);
  }
};

}  // namespace

struct Platform::Parts {
  OneVerilatorThread oneThread;  // before `core`
  sc_core::sc_clock clock;
  sc_signal<bool> rst_n, interrupt;
  ReadWires prog, dataRead, srcbRead;
  WriteWires dataWrite, dstWrite;
  LiteWires control;

  fabric::DeviceMemory deviceMemory;
  Vnnfab_core_sc core;
  // m_axi_srcb and m_axi_dst: the vector engine's B reads and result
  // bursts, on the same memory as m_axi_data (every port reaches every
  // channel; the backend places the data region's windows per channel).
  AxiReadBridge progBridge, dataReadBridge, srcbBridge;
  AxiWriteBridge dataWriteBridge, dstBridge;
  AxiLiteMaster controlMaster;
  DdrModel ddr;
  PcieLink pcie;
  HostInterface hostInterface;
  PlatformBackend backend;
  HostModel host;

  Parts(const PlatformOptions& o, HostJob job)
      : clock("ap_clk", sc_core::sc_time(1000.0 / o.card.clockMhz, sc_core::SC_NS)),
        deviceMemory(o.memoryBytes),
        core("core"),
        progBridge("m_axi_prog", AxiBridgeConfig{clock.period(), o.maxOutstanding}),
        dataReadBridge("m_axi_data_read", AxiBridgeConfig{clock.period(), o.maxOutstanding}),
        srcbBridge("m_axi_srcb", AxiBridgeConfig{clock.period(), o.maxOutstanding}),
        dataWriteBridge("m_axi_data_write", AxiBridgeConfig{clock.period(), o.maxOutstanding}),
        dstBridge("m_axi_dst", AxiBridgeConfig{clock.period(), o.maxOutstanding}),
        controlMaster("s_axi_control"),
        ddr("memory", o.card.memory, deviceMemory),
        pcie("pcie", o.card.pcie),
        hostInterface("host_interface"),
        backend(PlatformBackendOptions{"platform-" + o.card.name, o.card.clockMhz, o.useInterrupt,
                                       sc_core::sc_time(o.pollNs, sc_core::SC_NS),
                                       sc_core::sc_time(o.card.pcie.interruptNs, sc_core::SC_NS),
                                       o.card.memory.channelBytes,
                                       o.windowsPerChannel ? o.card.memory.channels : 1u},
                deviceMemory, hostInterface),
        host("host", backend, std::move(job), &hostInterface.poweredOn()) {
    wireCore();
    wireBridges();
    progBridge.socket.bind(ddr.socket);
    dataReadBridge.socket.bind(ddr.socket);
    dataWriteBridge.socket.bind(ddr.socket);
    srcbBridge.socket.bind(ddr.socket);
    dstBridge.socket.bind(ddr.socket);
    pcie.toMemory.bind(ddr.socket);
    pcie.toControl.bind(controlMaster.socket);
    hostInterface.dma.bind(pcie.dma);
    hostInterface.mmio.bind(pcie.mmio);
    hostInterface.clk(clock);
    hostInterface.interrupt(interrupt);
    hostInterface.rst_n(rst_n);
  }

  void wireCore() {
    core.ap_clk(clock);
    core.ap_rst_n(rst_n);
    // Verilator renames the port: `interrupt` is a C++ keyword in some dialects.
    core.__SYM__interrupt(interrupt);
    core.s_axi_control_awvalid(control.awvalid);
    core.s_axi_control_awready(control.awready);
    core.s_axi_control_awaddr(control.awaddr);
    core.s_axi_control_wvalid(control.wvalid);
    core.s_axi_control_wready(control.wready);
    core.s_axi_control_wdata(control.wdata);
    core.s_axi_control_wstrb(control.wstrb);
    core.s_axi_control_bvalid(control.bvalid);
    core.s_axi_control_bready(control.bready);
    core.s_axi_control_bresp(control.bresp);
    core.s_axi_control_arvalid(control.arvalid);
    core.s_axi_control_arready(control.arready);
    core.s_axi_control_araddr(control.araddr);
    core.s_axi_control_rvalid(control.rvalid);
    core.s_axi_control_rready(control.rready);
    core.s_axi_control_rdata(control.rdata);
    core.s_axi_control_rresp(control.rresp);
    core.m_axi_prog_arvalid(prog.arvalid);
    core.m_axi_prog_arready(prog.arready);
    core.m_axi_prog_araddr(prog.araddr);
    core.m_axi_prog_arlen(prog.arlen);
    core.m_axi_prog_arsize(prog.arsize);
    core.m_axi_prog_arburst(prog.arburst);
    core.m_axi_prog_rvalid(prog.rvalid);
    core.m_axi_prog_rready(prog.rready);
    core.m_axi_prog_rdata(prog.rdata);
    core.m_axi_prog_rresp(prog.rresp);
    core.m_axi_prog_rlast(prog.rlast);
    core.m_axi_data_awvalid(dataWrite.awvalid);
    core.m_axi_data_awready(dataWrite.awready);
    core.m_axi_data_awaddr(dataWrite.awaddr);
    core.m_axi_data_awlen(dataWrite.awlen);
    core.m_axi_data_awsize(dataWrite.awsize);
    core.m_axi_data_awburst(dataWrite.awburst);
    core.m_axi_data_wvalid(dataWrite.wvalid);
    core.m_axi_data_wready(dataWrite.wready);
    core.m_axi_data_wdata(dataWrite.wdata);
    core.m_axi_data_wstrb(dataWrite.wstrb);
    core.m_axi_data_wlast(dataWrite.wlast);
    core.m_axi_data_bvalid(dataWrite.bvalid);
    core.m_axi_data_bready(dataWrite.bready);
    core.m_axi_data_bresp(dataWrite.bresp);
    core.m_axi_data_arvalid(dataRead.arvalid);
    core.m_axi_data_arready(dataRead.arready);
    core.m_axi_data_araddr(dataRead.araddr);
    core.m_axi_data_arlen(dataRead.arlen);
    core.m_axi_data_arsize(dataRead.arsize);
    core.m_axi_data_arburst(dataRead.arburst);
    core.m_axi_data_rvalid(dataRead.rvalid);
    core.m_axi_data_rready(dataRead.rready);
    core.m_axi_data_rdata(dataRead.rdata);
    core.m_axi_data_rresp(dataRead.rresp);
    core.m_axi_data_rlast(dataRead.rlast);
    core.m_axi_srcb_arvalid(srcbRead.arvalid);
    core.m_axi_srcb_arready(srcbRead.arready);
    core.m_axi_srcb_araddr(srcbRead.araddr);
    core.m_axi_srcb_arlen(srcbRead.arlen);
    core.m_axi_srcb_arsize(srcbRead.arsize);
    core.m_axi_srcb_arburst(srcbRead.arburst);
    core.m_axi_srcb_rvalid(srcbRead.rvalid);
    core.m_axi_srcb_rready(srcbRead.rready);
    core.m_axi_srcb_rdata(srcbRead.rdata);
    core.m_axi_srcb_rresp(srcbRead.rresp);
    core.m_axi_srcb_rlast(srcbRead.rlast);
    core.m_axi_dst_awvalid(dstWrite.awvalid);
    core.m_axi_dst_awready(dstWrite.awready);
    core.m_axi_dst_awaddr(dstWrite.awaddr);
    core.m_axi_dst_awlen(dstWrite.awlen);
    core.m_axi_dst_awsize(dstWrite.awsize);
    core.m_axi_dst_awburst(dstWrite.awburst);
    core.m_axi_dst_wvalid(dstWrite.wvalid);
    core.m_axi_dst_wready(dstWrite.wready);
    core.m_axi_dst_wdata(dstWrite.wdata);
    core.m_axi_dst_wstrb(dstWrite.wstrb);
    core.m_axi_dst_wlast(dstWrite.wlast);
    core.m_axi_dst_bvalid(dstWrite.bvalid);
    core.m_axi_dst_bready(dstWrite.bready);
    core.m_axi_dst_bresp(dstWrite.bresp);
  }

  static void wireRead(AxiReadBridge& b, ReadWires& w, sc_core::sc_clock& clk, sc_signal<bool>& rst) {
    b.clk(clk);
    b.rst_n(rst);
    b.arvalid(w.arvalid);
    b.arready(w.arready);
    b.araddr(w.araddr);
    b.arlen(w.arlen);
    b.arsize(w.arsize);
    b.arburst(w.arburst);
    b.rvalid(w.rvalid);
    b.rready(w.rready);
    b.rdata(w.rdata);
    b.rresp(w.rresp);
    b.rlast(w.rlast);
  }

  static void wireWrite(AxiWriteBridge& w, WriteWires& d, sc_core::sc_clock& clk, sc_signal<bool>& rst) {
    w.clk(clk);
    w.rst_n(rst);
    w.awvalid(d.awvalid);
    w.awready(d.awready);
    w.awaddr(d.awaddr);
    w.awlen(d.awlen);
    w.awsize(d.awsize);
    w.awburst(d.awburst);
    w.wvalid(d.wvalid);
    w.wready(d.wready);
    w.wdata(d.wdata);
    w.wstrb(d.wstrb);
    w.wlast(d.wlast);
    w.bvalid(d.bvalid);
    w.bready(d.bready);
    w.bresp(d.bresp);
  }

  void wireBridges() {
    wireRead(progBridge, prog, clock, rst_n);
    wireRead(dataReadBridge, dataRead, clock, rst_n);
    wireRead(srcbBridge, srcbRead, clock, rst_n);
    wireWrite(dataWriteBridge, dataWrite, clock, rst_n);
    wireWrite(dstBridge, dstWrite, clock, rst_n);
    AxiLiteMaster& c = controlMaster;
    c.clk(clock);
    c.awvalid(control.awvalid);
    c.awready(control.awready);
    c.awaddr(control.awaddr);
    c.wvalid(control.wvalid);
    c.wready(control.wready);
    c.wdata(control.wdata);
    c.wstrb(control.wstrb);
    c.bvalid(control.bvalid);
    c.bready(control.bready);
    c.bresp(control.bresp);
    c.arvalid(control.arvalid);
    c.arready(control.arready);
    c.araddr(control.araddr);
    c.rvalid(control.rvalid);
    c.rready(control.rready);
    c.rdata(control.rdata);
    c.rresp(control.rresp);
  }
};

Platform::Platform(sc_core::sc_module_name name, const PlatformOptions& options, HostJob job)
    : sc_module(name), parts_(std::make_unique<Parts>(options, std::move(job))) {}

Platform::~Platform() = default;

sc_core::sc_time Platform::clockPeriod() const { return parts_->clock.period(); }
const HostModel& Platform::host() const { return parts_->host; }
const PlatformBackend& Platform::backend() const { return parts_->backend; }
const DdrModel& Platform::memory() const { return parts_->ddr; }
const PcieLink& Platform::pcie() const { return parts_->pcie; }

BusCounters Platform::counters() const {
  BusCounters c;
  c.progBursts = parts_->progBridge.bursts();
  // The three data masters together.
  c.dataReadBursts = parts_->dataReadBridge.bursts() + parts_->srcbBridge.bursts();
  c.dataWriteBursts = parts_->dataWriteBridge.bursts() + parts_->dstBridge.bursts();
  c.protocolErrors = parts_->progBridge.protocolErrors() + parts_->dataReadBridge.protocolErrors() +
                     parts_->dataWriteBridge.protocolErrors() + parts_->srcbBridge.protocolErrors() +
                     parts_->dstBridge.protocolErrors();
  c.registerTimeouts = parts_->controlMaster.timeouts();
  return c;
}

}  // namespace nnfab::sim
