#include "host_interface.h"

namespace nnfab::sim {

HostInterface::HostInterface(sc_core::sc_module_name name)
    : sc_module(name), dma("dma"), mmio("mmio"), clk("clk"), interrupt("interrupt"), rst_n("rst_n") {
  SC_METHOD(onInterruptRise);
  sensitive << interrupt.pos();
  dont_initialize();
  SC_THREAD(powerOn);
  rst_n.initialize(false);
}

void HostInterface::powerOn() {
  for (uint32_t i = 0; i < kResetCycles; ++i) wait(clk.posedge_event());
  rst_n.write(true);
  wait(clk.posedge_event());
  poweredOn_.notify();
}

void HostInterface::onInterruptRise() { lastRise_ = sc_core::sc_time_stamp(); }

bool HostInterface::dmaTransfer(tlm::tlm_command command, uint64_t address, uint8_t* data, uint64_t bytes) {
  if (bytes == 0) return true;
  tlm::tlm_generic_payload trans;
  trans.set_command(command);
  trans.set_address(address);
  trans.set_data_ptr(data);
  trans.set_data_length(static_cast<unsigned int>(bytes));
  trans.set_streaming_width(static_cast<unsigned int>(bytes));
  trans.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
  sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
  dma->b_transport(trans, delay);
  // A host copy is synchronous (CoreDriver and DeviceProgram wait for it).
  wait(delay);
  return trans.is_response_ok();
}

bool HostInterface::copyToDevice(uint64_t address, const void* src, uint64_t bytes) {
  // A TLM write only reads through the pointer.
  return dmaTransfer(tlm::TLM_WRITE_COMMAND, address, static_cast<uint8_t*>(const_cast<void*>(src)), bytes);
}

bool HostInterface::copyFromDevice(void* dst, uint64_t address, uint64_t bytes) {
  return dmaTransfer(tlm::TLM_READ_COMMAND, address, static_cast<uint8_t*>(dst), bytes);
}

bool HostInterface::mmioAccess(tlm::tlm_command command, uint32_t offset, uint32_t* value) {
  tlm::tlm_generic_payload trans;
  trans.set_command(command);
  trans.set_address(offset);
  trans.set_data_ptr(reinterpret_cast<uint8_t*>(value));
  trans.set_data_length(sizeof(uint32_t));
  trans.set_streaming_width(sizeof(uint32_t));
  trans.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
  sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
  mmio->b_transport(trans, delay);
  wait(delay);
  return trans.is_response_ok();
}

bool HostInterface::writeRegister(uint32_t offset, uint32_t value) {
  return mmioAccess(tlm::TLM_WRITE_COMMAND, offset, &value);
}

bool HostInterface::readRegister(uint32_t offset, uint32_t* value) {
  return mmioAccess(tlm::TLM_READ_COMMAND, offset, value);
}

bool HostInterface::waitInterrupt(const sc_core::sc_time& timeout) {
  if (interrupt.read()) return true;
  wait(timeout, interrupt.posedge_event());
  return interrupt.read();
}

void HostInterface::pulseReset(uint32_t cycles) {
  rst_n.write(false);
  for (uint32_t i = 0; i < cycles; ++i) wait(clk.posedge_event());
  rst_n.write(true);
  wait(clk.posedge_event());
}

}  // namespace nnfab::sim
