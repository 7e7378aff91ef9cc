// An AXI4 write slave on pins in front of a TLM-2.0 target: the write half
// of m_axi_data. Write data may come before or after its address (beats
// wait in a buffer until their AW arrives). A burst becomes one TLM write,
// with WSTRB as byte enables, issued when its last beat is in; its B
// response goes out, in AW order, no earlier than the time the target
// annotated. Rule breaks (axi_common.h, or WLAST on the wrong beat) are
// answered with SLVERR and counted as protocol errors; a TLM error becomes
// SLVERR or DECERR.
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

class AxiWriteBridge : public sc_core::sc_module {
 public:
  SC_HAS_PROCESS(AxiWriteBridge);

  tlm_utils::simple_initiator_socket<AxiWriteBridge> socket;

  sc_core::sc_in<bool> clk;
  sc_core::sc_in<bool> rst_n;
  sc_core::sc_in<bool> awvalid;
  sc_core::sc_out<bool> awready;
  sc_core::sc_in<uint64_t> awaddr;
  sc_core::sc_in<uint32_t> awlen;
  sc_core::sc_in<uint32_t> awsize;
  sc_core::sc_in<uint32_t> awburst;
  sc_core::sc_in<bool> wvalid;
  sc_core::sc_out<bool> wready;
  sc_core::sc_in<BeatBits> wdata;
  sc_core::sc_in<uint64_t> wstrb;
  sc_core::sc_in<bool> wlast;
  sc_core::sc_out<bool> bvalid;
  sc_core::sc_in<bool> bready;
  sc_core::sc_out<uint32_t> bresp;

  // Beats accepted before their AW: enough for one longest burst.
  static constexpr uint32_t kEarlyBeats = kAxiMaxBeats;

  AxiWriteBridge(sc_core::sc_module_name name, const AxiBridgeConfig& config);

  uint64_t bursts() const { return bursts_; }
  uint64_t beats() const { return beats_; }
  uint64_t errorResponses() const { return errorResponses_; }
  uint64_t protocolErrors() const { return protocolErrors_; }
  const std::string& lastProtocolError() const { return lastProtocolError_; }

 private:
  struct Beat {
    std::vector<uint8_t> data;
    uint64_t strobes;
    bool last;
  };
  struct Burst {
    uint64_t address = 0;
    uint32_t beats = 0;
    uint32_t received = 0;
    std::vector<uint8_t> data;
    std::vector<uint8_t> enables;
    bool partial = false;        // some WSTRB bit was 0
    uint32_t resp = kAxiOkay;
    bool refused = false;        // broke a rule: no TLM write
    bool answered = false;
    sc_core::sc_time responseAt;
  };

  void onEdge();
  void issuer();
  void reset();
  void protocolError(Burst* burst, const std::string& what);
  void addBeat(Burst& burst, const Beat& beat);

  const AxiBridgeConfig config_;
  std::deque<std::shared_ptr<Burst>> queue_;  // accepted AW, in order; front answers next
  std::deque<Beat> early_;                    // W beats with no AW yet
  sc_core::sc_event complete_;
  uint64_t generation_ = 0;
  bool awreadyOut_ = false, wreadyOut_ = false, presenting_ = false;
  uint64_t bursts_ = 0, beats_ = 0, errorResponses_ = 0, protocolErrors_ = 0;
  std::string lastProtocolError_;
};

}  // namespace nnfab::sim
