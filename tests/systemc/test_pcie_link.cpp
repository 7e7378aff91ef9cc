// The PCIe link: DMA time from its parameters, the effective rates those
// parameters give against the published measurements (host_global_bandwidth,
// docs/platform-model.md [S4]), and MMIO through the AXI4-Lite master to a
// register slave on pins.
#include <gtest/gtest.h>

#include <systemc>

#include "axi_lite_master.h"
#include "ddr_model.h"
#include "fresh_simulation.h"
#include "pcie_link.h"
#include "platform_params.h"
#include "tlm_probe.h"
#include <tlm_utils/simple_target_socket.h>

namespace nnfab::sim::test {
namespace {

using sc_core::SC_NS;
using sc_core::sc_time;

constexpr uint64_t kMiB = uint64_t{1} << 20;
const sc_time kResolution = sc_core::sc_get_time_resolution();
const sc_time kPeriod(10.0 / 3, SC_NS);  // 300 MHz

PcieProfile gen3() { return cardProfile("u250")->pcie; }

double gbpsFor(const PcieLink& link, bool toDevice, uint64_t bytes) {
  return static_cast<double>(bytes) / (link.transferTime(toDevice, bytes).to_seconds() * 1e9);
}

TEST(PcieLink, EffectiveRatesReproduceTheMeasuredOnes) {
  freshSimulation();
  PcieLink link("pcie", gen3());
  // host_global_bandwidth: ~300 MB/s at 4 KB, ~1.1 GB/s at 16 KB (either
  // direction, "~": within 15 %), 6.5-7.7 GB/s H2D and 9.7-11.6 GB/s D2H for
  // large buffers, 4.7 MB/s with 64-byte buffers.
  EXPECT_NEAR(gbpsFor(link, true, 64), 0.0047, 0.0047 * 0.05);
  EXPECT_NEAR(gbpsFor(link, true, 4096), 0.300, 0.300 * 0.15);
  EXPECT_NEAR(gbpsFor(link, false, 4096), 0.300, 0.300 * 0.15);
  EXPECT_NEAR(gbpsFor(link, true, 16384), 1.1, 1.1 * 0.15);
  const double h2d = gbpsFor(link, true, 16 * kMiB), d2h = gbpsFor(link, false, 16 * kMiB);
  EXPECT_GE(h2d, 6.5);
  EXPECT_LE(h2d, 7.7);
  EXPECT_GE(d2h, 9.7);
  EXPECT_LE(d2h, 11.6);
}

// Where a test exercises only one path of the link, the other goes here;
// a call is a test failure.
class NoTraffic : public sc_core::sc_module {
 public:
  tlm_utils::simple_target_socket<NoTraffic> socket{"socket"};
  explicit NoTraffic(sc_core::sc_module_name name) : sc_module(name) {
    socket.register_b_transport(this, &NoTraffic::transport);
  }

 private:
  void transport(tlm::tlm_generic_payload& p, sc_time&) {
    ADD_FAILURE() << "unexpected transaction at 0x" << std::hex << p.get_address();
    p.set_response_status(tlm::TLM_GENERIC_ERROR_RESPONSE);
  }
};

TEST(PcieLink, DmaWriteTakesSetupPlusSizeOverBandwidthAndLandsInMemory) {
  freshSimulation();
  fabric::DeviceMemory memory(8 * kMiB);
  const uint64_t base = *memory.allocate(2 * kMiB);
  const PcieProfile p = gen3();
  PcieLink link("pcie", p);
  DdrModel ddr("ddr", cardProfile("u250")->memory, memory);
  std::vector<uint8_t> bytes(kMiB);
  for (size_t i = 0; i < bytes.size(); ++i) bytes[i] = static_cast<uint8_t>(i % 251);
  // Two copies back to back: the second waits for the link.
  TlmProbe probe("probe", {transaction(true, base, bytes, sc_core::SC_ZERO_TIME),
                           transaction(true, base + kMiB, bytes, sc_core::SC_ZERO_TIME)});
  probe.socket.bind(link.dma);
  link.toMemory.bind(ddr.socket);
  NoTraffic control("control");
  link.toControl.bind(control.socket);
  TlmProbe noRegisters("no_registers", {});
  noRegisters.socket.bind(link.mmio);
  sc_core::sc_start(1, sc_core::SC_MS);
  const sc_time one(p.transferUs * 1000 + static_cast<double>(kMiB) / p.h2dGBps, SC_NS);
  EXPECT_NEAR(probe.results()[0].completeAt.to_seconds(), one.to_seconds(), 3 * kResolution.to_seconds());
  EXPECT_NEAR(probe.results()[1].completeAt.to_seconds(), 2 * one.to_seconds(), 5 * kResolution.to_seconds());
  std::vector<uint8_t> back(kMiB);
  ASSERT_TRUE(memory.copyFrom(back.data(), base + kMiB, kMiB).isOk());
  EXPECT_EQ(back, bytes);
  EXPECT_EQ(link.h2dBytes(), 2 * kMiB);
  EXPECT_EQ(link.h2dTransfers(), 2u);
}

// A register file on AXI4-Lite pins: ready at once, answers the cycle after.
// `silent` never answers.
class RegisterSlave : public sc_core::sc_module {
 public:
  SC_HAS_PROCESS(RegisterSlave);
  sc_core::sc_in<bool> clk;
  sc_core::sc_signal<bool> awvalid, awready, wvalid, wready, bvalid, bready, arvalid, arready, rvalid, rready;
  sc_core::sc_signal<uint32_t> awaddr, wdata, wstrb, bresp, araddr, rdata, rresp;
  uint32_t regs[32] = {};
  bool silent = false;

  explicit RegisterSlave(sc_core::sc_module_name name) : sc_module(name), clk("clk") {
    SC_METHOD(edge);
    sensitive << clk.pos();
    dont_initialize();
  }

  void bind(AxiLiteMaster& m) {
    m.awvalid(awvalid), m.awready(awready), m.awaddr(awaddr), m.wvalid(wvalid), m.wready(wready);
    m.wdata(wdata), m.wstrb(wstrb), m.bvalid(bvalid), m.bready(bready), m.bresp(bresp);
    m.arvalid(arvalid), m.arready(arready), m.araddr(araddr), m.rvalid(rvalid), m.rready(rready);
    m.rdata(rdata), m.rresp(rresp);
  }

 private:
  void edge() {
    if (silent) return;
    if (bvalid.read() && bready.read()) bvalid.write(false);
    if (rvalid.read() && rready.read()) rvalid.write(false);
    if (awvalid.read() && wvalid.read() && awready.read() && wready.read()) {
      uint32_t& r = regs[awaddr.read() / 4 % 32];
      for (int b = 0; b < 4; ++b) {
        if ((wstrb.read() >> b) & 1u) r = (r & ~(0xFFu << (8 * b))) | (wdata.read() & (0xFFu << (8 * b)));
      }
      bvalid.write(true);
      bresp.write(0);
    }
    if (arvalid.read() && arready.read()) {
      rdata.write(regs[araddr.read() / 4 % 32]);
      rresp.write(0);
      rvalid.write(true);
    }
    awready.write(true);
    wready.write(true);
    arready.write(true);
  }
};

class MmioScript : public sc_core::sc_module {
 public:
  SC_HAS_PROCESS(MmioScript);
  tlm_utils::simple_initiator_socket<MmioScript> socket;
  uint32_t readBack = 0;
  tlm::tlm_response_status writeStatus{}, readStatus{}, badStatus{};
  sc_time writeTook, readTook;

  explicit MmioScript(sc_core::sc_module_name name) : sc_module(name), socket("socket") { SC_THREAD(run); }

 private:
  tlm::tlm_response_status access(bool write, uint64_t offset, uint32_t* value) {
    tlm::tlm_generic_payload p;
    p.set_command(write ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND);
    p.set_address(offset);
    p.set_data_ptr(reinterpret_cast<uint8_t*>(value));
    p.set_data_length(4);
    p.set_streaming_width(4);
    sc_time delay = sc_core::SC_ZERO_TIME;
    socket->b_transport(p, delay);
    wait(delay);
    return p.get_response_status();
  }
  void run() {
    wait(kPeriod * 2);
    uint32_t value = 0xCAFE1234;
    sc_time t0 = sc_core::sc_time_stamp();
    writeStatus = access(true, 0x10, &value);
    writeTook = sc_core::sc_time_stamp() - t0;
    t0 = sc_core::sc_time_stamp();
    readStatus = access(false, 0x10, &readBack);
    readTook = sc_core::sc_time_stamp() - t0;
    uint32_t ignored = 0;
    badStatus = access(false, 0x82, &ignored);  // unaligned
  }
};

struct MmioRig {
  sc_core::sc_clock clock{"clk", kPeriod};
  PcieLink link{"pcie", gen3()};
  AxiLiteMaster master{"control", 50};
  RegisterSlave slave{"slave"};
  MmioScript script{"script"};
  NoTraffic memory{"memory"};
  TlmProbe noCopies{"no_copies", {}};
  MmioRig() {
    link.toMemory.bind(memory.socket);
    noCopies.socket.bind(link.dma);
    master.clk(clock);
    slave.clk(clock);
    slave.bind(master);
    script.socket.bind(link.mmio);
    link.toControl.bind(master.socket);
  }
};

TEST(PcieMmio, RegisterWriteAndReadCostTheirLatencyPlusTheHandshake) {
  freshSimulation();
  MmioRig rig;
  sc_core::sc_start(20, sc_core::SC_US);
  const PcieProfile p = gen3();
  EXPECT_EQ(rig.script.writeStatus, tlm::TLM_OK_RESPONSE);
  EXPECT_EQ(rig.script.readStatus, tlm::TLM_OK_RESPONSE);
  EXPECT_EQ(rig.script.readBack, 0xCAFE1234u);
  EXPECT_EQ(rig.script.badStatus, tlm::TLM_ADDRESS_ERROR_RESPONSE);
  // The handshake: alignment to the next edge, address/data, response:
  // at most 4 cycles with this slave.
  EXPECT_GE(rig.script.writeTook, sc_time(p.mmioWriteNs, SC_NS));
  EXPECT_LE(rig.script.writeTook, sc_time(p.mmioWriteNs, SC_NS) + kPeriod * 4);
  EXPECT_GE(rig.script.readTook, sc_time(p.mmioReadNs, SC_NS));
  EXPECT_LE(rig.script.readTook, sc_time(p.mmioReadNs, SC_NS) + kPeriod * 4);
  EXPECT_EQ(rig.link.mmioReads(), 2u);
  EXPECT_EQ(rig.master.timeouts(), 0u);
}

TEST(PcieMmio, ASlaveThatNeverAnswersEndsTheAccessWithAnError) {
  freshSimulation();
  MmioRig rig;
  rig.slave.silent = true;
  sc_core::sc_start(20, sc_core::SC_US);
  EXPECT_EQ(rig.script.writeStatus, tlm::TLM_GENERIC_ERROR_RESPONSE);
  EXPECT_EQ(rig.script.readStatus, tlm::TLM_GENERIC_ERROR_RESPONSE);
  EXPECT_EQ(rig.master.timeouts(), 2u);
}

}  // namespace
}  // namespace nnfab::sim::test
