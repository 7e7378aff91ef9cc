#include "axi_lite_master.h"

#include <cstring>

namespace nnfab::sim {

AxiLiteMaster::AxiLiteMaster(sc_core::sc_module_name name, uint32_t timeoutCycles)
    : sc_module(name), socket("socket"), clk("clk"), awvalid("awvalid"), awready("awready"), awaddr("awaddr"),
      wvalid("wvalid"), wready("wready"), wdata("wdata"), wstrb("wstrb"), bvalid("bvalid"), bready("bready"),
      bresp("bresp"), arvalid("arvalid"), arready("arready"), araddr("araddr"), rvalid("rvalid"), rready("rready"),
      rdata("rdata"), rresp("rresp"), timeoutCycles_(timeoutCycles) {
  socket.register_b_transport(this, &AxiLiteMaster::b_transport);
}

void AxiLiteMaster::idle() {
  awvalid.write(false);
  wvalid.write(false);
  bready.write(false);
  arvalid.write(false);
  rready.write(false);
}

tlm::tlm_response_status AxiLiteMaster::fromResp(uint32_t resp) {
  return resp == 0 ? tlm::TLM_OK_RESPONSE
                   : (resp == 3 ? tlm::TLM_ADDRESS_ERROR_RESPONSE : tlm::TLM_GENERIC_ERROR_RESPONSE);
}

// Each loop iteration is one clock edge; the values read after the edge are
// the ones the slave saw at it (signal writes take effect after the edge's
// evaluation), so a handshake is VALID && READY as read here.
tlm::tlm_response_status AxiLiteMaster::write(uint32_t offset, uint32_t value, uint32_t strobes) {
  awaddr.write(offset);
  awvalid.write(true);
  wdata.write(value);
  wstrb.write(strobes);
  wvalid.write(true);
  bready.write(true);
  bool awDone = false, wDone = false;
  for (uint32_t cycle = 0; cycle < timeoutCycles_; ++cycle) {
    const bool addressPhaseOver = awDone && wDone;
    wait(clk.posedge_event());
    if (addressPhaseOver && bvalid.read()) {
      const uint32_t resp = bresp.read();
      idle();
      return fromResp(resp);
    }
    if (!awDone && awready.read()) {
      awDone = true;
      awvalid.write(false);
    }
    if (!wDone && wready.read()) {
      wDone = true;
      wvalid.write(false);
    }
  }
  ++timeouts_;
  idle();
  return tlm::TLM_GENERIC_ERROR_RESPONSE;
}

tlm::tlm_response_status AxiLiteMaster::read(uint32_t offset, uint32_t* value) {
  araddr.write(offset);
  arvalid.write(true);
  rready.write(true);
  bool arDone = false;
  for (uint32_t cycle = 0; cycle < timeoutCycles_; ++cycle) {
    const bool addressPhaseOver = arDone;
    wait(clk.posedge_event());
    if (addressPhaseOver && rvalid.read()) {
      *value = rdata.read();
      const uint32_t resp = rresp.read();
      idle();
      return fromResp(resp);
    }
    if (!arDone && arready.read()) {
      arDone = true;
      arvalid.write(false);
    }
  }
  ++timeouts_;
  idle();
  return tlm::TLM_GENERIC_ERROR_RESPONSE;
}

void AxiLiteMaster::b_transport(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay) {
  wait(delay);
  delay = sc_core::SC_ZERO_TIME;
  const uint64_t offset = trans.get_address();
  if (trans.get_data_length() != sizeof(uint32_t) || offset % sizeof(uint32_t) != 0 || offset >= kWindowBytes) {
    trans.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
    return;
  }
  uint32_t value = 0;
  tlm::tlm_response_status status = tlm::TLM_COMMAND_ERROR_RESPONSE;
  if (trans.is_write()) {
    std::memcpy(&value, trans.get_data_ptr(), sizeof(value));
    uint32_t strobes = 0xF;
    if (const uint8_t* enables = trans.get_byte_enable_ptr(); enables != nullptr) {
      strobes = 0;
      for (uint32_t i = 0; i < sizeof(uint32_t); ++i) {
        if (enables[i % trans.get_byte_enable_length()] == TLM_BYTE_ENABLED) strobes |= 1u << i;
      }
    }
    status = write(static_cast<uint32_t>(offset), value, strobes);
  } else if (trans.is_read()) {
    status = read(static_cast<uint32_t>(offset), &value);
    if (status == tlm::TLM_OK_RESPONSE) std::memcpy(trans.get_data_ptr(), &value, sizeof(value));
  }
  trans.set_response_status(status);
}

}  // namespace nnfab::sim
