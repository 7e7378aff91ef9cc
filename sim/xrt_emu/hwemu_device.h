// nnfab's device process for XRT's hw_emu shim (docs/xrt-emu.md): it answers
// the shim's calls on one connected stream socket with the Verilated core
// (SimHarness, AxiMemory) and a flat memory per bank of the emulation
// xclbin's MEM_TOPOLOGY (three: one per window of the data region). Single
// threaded: while the core runs and no call is waiting, it clocks the core
// in batches; while the core is idle it sleeps in poll().
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace nnfab::hwemu {

// One memory bank: its MEM_TOPOLOGY base and size.
struct Bank {
  uint64_t base = 0;
  uint64_t bytes = 0;
};

struct DeviceConfig {
  // Distinct, non-overlapping. An access outside every bank is an AXI
  // error response to the core, and ends the process when the host makes it.
  std::vector<Bank> banks{Bank{0x4000000000, uint64_t{1} << 30}};
  uint64_t cuBase = 0x1800000;           // IP_LAYOUT base of the control window
  uint32_t batchCycles = 2048;           // cycles between two looks at the socket
  int frameTimeoutMs = 60000;            // a call that stops mid-frame this long is corrupt
  bool verbose = false;                  // every call on stderr
  // Fault injection for tests (NNFAB_HWEMU_FAULT=hang): from the first
  // start on, the memory stops answering, as a hung card's would.
  bool hangOnStart = false;
};

class Device {
 public:
  explicit Device(const DeviceConfig& config);
  ~Device();
  Device(const Device&) = delete;
  Device& operator=(const Device&) = delete;

  // Serves calls on `fd` until xclClose (returns 0) or an error: a
  // malformed frame, the host gone, a frame that stalls (returns non-zero
  // after printing why on stderr).
  int serve(int fd);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace nnfab::hwemu
