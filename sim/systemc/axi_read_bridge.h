// An AXI4 read slave on pins in front of a TLM-2.0 target: the bridge for
// m_axi_prog and the read half of m_axi_data. Each accepted burst becomes one
// TLM read, issued at once (up to `maxOutstanding` bursts in flight, so the
// memory sees them overlap); its beats leave one per cycle, in order, the
// last no earlier than the time the target annotated, so that a burst
// streams at the target's pace and back-to-back bursts at its bandwidth. A
// burst that breaks the rules of axi_common.h is answered with SLVERR and
// counted as a protocol error (an RTL bug); a TLM error becomes SLVERR or
// DECERR on every beat of the burst.
#pragma once

#include <cstdint>
#include <deque>
#include <memory>
#include <string>
#include <vector>

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>

#include "axi_common.h"

namespace nnfab::sim {

class AxiReadBridge : public sc_core::sc_module {
 public:
  SC_HAS_PROCESS(AxiReadBridge);

  tlm_utils::simple_initiator_socket<AxiReadBridge> socket;

  sc_core::sc_in<bool> clk;
  sc_core::sc_in<bool> rst_n;
  sc_core::sc_in<bool> arvalid;
  sc_core::sc_out<bool> arready;
  sc_core::sc_in<uint64_t> araddr;
  sc_core::sc_in<uint32_t> arlen;
  sc_core::sc_in<uint32_t> arsize;
  sc_core::sc_in<uint32_t> arburst;
  sc_core::sc_out<bool> rvalid;
  sc_core::sc_in<bool> rready;
  sc_core::sc_out<BeatBits> rdata;
  sc_core::sc_out<uint32_t> rresp;
  sc_core::sc_out<bool> rlast;

  AxiReadBridge(sc_core::sc_module_name name, const AxiBridgeConfig& config);

  uint64_t bursts() const { return bursts_; }
  uint64_t beats() const { return beats_; }
  uint64_t errorBeats() const { return errorBeats_; }
  uint64_t protocolErrors() const { return protocolErrors_; }
  const std::string& lastProtocolError() const { return lastProtocolError_; }

 private:
  struct Burst {
    uint64_t address = 0;
    uint32_t beats = 0;
    std::vector<uint8_t> data;
    uint32_t resp = kAxiOkay;
    bool answered = false;         // the TLM read returned (or the burst was refused)
    sc_core::sc_time lastBeatAt;   // the earliest time its last beat may leave
    uint32_t sent = 0;
  };

  void onEdge();
  void issuer();
  void reset();

  const AxiBridgeConfig config_;
  std::deque<std::shared_ptr<Burst>> queue_;  // accepted, in order; front is being returned
  sc_core::sc_event accepted_;
  uint64_t generation_ = 0;  // bumped by reset: TLM reads of an older one are dropped
  bool arreadyOut_ = false;
  bool presenting_ = false;  // rvalid is high with the front burst's next beat
  uint64_t bursts_ = 0, beats_ = 0, errorBeats_ = 0, protocolErrors_ = 0;
  std::string lastProtocolError_;
};

}  // namespace nnfab::sim
