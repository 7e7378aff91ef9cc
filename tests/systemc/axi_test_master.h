// A scripted AXI4 master on pins for the bridge tests (test code, in the
// role the RTL core plays on the card): address requests go out one per
// cycle from queues, each no earlier than its time; RREADY and BREADY stay
// high; write data goes out beat by beat, before or after its address as the
// script says; every beat and response received is recorded with its time.
#pragma once

#include <cstdint>
#include <deque>
#include <vector>

#include <systemc>

#include "axi_common.h"
#include "axi_read_bridge.h"
#include "axi_write_bridge.h"

namespace nnfab::sim::test {

struct AddressRequest {
  uint64_t address = 0;
  uint32_t len = 0;  // beats - 1
  sc_core::sc_time notBefore;
  uint32_t size = 6, burst = kAxiBurstIncr;
};

struct WriteBeat {
  std::vector<uint8_t> data;  // 64 bytes
  uint64_t strobes = ~uint64_t{0};
  bool last = false;
  sc_core::sc_time notBefore;
};

struct ReceivedBeat {
  std::vector<uint8_t> data;
  uint32_t resp = 0;
  bool last = false;
  sc_core::sc_time at;
};

struct ReceivedResponse {
  uint32_t resp = 0;
  sc_core::sc_time at;
};

class AxiTestMaster : public sc_core::sc_module {
 public:
  SC_HAS_PROCESS(AxiTestMaster);
  sc_core::sc_in<bool> clk;
  sc_core::sc_signal<bool> rst_n{"rst_n", true};
  sc_core::sc_signal<bool> arvalid, arready, rvalid, rready, rlast;
  sc_core::sc_signal<uint64_t> araddr;
  sc_core::sc_signal<uint32_t> arlen, arsize, arburst, rresp;
  sc_core::sc_signal<BeatBits> rdata;
  sc_core::sc_signal<bool> awvalid, awready, wvalid, wready, wlast, bvalid, bready;
  sc_core::sc_signal<uint64_t> awaddr, wstrb;
  sc_core::sc_signal<uint32_t> awlen, awsize, awburst, bresp;
  sc_core::sc_signal<BeatBits> wdata;

  std::deque<AddressRequest> reads, writes;
  std::deque<WriteBeat> beats;
  std::vector<ReceivedBeat> received;
  std::vector<ReceivedResponse> responses;
  std::vector<sc_core::sc_time> readAccepted;  // AR handshake times

  explicit AxiTestMaster(sc_core::sc_module_name name) : sc_module(name), clk("clk") {
    SC_METHOD(edge);
    sensitive << clk.pos();
    dont_initialize();
  }

  void bind(AxiReadBridge& b) {
    b.clk(clk), b.rst_n(rst_n), b.arvalid(arvalid), b.arready(arready), b.araddr(araddr), b.arlen(arlen);
    b.arsize(arsize), b.arburst(arburst), b.rvalid(rvalid), b.rready(rready), b.rdata(rdata), b.rresp(rresp);
    b.rlast(rlast);
  }
  void bind(AxiWriteBridge& b) {
    b.clk(clk), b.rst_n(rst_n), b.awvalid(awvalid), b.awready(awready), b.awaddr(awaddr), b.awlen(awlen);
    b.awsize(awsize), b.awburst(awburst), b.wvalid(wvalid), b.wready(wready), b.wdata(wdata), b.wstrb(wstrb);
    b.wlast(wlast), b.bvalid(bvalid), b.bready(bready), b.bresp(bresp);
  }

 private:
  void edge() {
    const sc_core::sc_time now = sc_core::sc_time_stamp();
    if (arvalid.read() && arready.read()) {
      reads.pop_front();
      readAccepted.push_back(now);
      arvalid.write(false);
    }
    if (awvalid.read() && awready.read()) {
      writes.pop_front();
      awvalid.write(false);
    }
    if (wvalid.read() && wready.read()) {
      beats.pop_front();
      wvalid.write(false);
    }
    if (rvalid.read() && rready.read()) {
      ReceivedBeat r{std::vector<uint8_t>(kAxiBeatBytes), rresp.read(), rlast.read(), now};
      beatToBytes(rdata.read(), r.data.data());
      received.push_back(std::move(r));
    }
    if (bvalid.read() && bready.read()) responses.push_back({bresp.read(), now});
    // A VALID not yet accepted holds its payload; after a handshake the next
    // request may follow at once (the last write of this edge wins).
    if (!reads.empty() && now >= reads.front().notBefore && !(arvalid.read() && !arready.read())) {
      const AddressRequest& r = reads.front();
      araddr.write(r.address), arlen.write(r.len), arsize.write(r.size), arburst.write(r.burst);
      arvalid.write(true);
    }
    if (!writes.empty() && now >= writes.front().notBefore && !(awvalid.read() && !awready.read())) {
      const AddressRequest& w = writes.front();
      awaddr.write(w.address), awlen.write(w.len), awsize.write(w.size), awburst.write(w.burst);
      awvalid.write(true);
    }
    if (!beats.empty() && now >= beats.front().notBefore && !(wvalid.read() && !wready.read())) {
      BeatBits bits;
      bytesToBeat(beats.front().data.data(), &bits);
      wdata.write(bits), wstrb.write(beats.front().strobes), wlast.write(beats.front().last);
      wvalid.write(true);
    }
    rready.write(true);
    bready.write(true);
  }
};

}  // namespace nnfab::sim::test
