// A planted RTL-rule break for the sim device, for tests only (never in an
// installed binary): a master that is not the core. After the core's
// `after`-th write beat (on m_axi_data or m_axi_dst), in the next cycle, the
// same port's memory also sees a one-beat write with no byte strobed that
// the core never issued. Its response reaches a core that owes none, and
// the port's assertion ("B: response with no write outstanding", nnfab_data_port.sv) fails in
// the middle of a run the backend is clocking on its own.
#pragma once

#include <atomic>
#include <cstdint>

#include "sim_tap.h"

namespace nnfab::test {

class SimStrayWrite final : public sim::SimTap {
 public:
  explicit SimStrayWrite(uint32_t after) : after_(after) {}

  void beforeEdge(sim::TapCycle& c) override {
    if (fired_.load(std::memory_order_relaxed)) return;
    // The cycle after a W beat: that port's memory still owes the beat's
    // response, so the harness hands it this cycle's handshakes (it skips a
    // quiet memory's).
    if (port_ != Port::NONE && beats_ >= after_) {
      sim::AxiMasterOut& out = port_ == Port::DATA ? *c.data : *c.dst;
      const sim::AxiSlaveOut& slave = port_ == Port::DATA ? *c.dataSlave : *c.dstSlave;
      if (!out.awvalid && !out.wvalid && slave.awready && slave.wready) {
        out.awvalid = true;
        out.awaddr = 0;
        out.awlen = 0;
        out.awsize = 6;   // 64-byte beats
        out.awburst = 1;  // INCR
        out.wvalid = true;
        out.wstrb = 0;    // no byte written
        out.wlast = true;
        fired_.store(true);
        return;
      }
    }
    if (c.data->wvalid && c.dataSlave->wready) {
      ++beats_;
      port_ = Port::DATA;
    } else if (c.dst->wvalid && c.dstSlave->wready) {
      ++beats_;
      port_ = Port::DST;
    } else {
      port_ = Port::NONE;
    }
  }

  bool fired() const { return fired_.load(); }

 private:
  enum class Port { NONE, DATA, DST };
  const uint32_t after_;
  uint32_t beats_ = 0;
  Port port_ = Port::NONE;  // where the last cycle's W beat went
  std::atomic<bool> fired_{false};
};

}  // namespace nnfab::test
