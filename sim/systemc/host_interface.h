// The host's side of the card as a SystemC module: TLM initiator sockets
// for DMA copies and MMIO register accesses (both to the PcieLink), the
// core's interrupt line, and its ap_rst_n. Every call waits for as long as
// the operation takes in simulated time, so it must come from a thread (the
// host model's). It also notes when the interrupt line rises: the end of
// the kernel as the card sees it.
#pragma once

#include <cstdint>

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>

namespace nnfab::sim {

class HostInterface : public sc_core::sc_module {
 public:
  SC_HAS_PROCESS(HostInterface);

  tlm_utils::simple_initiator_socket<HostInterface> dma;
  tlm_utils::simple_initiator_socket<HostInterface> mmio;
  sc_core::sc_in<bool> clk;
  sc_core::sc_in<bool> interrupt;
  sc_core::sc_out<bool> rst_n;

  explicit HostInterface(sc_core::sc_module_name name);

  // false when the memory refused the range (the caller checked it first).
  bool copyToDevice(uint64_t address, const void* src, uint64_t bytes);
  bool copyFromDevice(void* dst, uint64_t address, uint64_t bytes);
  // false on an AXI4-Lite error or timeout.
  bool writeRegister(uint32_t offset, uint32_t value);
  bool readRegister(uint32_t offset, uint32_t* value);
  // Until the interrupt line is high or `timeout` passes; true if high.
  bool waitInterrupt(const sc_core::sc_time& timeout);
  // ap_rst_n low for `cycles` clock cycles.
  void pulseReset(uint32_t cycles);
  static constexpr uint32_t kResetCycles = 4;

  const sc_core::sc_time& lastInterruptRise() const { return lastRise_; }
  // Notified once the power-on reset is over (ap_rst_n starts low).
  const sc_core::sc_event& poweredOn() const { return poweredOn_; }

 private:
  bool dmaTransfer(tlm::tlm_command command, uint64_t address, uint8_t* data, uint64_t bytes);
  bool mmioAccess(tlm::tlm_command command, uint32_t offset, uint32_t* value);
  void onInterruptRise();
  void powerOn();

  sc_core::sc_time lastRise_;
  sc_core::sc_event poweredOn_;
};

}  // namespace nnfab::sim
