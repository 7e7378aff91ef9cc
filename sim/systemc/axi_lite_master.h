// The host's register accesses as AXI4-Lite transactions on pins: a TLM-2.0
// target (4-byte reads and writes at the register offset) that drives the
// core's s_axi_control slave one clock edge at a time. b_transport waits on
// the clock, so it must be called from a thread. A slave that does not
// answer within `timeoutCycles` ends the access with
// TLM_GENERIC_ERROR_RESPONSE instead of hanging the simulation.
#pragma once

#include <cstdint>

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_target_socket.h>

#include "nnfab_isa.h"

namespace nnfab::sim {

class AxiLiteMaster : public sc_core::sc_module {
 public:
  // The core's control window (s_axi_control decodes 12 address bits:
  // every register up to DST_START and the trace ring's read window).
  static constexpr uint32_t kWindowBytes = isa::kRegWindowBytes;

  tlm_utils::simple_target_socket<AxiLiteMaster> socket;

  sc_core::sc_in<bool> clk;
  sc_core::sc_out<bool> awvalid;
  sc_core::sc_in<bool> awready;
  sc_core::sc_out<uint32_t> awaddr;
  sc_core::sc_out<bool> wvalid;
  sc_core::sc_in<bool> wready;
  sc_core::sc_out<uint32_t> wdata;
  sc_core::sc_out<uint32_t> wstrb;
  sc_core::sc_in<bool> bvalid;
  sc_core::sc_out<bool> bready;
  sc_core::sc_in<uint32_t> bresp;
  sc_core::sc_out<bool> arvalid;
  sc_core::sc_in<bool> arready;
  sc_core::sc_out<uint32_t> araddr;
  sc_core::sc_in<bool> rvalid;
  sc_core::sc_out<bool> rready;
  sc_core::sc_in<uint32_t> rdata;
  sc_core::sc_in<uint32_t> rresp;

  AxiLiteMaster(sc_core::sc_module_name name, uint32_t timeoutCycles = 1000);

  uint64_t timeouts() const { return timeouts_; }

 private:
  void b_transport(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay);
  tlm::tlm_response_status write(uint32_t offset, uint32_t value, uint32_t strobes);
  tlm::tlm_response_status read(uint32_t offset, uint32_t* value);
  void idle();
  static tlm::tlm_response_status fromResp(uint32_t resp);

  const uint32_t timeoutCycles_;
  uint64_t timeouts_ = 0;
};

}  // namespace nnfab::sim
