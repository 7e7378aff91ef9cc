// FabricBackend on the SystemC platform, so that the host model runs the
// runtime's own code (DeviceProgram, CoreDriver) against the modelled card.
// Memory allocation and range checks are DeviceMemory's, as on every
// emulated device; each copy then travels over the modelled PCIe link and
// each register access over PCIe MMIO and AXI4-Lite pins. Durations are
// simulated time: waitDone's timeout is simulated, and every call must come
// from a SystemC thread. It keeps a ledger of where the host's time went.
#pragma once

#include <cstdint>
#include <string>

#include <systemc>

#include "fabric/device_memory.h"
#include "fabric/fabric_backend.h"
#include "host_interface.h"

namespace nnfab::sim {

struct PlatformBackendOptions {
  std::string name = "platform";
  double clockMhz = 300;
  bool useInterrupt = true;                // else poll AP_CTRL
  sc_core::sc_time pollInterval{1, sc_core::SC_US};
  sc_core::sc_time interruptLatency{0, sc_core::SC_NS};
  // The card's memory channels as address ranges of this many bytes
  // (MemoryProfile::channelBytes; 0: one memory): allocateWindow puts window
  // k of a data region (A, B, D) in channel k where the modelled memory
  // reaches it, as the xrt backend puts each in its port's bank.
  uint64_t channelBytes = 0;
  uint32_t channels = 1;
};

// Simulated time the host spent in each kind of call, and the kernel as the
// card saw it (AP_START accepted on the pins -> interrupt line up).
struct HostLedger {
  sc_core::sc_time copyIn, copyOut, registers, waiting;
  uint64_t bytesIn = 0, bytesOut = 0, copiesIn = 0, copiesOut = 0;
  uint64_t registerReads = 0, registerWrites = 0;
  sc_core::sc_time kernelStart, kernelEnd;
  bool kernelEnded = false;
};

class PlatformBackend : public fabric::FabricBackend {
 public:
  PlatformBackend(PlatformBackendOptions options, fabric::DeviceMemory& memory, HostInterface& host);

  std::string_view name() const override { return options_.name; }
  uint64_t memoryBytes() const override { return memory_.size(); }
  double clockMhz() const override { return options_.clockMhz; }
  Result<fabric::DeviceAddress> allocate(uint64_t bytes) override { return memory_.allocate(bytes); }
  Result<fabric::DeviceAddress> allocateWindow(uint64_t bytes, fabric::DataWindow window) override;
  void release(fabric::DeviceAddress address) override { memory_.release(address); }
  Status copyToDevice(fabric::DeviceAddress dst, const void* src, uint64_t bytes) override;
  Status copyFromDevice(void* dst, fabric::DeviceAddress src, uint64_t bytes) override;
  void writeRegister(uint32_t offset, uint32_t value) override;
  uint32_t readRegister(uint32_t offset) override;
  fabric::WaitOutcome waitDone(std::chrono::nanoseconds timeout) override;
  void reset() override;

  const HostLedger& ledger() const { return ledger_; }
  // Register accesses the AXI4-Lite slave refused or never answered.
  uint64_t registerErrors() const { return registerErrors_; }

 private:
  // GIE and IER for the done interrupt, once after power-up or reset: the
  // backend's business, as XRT's for its kernels.
  void enableInterrupt();
  void rawWrite(uint32_t offset, uint32_t value);
  uint32_t rawRead(uint32_t offset);
  // The interrupt is level: clear ISR's done bit (toggle on write) so that
  // the line falls and the next stop raises it again.
  void acknowledgeDone();

  const PlatformBackendOptions options_;
  fabric::DeviceMemory& memory_;
  HostInterface& host_;
  HostLedger ledger_;
  bool interruptEnabled_ = false;
  uint64_t registerErrors_ = 0;
};

}  // namespace nnfab::sim
